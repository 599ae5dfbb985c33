/// Segment queries pruned by chunk envelopes: the segments that may meet a window, found in
/// O(log n + k) instead of by scanning every segment.
extension ChunkedVertices {
    /// Calls `body` with the index and ends of every segment whose envelope meets `envelope`, in
    /// segment order (a ring's closing segment, from the last vertex to the first, last, when
    /// `closed` and the part has at least three vertices). Segment `i` runs from vertex `i` to
    /// vertex `i + 1`. `body` returns false to stop early.
    ///
    /// Each subtree is tested against its envelope grown to take in the first vertex after it,
    /// so the segment that crosses from one chunk into the next is never missed.
    /// - Returns: false when `body` stopped the walk.
    /// - Complexity: O(log n + k) for n vertices and k vertices in the chunks that meet `envelope`.
    @discardableResult
    package func forEachSegment(meeting envelope: Envelope, closed: Bool, _ body: (Int, Point, Point) -> Bool) -> Bool {
        guard count >= 2 else { return true }
        // Once `body` stops, every envelope fails, so the rest of the walk is pruned at once.
        var stopped = false
        withUnsafeMutablePointer(to: &stopped) { stopped in
            forEachCandidateChunk(widenedByNext: true, BoxUntilStopped(box: envelope, stopped: stopped)) { offset, pts, next in
                guard !stopped.pointee else { return }
                for i in 0..<pts.count {
                    let a = pts[i]
                    let b: Point
                    if i + 1 < pts.count {
                        b = pts[i + 1]
                    } else if let next {
                        b = next
                    } else {
                        break
                    }
                    if Self.segment(a, b, meets: envelope), !body(offset + i, a, b) {
                        stopped.pointee = true
                        return
                    }
                }
            }
        }
        if stopped { return false }
        if closed, count >= 3, let f = first, let l = last, Self.segment(l, f, meets: envelope) {
            return body(count - 1, l, f)
        }
        return true
    }

    @inline(__always)
    static func segment(_ a: Point, _ b: Point, meets e: Envelope) -> Bool {
        Swift.max(a.x, b.x) >= e.xmin && Swift.min(a.x, b.x) <= e.xmax && Swift.max(a.y, b.y) >= e.ymin
            && Swift.min(a.y, b.y) <= e.ymax
    }
}

extension ChunkedVertices {
    /// One walk for a snap query: calls `offer(isVertex, index, squaredDistance, point)` for
    /// every vertex inside `box` (boundary included, in index order; with `vertices`, leaving
    /// out vertex `skipVertex`) and, with `segments`, for the closest point to `p` of every
    /// segment whose bounding box meets `box` (in segment order, a ring's closing segment last
    /// when `closed`; leaving out the segments `skipSegments` names).
    ///
    /// The same candidates, at the same distances and in the same order, as
    /// ``forEachVertex(in:_:)`` and ``forEachSegment(meeting:closed:_:)`` with
    /// ``GeometryEngine/closestPoint(to:onSegment:_:)``, in one pass over the chunks that meet
    /// `box` (each chunk's envelope widened by the vertex after it), reading x and y in place.
    /// - Complexity: O(log n + k) for the k vertices in the chunks that meet `box`.
    package func nearestVertexAndSegment(
        to p: Point, in box: Envelope, closed: Bool, vertices: Bool, segments: Bool, skipVertex: Int,
        skipSegments: (Int, Int), _ offer: (_ isVertex: Bool, _ index: Int, _ distanceSquared: Double, _ point: Point) -> Void
    ) {
        guard (vertices || segments) && !isEmpty else { return }
        let x0 = box.xmin, x1 = box.xmax, y0 = box.ymin, y1 = box.ymax
        let px = p.x, py = p.y
        forEachCandidateChunk(widenedByNext: segments, BoxReach(box: box)) { offset, pts, next in
            guard let xy = pts.xy else { return }
            let n = pts.count
            for i in 0..<n {
                let ax = xy[i].x, ay = xy[i].y
                if vertices && ax >= x0 && ax <= x1 && ay >= y0 && ay <= y1 && offset &+ i != skipVertex {
                    let dx = ax - px, dy = ay - py
                    offer(true, offset &+ i, dx * dx + dy * dy, pts[i])
                }
                guard segments else { continue }
                let bx: Double, by: Double
                if i &+ 1 < n {
                    bx = xy[i &+ 1].x
                    by = xy[i &+ 1].y
                } else if let next {
                    bx = next.x
                    by = next.y
                } else {
                    break
                }
                guard Swift.max(ax, bx) >= x0 && Swift.min(ax, bx) <= x1 && Swift.max(ay, by) >= y0 && Swift.min(ay, by) <= y1
                else { continue }
                let s = offset &+ i
                if s == skipSegments.0 || s == skipSegments.1 { continue }
                let c = GeometryEngine.closestPoint(to: p, onSegment: Point(x: ax, y: ay), Point(x: bx, y: by))
                offer(false, s, c.distanceSquared, c.point)
            }
        }
        if segments, closed, count >= 3, let f = first, let l = last, Self.segment(l, f, meets: box) {
            let s = count - 1
            if s != skipSegments.0 && s != skipSegments.1 {
                let c = GeometryEngine.closestPoint(to: p, onSegment: l, f)
                offer(false, s, c.distanceSquared, c.point)
            }
        }
    }
}
