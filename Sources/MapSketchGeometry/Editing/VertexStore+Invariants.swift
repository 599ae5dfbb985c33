// The store's invariants, checked after every edit in builds with MAPSKETCH_INTERNAL_CHECKS
// (debug builds, which `swift test` makes); release builds compile the check away. Each part
// checks its own chunk tree after its own edits (``ChunkedVertices``).

extension VertexStore {
    #if MAPSKETCH_INTERNAL_CHECKS
    /// Checks the store after an edit; traps on a violation. The shape rules cost O(parts); up to
    /// 1,024 vertices every coordinate is checked too (``_checkInvariantsNow()`` checks everything).
    @inline(never)
    func _checkInvariants() {
        Self.checkShape(type: type, parts: parts)
        if vertexCount <= 1024 { checkCoordinates() }
    }
    #else
    /// Compiled away: this build does not check invariants.
    @inline(__always)
    func _checkInvariants() {}
    #endif

    /// Checks, in any build, the shape rules, every coordinate and every part's chunk tree; traps
    /// on a violation.
    ///
    /// - Complexity: O(n) for n vertices.
    package func _checkInvariantsNow() {
        Self.checkShape(type: type, parts: parts)
        checkCoordinates()
        for part in parts { part._checkInvariantsNow() }
    }

    /// The shape rules of a store of `type` holding `parts`: no envelope (it is edited as a
    /// polygon); a point holds nothing or one part of one vertex; a multipoint at most one part.
    static func checkShape(type: GeometryType, parts: [ChunkedVertices]) {
        switch type {
        case .envelope:
            preconditionFailure("an envelope is edited as a polygon, never stored as one")
        case .point:
            precondition(parts.isEmpty || (parts.count == 1 && parts[0].count == 1), "a point holds one vertex or none")
        case .multipoint:
            precondition(parts.count <= 1, "a multipoint has at most one part, found \(parts.count)")
        case .polyline, .polygon:
            break
        }
    }

    /// Every coordinate is finite (the edits refuse NaN and infinity).
    func checkCoordinates() {
        for (pi, part) in parts.enumerated() {
            for (vi, p) in part.enumerated() {
                precondition(p.isFinite, "part \(pi) vertex \(vi) is not finite")
            }
        }
    }
}
