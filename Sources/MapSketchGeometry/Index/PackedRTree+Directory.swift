// A grid over the tree's bounds that lists, per cell, the entries of one level whose boxes meet
// the cell, so that a small query (a tap) starts its walk there instead of at the root.

/// The directory of a ``PackedRTree`` of more than 4,096 items: a grid of about four cells per
/// entry of level 2 (an entry per 256 items), each cell listing, in ascending order, the entries
/// of that level whose box meets it.
///
/// A query box that falls in one cell needs only that cell's entries: an entry whose box meets
/// the query meets the cell too. The cell of a coordinate is a monotonic function of it (see
/// ``cell(_:_:_:_:)``), so this holds whatever the rounding: if an entry's box [a, b] meets the
/// query [qa, qb], then cell(a) ≤ cell(qb) and cell(b) ≥ cell(qa), and when both query ends lie in
/// cell c, the entry's cell range holds c. Listed in ascending order, the entries are walked in
/// tree order, so a search through the directory reports what the walk from the root does, in
/// the same order.
///
/// The levels above the listed one overlap more and more (a Hilbert-packed node's box spans more
/// than its share of the plane), and a tap walked from the root tests most of its nodes there;
/// the directory replaces those tests with one cell lookup and a few box compares. It holds about
/// 60 bytes per entry of level 2, a quarter of a byte per item; building it costs about 2
/// instructions per item (1 % of the bulk load). A smaller tree has none: walked from the root,
/// it tests two or three nodes above its leaves.
struct RTreeDirectory: Sendable {
    /// The level whose entries are listed (2); 0: no directory (a tree of at most 4,096 items).
    var level = 0
    var originX: Float = 0
    var originY: Float = 0
    /// Cells per unit of x and y.
    var scaleX: Float = 0
    var scaleY: Float = 0
    /// The last column and row.
    var lastColumn = 0
    var lastRow = 0
    /// `cells + 1` offsets, then the listed entries: cell k lists `table[table[k] ..< table[k + 1]]`.
    var table: [Int32] = []

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

    /// The directory of `tree` (none for a tree of at most 4,096 items, at most three levels
    /// below the root).
    /// - Complexity: O(n / 256) for n items.
    init(_ tree: PackedRTree) {
        guard tree.levelBlocks.count >= 5 else { return }
        level = 2
        var entries = tree.count
        for _ in 0..<level { entries = (entries + 15) / 16 }
        guard let root = tree.bounds else { return }
        // About four cells per entry, in the bounds' aspect ratio.
        let w = Float(root.width), h = Float(root.height)
        let cells = Float(4 * entries)
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
        // One allocation: each entry's cell range is worked out once (kept on the stack while
        // small), then the lists' total length sizes the table, each cell's count goes into its
        // offset slot and is summed into the cell's end, and the entries are placed from the
        // last down (each cell's end moving back to its start), so every list ascends.
        let cellCount = columns * rows
        table = withUnsafeTemporaryAllocation(of: SIMD4<Int32>.self, capacity: entries) { ranges in
            var listed = 0
            tree.blocks.withUnsafeBufferPointer { b in
                let first = 64 * tree.levelBlocks[level]
                for e in 0..<entries {
                    let o = first + 64 * (e >> 4) + (e & 15)
                    let r = range(b[o], b[o + 16], b[o + 32], b[o + 48])
                    ranges[e] = r
                    listed += Int(r.z &- r.x &+ 1) * Int(r.w &- r.y &+ 1)
                }
            }
            var table = [Int32](repeating: 0, count: cellCount + 1 + listed)
            table.withUnsafeMutableBufferPointer { t in
                for r in ranges where r.x <= r.z {
                    for y in Int(r.y)...Int(r.w) {
                        for x in Int(r.x)...Int(r.z) { t[y &* columns &+ x] &+= 1 }
                    }
                }
                var end = Int32(truncatingIfNeeded: cellCount + 1)
                for k in 0..<cellCount {
                    end &+= t[k]
                    t[k] = end
                }
                t[cellCount] = end
                for e in (0..<entries).reversed() {
                    let r = ranges[e]
                    guard r.x <= r.z else { continue }
                    for y in Int(r.y)...Int(r.w) {
                        for x in Int(r.x)...Int(r.z) {
                            let k = y &* columns &+ x
                            t[k] &-= 1
                            t[Int(t[k])] = Int32(truncatingIfNeeded: e)
                        }
                    }
                }
            }
            return table
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
    var memoryFootprint: Int { table.capacity * 4 }

    /// Checks that every cell lists its entries in ascending order and that every entry of the
    /// listed level (a box with a NaN bound excepted) is listed in every cell its box meets;
    /// traps on a violation.
    /// - Complexity: O(e) for the e entries of the listed level.
    func _checkInvariants(_ tree: PackedRTree) {
        guard level > 0 else {
            precondition(table.isEmpty, "a tree without a directory lists nothing")
            return
        }
        precondition(level == 2 && tree.levelBlocks.count >= 5, "the directory lists level \(level)")
        let cells = (lastColumn + 1) * (lastRow + 1)
        precondition(table.count > cells && Int(table[cells]) == table.count, "the directory's offsets do not end at its end")
        for k in 0..<cells {
            let list = table[Int(table[k])..<Int(table[k + 1])]
            precondition(zip(list, list.dropFirst()).allSatisfy { $0 < $1 }, "cell \(k) does not list its entries in ascending order")
        }
        var entries = tree.count
        for _ in 0..<level { entries = (entries + 15) / 16 }
        forEachCell(of: tree, entries: entries) { e, k in
            precondition(table[Int(table[k])..<Int(table[k + 1])].contains(Int32(e)), "cell \(k) does not list entry \(e)")
        }
    }
}
