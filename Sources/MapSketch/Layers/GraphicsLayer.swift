@_spi(MapSketchInternal) public import MapSketchGeometry

/// A layer of graphics: add, add many (as graphics or as columns), remove, remove all, a
/// renderer, hit tests, callouts and the nearest vertex or edge for snapping.
///
/// The layer keeps no ``Graphic`` values. It stores its graphics column by column, in ``GraphicID``
/// order (the add order, which is also the drawing order: later graphics on top): points' x and
/// y, and one-part lines' and polygons' vertices, in flat arrays; other geometries in a
/// ``GeometryColumn``; each attribute field in a typed ``AttributeColumn`` (integers and doubles
/// unboxed, strings interned once per layer and field, nulls as bitmaps); own symbols and info
/// templates as indices into tables of the distinct ones. A point graphic with an integer and a
/// short string attribute costs about 60 bytes with its share of the spatial index, so ten million
/// fit in well under a gigabyte. A ``Graphic`` is built from the columns only when asked for:
/// ``graphic(_:)``, ``graphics``, ``update(_:_:)``, a custom info template.
///
/// Each graphic's symbol is resolved once — its own symbol, else the renderer's — when it is
/// added and when the renderer or ``dataChanged()`` says so (one pass over the attribute columns:
/// see ``BoundRenderer``), so drawing and hit-testing never look attributes up. A
/// ``SpatialIndex`` (packed Hilbert R-tree plus a dynamic part) answers hit tests.
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
    // `@exclusivity(unchecked)` on the properties a hit test reads: why it is safe, on `MapView`.
    /// Whether taps may hit this layer's graphics (default true).
    @exclusivity(unchecked) public var isHitTestEnabled: Bool = true
    /// Whether a tap on a graphic with an info template shows a callout (default true).
    public var calloutsEnabled: Bool = true
    /// Decides the symbol of graphics without their own; setting it re-resolves every graphic.
    public var renderer: Renderer? {
        didSet { resolveRenderer() }
    }

    /// The columns, the spatial index and the resolved renderer symbols (see `GraphicSlots`).
    let slots = GraphicSlots()
    var deadCount = 0
    var nextID = 0
    /// The renderer bound to the attribute columns (nil: no renderer or not bound yet).
    var binding: BoundRenderer?
    /// Per renderer symbol: its reach (points) and the geometry types it fits (bit per type).
    var rendererReach: [Double] = []
    var rendererFits: [UInt8] = []
    /// Compiled callout templates, by template index.
    var compiledTemplates: [Int32: CompiledCalloutTemplate] = [:]
    /// The number of live graphics whose resolved symbol does not fit their geometry.
    @_spi(MapSketchInternal) public internal(set) var symbolMismatchCount = 0
    /// The spatial reference the stored geometries are in, once they were projected for a map
    /// (nil: the layer's own).
    var storedSpatialReference: SpatialReference?
    /// Bumped on every change of graphics, symbols or renderer.
    package internal(set) var revision = 0

    /// Creates an empty graphics layer; graphics are added in `spatialReference` (nil: the map's).
    public init(spatialReference: SpatialReference? = nil) {
        super.init(loaded: true, spatialReference: spatialReference)
    }

    /// The number of graphics.
    public var count: Int { slots.count - deadCount }

    /// The ids of all graphics in drawing order (bottom first).
    /// - Complexity: O(n).
    package var graphicIDs: [GraphicID] {
        var out: [GraphicID] = []
        out.reserveCapacity(count)
        for s in 0..<slots.count where slots.isAlive(s) { out.append(GraphicID(rawValue: slots.id(s))) }
        return out
    }

    /// All graphics in drawing order, each built from the columns.
    /// - Complexity: O(n + v) for n graphics with v vertices.
    public var graphics: [Graphic] {
        var out: [Graphic] = []
        out.reserveCapacity(count)
        for s in 0..<slots.count where slots.isAlive(s) { out.append(slots.graphic(s)) }
        return out
    }

    /// The graphic with this id, built from the columns.
    /// - Complexity: O(1) until a compaction renumbers the slots, O(log n) after; plus the
    ///   graphic's vertices and the layer's attribute fields.
    public func graphic(_ id: GraphicID) -> Graphic? {
        slots.slot(of: id.rawValue).map { slots.graphic($0) }
    }

    /// The symbol the graphic is drawn with: its own, else the renderer's, or nil.
    public func resolvedSymbol(_ id: GraphicID) -> Symbol? {
        slots.slot(of: id.rawValue).flatMap { slots.resolved($0) }
    }

    /// The attribute columns the layer stores, one per field name any graphic had. Rows are
    /// slots, not graphics: a removed graphic's row stays until the layer compacts, so read rows
    /// through the layer (``graphic(_:)``) rather than by position. What ``BoundRenderer`` reads.
    public var attributeColumns: [AttributeColumn] { slots.columns }

    // MARK: Adding and removing

    /// Adds a graphic on top and returns its id.
    /// - Throws: ``GraphicsLayerError/symbolMismatch(index:symbolKind:geometryType:)`` when its
    ///   own symbol cannot draw its geometry, ``GraphicsLayerError/nonFiniteGeometry(index:)``,
    ///   or ``GraphicsLayerError/cannotProject(from:to:)``.
    /// - Complexity: O(1) amortised plus the geometry's vertex count and the layer's fields.
    @discardableResult
    public func add(_ graphic: Graphic) throws -> GraphicID {
        try add(contentsOf: [graphic])[0]
    }

    /// Adds graphics on top, in order, and returns their ids. A bad graphic adds none: the batch
    /// is validated as it is added and undone on the first bad graphic. A batch of more than 64 graphics that is at least an eighth of the
    /// layer rebuilds the spatial index in bulk (O(n)); smaller batches go to its dynamic part.
    /// For large data already in columns, ``add(columns:)`` skips building graphics at all.
    /// - Throws: as ``add(_:)``, naming the first bad graphic's position in `graphics`.
    /// - Complexity: O(n + v) for n graphics with v vertices in total.
    @discardableResult
    public func add(contentsOf graphics: [Graphic]) throws -> [GraphicID] {
        let projection: PointProjection?
        do {
            projection = try addProjection()
        } catch {
            // A bad graphic is named before the layer's projection.
            try graphics.withUnsafeBufferPointer { graphics throws(GraphicsLayerError) in
                try Self.validate(graphics, from: 0)
            }
            throw error
        }
        let n = graphics.count
        let first = slots.count
        let firstID = nextID
        do {
            try graphics.withUnsafeBufferPointer { graphics throws(GraphicsLayerError) in
                try slots.appendGraphics(graphics, projection: projection, firstID: firstID)
            }
        } catch {
            slots._checkInvariants()
            throw error
        }
        nextID += n
        symbolMismatchCount += resolve(first..<slots.count)
        indexNewSlots(from: first)
        revision += 1
        slots._checkInvariants()
        return Self.ids(from: firstID, count: n)
    }

    /// `count` consecutive ids from `first`. Outside the main actor: a closure formed in a
    /// main-actor method checks its executor on every call (a million times for a million ids).
    private nonisolated static func ids(from first: Int, count n: Int) -> [GraphicID] {
        [GraphicID](unsafeUninitializedCapacity: n) { ids, written in
            for k in 0..<n { ids.initializeElement(at: k, to: GraphicID(rawValue: first &+ k)) }
            written = n
        }
    }

    /// Removes the graphic with this id and returns it (nil when there is none).
    /// - Complexity: O(log n) amortised, plus building the graphic it returns.
    @discardableResult
    public func remove(_ id: GraphicID) -> Graphic? {
        guard let s = slots.slot(of: id.rawValue) else { return nil }
        let g = slots.graphic(s)
        noteSymbol(slots.shapes[s].symbol, slot: s, delta: -1)
        slots.setShape(s, nil, symbol: -1)
        slots.setTemplate(s, nil)
        slots.index.remove(s)
        deadCount += 1
        if let c = mapView?.callout, c.layerName == name, c.graphicID == id { mapView?.dismissCallout() }
        if deadCount > 1024 && deadCount * 2 > slots.count { compact() }
        revision += 1
        slots._checkInvariants()
        return g
    }

    /// Removes every graphic. Ids are not reused.
    public func removeAll() {
        if let c = mapView?.callout, c.layerName == name { mapView?.dismissCallout() }
        slots.removeAllShapes()
        slots.removeAllColumns()
        slots.denseIDs = true
        slots.firstID = nextID
        deadCount = 0
        symbolMismatchCount = 0
        compiledTemplates = [:]
        binding = nil
        slots.index.removeAll()
        slots.maxReach = rendererReach.max() ?? 0
        revision += 1
        slots._checkInvariants()
    }

    /// Changes a graphic in place (geometry, symbol, attributes, info template); it keeps its id
    /// and its place in the drawing order. Only what changed is written back to the columns.
    /// - Throws: ``GraphicsLayerError/noSuchGraphic(_:)`` or the errors of ``add(_:)``, leaving
    ///   the graphic unchanged.
    public func update(_ id: GraphicID, _ change: (inout Graphic) -> Void) throws {
        guard let s = slots.slot(of: id.rawValue) else { throw GraphicsLayerError.noSuchGraphic(id) }
        let old = slots.graphic(s)
        var g = old
        change(&g)
        try Self.validate(g, index: 0)
        noteSymbol(slots.shapes[s].symbol, slot: s, delta: -1)
        let moved = g.geometry != old.geometry
        if moved { slots.setShape(s, g.geometry, symbol: slots.shapes[s].symbol) }
        if g.attributes != old.attributes {
            slots.setAttributes(s, from: old.attributes, to: g.attributes)
        }
        if g.infoTemplate != old.infoTemplate { slots.setTemplate(s, g.infoTemplate) }
        let k = symbolCode(ownSymbol: g.symbol, slot: s)
        slots.setSymbol(s, k)
        noteSymbol(k, slot: s, delta: 1)
        if moved {
            slots.index.remove(s)
            if let e = slots.envelope(s) { slots.index.insert(s, box: e) }
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

    // MARK: Hit testing

    /// The graphics under map point `q` drawn at `resolution` (map units per point) within
    /// `tolerance` points, topmost (last added) first.
    ///
    /// Markers hit within their size, lines within half their width, polygons inside or near
    /// their outline (see ``MapView/hitTest(at:tolerance:maxResults:)``). At most `maxResults`
    /// results, the topmost ones: 0 returns none.
    /// - Precondition: `maxResults` ≥ 0.
    /// - Complexity: O(log n + k) for k candidates near the point.
    public func hitTest(mapPoint q: Point, tolerance: Double, resolution: Double, maxResults: Int = .max) -> [GraphicID]
    {
        slots.hitIDs(q, tolerance: tolerance, resolution: resolution, maxResults: hitTestLimit(maxResults))
    }

    /// The topmost graphic under `q` (see ``hitTest(mapPoint:tolerance:resolution:maxResults:)``),
    /// without allocating.
    public func topmostHit(mapPoint q: Point, tolerance: Double, resolution: Double) -> GraphicID? {
        slots.topmostSlot(q, tolerance: tolerance, resolution: resolution).map { GraphicID(rawValue: slots.id($0)) }
    }

    /// The map's hit test asks here (see ``MapView/hitTest(at:tolerance:maxResults:)``): the
    /// layer's hits, or none with hit testing off.
    override func graphicHits(at q: Point, tolerance: Double, resolution: Double) -> [GraphicID] {
        guard isHitTestEnabled else { return [] }
        return slots.hitIDs(q, tolerance: tolerance, resolution: resolution, maxResults: .max)
    }

    /// A hit test's result reads its graphic here (``HitTestResult/graphic``).
    override func hitGraphic(_ id: GraphicID) -> Graphic? { graphic(id) }

    /// A hit test's result reads its symbol here (``HitTestResult/resolvedSymbol``).
    override func hitSymbol(_ id: GraphicID) -> Symbol? { resolvedSymbol(id) }

    /// What a tap on `id` shows (see ``calloutContent(_:screen:mapPoint:)``): the map's callouts ask here.
    override func calloutContent(for id: GraphicID, screen: ScreenPoint, mapPoint: Point) -> CalloutContent? {
        calloutContent(id, screen: screen, mapPoint: mapPoint)
    }

    /// Draws the graphics intersecting the screen, bottom first, each with its resolved symbol;
    /// a graphic whose symbol does not fit is written as an XML comment and reported as a
    /// ``MapEvent/symbolMismatch(_:)`` event.
    package override func drawSVG(into canvas: inout SVGCanvas, map: MapView) {
        drawGraphics(into: &canvas, map: map)
    }

    /// Bytes held by the spatial index.
    package var indexMemoryFootprint: Int { slots.index.memoryFootprint }

    // MARK: Map membership

    override func didMove(to mapView: MapView) {
        guard let from = storedSpatialReference ?? spatialReference, let to = mapView.spatialReference, from != to,
            let projection = try? PointProjection(from: from, to: to)
        else { return }
        storedSpatialReference = to
        guard count > 0 else { return }
        slots.project(projection)
        rebuildIndex()
        revision += 1
        slots._checkInvariants()
    }

    // MARK: Internals

    /// The checks a graphic passes before it enters the layer (added or updated): its own symbol
    /// fits its geometry and every coordinate is finite. `index` names it in the error.
    nonisolated static func validate(_ g: Graphic, index: Int) throws(GraphicsLayerError) {
        if let s = g.symbol, !s.fits(g.geometry.type) {
            throw .symbolMismatch(index: index, symbolKind: s.kind, geometryType: g.geometry.type)
        }
        guard isFinite(g.geometry) else { throw .nonFiniteGeometry(index: index) }
    }

    /// `validate(_:index:)` of every graphic from `start` on, in order: a point without its
    /// own symbol (the bulk of a large batch) is checked from its coordinates alone.
    nonisolated static func validate(_ graphics: UnsafeBufferPointer<Graphic>, from start: Int)
        throws(GraphicsLayerError)
    {
        for i in start..<graphics.count {
            if case .point(let p?) = graphics[i].geometry, case .none = graphics[i].symbol {
                guard p.isFinite else { throw .nonFiniteGeometry(index: i) }
            } else {
                try validate(graphics[i], index: i)
            }
        }
    }

    /// Whether every coordinate is finite, without building part arrays for points.
    private nonisolated static func isFinite(_ g: Geometry) -> Bool {
        switch g {
        case .point(let p): p?.isFinite ?? true
        case .multipoint(let m): m.points.allSatisfy(\.isFinite)
        case .polyline(let l): l.paths.allSatisfy { $0.allSatisfy(\.isFinite) }
        case .polygon(let p): p.rings.allSatisfy { $0.allSatisfy(\.isFinite) }
        case .envelope: g.isFinite
        }
    }

    /// The projection from the layer's spatial reference to its map's, when they differ.
    /// - Throws: ``GraphicsLayerError/cannotProject(from:to:)``.
    func addProjection() throws(GraphicsLayerError) -> PointProjection? {
        guard let from = spatialReference, let to = mapView?.spatialReference, from != to else { return nil }
        guard let projection = try? PointProjection(from: from, to: to) else {
            throw .cannotProject(from: from, to: to)
        }
        return projection
    }

    /// Puts slots from `first` on in the spatial index: in bulk for a batch of more than 64
    /// that is at least an eighth of the layer, else one by one into its dynamic part.
    func indexNewSlots(from first: Int) {
        let added = slots.count - first
        if added > 64 && added * 8 > slots.index.count {
            rebuildIndex()
        } else {
            for s in first..<slots.count {
                if let e = slots.envelope(s) { slots.index.insert(s, box: e) }
            }
        }
    }

    func rebuildIndex() { slots.rebuildIndex() }

    /// Drops dead slots (ids stay; slots renumber) and rebuilds the index.
    private func compact() {
        let keep = slots.compactShapes()
        slots.compactColumns(keep)
        deadCount = 0
        rebuildIndex()
    }
}
