// A grid over the tree's bounds that lists, per cell, the leaf blocks whose boxes meet the cell,
// so that a small query (a tap) goes straight to the leaves instead of walking from the root.

/// The directory of a `PackedRTree` of more than 256 items: a grid of about one cell per leaf
/// block (one per 16 items), each cell listing, in ascending order, the leaf blocks whose box
/// meets it (the entries of level 1), each with its box quantised to the cell.
///
/// A query box that falls in one cell needs only that cell's leaf blocks: a block whose box meets
/// the query meets the cell too. The cell of a coordinate is a monotonic function of it (see
/// ``cell(_:_:_:_:)``), so this holds whatever the rounding: if a block's box [a, b] meets the
/// query [qa, qb], then cell(a) ≤ cell(qb) and cell(b) ≥ cell(qa), and when both query ends lie in
/// cell c, the block's cell range holds c. Listed in ascending order, the blocks are read in
/// tree order, so a search through the directory reports what the walk from the root does, in
/// the same order.
///
/// Each cell is one record of 64 bytes (a cache line): its count and up to seven listings of 8
/// bytes (the entry and its box as four bytes, 1/256 of the cell each, rounded outward and
/// clamped to the cell); a cell listing more keeps the rest in ``overflow``. A tap so reads one
/// cache line, tests a few byte boxes and reads the one or two leaf blocks it falls in: one
/// memory access leads to the next, and this keeps the chain at cell, leaf block, item. The byte
/// boxes hold the true boxes (see ``lowByte(_:)``), so they skip no leaf block the query meets;
/// one they let through by rounding is read and its lanes tested exactly, so the answer is the
/// walk's either way.
///
/// The levels above the leaves overlap more and more (a Hilbert-packed node's box spans more than
/// its share of the plane), and a tap walked from the root tests most of its nodes there; the
/// directory replaces all of those tests with one cell lookup and a few byte compares (at 1M
/// uniformly spread points, about four listings a cell and 1.2 leaf blocks a tap). It holds about
/// 4.5 bytes per item. A tree
/// of at most 256 items (two levels below the root) has none, and neither has a tree whose leaf
/// blocks would be listed in more than eight cells each on average (long or huge items spread
/// over the grid: its lists would be long) or whose grid would be one cell (every item at one
/// point, or bounds infinite both ways).
struct RTreeDirectory: Sendable {
    /// Cells per listed entry (per leaf block).
    static let cellsPerEntry: Float = 1
    /// The most listings a directory holds per listed entry, on average; a tree whose boxes would
    /// need more has no directory.
    static let maximumListingsPerEntry = 8
    /// Words (of 8 bytes) per cell record: the header and the listings held in the record.
    static let recordWords = 8
    /// Listings a cell's record holds; the rest are in ``overflow``.
    static var recordListings: Int { recordWords - 1 }

    /// The level whose entries are listed (1: leaf blocks); 0: no directory (a tree of at most
    /// 256 items).
    var level = 0
    var originX: Float = 0
    var originY: Float = 0
    /// Cells per unit of x and y.
    var scaleX: Float = 0
    var scaleY: Float = 0
    /// The last column and row.
    var lastColumn = 0
    var lastRow = 0
    /// The cells' records, ``recordWords`` words each, from word ``recordStart`` (chosen when
    /// built so that records start on a 64-byte boundary: a record is then one cache line).
    /// Word 0 of a record: the cell's count of listings (low 32 bits) and where its listings
    /// past the record's start in ``overflow`` (high 32 bits); then the listings (see
    /// ``listing(entry:box:column:row:)``).
    var records: [UInt64] = []
    /// Where the first record starts in ``records``.
    var recordStart = 0
    /// The listings that did not fit in their cell's record, cell after cell.
    var overflow: [UInt64] = []

    /// No directory.
    init() {}

    /// Coordinate `v` in cells from `origin` along an axis of `scale` cells per unit (not
    /// rounded): monotonic in `v`.
    @inline(__always)
    static func coordinate(_ v: Float, _ origin: Float, _ scale: Float) -> Float {
        (v - origin) * scale
    }

