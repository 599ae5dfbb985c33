public import MapSketchGeometry

/// A layer of graphics: add, add many, remove, remove all, a renderer, hit tests and callouts.
///
/// Graphics live in contiguous arrays ordered by ``GraphicID`` (the add order, which is also
/// the drawing order: later graphics on top). Each graphic's symbol is resolved once — its own
/// symbol, else the renderer's — when it is added and when the renderer or ``dataChanged()``
/// says so, so drawing and hit-testing never look attributes up. A ``SpatialIndex`` (packed
/// Hilbert R-tree plus a dynamic part) answers hit tests.
///
/// Graphics are stored in the map's spatial reference: when the layer's ``Layer/spatialReference``
/// (the one graphics are added in) differs from the map's, each geometry is projected on add
/// (WGS 84 ↔ Web Mercator), and those already added are projected when the layer joins the map.
///
/// ```swift
/// let layer = GraphicsLayer()
/// try map.addLayer(layer, named: "Graphics Layer")
/// let id = try layer.add(Graphic(Point(-93.2984, 44.9409), symbol: .simpleMarker(.init(color: .blue))))
/// layer.renderer = .simple(.simpleMarker(.init()))
/// ```
@MainActor
public final class GraphicsLayer: Layer {
    // `@exclusivity(unchecked)`: the properties a hit test reads on every tap skip the run-time
    // exclusivity check (about 100 instructions per access, most of a map hit test's own cost).
    // The model is main-actor isolated and never holds overlapping accesses to them; the
    // compile-time checks still apply.
    /// Whether taps may hit this layer's graphics (default true).
    @exclusivity(unchecked) public var isHitTestEnabled: Bool = true
    /// Whether a tap on a graphic with an info template shows a callout (default true).
    public var calloutsEnabled: Bool = true
    /// Decides the symbol of graphics without their own; setting it re-resolves every graphic.
    public var renderer: Renderer? {
        didSet { resolveRenderer() }
    }

    // Slots: parallel arrays in ascending id order, the spatial index and the resolved renderer
    // symbols, kept in `slots` (see `GraphicSlots`).
    private let slots = GraphicSlots()
    private var deadCount = 0
    private var nextID = 0
    private var rendererReach: [Double] = []
    /// The number of live graphics whose resolved symbol does not fit their geometry.
    public private(set) var symbolMismatchCount = 0
    /// The spatial reference the stored geometries are in, once they were projected for a map
    /// (nil: the layer's own).
    private var storedSpatialReference: SpatialReference?
    /// Bumped on every change of graphics, symbols or renderer.
    public private(set) var revision = 0

    /// Creates an empty graphics layer; graphics are added in `spatialReference` (nil: the map's).
    public init(spatialReference: SpatialReference? = nil) {
        super.init(loaded: true, spatialReference: spatialReference)
    }

    /// The number of graphics.
    public var count: Int { slots.ids.count - deadCount }

    /// The ids of all graphics in drawing order (bottom first).
    /// - Complexity: O(n).
    public var graphicIDs: [GraphicID] {
        var out: [GraphicID] = []
        out.reserveCapacity(count)
        for s in slots.ids.indices where slots.alive[s] { out.append(GraphicID(rawValue: slots.ids[s])) }
        return out
    }

    /// All graphics in drawing order.
    /// - Complexity: O(n).
    public var graphics: [Graphic] {
        var out: [Graphic] = []
        out.reserveCapacity(count)
        for s in slots.ids.indices where slots.alive[s] { out.append(slots.graphics[s]) }
        return out
    }

    /// The graphic with this id.
    /// - Complexity: O(log n).
    public func graphic(_ id: GraphicID) -> Graphic? {
        slot(of: id).map { slots.graphics[$0] }
    }

    /// The symbol the graphic is drawn with: its own, else the renderer's, or nil.
    public func resolvedSymbol(_ id: GraphicID) -> Symbol? {
        slot(of: id).flatMap { resolved($0) }
    }

    // MARK: Adding and removing

    /// Adds a graphic on top and returns its id.
    /// - Throws: ``GraphicsLayerError/symbolMismatch(index:symbolKind:geometryType:)`` when its
    ///   own symbol cannot draw its geometry, ``GraphicsLayerError/nonFiniteGeometry(index:)``,
    ///   or ``GraphicsLayerError/cannotProject(from:to:)``.
    /// - Complexity: O(1) amortised plus the geometry's vertex count.
    @discardableResult
    public func add(_ graphic: Graphic) throws -> GraphicID {
        try add(contentsOf: [graphic])[0]
    }

