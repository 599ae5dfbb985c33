/// The vertices of one ``GeometryEngine/generalize(_:maxDeviation:)`` call, laid out for its
/// farthest-vertex searches: every x, then every y (padded with copies of the last vertex, so
/// searches read four at a time), and, for a path long enough to have splits of ``directScan``
/// vertices, a pyramid of bounding boxes over them: leaves of ``leafSize`` vertices, parents over
/// ``fanOut`` children each, up to one box over the whole path.
struct GeneralizePyramid {
    /// Vertices under one leaf box (a power of two, a multiple of 4).
    static let leafShift = 5
    /// Children under one parent box (a power of two).
    static let fanShift = 3
    /// Splits of fewer vertices than this are scanned vertex by vertex (``GeneralizeChord/scan(_:_:_:)``).
    static let shortScan = 32
    /// Splits of fewer vertices than this are searched straight through, without the boxes.
    static let directScan = 256

    static var leafSize: Int { 1 << leafShift }
    static var fanOut: Int { 1 << fanShift }

    /// Whether a path of `count` vertices gets the box pyramid (it has splits that use it).
    static func hasBoxes(_ count: Int) -> Bool { count >= directScan + 2 }

    /// The length of each of the two coordinate rows (the vertices, padded to whole leaves when
    /// there are boxes).
    private let stride: Int
    private let coordinates: [Double]
    /// (minX, minY, maxX, maxY): the leaves, then each level of parents, the root last; empty
    /// without boxes.
    private let boxes: [SIMD4<Double>]
    /// The index of each level's first box in ``boxes``.
    private let levelStart: [Int]
    private let isPrunable: Bool
    private let extent: Double

    init(_ points: [Point]) {
        let n = points.count
        precondition(n > 0, "generalize lays out a non-empty path")
        let boxed = Self.hasBoxes(n)
        // With boxes the rows are padded to whole leaves. Without, the y row follows the x row
        // directly: four x read from near the end of the x row take y in their last lanes, lanes
        // never in the range searched, and copies of the last y pad the y row as far as the last
        // four a search reads (from vertex n − 2 rounded down to a multiple of 4) reach.
        let stride = boxed ? (n + Self.leafSize - 1) & -Self.leafSize : n
        let count = boxed ? 2 * stride : max(2 * n, n + ((n - 2) & -4) + 4)
        self.stride = stride
        coordinates = [Double](unsafeUninitializedCapacity: count) { row, initialized in
            for k in 0..<n {
                row[k] = points[k].x
                row[stride + k] = points[k].y
            }
            for k in n..<stride { row[k] = points[n - 1].x }
            for k in (stride + n)..<count { row[k] = points[n - 1].y }
            initialized = count
        }
        var finite = true
        if boxed {
            var pyramid: (boxes: [SIMD4<Double>], levelStart: [Int]) = ([], [])
            coordinates.withUnsafeBufferPointer { row in
                pyramid = Self.pyramid(GeneralizeCoordinates(row.baseAddress!, stride: stride), finite: &finite)
            }
            (boxes, levelStart) = pyramid
            let root = boxes[boxes.count - 1]
            extent = max(max(-root[0], root[2]), max(-root[1], root[3]))
        } else {
            (boxes, levelStart) = ([], [])
            var largest = 0.0
            for value in coordinates {
                finite = finite && value.isFinite
                largest = max(largest, abs(value))
            }
            extent = largest
        }
        // The bounds of ``GeneralizeChord`` hold for finite coordinates within 2^-200...2^250.
        isPrunable = finite && extent >= 0x1p-200 && extent <= 0x1p250
    }

    /// The bounding box (minX, minY, maxX, maxY) of vertices `range` (whole chunks of 4);
    /// `finite` becomes false when one of their coordinates is not finite.
    private static func box(_ rows: GeneralizeCoordinates, _ range: Range<Int>, finite: inout Bool) -> SIMD4<Double> {
        var lowX = rows.xChunk(range.lowerBound), highX = lowX
        var lowY = rows.yChunk(range.lowerBound), highY = lowY
        var probe = SIMD4<Double>()
        for k in Swift.stride(from: range.lowerBound, to: range.upperBound, by: 4) {
            let x = rows.xChunk(k), y = rows.yChunk(k)
            lowX.replace(with: x, where: x .< lowX)
            highX.replace(with: x, where: x .> highX)
            lowY.replace(with: y, where: y .< lowY)
            highY.replace(with: y, where: y .> highY)
            probe += (x - x) + (y - y)  // NaN from any infinity or NaN
        }
        if probe != SIMD4() { finite = false }
        return SIMD4(
            min(min(lowX[0], lowX[1]), min(lowX[2], lowX[3])), min(min(lowY[0], lowY[1]), min(lowY[2], lowY[3])),
            max(max(highX[0], highX[1]), max(highX[2], highX[3])), max(max(highY[0], highY[1]), max(highY[2], highY[3])))
    }

