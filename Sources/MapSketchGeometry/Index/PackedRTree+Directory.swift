// A grid over the tree's bounds that lists, per cell, the leaf blocks whose boxes meet the cell,
// so that a small query (a tap) goes straight to the leaves instead of walking from the root.

/// The directory of a `PackedRTree` of more than 256 items: a grid of about one cell per two
/// leaf blocks (one per 32 items), each cell listing, in ascending order, the leaf blocks whose
/// box meets it (the entries of level 1).
///
/// A query box that falls in one cell needs only that cell's leaf blocks: a block whose box meets
/// the query meets the cell too. The cell of a coordinate is a monotonic function of it (see
/// ``cell(_:_:_:_:)``), so this holds whatever the rounding: if a block's box [a, b] meets the
/// query [qa, qb], then cell(a) ≤ cell(qb) and cell(b) ≥ cell(qa), and when both query ends lie in
/// cell c, the block's cell range holds c. Listed in ascending order, the blocks are read in
/// tree order, so a search through the directory reports what the walk from the root does, in
/// the same order.
///
/// The levels above the leaves overlap more and more (a Hilbert-packed node's box spans more than
/// its share of the plane), and a tap walked from the root tests most of its nodes there; the
/// directory replaces all of those tests with one cell lookup and a few box compares, so a tap
/// reads one cell's list, a few leaf-block boxes and the one or two leaf blocks it falls in (at
/// 100k uniformly spread points, about five listed boxes and 1.2 leaf blocks a tap). It holds
/// about 0.85 bytes per item; building it costs about 2 instructions per item. A tree of at most
/// 256 items (two levels below the root) has none, and neither has a tree whose leaf blocks
/// would be listed in more than eight cells each on average (long or huge items spread over the
/// grid: it would cost more than 2 bytes per item, and its lists would be long) or whose grid
/// would be one cell (every item at one point, or bounds infinite both ways).
struct RTreeDirectory: Sendable {
    /// Cells per listed entry (per leaf block).
    static let cellsPerEntry: Float = 0.5
    /// The most listings a directory holds per listed entry, on average (8: at most 2 bytes
    /// per item); a tree whose boxes would need more has no directory.
    static let maximumListingsPerEntry = 8

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
    /// `cells + 1` offsets: cell k lists `entries[offsets[k] ..< offsets[k + 1]]`.
    var offsets: [Int32] = []
    /// The listed entries, cell after cell, each cell's ascending.
    var entries: [Int32] = []

    /// No directory.
    init() {}

    /// The cell of coordinate `v` along an axis of `last + 1` cells from `origin`, `scale`
    /// cells per unit: monotonic in `v` (never decreasing as `v` grows); a NaN goes to cell 0.
    @inline(__always)
    static func cell(_ v: Float, _ origin: Float, _ scale: Float, _ last: Int) -> Int {
        let t = (v - origin) * scale
        if t >= Float(last) { return last }
        if t >= 1 { return Int(t) }
        return 0
    }

