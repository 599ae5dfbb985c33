public import MapSketchGeometry

/// A layer that turns taps, holds and drags into geometry edits, with undo, redo and events:
/// the headless `AGSSketchGraphicsLayer`.
///
/// Add it to a map and make it the map's touch delegate to sketch:
/// ```swift
/// let sketch = try SketchLayer(geometryType: .polygon)
/// try map.addLayer(sketch, named: "Sketch")
/// map.touchDelegate = sketch
/// let token = sketch.onGeometryChanged { change in print(change) }
/// // taps now add vertices; holds on the selected vertex drag it
/// if sketch.canUndo { sketch.undo() }
/// ```
///
/// Interaction, as the touch delegate:
/// 1. A tap on the map: a point sketch moves its point there; other types insert a vertex after
///    the selected vertex (or into the selected mid-vertex's segment) and select it; with nothing
///    selected it is appended to the last part.
/// 2. A tap on a vertex selects it. 3. A tap on a mid-vertex selects it; the next tap on the map
///    inserts there. Hit precedence: the selected vertex, then the nearest vertex, then the nearest
///    mid-vertex, each within half its marker size + ``SketchSymbology/vertexHitTolerance``.
/// 4. A hold on the selected vertex (a magnifier event when the map's `showMagnifierOnTapAndHold`
///    is on) starts a drag; the vertex follows the finger and the release commits one undo step.
///    A hold anywhere else does nothing.
/// 5. Moving before the hold pans the map; two fingers pinch-zoom (the map does both).
///
/// Every change posts a ``SketchGeometryChange`` to closures (``onGeometryChanged(_:)``) and to
/// streams (``geometryChanges``); selection changes post a ``SketchSelectionChange``.
@MainActor
public final class SketchLayer: Layer, MapTouchDelegate {
    /// The editing model: geometry, selection and history.
    package internal(set) var editor: SketchEditor
    /// How the sketch is drawn; the marker sizes and the vertex hit tolerance also set the tap reach.
    public var symbology = SketchSymbology()

    var geometryObservers = ObserverList<SketchGeometryChange>()
    var selectionObservers = ObserverList<SketchSelectionChange>()
    var magnifierObservers = ObserverList<SketchMagnifierEvent>()
    var rejectionObservers = ObserverList<SketchEditRejection>()
    var snapObservers = ObserverList<SnapTarget>()
    // `@exclusivity(unchecked)`: read by every snap query (why it is safe, on `MapView`).
    /// What the sketch snaps to (off by default; see SketchLayer+Snapping.swift).
    @exclusivity(unchecked) public var snapSettings = SnapSettings() { didSet { snapCache.invalidate() } }
    /// The map's reference to this layer for snap queries, from the first query on a map until
    /// the layer leaves it (see `MapSnapLink`); what the queries keep of the map.
    @exclusivity(unchecked) var snapLink: MapSnapLink?
    @exclusivity(unchecked) var snapCache = SnapLayerCache()
    /// The marker drawn on the snap target in the SVG (the active guide uses the guide line).
    public var snapSymbol: Symbol = SketchLayer.defaultSnapSymbol
    /// The default ``snapSymbol``: made once and shared (a symbol is boxed, so a new one per layer
    /// would cost an allocation per sketch).
    static let defaultSnapSymbol: Symbol = .simpleMarker(
        SimpleMarkerSymbol(
            style: .square, color: .clear, size: 14, outline: SimpleLineSymbol(color: Color(red: 255, green: 0, blue: 255), width: 2)))
    /// The latest snap (see ``currentSnap``).
    var snapState: SnapTarget?
    /// The tool and the gesture it is drawing (see SketchTool.swift).
    var toolState = SketchToolState()
    private var nextObservationID = 1
    var changeCount = 0
    var magnifierShown = false

    /// A layer sketching a new geometry of `geometryType` (point, multipoint, polyline or polygon).
    /// - Throws: ``GeometryError/unsupported(_:)`` for an envelope.
    public init(geometryType: GeometryType) throws {
        editor = try SketchEditor(type: geometryType)
        super.init(loaded: true)
    }

