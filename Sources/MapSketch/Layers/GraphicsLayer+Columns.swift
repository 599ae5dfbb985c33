import MapSketchGeometry

// Bulk loading from columns: geometry and attribute buffers appended to the layer's own columns
// as they are, one renderer pass over the new rows, one index build.

extension GraphicsLayer {
    /// Adds the rows of `batch` on top, in order, and returns their ids (consecutive). Validates
    /// the batch first, so a bad one adds nothing.
    ///
    /// Plain points (x and y only) are copied straight from the geometry column; attribute
    /// columns are appended whole (a string column into an empty field adopts its dictionary; into
    /// a field with strings already, each distinct string is interned once). The renderer is
    /// evaluated on the new rows' columns in one pass, and a batch of more than 64 rows that is at
    /// least an eighth of the layer rebuilds the spatial index in bulk.
    /// - Throws: ``GraphicsLayerError/columnLength(field:expected:found:)``,
    ///   ``GraphicsLayerError/duplicateField(_:)``, or as ``add(_:)``
    ///   (``GraphicsLayerError/symbolMismatch(index:symbolKind:geometryType:)`` when the batch's
    ///   symbol cannot draw a row's geometry, ``GraphicsLayerError/nonFiniteGeometry(index:)``
    ///   naming the row, ``GraphicsLayerError/cannotProject(from:to:)``).
    /// - Complexity: O(n + v + d) for n rows with v vertices and d distinct strings.
    @discardableResult
    public func add(columns batch: GraphicColumns) throws -> Range<GraphicID> {
        let first = slots.count
        let ids = try append(batch)
        indexNewSlots(from: first)
        revision += 1
        slots._checkInvariants()
        return ids
    }

    /// Adds graphics a batch at a time, as a reader hands them over: `produce` calls its argument
    /// with each batch, which adds the batch's rows as ``add(columns:)`` does and returns their
    /// ids, but leaves the spatial index alone; the index takes the new graphics when `produce`
    /// returns (or throws, keeping the batches added before) — in one bulk build when they are
    /// more than 64 and at least an eighth of the layer. Memory then holds the layer and one
    /// batch, and no index is merged or rebuilt while the batches come.
    ///
    /// ```swift
    /// let added = try layer.add { add in
    ///     while let batch = try reader.next() { try add(batch) }
    /// }
    /// ```
    /// - Returns: the ids of every graphic added (consecutive).
    /// - Throws: what ``add(columns:)`` throws for a batch (that batch adds nothing), or what
    ///   `produce` throws.
    /// - Complexity: O(n + v + d) for n rows with v vertices and d distinct strings, plus one
    ///   index build over the layer.
    @discardableResult
    public func add(
        batches produce: (_ add: (GraphicColumns) throws -> Range<GraphicID>) throws -> Void
    ) throws -> Range<GraphicID> {
        let first = slots.count
        let firstID = nextID
        defer {
            if slots.count > first {
                indexNewSlots(from: first)
                revision += 1
            }
            slots._checkInvariants()
        }
        try produce { batch in try append(batch) }
        return GraphicID(rawValue: firstID)..<GraphicID(rawValue: nextID)
    }

    /// Makes room for `count` graphics in all — the slot records, the ids and every attribute
    /// field the layer has — so that adding up to that many copies no buffer to grow it: for a
    /// bulk load that knows about how many graphics are coming (a file's size over the bytes its
    /// first batch took). Fields that appear later, and geometries beyond points, grow as usual.
    /// - Complexity: O(n) for the buffers grown, n the graphics held.
    public func reserveCapacity(_ count: Int) {
        guard count > slots.count else { return }
        slots.shapes.reserveCapacity(count)
        if !slots.denseIDs { slots.ids.reserveCapacity(count) }
        for c in slots.columns.indices {
            slots.columns[c].storage.reserveCapacity(forAppending: count - slots.columns[c].count)
        }
    }