    /// The cell (column or row) of cell coordinate `t` on an axis whose last cell is `last`:
    /// monotonic in `t` (never decreasing as `t` grows); a NaN goes to cell 0.
    @inline(__always)
    static func index(_ t: Float, _ last: Int) -> Int {
        if t >= Float(last) { return last }
        if t >= 1 { return Int(Int32(t)) }
        return 0
    }

    /// The cell of coordinate `v` along an axis of `last + 1` cells from `origin`, `scale`
    /// cells per unit: monotonic in `v`.
    @inline(__always)
    static func cell(_ v: Float, _ origin: Float, _ scale: Float, _ last: Int) -> Int {
        index(coordinate(v, origin, scale), last)
    }

    /// Cell coordinate `t`'s position in cell `index` of its axis, in 256ths of a cell (not
    /// rounded): monotonic in `t`.
    @inline(__always)
    static func position(_ t: Float, _ index: Int) -> Float {
        (t - Float(index)) * 256
    }

    /// A low bound's byte: the position rounded down and clamped to 0...255 (NaN: 0). Monotonic.
    @inline(__always)
    static func lowByte(_ t: Float) -> UInt64 {
        if t >= 255 { return 255 }
        if t >= 1 { return UInt64(Int32(t)) }
        return 0
    }

    /// A box's high bound's byte: the position rounded up and clamped to 0...255 (NaN: 255).
    /// Never below ``lowByte(_:)`` of the same or a lower position.
    @inline(__always)
    static func highByte(_ t: Float) -> UInt64 {
        if !(t <= 254) { return 255 }
        if t > 0 { return UInt64(Int32(t.rounded(.up))) }
        return 0
    }

    /// A query's high bound's byte: rounded down like ``lowByte(_:)`` but NaN gives 255, so a
    /// NaN query is let through to the exact test of the leaf blocks (which it never meets).
    @inline(__always)
    static func queryHighByte(_ t: Float) -> UInt64 {
        if !(t < 255) { return 255 }
        if t >= 1 { return UInt64(Int32(t)) }
        return 0
    }

    /// The listing of `entry`, whose box is `box` (x0, y0, x1, y1), in the cell at `column`,
    /// `row`: the entry in the low 32 bits, then the box's bytes in the cell (x0, y0, x1, y1).
    @inline(__always)
    func listing(entry: Int, box b: (Float, Float, Float, Float), column: Int, row: Int) -> UInt64 {
        let x0 = Self.lowByte(Self.position(Self.coordinate(b.0, originX, scaleX), column))
        let y0 = Self.lowByte(Self.position(Self.coordinate(b.1, originY, scaleY), row))
        let x1 = Self.highByte(Self.position(Self.coordinate(b.2, originX, scaleX), column))
        let y1 = Self.highByte(Self.position(Self.coordinate(b.3, originY, scaleY), row))
        return UInt64(UInt32(truncatingIfNeeded: entry)) | x0 << 32 | y0 << 40 | x1 << 48 | y1 << 56
    }

    /// The directory of `tree` (none for a tree of at most 256 items, at most two levels below
    /// the root).
    /// - Complexity: O(n / 16) for n items.
    init(_ tree: PackedRTree) {
        guard tree.levelBlocks.count >= 4 else { return }
        level = 1
        var entries = tree.count
        for _ in 0..<level { entries = (entries + 15) / 16 }
        guard let root = tree.bounds else { return }
        // About `cellsPerEntry` cells per entry, in the bounds' aspect ratio.
        let w = Float(root.width), h = Float(root.height)
        let cells = (Float(entries) * Self.cellsPerEntry).rounded(.up)
        var columns = 1, rows = 1
        if w > 0, h > 0, w.isFinite, h.isFinite {
            columns = Int(max(1, min(cells, (cells * w / h).squareRoot().rounded())))
            rows = Int(max(1, min(cells, (cells / Float(columns)).rounded())))
        } else if w > 0, w.isFinite {
            columns = Int(cells)
        } else if h > 0, h.isFinite {
            rows = Int(cells)
        }
        originX = Float(root.xmin)
        originY = Float(root.ymin)
        scaleX = columns > 1 ? Float(columns) / w : 0
        scaleY = rows > 1 ? Float(rows) / h : 0
        lastColumn = columns - 1
        lastRow = rows - 1
        let cellCount = columns * rows
        // One cell (every box at one point, or bounds infinite both ways) would list every leaf
        // block: a scan, where the walk from the root rejects a query off the bounds at once.
        guard cellCount > 1 else {
            self = RTreeDirectory()
            return
        }
        if !build(tree, entries: entries, columns: columns, cellCount: cellCount) { self = RTreeDirectory() }
    }

