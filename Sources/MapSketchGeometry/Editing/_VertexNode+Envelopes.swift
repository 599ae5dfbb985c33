// Envelopes of nodes: the branch-free folds the edits use, and the scalar folds the invariant
// checks compare them with.

extension _VertexNode {
    /// The envelope of `points` by the scalar fold: the reference the invariant checks compare with.
    static func referenceEnvelope(of points: some Sequence<Point>) -> Envelope {
        var e = emptyEnvelope
        for p in points { e.expand(toInclude: p) }
        return e
    }

    /// The scalar-fold envelope of a leaf's vertices, read from its x and y (the invariant checks).
    var referenceLeafEnvelope: Envelope {
        var e = _VertexNode.emptyEnvelope
        for q in xy { e.expand(toInclude: Point(x: q.x, y: q.y)) }
        return e
    }

    /// The envelope of a chunk's vertices, branch-free: each bound is a select (`v < lo ? v : lo`),
    /// which compiles to one `minsd`/`maxsd`, instead of the scalar fold's four unpredictable
    /// branches per vertex. The comparisons are those of `Envelope.expand(toInclude:)`, so the
    /// result is identical to ``referenceEnvelope(of:)`` (NaN coordinates are skipped by both).
    /// - Complexity: O(n) for n vertices.
    static func envelope(of points: UnsafeBufferPointer<_ChunkXY>) -> Envelope {
        var xmin = Double.infinity
        var ymin = Double.infinity
        var xmax = -Double.infinity
        var ymax = -Double.infinity
        for p in points {
            let x = p.x
            let y = p.y
            xmin = x < xmin ? x : xmin
            xmax = x > xmax ? x : xmax
            ymin = y < ymin ? y : ymin
            ymax = y > ymax ? y : ymax
        }
        return Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax)
    }

    /// The envelope of a chunk's vertices (see the `UnsafeBufferPointer` overload).
    @inline(__always)
    static func envelope(of points: UnsafeMutableBufferPointer<_ChunkXY>) -> Envelope {
        envelope(of: UnsafeBufferPointer(points))
    }

    /// The union of the children's envelopes, from the inline array, branch-free (selects, as in
    /// a chunk's envelope, with the comparisons of `Envelope.expand(toInclude:)`).
    func unionOfChildEnvelopes() -> Envelope {
        childEnvelopes.withUnsafeBufferPointer { es in
            var xmin = Double.infinity
            var ymin = Double.infinity
            var xmax = -Double.infinity
            var ymax = -Double.infinity
            for e in es {
                xmin = e.xmin < xmin ? e.xmin : xmin
                xmax = e.xmax > xmax ? e.xmax : xmax
                ymin = e.ymin < ymin ? e.ymin : ymin
                ymax = e.ymax > ymax ? e.ymax : ymax
            }
            return Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax)
        }
    }

    /// Whether `p` lies on or outside the boundary of `e` (removing it may shrink `e`).
    @inline(__always)
    static func onBoundary(_ p: Point, _ e: Envelope) -> Bool {
        p.x <= e.xmin || p.x >= e.xmax || p.y <= e.ymin || p.y >= e.ymax
    }

    /// Whether `inner` touches or crosses the boundary of `e` (shrinking it may shrink `e`).
    @inline(__always)
    static func onBoundary(_ inner: Envelope, _ e: Envelope) -> Bool {
        inner.xmin <= e.xmin || inner.xmax >= e.xmax || inner.ymin <= e.ymin || inner.ymax >= e.ymax
    }
}
