extension Kernel {
    /// A ring prepared for many point-location queries: its edges bucketed into horizontal
    /// bands (``PreparedEdges``), so a query runs the ray-crossing rule of ``locate(_:inRing:)``
    /// over the edges of one band right of the point instead of the whole ring.
    ///
    /// It gives exactly ``locate(_:inRing:)``'s answer.
    ///
    /// ```swift
    /// let prepared = Kernel.PreparedRing(bigRing)
    /// for p in queries where prepared.locate(p) == .interior { … }
    /// ```
    ///
    /// - Complexity: preparing O(n log n) for n vertices; a query O(edges in its band), about
    ///   O(√n) for well-spread rings.
    struct PreparedRing {
        let edges: PreparedEdges

        /// Prepares `ring` (open).
        init(_ ring: [Point]) { edges = PreparedEdges(rings: CollectionOfOne(ring)) }

        /// Where `p` lies relative to the ring: the answer of ``Kernel/locate(_:inRing:)``.
        func locate(_ p: Point) -> RingLocation { edges.locate(p) }
    }
}