    /// Adds graphics on top, in order, and returns their ids. Validates every graphic first, so
    /// a bad one adds none. A batch of more than 64 graphics that is at least an eighth of the
    /// layer rebuilds the spatial index in bulk (O(n)); smaller batches go to its dynamic part.
    /// - Throws: as ``add(_:)``, naming the first bad graphic's position in `graphics`.
    /// - Complexity: O(n + v) for n graphics with v vertices in total.
    @discardableResult
    public func add(contentsOf graphics: [Graphic]) throws -> [GraphicID] {
        var batch = graphics
        for (i, g) in batch.enumerated() { try Self.validate(g, index: i) }
        if let from = spatialReference, let to = mapView?.spatialReference, from != to {
            guard let projection = try? PointProjection(from: from, to: to) else {
                throw GraphicsLayerError.cannotProject(from: from, to: to)
            }
            for i in batch.indices { batch[i].geometry = batch[i].geometry.mapPoints(projection.project) }
        }
        let first = slots.ids.count
        var ids: [GraphicID] = []
        ids.reserveCapacity(batch.count)
        slots.graphics.append(contentsOf: batch)
        slots.ids.reserveCapacity(first + batch.count)
        slots.alive.append(contentsOf: repeatElement(true, count: batch.count))
        for g in batch {
            slots.ids.append(nextID)
            ids.append(GraphicID(rawValue: nextID))
            nextID += 1
            let k = symbolIndex(for: g)
            slots.appendShape(g.geometry, symbol: k)
            noteSymbol(k, graphic: g, delta: 1)
        }
        if batch.count > 64 && batch.count * 8 > slots.index.count {
            rebuildIndex()
        } else {
            for s in first..<slots.ids.count {
                if let e = slots.graphics[s].geometry.envelope { slots.index.insert(s, box: e) }
            }
        }
        revision += 1
        slots._checkInvariants()
        return ids
    }

    /// Removes the graphic with this id and returns it (nil when there is none).
    /// - Complexity: O(log n) amortised.
    @discardableResult
    public func remove(_ id: GraphicID) -> Graphic? {
        guard let s = slot(of: id) else { return nil }
        let g = slots.graphics[s]
        noteSymbol(slots.symbol(s), graphic: g, delta: -1)
        slots.alive[s] = false
        slots.graphics[s] = Graphic(geometry: .point(nil))
        slots.setShape(s, .point(nil), symbol: -1)
        slots.index.remove(s)
        deadCount += 1
        if let c = mapView?.callout, c.layerName == name, c.graphicID == id { mapView?.dismissCallout() }
        if deadCount > 1024 && deadCount * 2 > slots.ids.count { compact() }
        revision += 1
        slots._checkInvariants()
        return g
    }

    /// Removes every graphic. Ids are not reused.
    public func removeAll() {
        if let c = mapView?.callout, c.layerName == name { mapView?.dismissCallout() }
        slots.graphics.removeAll()
        slots.removeAllShapes()
        slots.ids.removeAll()
        slots.alive.removeAll()
        deadCount = 0
        symbolMismatchCount = 0
        slots.index.removeAll()
        slots.maxReach = rendererReach.max() ?? 0
        revision += 1
        slots._checkInvariants()
    }

    /// Changes a graphic in place (geometry, symbol, attributes, info template); it keeps its id
    /// and its place in the drawing order.
    /// - Throws: ``GraphicsLayerError/noSuchGraphic(_:)`` or the errors of ``add(_:)``, leaving
    ///   the graphic unchanged.
    public func update(_ id: GraphicID, _ change: (inout Graphic) -> Void) throws {
        guard let s = slot(of: id) else { throw GraphicsLayerError.noSuchGraphic(id) }
        var g = slots.graphics[s]
        change(&g)
        try Self.validate(g, index: 0)
        noteSymbol(slots.symbol(s), graphic: slots.graphics[s], delta: -1)
        let moved = g.geometry != slots.graphics[s].geometry
        slots.graphics[s] = g
        slots.setShape(s, g.geometry, symbol: symbolIndex(for: g))
        noteSymbol(slots.symbol(s), graphic: g, delta: 1)
        if moved {
            slots.index.remove(s)
            if let e = g.geometry.envelope { slots.index.insert(s, box: e) }
        }
        revision += 1
        slots._checkInvariants()
    }

