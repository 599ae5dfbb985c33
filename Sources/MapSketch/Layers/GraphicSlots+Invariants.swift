import MapSketchGeometry

extension GraphicSlots {
    /// Up to this many slots ``_checkInvariants()`` checks every slot; above it, only the
    /// counts, so a test build stays fast on big layers.
    static let fullCheckLimit = 1_024

    #if MAPSKETCH_INTERNAL_CHECKS
        /// Whether this build checks the invariants after every mutation.
        static let checksInvariants = true

        /// Checks the slots' structure after a graphics layer's mutation (test and debug builds:
        /// `MAPSKETCH_INTERNAL_CHECKS`); compiles to nothing otherwise.
        ///
        /// The parallel arrays have one entry per slot and ids ascend; the renderer's shapes match
        /// its symbols; the packed vertices are within their storage and hold exactly the live runs
        /// plus the dead count. Per slot (up to ``fullCheckLimit`` slots): a dead slot is an empty
        /// placeholder with no symbol and no index entry; a live slot's symbol index says whether the
        /// graphic has its own symbol (-2) or names a renderer symbol, its shape is its geometry's
        /// (a point's coordinates, a one-part line's or polygon's packed vertices), the spatial index
        /// holds it exactly when it has an envelope, and the query margin covers its symbol's reach.
        @inline(never)
        func _checkInvariants() {
            let n = ids.count
            precondition(graphics.count == n && alive.count == n && shapes.count == n, "slot arrays differ in length")
            precondition(rendererShapes.count == rendererSymbols.count, "renderer shapes are stale")
            precondition(
                0 <= deadVertices && deadVertices <= vertexCount && vertexCount <= vertexCapacity,
                "packed vertex counts")
            precondition((vertexBase == nil) == (vertexCapacity == 0), "packed vertex storage")
            let rendererReach = rendererSymbols.map { SymbolHitTest.reach($0) }.max() ?? 0
            precondition(maxReach >= rendererReach, "the query margin misses a renderer symbol's reach")
            guard n <= Self.fullCheckLimit else { return }

            var liveVertices = 0
            var indexed = 0
            for s in 0..<n {
                if s > 0 { precondition(ids[s - 1] < ids[s], "ids do not ascend at slot \(s)") }
                let shape = shapes[s]
                if shape.kind == .path || shape.kind == .ring {
                    precondition(
                        shape.start >= 0 && Int(shape.start) + Int(shape.count) <= vertexCount,
                        "run of slot \(s) out of range")
                    liveVertices += Int(shape.count)
                }
                guard alive[s] else {
                    precondition(
                        graphics[s].geometry == .point(nil) && graphics[s].symbol == nil,
                        "dead slot \(s) holds a graphic")
                    precondition(shape.symbol == -1 && shape.kind == .general, "dead slot \(s) has a shape")
                    precondition(!index.contains(s), "dead slot \(s) is indexed")
                    continue
                }
                let g = graphics[s]
                precondition(
                    (g.symbol != nil) == (shape.symbol == -2), "slot \(s): own symbol and symbol index disagree")
                precondition(
                    shape.symbol >= -2 && Int(shape.symbol) < rendererSymbols.count,
                    "slot \(s): symbol index out of range")
                if let own = g.symbol {
                    precondition(maxReach >= SymbolHitTest.reach(own), "slot \(s): the query margin misses its symbol")
                }
                checkShape(shape, of: g.geometry, slot: s)
                let hasBox = g.geometry.envelope != nil
                precondition(index.contains(s) == hasBox, "slot \(s): index membership")
                if hasBox { indexed += 1 }
            }
            precondition(index.count == indexed, "the index holds \(index.count) slots, \(indexed) expected")
            precondition(
                liveVertices + deadVertices == vertexCount,
                "packed vertices: \(liveVertices) live + \(deadVertices) dead != \(vertexCount)")
        }

        /// Whether `shape` is what `makeShape` builds for `geometry`.
        private func checkShape(_ shape: SlotShape, of geometry: Geometry, slot s: Int) {
            let part: [Point]?
            switch geometry {
            case .point(let p?):
                precondition(shape.kind == .point && shape.point == SIMD2(p.x, p.y), "slot \(s): point shape is stale")
                return
            case .polyline(let pl) where pl.paths.count == 1 && pl.paths[0].count >= 2:
                precondition(shape.kind == .path, "slot \(s): expected a path shape")
                part = pl.paths[0]
            case .polygon(let pg) where pg.rings.count == 1 && pg.rings[0].count >= 2:
                precondition(shape.kind == .ring, "slot \(s): expected a ring shape")
                part = pg.rings[0]
            default:
                precondition(shape.kind == .general, "slot \(s): expected the general test")
                part = nil
            }
            guard let part, let base = vertexBase else { return }
            precondition(Int(shape.count) == part.count, "slot \(s): run length is stale")
            for (i, p) in part.enumerated() {
                precondition(base[Int(shape.start) + i] == SIMD2(p.x, p.y), "slot \(s): packed vertex \(i) is stale")
            }
        }
    #else
        /// Whether this build checks the invariants after every mutation.
        static let checksInvariants = false

        @inline(__always)
        func _checkInvariants() {}
    #endif
}
