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
    public func forEachSegment(meeting envelope: Envelope, closed: Bool, _ body: (Int, Point, Point) -> Bool) -> Bool {
        guard count >= 2 else { return true }
        // Once `body` stops, every envelope fails, so the rest of the walk is pruned at once.
        var stopped = false
        forEachCandidateChunk(widenedByNext: true, reaching: { !stopped && $0.intersects(envelope) }) { offset, pts, next in
            guard !stopped else { return }
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
                    stopped = true
                    return
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
