// Envelopes of nodes: the branch-free folds the edits use, and the scalar folds the invariant
// checks compare them with.

extension _VertexNode {
    /// The envelope of `points` by the scalar fold: the reference the invariant checks compare with.
    static func referenceEnvelope(of points: some Sequence<Point>) -> Envelope {
        var e = emptyEnvelope
        for p in points { e.expand(toInclude: p) }
        return e
    }

    /// The scalar-fold envelope of a leaf's vertices, owned or viewed (the invariant checks).
    var referenceLeafEnvelope: Envelope { _VertexNode.referenceEnvelope(of: points) }

    /// The envelope of a chunk's vertices, branch-free: each bound is a select (`v < lo ? v : lo`),
    /// which compiles to one `minpd`/`maxpd` for x and y together, instead of the scalar fold's
    /// four unpredictable branches per vertex; four vertices a step into two pairs of bounds,
    /// joined at the end. The comparisons are those of `Envelope.expand(toInclude:)`, so the
    /// result equals ``referenceEnvelope(of:)`` (NaN coordinates are skipped by both; a zero
    /// bound may differ in sign only).
    /// - Complexity: O(n) for n vertices.
    static func envelope(of points: UnsafeBufferPointer<_ChunkXY>) -> Envelope {
        var lo = SIMD2<Double>(repeating: .infinity)
        var hi = SIMD2<Double>(repeating: -.infinity)
        guard let p = points.baseAddress else { return emptyEnvelope }
        var lo2 = lo
        var hi2 = hi
        let n = points.count
        var i = 0
        @inline(__always) func load(_ k: Int) -> SIMD2<Double> { SIMD2(p[k].x, p[k].y) }
        while i &+ 4 <= n {
            let a = load(i)
            let b = load(i &+ 1)
            let c = load(i &+ 2)
            let d = load(i &+ 3)
            lo = lo.replacing(with: a, where: a .< lo)
            hi = hi.replacing(with: a, where: a .> hi)
            lo2 = lo2.replacing(with: b, where: b .< lo2)
            hi2 = hi2.replacing(with: b, where: b .> hi2)
            lo = lo.replacing(with: c, where: c .< lo)
            hi = hi.replacing(with: c, where: c .> hi)
            lo2 = lo2.replacing(with: d, where: d .< lo2)
            hi2 = hi2.replacing(with: d, where: d .> hi2)
            i &+= 4
        }
        while i < n {
            let a = load(i)
            lo = lo.replacing(with: a, where: a .< lo)
            hi = hi.replacing(with: a, where: a .> hi)
            i &+= 1
        }
        lo = lo.replacing(with: lo2, where: lo2 .< lo)
        hi = hi.replacing(with: hi2, where: hi2 .> hi)
        return Envelope(xmin: lo.x, ymin: lo.y, xmax: hi.x, ymax: hi.y)
    }

    /// The envelope of `points` after `old` left them, `e` being their envelope with it: `e` when
    /// `old` was inside it; else only the bounds `old` was on are recomputed, in one fold that
    /// takes the larger of `s * p` for a sign `s` per axis (-1 for a lower bound, +1 for an upper
    /// one), so a vertex on one bound of each axis — a far-away vertex, the usual undo of an
    /// insert — costs half a full fold. A vertex on both bounds of an axis refolds everything.
    /// Multiplying by ±1 is exact and the comparisons are those of `Envelope.expand(toInclude:)`,
    /// so the bounds equal ``referenceEnvelope(of:)``'s (a zero bound may differ in sign only).
    /// - Complexity: O(n) for n points when `old` was on `e`, else O(1).
    static func envelope(_ e: Envelope, without old: Point, of points: UnsafeBufferPointer<_ChunkXY>) -> Envelope {
        let xlo = old.x <= e.xmin
        let xhi = old.x >= e.xmax
        let ylo = old.y <= e.ymin
        let yhi = old.y >= e.ymax
        if !(xlo || xhi || ylo || yhi) { return e }
        if (xlo && xhi) || (ylo && yhi) { return envelope(of: points) }
        guard let p = points.baseAddress else { return emptyEnvelope }
        let s = SIMD2<Double>(xlo ? -1 : 1, ylo ? -1 : 1)
        let n = points.count
        var b = SIMD2<Double>(repeating: -.infinity)
        var b2 = b
        var i = 0
        @inline(__always) func load(_ k: Int) -> SIMD2<Double> { SIMD2(p[k].x, p[k].y) * s }
        while i &+ 4 <= n {
            let u = load(i)
            let v = load(i &+ 1)
            let w = load(i &+ 2)
            let z = load(i &+ 3)
            b = b.replacing(with: u, where: u .> b)
            b2 = b2.replacing(with: v, where: v .> b2)
            b = b.replacing(with: w, where: w .> b)
            b2 = b2.replacing(with: z, where: z .> b2)
            i &+= 4
        }
        while i < n {
            let u = load(i)
            b = b.replacing(with: u, where: u .> b)
            i &+= 1
        }
        b = b.replacing(with: b2, where: b2 .> b)
        let r = b * s
        return Envelope(
            xmin: xlo ? r.x : e.xmin, ymin: ylo ? r.y : e.ymin,
            xmax: xhi ? r.x : e.xmax, ymax: yhi ? r.y : e.ymax)
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