    /// Counts, places and fills the listings; false when they would be too many.
    ///
    /// Each entry's cell range is worked out once (kept on the stack while small) and each cell's
    /// count summed; the overflow's start of every cell follows from the counts; then the entries
    /// are placed in ascending order, so every list ascends.
    private mutating func build(_ tree: PackedRTree, entries: Int, columns: Int, cellCount: Int) -> Bool {
        let level = level, slots = Self.recordListings, words = Self.recordWords
        return withUnsafeTemporaryAllocation(of: SIMD4<Int32>.self, capacity: entries) { ranges -> Bool in
            var total = 0
            let first = 64 * tree.levelBlocks[level]
            tree.blocks.withUnsafeBufferPointer { b in
                for e in 0..<entries {
                    let o = first + 64 * (e >> 4) + (e & 15)
                    let r = range(b[o], b[o + 16], b[o + 32], b[o + 48])
                    ranges[e] = r
                    if r.x <= r.z { total += Int(r.z &- r.x &+ 1) * Int(r.w &- r.y &+ 1) }
                }
            }
            // Boxes spread over many cells each (long lines, a few huge items) would make the
            // lists long and large: beyond `maximumListingsPerEntry` a listing per entry on
            // average, the tree keeps no directory and every query walks from the root.
            guard total <= Self.maximumListingsPerEntry * entries else { return false }
            var counts = [Int32](repeating: 0, count: cellCount)
            var spilled = 0
            counts.withUnsafeMutableBufferPointer { t in
                for e in 0..<entries {
                    let r = ranges[e]
                    guard r.x <= r.z else { continue }
                    for y in Int(r.y)...Int(r.w) {
                        for x in Int(r.x)...Int(r.z) { t[y &* columns &+ x] &+= 1 }
                    }
                }
                for k in 0..<cellCount { spilled += max(0, Int(t[k]) - slots) }
            }
            // Seven words of slack let the records start on a 64-byte boundary wherever the
            // array's storage begins (it is 8-byte aligned).
            var records = [UInt64](repeating: 0, count: cellCount * words + 7)
            var overflow = [UInt64](repeating: 0, count: spilled)
            let start = records.withUnsafeBufferPointer { p in
                p.baseAddress.map { (8 - Int(UInt(bitPattern: $0) & 63) / 8) & 7 } ?? 0
            }
            records.withUnsafeMutableBufferPointer { rec in
                overflow.withUnsafeMutableBufferPointer { over in
                    tree.blocks.withUnsafeBufferPointer { b in
                        // The headers: counts, and each cell's start in the overflow.
                        var next = 0
                        for k in 0..<cellCount {
                            let n = Int(counts[k])
                            rec[start + k * words] = UInt64(UInt32(n)) | UInt64(UInt32(next)) << 32
                            next += max(0, n - slots)
                        }
                        counts.withUnsafeMutableBufferPointer { placed in
                            for k in 0..<cellCount { placed[k] = 0 }
                            for e in 0..<entries {
                                let r = ranges[e]
                                guard r.x <= r.z else { continue }
                                let o = first + 64 * (e >> 4) + (e & 15)
                                let box = (b[o], b[o + 16], b[o + 32], b[o + 48])
                                for y in Int(r.y)...Int(r.w) {
                                    for x in Int(r.x)...Int(r.z) {
                                        let l = listing(entry: e, box: box, column: x, row: y)
                                        let k = y &* columns &+ x
                                        let i = Int(placed[k])
                                        placed[k] += 1
                                        let head = start + k * words
                                        if i < slots {
                                            rec[head + 1 + i] = l
                                        } else {
                                            over[Int(rec[head] >> 32) + i - slots] = l
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            self.records = records
            self.recordStart = start
            self.overflow = overflow
            return true
        }
    }

    /// The cells a box meets, as (first column, first row, last column, last row); an empty
    /// range (first column above the last) for a box with a NaN bound, which no query hits. An
    /// inverted box (min above max) gets the cells between its two bounds' cells: a query in one
    /// cell meets it only when both bounds map to that cell.
    @inline(__always)
    private func range(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float) -> SIMD4<Int32> {
        guard !(x0.isNaN || y0.isNaN || x1.isNaN || y1.isNaN) else { return SIMD4(1, 0, 0, 0) }
        let c0 = Self.cell(x0, originX, scaleX, lastColumn), c1 = Self.cell(x1, originX, scaleX, lastColumn)
        let r0 = Self.cell(y0, originY, scaleY, lastRow), r1 = Self.cell(y1, originY, scaleY, lastRow)
        return SIMD4(
            Int32(truncatingIfNeeded: min(c0, c1)), Int32(truncatingIfNeeded: min(r0, r1)),
            Int32(truncatingIfNeeded: max(c0, c1)), Int32(truncatingIfNeeded: max(r0, r1)))
    }

    /// The listings of cell `k`, in order.
    func listings(ofCell k: Int) -> [UInt64] {
        let head = recordStart + k * Self.recordWords
        let n = Int(records[head] & 0xFFFF_FFFF), spill = Int(records[head] >> 32)
        let held = min(n, Self.recordListings)
        return Array(records[(head + 1)..<(head + 1 + held)]) + Array(overflow[spill..<(spill + n - held)])
    }

    /// How many listings the directory holds.
    var listingCount: Int {
        let cells = level == 0 ? 0 : (lastColumn + 1) * (lastRow + 1)
        return (0..<cells).reduce(0) { $0 + Int(records[recordStart + $1 * Self.recordWords] & 0xFFFF_FFFF) }
    }

    /// Bytes held.
    var memoryFootprint: Int { records.capacity * 8 + overflow.capacity * 8 }

    /// Checks that every cell lists its entries in ascending order, each with byte bounds that
    /// hold its box's part in the cell, and that every entry of the listed level (a box with a NaN
    /// bound excepted) is listed in every cell its box meets; traps on a violation.
    /// - Complexity: O(e · k) for the e entries of the listed level and k entries a cell lists.
    func _checkInvariants(_ tree: PackedRTree) {
        guard level > 0 else {
            precondition(records.isEmpty && overflow.isEmpty, "a tree without a directory lists nothing")
            return
        }
        precondition(level == 1 && tree.levelBlocks.count >= 4, "the directory lists level \(level)")
        let cells = (lastColumn + 1) * (lastRow + 1)
        precondition(records.count == cells * Self.recordWords + 7 && recordStart < 8, "the directory has the wrong number of records")
        var count = tree.count
        for _ in 0..<level { count = (count + 15) / 16 }
        var spilled = 0
        var listed = [[Int]](repeating: [], count: cells)
        for k in 0..<cells {
            let head = records[recordStart + k * Self.recordWords]
            precondition(Int(head >> 32) == spilled, "cell \(k)'s overflow does not follow the previous cell's")
            let list = listings(ofCell: k)
            spilled += max(0, list.count - Self.recordListings)
            let entries = list.map { Int($0 & 0xFFFF_FFFF) }
            precondition(zip(entries, entries.dropFirst()).allSatisfy { $0 < $1 }, "cell \(k) does not list its entries in ascending order")
            precondition(entries.allSatisfy { $0 < count }, "cell \(k) lists an entry that does not exist")
            let column = k % (lastColumn + 1), row = k / (lastColumn + 1)
            for l in list {
                let b = tree.rawBox(level: level, entry: Int(l & 0xFFFF_FFFF))
                let want = listing(entry: Int(l & 0xFFFF_FFFF), box: b, column: column, row: row)
                precondition(l == want, "cell \(k) lists entry \(l & 0xFFFF_FFFF) with byte bounds that are not its box's")
            }
            listed[k] = entries
        }
        precondition(spilled == overflow.count, "the overflow holds listings no cell counts")
        for e in 0..<count {
            let b = tree.rawBox(level: level, entry: e)
            let r = range(b.0, b.1, b.2, b.3)
            guard r.x <= r.z else { continue }
            for y in Int(r.y)...Int(r.w) {
                for x in Int(r.x)...Int(r.z) {
                    precondition(listed[y * (lastColumn + 1) + x].contains(e), "cell \(y * (lastColumn + 1) + x) does not list entry \(e)")
                }
            }
        }
    }
}
