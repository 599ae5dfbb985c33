extension GeometryEngine {
    /// The vertices of a path that Douglas–Peucker keeps at `maxDeviation`: the first and the
    /// last, and recursively the vertex farthest from the segment joining the two kept vertices
    /// around it, when it lies more than `maxDeviation` away; every vertex within `maxDeviation`
    /// of that segment is dropped. What is kept comes out in its original order, z and m intact.
    ///
    /// Distances are to the segment, not to the infinite line through it (as GEOS's
    /// `DouglasPeuckerLineSimplifier` measures), so a path that doubles back on itself keeps its
    /// turning point, and a closed loop (first vertex on the last) keeps its far side.
    /// A `maxDeviation` of 0 (or less, or NaN) drops only vertices exactly on the segment.
    ///
    /// ```swift
    /// let stroke = [Point(0, 0), Point(1, 0.1), Point(2, -0.1), Point(3, 5), Point(4, 6)]
    /// GeometryEngine.generalize(stroke, maxDeviation: 0.5)   // [(0 0), (2 -0.1), (3 5), (4 6)]
    /// ```
    /// - Complexity: O(n log n) expected for n vertices (each split looks at the vertices between
    ///   its ends, and splits usually halve them); O(n²) in the worst case, when every split
    ///   keeps a vertex next to an end. Every vertex looked at first gets a cheap bound on its
    ///   distance, four at a time, and only the one that may be farthest is measured (all that
    ///   may be, on a near tie). A split of 256 vertices or more is a branch and bound over a
    ///   pyramid of bounding boxes of the vertices (32 to a leaf, 8 children to a parent), most
    ///   promising box first, passing over whole boxes that cannot hold a farther vertex; on a
    ///   wandering stroke the long splits look at a small part of their vertices. Bounds carry a
    ///   margin for rounding, so the kept vertices are exactly those of the plain scan. A path
    ///   with a coordinate that is not finite or beyond 2²⁵⁰ (or all within 2⁻²⁰⁰ of 0), and a
    ///   split whose ends nearly meet, get the plain scan. Iterative, with explicit stacks, so a
    ///   long path cannot overflow the call stack. Allocated: the x and y rows of the vertices
    ///   (2n doubles), the box pyramid (about n / 28 boxes of 4 doubles) and its level table, a
    ///   stack of pending boxes (8 a level), one flag array of n booleans, the stack of splits,
    ///   the kept indices and the result.
    /// - Source: D. H. Douglas and T. K. Peucker, "Algorithms for the reduction of the number of
    ///   points required to represent a digitized line or its caricature", The Canadian
    ///   Cartographer 10(2):112–122, 1973.
    public static func generalize(_ points: [Point], maxDeviation: Double) -> [Point] {
        let n = points.count
        guard n > 2 else { return points }
        let tolerance = maxDeviation > 0 ? maxDeviation : 0
        let limit = tolerance * tolerance
        var keep = [Bool](repeating: false, count: n)
        keep[0] = true
        keep[n - 1] = true
        var kept = 2
        var splits: [(Int, Int)] = [(0, n - 1)]
        if GeneralizePyramid.hasBoxes(n) { splits.reserveCapacity(64) }  // a short path's grows as needed
        GeneralizePyramid(points).withSearch { search in
            while let (i, j) = splits.popLast() {
                guard j > i + 1, let k = search.farthest(from: i, to: j, beyond: limit) else { continue }
                keep[k] = true
                kept += 1
                splits.append((k, j))
                splits.append((i, k))
            }
        }
        guard GeneralizePyramid.hasBoxes(n) else {
            var out: [Point] = []
            out.reserveCapacity(kept)
            for k in 0..<n where keep[k] { out.append(points[k]) }
            return out
        }
        // A long path: the kept indices first, without a branch, then the points, whose loads
        // (from all over the path) then do not wait on one another.
        let order = [Int](unsafeUninitializedCapacity: kept + 1) { index, count in
            var c = 0
            for k in 0..<n {
                index[c] = k
                c += keep[k] ? 1 : 0
            }
            count = c
        }
        return order.map { points[$0] }
    }
}
