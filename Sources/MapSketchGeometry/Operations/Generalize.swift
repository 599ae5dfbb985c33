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
    /// - Complexity: O(n log n) expected for n vertices (each split scans the vertices between
    ///   its ends, and splits usually halve them); O(n²) in the worst case, when every split
    ///   keeps a vertex next to an end. Iterative, with an explicit stack, so a long path cannot
    ///   overflow the call stack; a copy of the x and y, one flag array of n booleans and the
    ///   result are allocated.
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
        var stack: [(Int, Int)] = [(0, n - 1)]
        var kept = 2
        // x and y side by side (16 bytes a vertex, not a whole Point): each split's scan reads
        // a third of the memory. The segment's terms are the loop's constants.
        let xy = [SIMD2<Double>](unsafeUninitializedCapacity: n) { buffer, count in
            for k in 0..<n { buffer[k] = SIMD2(points[k].x, points[k].y) }
            count = n
        }
        xy.withUnsafeBufferPointer { p in
            while let (i, j) = stack.popLast() {
                guard j > i + 1 else { continue }
                var farthest = -1
                var best = limit
                let ax = p[i].x, ay = p[i].y, bx = p[j].x, by = p[j].y
                let dx = bx - ax, dy = by - ay
                let len2 = dx * dx + dy * dy
                for k in (i + 1)..<j {
                    // closest(_:_:_:_:_:_:)'s squared distance, term for term.
                    let px = p[k].x, py = p[k].y
                    var t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0
                    t = min(1, max(0, t))
                    let cx = t == 0 ? ax : (t == 1 ? bx : ax + t * dx)
                    let cy = t == 0 ? ay : (t == 1 ? by : ay + t * dy)
                    let ex = px - cx, ey = py - cy
                    let d = ex * ex + ey * ey
                    if d > best {
                        best = d
                        farthest = k
                    }
                }
                guard farthest >= 0 else { continue }
                keep[farthest] = true
                kept += 1
                stack.append((farthest, j))
                stack.append((i, farthest))
            }
        }
        var out: [Point] = []
        out.reserveCapacity(kept)
        for k in 0..<n where keep[k] { out.append(points[k]) }
        return out
    }
}
