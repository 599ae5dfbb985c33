extension Kernel {
    /// A ring prepared for many point-location queries: its edges bucketed into horizontal
    /// bands (``EdgeBands``), so a query runs the ray-crossing rule of ``locate(_:inRing:)`` over
    /// the edges of one band instead of the whole ring.
    ///
    /// It gives exactly ``locate(_:inRing:)``'s answer: an edge whose y-range does not contain
    /// the query's y contributes nothing but a boundary hit at its end vertex, and every edge
    /// whose y-range does (each vertex ends one such edge) is in the query's band.
    ///
    /// ```swift
    /// let prepared = Kernel.PreparedRing(bigRing)
    /// for p in queries where prepared.locate(p) == .interior { … }
    /// ```
    ///
    /// - Complexity: preparing O(n + Σ bands spanned per edge) for n vertices; a query
    ///   O(edges in its band), about O(√n) for well-spread rings.
    struct PreparedRing {
        /// The ring's vertices, open.
        let ring: [Point]
        /// Edge i runs from vertex i − 1 to vertex i (edge 0 is the closing edge), as in
        /// ``Kernel/locate(_:inRing:)``.
        let bands: EdgeBands

        /// Prepares `ring` (open) with about √n bands.
        init(_ ring: [Point]) {
            self.ring = ring
            let env = Envelope(points: ring) ?? Envelope(xmin: 0, ymin: 0, xmax: 0, ymax: 0)
            var bands = EdgeBands(ymin: env.ymin, ymax: env.ymax, count: Int(Double(ring.count).squareRoot()))
            let n = ring.count
            for i in 0..<n {
                let a = ring[(i + n - 1) % n], b = ring[i]
                bands.add(Int32(i), y0: a.y, y1: b.y)
            }
            self.bands = bands
        }

        /// Where `p` lies relative to the ring: the answer of ``Kernel/locate(_:inRing:)``.
        ///
        /// - Complexity: O(edges in the band of `p.y`).
        func locate(_ p: Point) -> RingLocation {
            let n = ring.count
            guard n > 0 else { return .exterior }
            // No edge's y-range holds a y outside the ring's.
            if p.y < bands.ymin || p.y > bands.ymax { return .exterior }
            var crossings = 0
            for e in bands.edges(at: p.y) {
                let i = Int(e)
                switch rayCrossing(p, ring[(i + n - 1) % n], ring[i]) {
                case .boundary: return .boundary
                case .crossing: crossings += 1
                case .none: break
                }
            }
            return crossings % 2 == 1 ? .interior : .exterior
        }
    }
}
