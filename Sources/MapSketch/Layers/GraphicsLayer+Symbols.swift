import MapSketchGeometry

// Symbol resolution (one pass over the attribute columns), the symbol-mismatch bookkeeping, and
// drawing.

extension GraphicsLayer {
    /// Every live graphic whose resolved symbol cannot draw its geometry.
    /// - Complexity: O(n).
    package func symbolMismatches() -> [SymbolMismatch] {
        guard symbolMismatchCount > 0 else { return [] }
        var out: [SymbolMismatch] = []
        for s in 0..<slots.count where slots.isAlive(s) {
            if let m = mismatch(s) { out.append(m) }
        }
        return out
    }

    /// Draws the graphics intersecting the screen, bottom first, each with its resolved symbol;
    /// a graphic whose symbol does not fit is written as an XML comment and reported as a
    /// ``MapEvent/symbolMismatch(_:)`` event.
    func drawGraphics(into canvas: inout SVGCanvas, map: MapView) {
        let visible = map.visibleEnvelope
        let margin = slots.maxReach * map.viewport.resolution
        for shift in map.visibleWorldShifts {
            let q = Envelope(
                xmin: visible.xmin - shift - margin, ymin: visible.ymin - margin, xmax: visible.xmax - shift + margin,
                ymax: visible.ymax + margin)
            var visibleSlots: [Int] = []
            slots.index.search(q) {
                visibleSlots.append($0); return true
            }
            visibleSlots.sort()
            for s in visibleSlots {
                if let m = mismatch(s) {
                    canvas.comment("symbol mismatch: \(m.description)")
                    map.emit(.symbolMismatch(m))
                    continue
                }
                guard let sym = slots.resolved(s) else { continue }
                canvas.draw(sym, geometry: slots.geometry(s)) { p in
                    map.toScreen(Point(x: p.x + shift, y: p.y))
                }
            }
        }
    }

    // MARK: Internals

    /// The symbol code of slot `s`: its own symbol's, else the renderer's for its attributes
    /// (read from the columns), else -1.
    func symbolCode(ownSymbol: Symbol?, slot s: Int) -> Int32 {
        if let ownSymbol { return slots.ownSymbolCode(ownSymbol) }
        guard let binding = currentBinding() else { return -1 }
        return Int32(binding.symbolIndex(row: s, in: slots.columns))
    }

    /// The renderer bound to the columns as they are now (rebound when a field's column was
    /// created or changed kind), or nil without a renderer.
    func currentBinding() -> BoundRenderer? {
        guard let renderer else { return nil }
        if let binding, binding.isCurrent(for: slots.columns) { return binding }
        let fresh = BoundRenderer(renderer, columns: slots.columns)
        binding = fresh
        return fresh
    }

    /// Keeps `symbolMismatchCount` up to date as slot `s`'s symbol code `k` comes (`delta` 1) or
    /// goes (-1). Own symbols always fit (checked on add and update).
    func noteSymbol(_ k: Int32, slot s: Int, delta: Int) {
        guard k >= 0 else { return }
        if rendererFits[Int(k)] & Self.bit(slots.geometryType(s)) == 0 { symbolMismatchCount += delta }
    }

    /// The bit of geometry type `t` in a fits mask.
    nonisolated static func bit(_ t: GeometryType) -> UInt8 {
        switch t {
        case .point: 1
        case .multipoint: 2
        case .polyline: 4
        case .polygon: 8
        case .envelope: 16
        }
    }

    /// The fits mask of `symbol`: a bit per geometry type it can draw.
    static func fitsMask(_ symbol: Symbol) -> UInt8 {
        GeometryType.allCases.reduce(0) { $0 | (symbol.fits($1) ? bit($1) : 0) }
    }

    /// Resolves every graphic's symbol again: one pass over the slots, reading the renderer's
    /// fields from the attribute columns.
    /// - Complexity: O(n) for n slots (plus O(d) to bind, for d distinct strings in the fields).
    func resolveRenderer() {
        slots.rendererSymbols = renderer?.symbols ?? []
        rendererReach = slots.rendererSymbols.map { SymbolHitTest.reach($0) }
        rendererFits = slots.rendererSymbols.map { Self.fitsMask($0) }
        slots.maxReach = max(rendererReach.max() ?? 0, slots.ownSymbols.map { SymbolHitTest.reach($0) }.max() ?? 0)
        binding = nil
        symbolMismatchCount = resolve(0..<slots.count)
        revision += 1
        slots._checkInvariants()
    }

    /// The mismatch report of slot `s`, when its resolved symbol cannot draw its geometry.
    func mismatch(_ s: Int) -> SymbolMismatch? {
        guard slots.isAlive(s), let sym = slots.resolved(s) else { return nil }
        let t = slots.geometryType(s)
        guard !sym.fits(t) else { return nil }
        return SymbolMismatch(
            layerName: name, graphicID: GraphicID(rawValue: slots.id(s)), symbolKind: sym.kind, geometryType: t,
            fromRenderer: slots.shapes[s].symbol >= 0)
    }
}
