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
        func emitChunk(_ pts: LeafPoints, _ offset: Int, next: Point?) -> Bool {
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
                if Self.segment(a, b, meets: envelope), !body(offset + i, a, b) { return false }
            }
            return true
        }
        func visit(_ n: _VertexNode, _ offset: Int, next: Point?) -> Bool {
            if n.isLeaf { return emitChunk(n.points, offset, next: next) }
            var off = offset
            let cs = n.children
            let envelopes = n.childEnvelopes
            let counts = n.childCounts
            for i in 0..<cs.count {
                let (e, after) = _VertexNode.midVertexReach(cs, envelopes, child: i, next: next)
                if e.intersects(envelope), !visit(cs[i], off, next: after) { return false }
                off += counts[i]
            }
            return true
        }
        if let r = _root, !visit(r, 0, next: tailPoints.first) { return false }
        // The segment from the tree's last vertex into the tail was emitted with the tree (its
        // `next`); the tail's own segments lie inside the tail's envelope.
        if !tailPoints.isEmpty, tailEnvelope.intersects(envelope), !emitChunk(tailPoints, treeCount, next: nil) {
            return false
        }
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