    /// The boxes of the leaves of `rows` (whole leaves), then each level of parents up to the
    /// root, and the index of each level's first box.
    private static func pyramid(_ rows: GeneralizeCoordinates, finite: inout Bool) -> ([SIMD4<Double>], [Int]) {
        let leaves = rows.stride >> leafShift
        var levels = 1, width = leaves
        while width > 1 {
            width = (width + fanOut - 1) >> fanShift
            levels += 1
        }
        let starts = [Int](unsafeUninitializedCapacity: levels) { start, initialized in
            var first = 0, width = leaves
            for level in 0..<levels {
                start[level] = first
                first += width
                width = (width + fanOut - 1) >> fanShift
            }
            initialized = levels
        }
        let total = starts[levels - 1] + 1
        let boxes = [SIMD4<Double>](unsafeUninitializedCapacity: total) { box, initialized in
            for leaf in 0..<leaves {
                box[leaf] = Self.box(rows, (leaf << leafShift)..<((leaf + 1) << leafShift), finite: &finite)
            }
            for level in 1..<levels {
                let below = starts[level - 1], width = starts[level] - below
                for node in 0..<((width + fanOut - 1) >> fanShift) {
                    var merged = box[below + node << fanShift]
                    for child in (node << fanShift + 1)..<min(width, (node + 1) << fanShift) {
                        let other = box[below + child]
                        merged = SIMD4(
                            min(merged[0], other[0]), min(merged[1], other[1]),
                            max(merged[2], other[2]), max(merged[3], other[3]))
                    }
                    box[starts[level] + node] = merged
                }
            }
            initialized = total
        }
        return (boxes, starts)
    }

    /// Runs `body` with the farthest-vertex search over these vertices (its stack of pending
    /// boxes, at most ``fanOut`` a level, is a temporary allocation, on the stack when small).
    func withSearch<R>(_ body: (inout GeneralizeSearch) -> R) -> R {
        withUnsafeTemporaryAllocation(of: GeneralizeSearch.Pending.self, capacity: levelStart.count * Self.fanOut + 1) { pending in
            coordinates.withUnsafeBufferPointer { row in
                boxes.withUnsafeBufferPointer { boxes in
                    levelStart.withUnsafeBufferPointer { levelStart in
                        var search = GeneralizeSearch(
                            coordinates: GeneralizeCoordinates(row.baseAddress!, stride: stride, extent: isPrunable ? extent : nil),
                            boxes: boxes.baseAddress, levelStart: levelStart.baseAddress, levels: levelStart.count,
                            pending: pending.baseAddress!)
                        return body(&search)
                    }
                }
            }
        }
    }
}

/// The coordinate rows of a ``GeneralizePyramid`` and what its chords may assume of them.
struct GeneralizeCoordinates {
    let x: UnsafePointer<Double>, y: UnsafePointer<Double>
    /// The length of each row.
    let stride: Int
    /// Every coordinate finite and the extent M within 2⁻²⁰⁰...2²⁵⁰ (see ``GeneralizeChord``).
    let isPrunable: Bool
    /// S = M²·2⁻⁶⁰.
    let slack: Double
    /// (M·2⁻²⁶)²: shorter chords are scanned plainly.
    let shortestPrunableChord2: Double

    /// The rows of `stride` x then `stride` y from `start`; `extent` is M when the path may be
    /// pruned, nil when not.
    init(_ start: UnsafePointer<Double>, stride: Int, extent: Double? = nil) {
        x = start
        y = start + stride
        self.stride = stride
        isPrunable = extent != nil
        let m = extent ?? 0
        slack = (m * 0x1p-30) * (m * 0x1p-30)
        shortestPrunableChord2 = (m * 0x1p-26) * (m * 0x1p-26)
    }