    /// The cell holding the whole box (x0, y0)–(x1, y1), or -1 when it spans several.
    @inline(__always)
    func cell(x0: Float, y0: Float, x1: Float, y1: Float) -> Int {
        let c = Self.cell(x0, originX, scaleX, lastColumn)
        let r = Self.cell(y0, originY, scaleY, lastRow)
        guard Self.cell(x1, originX, scaleX, lastColumn) == c, Self.cell(y1, originY, scaleY, lastRow) == r else { return -1 }
        return r &* (lastColumn &+ 1) &+ c
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
        // About half a cell per entry, in the bounds' aspect ratio.
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
        // Each entry's cell range is worked out once (kept on the stack while small), then each
        // cell's count goes into its offset slot and is summed into the cell's end, the lists'
        // total length sizes `entries`, and the entries are placed from the last down (each
        // cell's end moving back to its start), so every list ascends.
        let cellCount = columns * rows
        // One cell (every box at one point, or bounds infinite both ways) would list every leaf
        // block: a scan, where the walk from the root rejects a query off the bounds at once.
        guard cellCount > 1 else {
            self = RTreeDirectory()
            return
        }
        let level = level
        var offsets: [Int32] = []
        var listed: [Int32] = []
        withUnsafeTemporaryAllocation(of: SIMD4<Int32>.self, capacity: entries) { ranges in
            var total = 0
            tree.blocks.withUnsafeBufferPointer { b in
                let first = 64 * tree.levelBlocks[level]
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
            guard total <= Self.maximumListingsPerEntry * entries else { return }
            offsets = [Int32](repeating: 0, count: cellCount + 1)
            offsets.withUnsafeMutableBufferPointer { t in
                for r in ranges where r.x <= r.z {
                    for y in Int(r.y)...Int(r.w) {
                        for x in Int(r.x)...Int(r.z) { t[y &* columns &+ x] &+= 1 }
                    }
                }
                var end: Int32 = 0
                for k in 0..<cellCount {
                    end &+= t[k]
                    t[k] = end
                }
                t[cellCount] = end
                listed = [Int32](repeating: 0, count: Int(end))
                listed.withUnsafeMutableBufferPointer { l in
                    for e in (0..<entries).reversed() {
                        let r = ranges[e]
                        guard r.x <= r.z else { continue }
                        for y in Int(r.y)...Int(r.w) {
                            for x in Int(r.x)...Int(r.z) {
                                let k = y &* columns &+ x
                                t[k] &-= 1
                                l[Int(t[k])] = Int32(truncatingIfNeeded: e)
                            }
                        }
                    }
                }
            }
        }
        guard !offsets.isEmpty else {
            self = RTreeDirectory()
            return
        }
        self.offsets = offsets
        self.entries = listed
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

    /// Calls `body(e, k)` for every entry e of the listed level and every cell k its box meets.
    private func forEachCell(of tree: PackedRTree, entries: Int, _ body: (Int, Int) -> Void) {
        for e in 0..<entries {
            let b = tree.rawBox(level: level, entry: e)
            let r = range(b.0, b.1, b.2, b.3)
            guard r.x <= r.z else { continue }
            for y in Int(r.y)...Int(r.w) {
                for x in Int(r.x)...Int(r.z) { body(e, y * (lastColumn + 1) + x) }
            }
        }
    }

    /// Bytes held.
    var memoryFootprint: Int { offsets.capacity * 4 + entries.capacity * 4 }

    /// Checks that every cell lists its entries in ascending order and that every entry of the
    /// listed level (a box with a NaN bound excepted) is listed in every cell its box meets;
    /// traps on a violation.
    /// - Complexity: O(e · k) for the e entries of the listed level and k entries a cell lists.
    func _checkInvariants(_ tree: PackedRTree) {
        guard level > 0 else {
            precondition(offsets.isEmpty && entries.isEmpty, "a tree without a directory lists nothing")
            return
        }
        precondition(level == 1 && tree.levelBlocks.count >= 4, "the directory lists level \(level)")
        let cells = (lastColumn + 1) * (lastRow + 1)
        precondition(offsets.count == cells + 1 && offsets[0] == 0, "the directory has the wrong number of offsets")
        precondition(Int(offsets[cells]) == entries.count, "the directory's offsets do not end at its end")
        var count = tree.count
        for _ in 0..<level { count = (count + 15) / 16 }
        for k in 0..<cells {
            precondition(offsets[k] <= offsets[k + 1], "cell \(k)'s list ends before it starts")
            let list = entries[Int(offsets[k])..<Int(offsets[k + 1])]
            precondition(zip(list, list.dropFirst()).allSatisfy { $0 < $1 }, "cell \(k) does not list its entries in ascending order")
            precondition(list.allSatisfy { $0 >= 0 && Int($0) < count }, "cell \(k) lists an entry that does not exist")
        }
        forEachCell(of: tree, entries: count) { e, k in
            precondition(entries[Int(offsets[k])..<Int(offsets[k + 1])].contains(Int32(e)), "cell \(k) does not list entry \(e)")
        }
    }
}