    /// Tells the layer its graphics changed (as `dataChanged`): re-resolves every symbol and
    /// rebuilds the spatial index.
    /// - Complexity: O(n + v).
    public func dataChanged() {
        resolveRenderer()
        rebuildIndex()
        slots._checkInvariants()
    }

    /// Every live graphic whose resolved symbol cannot draw its geometry.
    /// - Complexity: O(n).
    public func symbolMismatches() -> [SymbolMismatch] {
        guard symbolMismatchCount > 0 else { return [] }
        var out: [SymbolMismatch] = []
        for s in slots.ids.indices where slots.alive[s] {
            if let m = mismatch(s) { out.append(m) }
        }
        return out
    }

    // MARK: Hit testing

    /// The graphics under map point `q` drawn at `resolution` (map units per point) within
    /// `tolerance` points, topmost (last added) first.
    ///
    /// Markers hit within their size, lines within half their width, polygons inside or near
    /// their outline (see ``MapView/hitTest(at:tolerance:maxResults:)``).
    /// - Complexity: O(log n + k) for k candidates near the point.
    public func hitTest(mapPoint q: Point, tolerance: Double, resolution: Double, maxResults: Int = .max) -> [GraphicID] {
        slots.hitIDs(q, tolerance: tolerance, resolution: resolution, maxResults: maxResults)
    }

    /// The topmost graphic under `q` (see ``hitTest(mapPoint:tolerance:resolution:maxResults:)``),
    /// without allocating.
    public func topmostHit(mapPoint q: Point, tolerance: Double, resolution: Double) -> GraphicID? {
        slots.topmostSlot(q, tolerance: tolerance, resolution: resolution).map { GraphicID(rawValue: slots.ids[$0]) }
    }

    /// The map's hit test asks here (see ``MapView/hitTest(at:tolerance:maxResults:)``): the
    /// layer's hits, or none with hit testing off.
    override func graphicHits(at q: Point, tolerance: Double, resolution: Double) -> [GraphicID] {
        guard isHitTestEnabled else { return [] }
        return slots.hitIDs(q, tolerance: tolerance, resolution: resolution, maxResults: .max)
    }

    /// The graphic a tap may show a callout for: any of the layer's while callouts are on.
    override func calloutGraphic(_ id: GraphicID) -> Graphic? {
        calloutsEnabled ? graphic(id) : nil
    }

    /// Bytes held by the spatial index.
    public var indexMemoryFootprint: Int { slots.index.memoryFootprint }

    // MARK: Drawing

    /// Draws the graphics intersecting the screen, bottom first, each with its resolved symbol;
    /// a graphic whose symbol does not fit is written as an XML comment and reported as a
    /// ``MapEvent/symbolMismatch(_:)`` event.
    package override func drawSVG(into canvas: inout SVGCanvas, map: MapView) {
        let visible = map.visibleEnvelope
        let margin = slots.maxReach * map.viewport.resolution
        for shift in map.visibleWorldShifts {
            let q = Envelope(
                xmin: visible.xmin - shift - margin, ymin: visible.ymin - margin, xmax: visible.xmax - shift + margin,
                ymax: visible.ymax + margin)
            var visibleSlots: [Int] = []
            slots.index.search(q) { visibleSlots.append($0); return true }
            visibleSlots.sort()
            for s in visibleSlots {
                if let m = mismatch(s) {
                    canvas.comment("symbol mismatch: \(m.description)")
                    map.emit(.symbolMismatch(m))
                    continue
                }
                guard let sym = resolved(s) else { continue }
                canvas.draw(sym, geometry: slots.graphics[s].geometry) { p in
                    map.toScreen(Point(x: p.x + shift, y: p.y))
                }
            }
        }
    }

    // MARK: Map membership

    override func didMove(to mapView: MapView) {
        guard let from = storedSpatialReference ?? spatialReference, let to = mapView.spatialReference, from != to,
            let projection = try? PointProjection(from: from, to: to)
        else { return }
        storedSpatialReference = to
        guard count > 0 else { return }
        for s in slots.graphics.indices where slots.alive[s] {
            slots.graphics[s].geometry = slots.graphics[s].geometry.mapPoints(projection.project)
            slots.setShape(s, slots.graphics[s].geometry, symbol: slots.symbol(s))
        }
        rebuildIndex()
        revision += 1
        slots._checkInvariants()
    }

