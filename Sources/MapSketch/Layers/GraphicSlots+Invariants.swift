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
        /// Every column has a row per slot and the column index names them; ids ascend; the
        /// renderer's and own symbols' shapes match their symbols; the packed vertices and the
        /// general store hold exactly the live runs and rows plus the dead counts. Per slot (up to
        /// ``fullCheckLimit`` slots): a dead slot has no symbol and no index entry; a live slot's
        /// symbol code names a renderer or own symbol, its run or general row is in range and its
        /// own, the spatial index holds it exactly when it has an envelope, and the query margin
        /// covers its symbol's reach.
        @inline(never)
        func _checkInvariants() {
            checkInvariants(slotLimit: Self.fullCheckLimit)
        }
    #else
        /// Whether this build checks the invariants after every mutation.
        static let checksInvariants = false

        @inline(__always)
        func _checkInvariants() {}
    #endif

    /// Checks, in any build, everything ``_checkInvariants()`` checks, for every slot however
    /// many there are, and the spatial index's own invariants entry by entry; traps on a
    /// violation. What a soak calls between its operations.
    ///
    /// - Complexity: O(n + v) for n slots and v packed vertices.
    func _checkInvariantsNow() {
        checkInvariants(slotLimit: .max)
        index._checkInvariantsNow()
    }

    /// The structural checks; per slot only when there are at most `slotLimit` slots.
    private func checkInvariants(slotLimit: Int) {
        let n = shapes.count
        precondition(denseIDs ? ids.isEmpty : ids.count == n, "ids and slots differ in length")
        precondition(templates.count <= n, "more templates than slots")
        for (c, column) in columns.enumerated() {
            precondition(column.count == n, "column \(column.name) has \(column.count) rows for \(n) slots")
            precondition(columnIndex[column.name] == c, "column index of \(column.name)")
        }
        precondition(columnIndex.count == columns.count, "column index size")
        precondition(
            MemoryLayout<RememberedKey>.offset(of: \RememberedKey.key) == 0
                && rememberedKeys.allSatisfy { $0.column < columns.count && columns[$0.column].name == $0.key },
            "remembered keys")
        precondition(rendererShapes.count == rendererSymbols.count, "renderer shapes are stale")
        precondition(
            ownShapes.count == ownSymbols.count && ownSymbolLookup.count == ownSymbols.count, "own symbol tables")
        precondition(templateLookup.count == templateTable.count, "template table")
        precondition(
            0 <= deadVertices && deadVertices <= vertexCount && vertexCount <= vertexCapacity,
            "packed vertex counts")
        precondition((vertexBase == nil) == (vertexCapacity == 0), "packed vertex storage")
        let rendererReach = rendererSymbols.map { SymbolHitTest.reach($0) }.max() ?? 0
        precondition(maxReach >= rendererReach, "the query margin misses a renderer symbol's reach")
        guard n <= slotLimit else { return }

        var liveVertices = 0
        var liveRows = Set<Int>()
        var indexed = 0
        for s in 0..<n {
            if s > 0, !denseIDs { precondition(ids[s - 1] < ids[s], "ids do not ascend at slot \(s)") }
            let shape = shapes[s]
            if shape.kind == .path || shape.kind == .ring {
                precondition(
                    shape.count >= 2 && shape.start >= 0 && shape.start + shape.count <= vertexCount,
                    "run of slot \(s) out of range")
                liveVertices += shape.count
            }
            if shape.kind == .general {
                precondition(shape.row >= 0 && shape.row < general.count, "general row of slot \(s) out of range")
                precondition(liveRows.insert(shape.row).inserted, "general row \(shape.row) shared")
            }
            guard shape.kind != .dead else {
                precondition(shape.symbol == -1, "dead slot \(s) has a symbol")
                precondition(s >= templates.count || templates[s] == -1, "dead slot \(s) has a template")
                precondition(!index.contains(s), "dead slot \(s) is indexed")
                continue
            }
            precondition(
                shape.symbol < Int32(rendererSymbols.count) && shape.symbol >= -1 - Int32(ownSymbols.count),
                "slot \(s): symbol code \(shape.symbol) out of range")
            if let own = ownSymbol(s) {
                precondition(maxReach >= SymbolHitTest.reach(own), "slot \(s): the query margin misses its symbol")
                precondition(own.fits(geometryType(s)), "slot \(s): its own symbol does not fit")
            }
            if s < templates.count {
                precondition(templates[s] >= -1 && templates[s] < Int32(templateTable.count), "slot \(s): template")
            }
            let hasBox = envelope(s) != nil
            precondition(index.contains(s) == hasBox, "slot \(s): index membership")
            if hasBox { indexed += 1 }
        }
        precondition(index.count == indexed, "the index holds \(index.count) slots, \(indexed) expected")
        precondition(
            liveVertices + deadVertices == vertexCount,
            "packed vertices: \(liveVertices) live + \(deadVertices) dead != \(vertexCount)")
        precondition(
            liveRows.count + deadGeneralRows == general.count,
            "general rows: \(liveRows.count) live + \(deadGeneralRows) dead != \(general.count)")
    }
}

extension GraphicsLayer {
    /// Checks, in any build, the layer's storage slot by slot: its columns, symbols, packed
    /// vertices and general rows, and its spatial index entry by entry; traps on a violation.
    ///
    /// - Complexity: O(n + v) for n graphics (removed ones not yet compacted included) and v
    ///   packed vertices.
    package func _checkInvariantsNow() {
        slots._checkInvariantsNow()
        var dead = 0
        for s in 0..<slots.count where slots.shapes[s].kind == .dead { dead += 1 }
        precondition(dead == deadCount, "\(dead) dead slots, the layer counts \(deadCount)")
    }
}