    /// Appends the rows of `batch` (validated first) with their symbols resolved, leaving the
    /// spatial index to the caller.
    private func append(_ batch: GraphicColumns) throws -> Range<GraphicID> {
        let n = batch.count
        try Self.validate(batch)
        let projection = try addProjection()
        let first = slots.count
        let ownCode = batch.symbol.map { slots.ownSymbolCode($0) } ?? -1
        slots.shapes.reserveCapacity(forAppending: n)
        if batch.geometry.isPlainPoints, projection == nil {
            slots.appendPoints(batch.geometry.xyCoordinates, symbol: ownCode, firstID: nextID)
        } else {
            for row in 0..<n {
                slots.appendShape(batch.geometry, row: row, projection: projection, symbol: ownCode, id: nextID + row)
            }
        }
        let ids = GraphicID(rawValue: nextID)..<GraphicID(rawValue: nextID + n)
        nextID += n
        slots.appendAttributes(batch.attributes, rows: n)
        slots.setTemplate(lastSlots: n, batch.infoTemplate)
        if batch.symbol == nil { symbolMismatchCount += resolve(first..<slots.count) }
        return ids
    }

    /// The checks a batch passes before it enters the layer.
    private nonisolated static func validate(_ batch: GraphicColumns) throws(GraphicsLayerError) {
        var names = Set<String>()
        for c in batch.attributes {
            guard c.count == batch.count else {
                throw .columnLength(field: c.name, expected: batch.count, found: c.count)
            }
            guard names.insert(c.name).inserted else { throw .duplicateField(c.name) }
        }
        if let symbol = batch.symbol {
            if batch.geometry.isPlainPoints {
                if batch.count > 0, !symbol.fits(.point) {
                    throw .symbolMismatch(index: 0, symbolKind: symbol.kind, geometryType: .point)
                }
            } else {
                for row in 0..<batch.count where !symbol.fits(batch.geometry.type(at: row)) {
                    throw .symbolMismatch(
                        index: row, symbolKind: symbol.kind, geometryType: batch.geometry.type(at: row))
                }
            }
        }
        guard batch.geometry.isFinite else {
            let bad = batch.geometry.indices.first { !batch.geometry[$0].isFinite } ?? 0
            throw .nonFiniteGeometry(index: bad)
        }
    }

    /// Resolves the renderer's symbol of every live slot in `range` that has no own symbol, from
    /// the attribute columns, and returns how many of them got a symbol that cannot draw their
    /// geometry.
    /// - Complexity: O(k) for k slots (plus O(d) to rebind, for d distinct strings in the fields).
    func resolve(_ range: Range<Int>) -> Int {
        slots.resolveSymbols(range, currentBinding(), fits: rendererFits)
    }
}

extension GraphicSlots {
    /// Sets the renderer symbol code of every live slot in `range` without an own symbol, through
    /// `bound` (nil: no renderer), and returns how many got a symbol whose fits mask (`fits`) lacks
    /// their geometry type. Outside the main actor: its loop's closure carries no executor check.
    /// - Complexity: O(k) for k slots.
    func resolveSymbols(_ range: Range<Int>, _ bound: BoundRenderer?, fits: [UInt8]) -> Int {
        let shapes = self.shapes.buffer
        guard let bound else {
            for s in range where shapes[s].kind != .dead && shapes[s].symbol > -2 { shapes[s].symbol = -1 }
            return 0
        }
        var mismatches = 0
        bound.forEachSymbolIndex(range, in: columns) { s, k in
            guard shapes[s].kind != .dead, shapes[s].symbol > -2 else { return }
            shapes[s].symbol = Int32(truncatingIfNeeded: k)
            if k >= 0, fits[k] & GraphicsLayer.bit(geometryType(of: shapes[s])) == 0 { mismatches += 1 }
        }
        return mismatches
    }

    /// Appends a slot per point of `xy` (x, y interleaved) drawn with symbol code `k`, with ids
    /// from `firstID` on.
    /// - Complexity: O(n) for n points.
    func appendPoints(_ xy: [Double], symbol k: Int32, firstID: Int) {
        let n = xy.count / 2
        let base = shapes.count
        xy.withUnsafeBufferPointer { xy in
            shapes.append(count: n) { i in SlotShape(kind: .point, x: xy[2 &* i], y: xy[2 &* i &+ 1], symbol: k) }
        }
        if denseIDs {
            precondition(firstID == self.firstID + base, "ids are handed out in order")
        } else {
            ids.append(count: n) { firstID + $0 }
        }
    }
}