    /// The x of vertices `k..<k + 4` (`k` a multiple of 4 below the row's length: within the
    /// allocation, see ``GeneralizePyramid``).
    @inline(__always)
    func xChunk(_ k: Int) -> SIMD4<Double> { UnsafeRawPointer(x + k).loadUnaligned(as: SIMD4<Double>.self) }

    /// The y of vertices `k..<k + 4`.
    @inline(__always)
    func yChunk(_ k: Int) -> SIMD4<Double> { UnsafeRawPointer(y + k).loadUnaligned(as: SIMD4<Double>.self) }
}

/// The farthest vertex between two kept ones, found by branch and bound over the box pyramid.
///
/// A long split starts at the lowest level where its vertices span more than one box, and goes
/// depth first, each box's children in decreasing order of ``GeneralizeChord/bound(_:)``, so the
/// farthest vertex is met early and the boxes that cannot beat it are passed over whole; boxes at
/// the ends of the split are clipped to it (a box's bound holds for any of its vertices).
struct GeneralizeSearch {
    /// A box still to look into.
    struct Pending {
        var level: Int, index: Int, bound: Double
    }

    let coordinates: GeneralizeCoordinates
    /// The pyramid (nil for a path too short to have one, whose splits never descend).
    let boxes: UnsafePointer<SIMD4<Double>>?
    let levelStart: UnsafePointer<Int>?
    let levels: Int
    let pending: UnsafeMutablePointer<Pending>

    /// The vertex strictly between `i` and `j` farthest from their segment, when its squared
    /// distance is above `limit`; the first of them on a tie. Exactly the vertex the plain scan
    /// of every vertex in index order with `d > best` chooses.
    func farthest(from i: Int, to j: Int, beyond limit: Double) -> Int? {
        var chord = GeneralizeChord(coordinates, i, j, limit: limit)
        let first = i + 1, last = j - 1
        if !chord.isPrunable {
            chord.scanExactly(coordinates, first, last)
        } else if last - first < GeneralizePyramid.shortScan {
            chord.scan(coordinates, first, last)
        } else if last - first < GeneralizePyramid.directScan {
            chord.search(coordinates, first, last)
        } else {
            descend(&chord, first, last)
        }
        return chord.farthest >= 0 ? chord.farthest : nil
    }

    /// Vertex `k`'s box index at `level`.
    @inline(__always)
    private func box(of k: Int, at level: Int) -> Int {
        k >> (GeneralizePyramid.leafShift + level * GeneralizePyramid.fanShift)
    }

    private func descend(_ chord: inout GeneralizeChord, _ first: Int, _ last: Int) {
        guard let boxes, let levelStart else { preconditionFailure("a split of \(last - first + 1) vertices without boxes") }
        var level = levels - 1
        while level > 0 && box(of: first, at: level) == box(of: last, at: level) { level -= 1 }
        var count = push(chord, boxes + levelStart[level], level, box(of: first, at: level), box(of: last, at: level), onto: 0)
        while count > 0 {
            count -= 1
            let next = pending[count]
            guard next.bound >= chord.threshold else { continue }
            if next.level == 0 {
                let start = next.index << GeneralizePyramid.leafShift
                chord.search(coordinates, max(first, start), min(last, start + GeneralizePyramid.leafSize - 1))
            } else {
                let level = next.level - 1
                let children = next.index << GeneralizePyramid.fanShift
                count = push(
                    chord, boxes + levelStart[level], level, max(children, box(of: first, at: level)),
                    min(children + GeneralizePyramid.fanOut - 1, box(of: last, at: level)), onto: count)
            }
        }
    }

    /// Pushes the boxes `low...high` of `level` (whose boxes are `row`) that may hold a farther
    /// vertex above the first `count` pending ones, in increasing order of bound (the most
    /// promising is popped first); returns the new count.
    private func push(
        _ chord: GeneralizeChord, _ row: UnsafePointer<SIMD4<Double>>, _ level: Int, _ low: Int, _ high: Int, onto count: Int
    ) -> Int {
        var top = count
        for index in low...high {
            let bound = chord.bound(row[index])
            guard bound >= chord.threshold else { continue }
            var slot = top
            while slot > count && pending[slot - 1].bound > bound {
                pending[slot] = pending[slot - 1]
                slot -= 1
            }
            pending[slot] = Pending(level: level, index: index, bound: bound)
            top += 1
        }
        return top
    }
}