    // MARK: Internals

    /// The checks a graphic passes before it enters the layer (added or updated): its own symbol
    /// fits its geometry and every coordinate is finite. `index` names it in the error.
    private static func validate(_ g: Graphic, index: Int) throws(GraphicsLayerError) {
        if let s = g.symbol, !s.fits(g.geometry.type) {
            throw .symbolMismatch(index: index, symbolKind: s.kind, geometryType: g.geometry.type)
        }
        guard isFinite(g.geometry) else { throw .nonFiniteGeometry(index: index) }
    }

    /// Whether every coordinate is finite, without building part arrays for points.
    private static func isFinite(_ g: Geometry) -> Bool {
        switch g {
        case .point(let p): p?.isFinite ?? true
        case .multipoint(let m): m.points.allSatisfy(\.isFinite)
        case .polyline(let l): l.paths.allSatisfy { $0.allSatisfy(\.isFinite) }
        case .polygon(let p): p.rings.allSatisfy { $0.allSatisfy(\.isFinite) }
        case .envelope: g.isFinite
        }
    }

    private func slot(of id: GraphicID) -> Int? {
        var lo = 0
        var hi = slots.ids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if slots.ids[mid] < id.rawValue { lo = mid + 1 } else { hi = mid }
        }
        guard lo < slots.ids.count, slots.ids[lo] == id.rawValue, slots.alive[lo] else { return nil }
        return lo
    }

    private func resolved(_ s: Int) -> Symbol? { slots.resolved(s) }

    private func mismatch(_ s: Int) -> SymbolMismatch? {
        guard slots.alive[s], let sym = resolved(s) else { return nil }
        let t = slots.graphics[s].geometry.type
        guard !sym.fits(t) else { return nil }
        return SymbolMismatch(
            layerName: name, graphicID: GraphicID(rawValue: slots.ids[s]), symbolKind: sym.kind, geometryType: t,
            fromRenderer: slots.symbol(s) >= 0)
    }

    private func symbolIndex(for g: Graphic) -> Int32 {
        if g.symbol != nil { return -2 }
        guard let renderer else { return -1 }
        return Int32(renderer.symbolIndex(for: g.attributes))
    }

    /// Keeps `slots.maxReach` and `symbolMismatchCount` up to date as a slot's symbol comes or goes.
    private func noteSymbol(_ k: Int32, graphic g: Graphic, delta: Int) {
        let sym: Symbol? = k == -2 ? g.symbol : (k >= 0 ? slots.rendererSymbols[Int(k)] : nil)
        guard let sym else { return }
        if delta > 0, k == -2 { slots.maxReach = max(slots.maxReach, SymbolHitTest.reach(sym)) }
        if !sym.fits(g.geometry.type) { symbolMismatchCount += delta }
    }

    private func resolveRenderer() {
        slots.rendererSymbols = renderer?.symbols ?? []
        rendererReach = slots.rendererSymbols.map { SymbolHitTest.reach($0) }
        slots.maxReach = rendererReach.max() ?? 0
        symbolMismatchCount = 0
        for s in slots.ids.indices where slots.alive[s] {
            let k = symbolIndex(for: slots.graphics[s])
            slots.setSymbol(s, k)
            noteSymbol(k, graphic: slots.graphics[s], delta: 1)
        }
        revision += 1
        slots._checkInvariants()
    }

    private func rebuildIndex() {
        slots.index.bulkLoad(count: slots.ids.count) { s in slots.alive[s] ? slots.graphics[s].geometry.envelope : nil }
    }

    /// Drops dead slots (ids stay; slots renumber) and rebuilds the slots.index.
    private func compact() {
        var w = 0
        for s in slots.ids.indices where slots.alive[s] {
            slots.graphics[w] = slots.graphics[s]
            slots.moveShape(from: s, to: w)
            slots.ids[w] = slots.ids[s]
            w += 1
        }
        slots.graphics.removeLast(slots.graphics.count - w)
        slots.truncateShapes(to: w)
        slots.ids.removeLast(slots.ids.count - w)
        slots.alive = [Bool](repeating: true, count: w)
        deadCount = 0
        rebuildIndex()
    }
}