    /// A layer editing `geometry` (an empty geometry starts a new sketch of its type).
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)`` for a NaN or infinite coordinate.
    public init(geometry: Geometry) throws {
        editor = try SketchEditor(geometry: geometry)
        super.init(loaded: true)
    }

    // MARK: State

    /// The sketch geometry.
    /// - Complexity: O(n) for n vertices (it is assembled from the chunked storage).
    public var geometry: Geometry { editor.geometry }
    /// The type being sketched.
    public var geometryType: GeometryType { editor.geometryType }
    /// The vertex storage, for O(log n) reads of big sketches.
    public var vertices: VertexStore { editor.store }
    /// The current selection.
    public var selection: SketchSelection { editor.selection }
    /// Whether a vertex is being dragged.
    public var isDragging: Bool { editor.drag != nil }
    /// How many geometry-changed events have been posted.
    package var geometryChangeCount: Int { changeCount }

    /// The sketch ready to keep, as a finished sketch should be stored: repaired with
    /// `GeometryEngine.simplify` at the xy tolerance of the map's spatial reference
    /// (a polygon's self-intersections by the odd-even rule, exactly, and its ring orientation;
    /// a polyline's or multipoint's vertices closer than the tolerance merged) and, when the map wraps around (WGS 84 or Web Mercator), folded into
    /// one world with `GeometryEngine.normalizeCentralMeridian`. The sketch itself is unchanged.
    /// - Throws: what `normalizeCentralMeridian` throws: a segment wider than one world cannot
    ///   be folded.
    /// - Complexity: O(n log n) for n vertices (see `GeometryEngine.simplify`).
    public func finishedGeometry() throws -> Geometry {
        let simple = GeometryEngine.simplify(editor.geometry, spatialReference: mapView?.spatialReference)
        guard let map = mapView, map.worldWidth != nil, let sr = map.spatialReference else { return simple }
        return try GeometryEngine.normalizeCentralMeridian(simple, spatialReference: sr)
    }

    // MARK: Undo

    /// Whether an undo is possible.
    public var canUndo: Bool { editor.canUndo }
    /// Whether a redo is possible.
    public var canRedo: Bool { editor.canRedo }
    /// The number of steps that can be undone.
    public var undoCount: Int { editor.history.undoCount }
    /// The number of steps that can be redone.
    package var redoCount: Int { editor.history.redoCount }
    /// The bound on undo steps; 0 (the default) keeps every step.
    /// - Precondition: 0 or more (a negative bound is not "unbounded").
    public var levelsOfUndo: Int {
        get { editor.levelsOfUndo }
        set { editor.levelsOfUndo = newValue }
    }

    /// Undoes the latest step (geometry and selection restored exactly).
    /// - Returns: whether a step was undone.
    @discardableResult
    public func undo() -> Bool {
        perform(.undo) { $0.undo() }
    }

    /// Redoes the latest undone step.
    /// - Returns: whether a step was redone.
    @discardableResult
    public func redo() -> Bool {
        perform(.redo) { $0.redo() }
    }

    // MARK: Programmatic edits

    /// Inserts `point` as vertex `index` of `part` and selects it (one undo step). In a sketch
    /// without parts, (part 0, index 0) creates the first part, as ``appendVertex(_:)`` does.
    /// - Throws: ``GeometryError`` for indices out of range or non-finite coordinates.
    public func insertVertex(_ point: Point, part: Int, at index: Int) throws {
        try performEdit(.insertVertex) { try $0.insertVertex(point, part: part, at: index) }
    }

    /// Appends `point` to the last part (creating the first part) and selects it; a point sketch
    /// moves its point. The call GPS capture uses.
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)``.
    public func appendVertex(_ point: Point) throws {
        let kind: SketchEditRecord.Kind = geometryType == .point && !editor.store.isEmpty ? .moveVertex : .insertVertex
        try performEdit(kind) { try $0.appendVertex(point) }
    }

    /// Moves vertex (part, index) to `point` and selects it (one undo step).
    /// - Throws: ``GeometryError`` for indices out of range or non-finite coordinates.
    public func moveVertex(part: Int, index: Int, to point: Point) throws {
        try performEdit(.moveVertex) { try $0.moveVertex(part: part, index: index, to: point) }
    }

    /// Removes vertex (part, index); the vertex before it becomes selected (one undo step).
    /// - Throws: ``GeometryError`` for indices out of range.
    public func removeVertex(part: Int, index: Int) throws {
        try performEdit(.removeVertex) { try $0.removeVertex(part: part, index: index) }
    }

    /// Adds an empty part (taps then append to it) and returns its index (one undo step).
    /// - Throws: ``GeometryError/unsupported(_:)`` for a point, or a multipoint that has its part.
    @discardableResult
    public func addPart() throws -> Int {
        var i = 0
        try performEdit(.addPart) { i = try $0.addPart() }
        return i
    }

    /// Removes part `index` (one undo step).
    /// - Throws: ``GeometryError/partIndexOutOfRange(part:partCount:)``.
    public func removePart(_ index: Int) throws {
        try performEdit(.removePart) { try $0.removePart(index) }
    }

    /// Removes the selected vertex (one undo step).
    /// - Throws: ``SketchError/nothingSelected(operation:)``.
    public func removeSelectedVertex() throws {
        try performEdit(.removeVertex) { try $0.removeSelectedVertex() }
    }

    /// Removes the part of the selected vertex or mid-vertex.
    /// - Throws: ``SketchError/nothingSelected(operation:)``.
    public func removeSelectedPart() throws {
        try performEdit(.removePart) { try $0.removeSelectedPart() }
    }

    /// Selects the last vertex of the last non-empty part (not an undo step).
    public func selectLastVertex() {
        let old = editor.selection
        editor.selectLastVertex()
        postSelectionIfChanged(from: old)
    }

    /// Selects a vertex, a mid-vertex or nothing (not an undo step).
    /// - Throws: ``SketchError/invalidSelection(_:)`` when it names no vertex or segment.
    public func select(_ selection: SketchSelection) throws {
        let old = editor.selection
        try editor.select(selection)
        postSelectionIfChanged(from: old)
    }

    /// Removes every vertex and part (one undo step; nothing happens on an empty sketch).
    public func clear() {
        perform(.edit(.replaceGeometry)) { $0.clear() }
    }

    /// Reshapes the sketch to `geometry`, which must be of the sketch's type (one undo step).
    /// - Throws: ``SketchError/typeMismatch(expected:found:)``; ``GeometryError/nonFiniteCoordinate(part:index:)``.
    public func applyGeometry(_ geometry: Geometry) throws {
        try performEdit(.replaceGeometry) { try $0.applyGeometry(geometry) }
    }

    /// Replaces the sketch with `geometry` (any editable type) and clears the undo history, as
    /// assigning `AGSSketchGraphicsLayer.geometry` does. Posts a `.replaced` change.
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)``; ``GeometryError/unsupported(_:)``.
    public func setGeometry(_ geometry: Geometry) throws {
        try performEdit(nil) { try $0.setGeometry(geometry) }
    }

    // MARK: Events

    /// Calls `handler` after every geometry change (undo and redo included), in registration order.
    /// - Returns: a token for ``removeObserver(_:)``.
    @discardableResult
    public func onGeometryChanged(_ handler: @escaping @MainActor (SketchGeometryChange) -> Void) -> SketchObservation {
        register(handler, in: &geometryObservers)
    }

    /// Calls `handler` after every selection change.
    @discardableResult
    public func onSelectionChanged(_ handler: @escaping @MainActor (SketchSelectionChange) -> Void) -> SketchObservation {
        register(handler, in: &selectionObservers)
    }

    /// Calls `handler` when the magnifier shows, moves or hides.
    @discardableResult
    public func onMagnifier(_ handler: @escaping @MainActor (SketchMagnifierEvent) -> Void) -> SketchObservation {
        register(handler, in: &magnifierObservers)
    }

    /// Stops a handler or stream registered here (a stream finishes).
    /// - Returns: whether the token was registered.
    @discardableResult
    public func removeObserver(_ token: SketchObservation) -> Bool {
        geometryObservers.remove(token.id) || selectionObservers.remove(token.id) || magnifierObservers.remove(token.id)
            || rejectionObservers.remove(token.id) || snapObservers.remove(token.id)
    }

    /// A new stream of every later geometry change (unbounded buffer: iterate it, or remove it
    /// with ``removeObserver(_:)`` via ``geometryChangeStream()``). Ends when dropped.
    package var geometryChanges: AsyncStream<SketchGeometryChange> { geometryChangeStream().stream }

    /// A new stream of geometry changes and the token that finishes it.
    package func geometryChangeStream() -> (stream: AsyncStream<SketchGeometryChange>, token: SketchObservation) {
        let id = takeID()
        return (geometryObservers.stream(id), SketchObservation(id: id))
    }

    /// A new stream of selection changes.
    package var selectionChanges: AsyncStream<SketchSelectionChange> { selectionObservers.stream(takeID()) }

    func register<Event>(
        _ handler: @escaping @MainActor (Event) -> Void, in list: inout ObserverList<Event>
    ) -> SketchObservation {
        let id = takeID()
        list.add(id, handler)
        return SketchObservation(id: id)
    }

    func takeID() -> Int {
        defer { nextObservationID += 1 }
        return nextObservationID
    }

    // MARK: Touch delegate

    /// How far a tap reaches in map units at the map's current resolution: half each marker's
    /// size plus ``SketchSymbology/vertexHitTolerance``, in points, times the resolution.
    package func hitReach(in mapView: MapView) -> SketchHitReach {
        let tol = symbology.vertexHitTolerance
        let res = mapView.viewport.resolution
        return SketchHitReach(
            selectedVertex: (symbology.selectedVertexSymbol.markerSize / 2 + tol) * res,
            vertex: (symbology.vertexSymbol.markerSize / 2 + tol) * res,
            midVertex: (symbology.midVertexSymbol.markerSize / 2 + tol) * res)
    }

    /// Rules 1–3: a tap selects what it hits, or edits the geometry (the vertex tool only: the
    /// other tools leave taps alone).
    public func mapView(_ mapView: MapView, didClickAt screen: ScreenPoint, mapPoint: Point) {
        guard tool == .vertex else { return }
        let reach = hitReach(in: mapView)
        let old = editor.selection
        let hit = mapView.measure(.sketchHitTest) { editor.hitTest(mapPoint, reach: reach) }
        let point = editor.tapEdit(for: hit) == nil ? mapPoint : snapped(mapPoint, context: editor.insertionContext, post: true)
        let operation: ProbedOperation
        switch editor.tapEdit(for: hit) {
        case nil: operation = .sketchSelect
        case .moveVertex?: operation = .vertexMove
        case _?: operation = .vertexInsert
        }
        mapView.measure(operation) {
            let outcome: SketchEditor.TapOutcome
            do {
                outcome = try editor.tap(at: point, hit: hit)
            } catch {
                postRejections(of: error)
                return
            }
            if case .edited(let kind) = outcome { postGeometryChange(.edit(kind)) }
            postSelectionIfChanged(from: old)
        }
    }

    /// Rule 4: a hold on the selected vertex starts dragging it (a hold elsewhere may start a
    /// tool's drag: a transform handle, a freehand stroke, a shape).
    public func mapView(_ mapView: MapView, didTapAndHoldAt screen: ScreenPoint, mapPoint: Point) {
        if toolTakesHold(mapView, at: screen, mapPoint: mapPoint) { return }
        guard case .vertex(let part, let index) = editor.selection,
            mapView.measure(.sketchHitTest, { editor.hitTest(mapPoint, reach: hitReach(in: mapView)) })
                == .vertex(part: part, index: index),
            mapView.measure(.vertexMove, { (try? editor.beginDrag(part: part, index: index)) != nil })
        else {
            if tool == .vertex { _ = beginToolDrag(mapView, at: screen, mapPoint: mapPoint) }
            return
        }
        if mapView.showMagnifierOnTapAndHold { postMagnifier(.show(screen)) }
    }

    /// The dragged vertex follows the finger.
    public func mapView(_ mapView: MapView, didMoveTapAndHoldAt screen: ScreenPoint, mapPoint: Point) {
        if continueToolDrag(mapView, to: screen, mapPoint: mapPoint) { return }
        guard let d = editor.drag else { return }
        let point = snapped(mapPoint, context: .move(part: d.part, index: d.index), post: false)
        mapView.measure(.vertexMove) {
            if editor.updateDrag(to: point) { postGeometryChange(.dragMoved) }
            if magnifierShown { postMagnifier(.move(screen)) }
        }
    }

    /// Release commits the drag as one undo step; a cancelled hold puts the vertex back.
    public func mapView(
        _ mapView: MapView, didEndTapAndHoldAt screen: ScreenPoint, mapPoint: Point, cancelled: Bool
    ) {
        if endToolDrag(mapView, at: screen, mapPoint: mapPoint, cancelled: cancelled) { return }
        guard let d = editor.drag else { return }
        let old = editor.selection
        let point = cancelled ? mapPoint : snapped(mapPoint, context: .move(part: d.part, index: d.index), post: true)
        mapView.measure(.vertexMove) {
            if cancelled {
                snapState = nil
                if editor.cancelDrag() { postGeometryChange(.dragCancelled) }
            } else if editor.endDrag(at: point) {
                postGeometryChange(.edit(.moveVertex))
            } else if postPendingRejections() {
                postGeometryChange(.dragCancelled)  // refused by a rule: the vertex went back
            }
            if magnifierShown { postMagnifier(.hide) }
            postSelectionIfChanged(from: old)
        }
    }

    /// On a map, the sketch's validation is measured by the map's probe (when it has one); its
    /// snap queries read the map through a link the map keeps, made by the first query.
    override func didMove(to mapView: MapView) { editor.probe = mapView.probe }

    override func didLeave(_ mapView: MapView) {
        editor.probe = .none
        if let link = snapLink { mapView.detachSnapLink(link) }
        leaveSnapMap()
    }

    // The map's changes, for the snap queries: its resolution, and the layers they find.
    override func snapResolutionDidChange(_ resolution: Double) { snapCache.resolution = resolution }
    override func snapLayersDidChange() { snapCache.invalidate() }

    /// The map pans for one-finger moves unless a vertex or a tool drag is under way.
    public func mapViewShouldPan(_ mapView: MapView) -> Bool { !isDragging && toolState.drag == nil }

    /// No callouts while sketching.
    public func mapViewShouldShowCallouts(_ mapView: MapView) -> Bool { false }

    // MARK: Drawing

    /// Draws the sketch: main symbol, mid-vertices, vertices, the selected vertex and optional
    /// vertex numbers (see `drawSketchSVG` in SketchLayer+SVG.swift).
    package override func drawSVG(into canvas: inout SVGCanvas, map: MapView) {
        drawSketchSVG(into: &canvas, map: map)
    }
}
