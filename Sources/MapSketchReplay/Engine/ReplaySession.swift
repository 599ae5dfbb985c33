public import MapSketch
import MapSketchGeometry
import Foundation

/// A map set up from a trace's header, fed the trace's events one at a time on a virtual clock.
///
/// The session drives the model only through its public API: it builds a `MapView` with the
/// header's screen, viewport, spatial reference and thresholds, adds the graphics layers and the
/// sketch layer (which becomes the touch delegate), then for each event advances the map's
/// gesture clock to the event's time (`advanceTime(to:)`) and feeds it: touches to
/// `MapView.handle(_:)`, calls to the sketch, layer or map, GPS fixes filtered, projected and
/// appended to the sketch. Nothing sleeps, so the same trace gives the same output on every run.
///
/// The clock fires the map's timers (a hold) at their own times, in order with the events, and
/// after the last event up to the trace's end (``Trace/endTime``), each logged at its own time:
/// a hold that falls between two events is logged at its touch-down plus the hold duration, not
/// at the next event.
///
/// ```swift
/// let session = try ReplaySession(trace: trace, name: "tap")
/// session.run()
/// print(session.output().json)
/// ```
@MainActor
public final class ReplaySession {
    /// The trace being replayed.
    public let trace: Trace
    /// The name reports use (the trace path relative to its corpus).
    public let name: String
    /// The map.
    public let mapView: MapView
    /// The sketch layer, when the header asks for one.
    public let sketch: SketchLayer?
    /// How many events have been applied.
    public private(set) var position = 0
    /// The events the model refused so far, checked against the trace's `expect.refusedCalls`.
    package internal(set) var refusals: ReplayRefusals

    let log = ReplayLog()
    var graphicsLayers: [String: (layer: GraphicsLayer, ids: GraphicIDList)] = [:]
    var gps: GPSIngest
    private var observers: [SketchObservation] = []
    private var observesSnaps = false
    /// Measures the replay's operations (`mapsketch bench`); nil when not measuring, which costs
    /// one nil check per event.
    let probe: (any ReplayProbe)?
    /// The probe's `OperationProbe.wrapsOperations`, read once.
    private let probeWraps: Bool
    /// The team's own code installed in this session's map (``ReplayExtensions``).
    public let extensions: ReplayExtensions
    /// What the extensions' registrations keep alive; made when the first is installed, so a
    /// replay without extensions allocates nothing for them.
    lazy var extensionKeeper = ReplayExtensionKeeper()

    /// Sets up the map from the trace's header.
    /// - Throws: ``ReplayError`` when the header describes something the model refuses (a
    ///   duplicate layer name, a renderer the map rejects, a non-finite sketch coordinate).
    public convenience init(trace: Trace, name: String) throws(ReplayError) {
        try self.init(trace: trace, name: name, probe: nil)
    }

    /// Sets up the map from the trace's header, then installs `extensions` (the team's own
    /// validation rules, observers and tools, in registration order).
    /// - Throws: ``ReplayError`` as ``init(trace:name:)``.
    public convenience init(trace: Trace, name: String, extensions: ReplayExtensions) throws(ReplayError) {
        try self.init(trace: trace, name: name, probe: nil, extensions: extensions)
    }

    /// Sets up the map from the trace's header, with `probe` measuring every operation (the
    /// renderer lookups of the header's graphics included), then installs `extensions`, each
    /// measured as its own kind.
    package init(trace: Trace, name: String, probe: (any ReplayProbe)?, extensions: ReplayExtensions = .none) throws(ReplayError) {
        self.trace = trace
        self.name = name
        self.probe = probe
        self.extensions = extensions
        probeWraps = probe?.wrapsOperations ?? false
        let h = trace.header
        refusals = ReplayRefusals(declared: h.expect.refusedCalls)
        mapView = MapView(
            screenSize: h.screen, viewport: h.viewport, spatialReference: h.spatialReference, thresholds: h.thresholds, operationProbe: probe)
        mapView.wrapAround = h.options.wrapAround
        mapView.showMagnifierOnTapAndHold = h.options.showMagnifierOnTapAndHold
        mapView.allowRotationByPinching = h.options.allowRotationByPinching
        log.reportsRotation = h.options.allowRotationByPinching
        gps = GPSIngest(filter: h.gpsFilter, from: h.gpsSpatialReference, to: h.spatialReference)
        do {
            for l in h.layers { try Self.addLayer(l, to: mapView, into: &graphicsLayers, probe: probe, files: trace.files) }
            if let s = h.sketch {
                let layer: SketchLayer
                if let g = s.geometry { layer = try SketchLayer(geometry: g) } else { layer = try SketchLayer(geometryType: s.geometryType) }
                layer.levelsOfUndo = h.options.levelsOfUndo ?? 0
                layer.symbology.showsVertexNumbers = h.options.showVertexNumbers
                layer.symbology.vertexHitTolerance = h.vertexHitTolerance
                layer.validation = h.options.validation.sketchValidation
                if let s = h.options.snapping { layer.snapSettings = s }
                try mapView.addLayer(layer, named: "sketch")
                mapView.touchDelegate = layer
                sketch = layer
            } else {
                sketch = nil
            }
        } catch let e as ReplayError {
            throw e
        } catch {
            throw ReplayError(line: 1, message: "the header cannot be set up: \(error)")
        }
        observe()
        installExtensions()
    }

    /// Stops counting the sketch's own events (edits, selections, magnifier) in the log: for a
    /// one-shot conversion whose log nobody reads, where they cost more than the append itself.
    func stopLoggingSketchEvents() {
        guard let sketch else { return }
        for token in observers { _ = sketch.removeObserver(token) }
        observers.removeAll()
        observesSnaps = false
    }

    private func observe() {
        mapView.addEventObserver { [weak self] e in self?.mapEvent(e) }
        guard let sketch else { return }
        observers.append(sketch.onGeometryChanged { [weak self] c in self?.log.geometryChanged(c) })
        observers.append(sketch.onSelectionChanged { [weak self] c in self?.log.selectionChanged(c.new) })
        observers.append(
            sketch.onEditRejected { [weak self] r in
                self?.log.append(
                    .rejected, ["rule": .string(r.rule.rawValue), "kind": .string(ReplayLog.name(r.kind)), "reason": .string(r.reason)])
            })
        if trace.header.options.snapping != nil { observeSnaps() }
        observers.append(
            sketch.onMagnifier { [weak self] m in
                switch m {
                case .show(let s): self?.log.append(.magnifier, ["x": .number(s.x), "y": .number(s.y)])
                case .move: break
                case .hide: self?.log.append(.magnifierHide)
                }
            })
    }

    /// Logs the sketch's snaps from now on: only once the trace turns snapping on (its header or
    /// a `setSnapping` call), so a trace that never snaps pays nothing for the observer.
    private func observeSnaps() {
        guard !observesSnaps, let sketch else { return }
        observesSnaps = true
        observers.append(sketch.onSnapped { [weak self] s in self?.logSnap(s) })
    }

    private func mapEvent(_ e: MapEvent) {
        switch e {
        case .gesture(let g): log.gesture(g)
        case .calloutShown(let c):
            log.append(.callout, ["layer": .string(c.layerName), "graphic": .integer(Int64(graphicIndex(c.layerName, c.graphicID) ?? -1)), "title": .string(c.title), "detail": .string(c.detail)])
        case .calloutDismissed: log.append(.calloutDismissed)
        case .symbolMismatch(let m): log.append(.symbolMismatch, ["message": .string(m.description)])
        case .layerAdded, .layerRemoved, .layerLoaded, .layerFailedToLoad, .layerError: break
        }
    }

    private func graphicIndex(_ layer: String, _ id: GraphicID) -> Int? {
        graphicsLayers[layer]?.ids.firstIndex(of: id)
    }

    /// Adds a graphics layer: the features of its ``TraceGraphicsLayer/source`` file (resolved
    /// against `files`), then its graphics.
    /// - Throws: ``ReplayError`` at the `source` member for a layer file that cannot be used; the
    ///   model's errors otherwise.
    static func addLayer(
        _ l: TraceGraphicsLayer, to map: MapView, into layers: inout [String: (layer: GraphicsLayer, ids: GraphicIDList)],
        probe: (any ReplayProbe)?, files: TraceFiles? = nil
    ) throws {
        func configure(_ layer: GraphicsLayer) throws {
            layer.isHitTestEnabled = l.hitTestable
            layer.calloutsEnabled = l.calloutsEnabled
            if let r = l.renderer { layer.renderer = try TraceModelBridge.renderer(r) }
        }
        var ids = GraphicIDList()
        let layer: GraphicsLayer
        if let source = l.source {
            // The layer joins the map before its first feature, so each batch is projected and
            // indexed as it is added (joining later would project and index every feature again).
            layer = try LayerFileLoader.load(source, layer: l.name, files: files, ids: &ids, probe: probe) { layer in
                try configure(layer)
                try map.addLayer(layer, named: l.name)
            }
        } else {
            layer = GraphicsLayer()
            try configure(layer)
            try map.addLayer(layer, named: l.name)
        }
        for g in l.graphics {
            ids.append(
                try add(
                    TraceModelBridge.graphic(g, mapSpatialReference: map.spatialReference, layerSpatialReference: layer.spatialReference),
                    to: layer, probe: probe))
        }
        layers[l.name] = (layer, ids)
    }

    /// Adds a graphic to a layer. Under a bench, the layer's renderer lookup for the graphic (the
    /// one the layer makes when a graphic has no symbol of its own) is timed first, on the same
    /// renderer and attributes.
    static func add(_ graphic: Graphic, to layer: GraphicsLayer, probe: (any ReplayProbe)?) throws -> GraphicID {
        if let probe, graphic.symbol == nil, let renderer = layer.renderer {
            probe.keep(probe.measure(.rendererLookup(.init(renderer))) { renderer.symbolIndex(for: graphic.attributes) })
        }
        return try layer.add(graphic)
    }

    /// Whether every event has been applied.
    public var isFinished: Bool { position >= trace.events.count }

    /// Applies the next event, after the map's timers due up to its time (each logged at its own
    /// time). When every event has been applied, it fires the timers due up to the trace's end
    /// (``finish()``) and returns false.
    @discardableResult
    public func step() -> Bool {
        guard position < trace.events.count else {
            finish()
            return false
        }
        apply(at: position)
        position += 1
        return true
    }

    /// Applies events until `count` have been applied, each after the timers due up to its time,
    /// without sleeping; with `count` nil (or at least the number of events), runs on to the
    /// trace's end (``finish()``).
    public func run(upTo count: Int? = nil) {
        let end = min(count ?? trace.events.count, trace.events.count)
        while position < end { step() }
        if end == trace.events.count { finish() }
        log.flush()
    }

    /// Applies every event and fires every timer, sleeping until each one's time so the replay
    /// keeps the trace's pace (`speed` > 1 runs faster), then runs on to the trace's end. Only for
    /// watching a replay; output is the same as ``run(upTo:)``.
    package func runPaced(speed: Double = 1) async {
        var last = trace.events.first?.t ?? 0
        while let next = nextOnClock() {
            let wait = (next.time - last) / max(speed, 1e-9)
            if wait > 0 { try? await Task.sleep(nanoseconds: UInt64(min(wait, 3600) * 1e9)) }
            last = max(last, next.time)
            if next.isTimer { advanceClock(to: next.time) } else { step() }
        }
        finish()
        log.flush()
    }

    /// Applies one event: advance the clock to its time (firing the timers due by then, each at
    /// its own time), then feed it. The one place each kind of trace event is dispatched
    /// (``step()``, ``run(upTo:)`` and ``runPaced(speed:)`` all come here), so a hook around an
    /// event kind goes here.
    func apply(at index: Int) {
        advanceClock(to: trace.events[index].t)
        guard let probe else { return feed(index) }
        // Each event is one operation of the kind of event it is (what the map, the sketch and
        // the GPS stages do with it nests inside); timers fire before it, as their own.
        let operation: ReplayOperation
        switch trace.events[index].event {
        case .touch: operation = .touch
        case .gps: operation = .gpsFix
        case .call(let c): operation = .call(c.name)
        }
        // The probe's own calls, not its generic `measure`: this runs for every event.
        if probeWraps {
            probe.wrap(operation) { feed(index) }
        } else {
            let mark = probe.begin(operation)
            feed(index)
            probe.end(operation, mark)
        }
    }

    /// Feeds event `index` to the model: a touch to the map, a fix through the GPS stages to the
    /// sketch, a call to the sketch, a layer or the map. Reads the event in place: copying it
    /// (its call's strings and geometry) would cost more than a touch's whole recognition.
    private func feed(_ index: Int) {
        switch trace.events[index].event {
        case .touch(let phase, let id, let location):
            mapView.handle(TouchEvent(time: trace.events[index].t, id: id, phase: phase, location: location))
        case .gps(let fix):
            if let refused = gps.ingest(fix, into: sketch, log: log, probe: probe) {
                refusals.note(RefusedEvent(line: trace.events[index].line, call: "gps", message: refused))
            }
        case .call(let c): perform(c, line: trace.events[index].line)
        }
    }

    /// Makes a trace call; a call the model refuses is logged as an `error` event (a rejected edit
    /// is logged as `rejected` by the layer's rejection observer).
    private func perform(_ c: TraceCall, line: Int) {
        do {
            try call(c)
        } catch SketchError.editRejected {
            // Logged as `rejected` by the layer's rejection observer.
        } catch {
            log.append(.error, ["line": .integer(Int64(line)), "call": .string(c.name.rawValue), "message": .string("\(error)")])
            refusals.note(RefusedEvent(line: line, call: c.name.rawValue, message: "\(error)"))
        }
    }

    private func requireSketch(_ c: TraceCall) throws -> SketchLayer {
        guard let sketch else { throw ReplayCallError("\(c.name.rawValue) needs a sketch (the header has no \"sketch\")") }
        return sketch
    }

    private func requireLayer(_ name: String) throws -> (layer: GraphicsLayer, ids: GraphicIDList) {
        guard let l = graphicsLayers[name] else { throw ReplayCallError("no graphics layer named \"\(name)\"") }
        return l
    }

    private func call(_ c: TraceCall) throws {
        switch c {
        case .undo: if try !requireSketch(c).undo() { log.append(.undo, ["done": false]) }
        case .redo: if try !requireSketch(c).redo() { log.append(.redo, ["done": false]) }
        case .insertVertex(let part, let index, let p): try requireSketch(c).insertVertex(p, part: part, at: index)
        case .moveVertex(let part, let index, let p): try requireSketch(c).moveVertex(part: part, index: index, to: p)
        case .removeVertex(let part, let index): try requireSketch(c).removeVertex(part: part, index: index)
        case .addPart: _ = try requireSketch(c).addPart()
        case .removePart(let part): try requireSketch(c).removePart(part)
        case .removeSelectedVertex: try requireSketch(c).removeSelectedVertex()
        case .removeSelectedPart: try requireSketch(c).removeSelectedPart()
        case .selectVertex(let part, let index): try requireSketch(c).select(.vertex(part: part, index: index))
        case .selectLastVertex: try requireSketch(c).selectLastVertex()
        case .clearSelection: try requireSketch(c).select(.none)
        case .clear: try requireSketch(c).clear()
        case .applyGeometry(let g): try requireSketch(c).applyGeometry(g)
        case .setGeometry(let g): try requireSketch(c).setGeometry(g)
        case .addGraphic(let name, let g):
            var l = try requireLayer(name)
            let graphic = try TraceModelBridge.graphic(
                g, mapSpatialReference: mapView.spatialReference, layerSpatialReference: l.layer.spatialReference)
            l.ids.append(try Self.add(graphic, to: l.layer, probe: probe))
            graphicsLayers[name] = l
            log.append(.graphicAdded, ["layer": .string(name), "graphic": .integer(Int64(l.ids.count - 1))])
        case .removeGraphic(let name, let index):
            var l = try requireLayer(name)
            guard l.ids.indices.contains(index) else {
                throw ReplayCallError("graphic index \(index) out of range (layer \"\(name)\" has \(l.ids.count) graphics)")
            }
            _ = l.layer.remove(l.ids[index])
            l.ids.remove(at: index)
            graphicsLayers[name] = l
            log.append(.graphicRemoved, ["layer": .string(name), "graphic": .integer(Int64(index))])
        case .removeAllGraphics(let name):
            var l = try requireLayer(name)
            l.layer.removeAll()
            l.ids.removeAll()
            graphicsLayers[name] = l
            log.append(.graphicsCleared, ["layer": .string(name)])
        case .addGraphicsLayer(let layer):
            try Self.addLayer(layer, to: mapView, into: &graphicsLayers, probe: probe)
            log.append(.layerAdded, ["layer": .string(layer.name)])
        case .removeLayer(let name):
            try mapView.removeLayer(named: name)
            graphicsLayers[name] = nil
            log.append(.layerRemoved, ["layer": .string(name)])
        case .setViewport(let v): mapView.viewport = v
        case .pan(let dx, let dy): mapView.pan(byScreenDeltaX: dx, dy: dy)
        case .zoom(let factor, let ax, let ay):
            mapView.zoom(by: factor, anchor: ax.flatMap { x in ay.map { ScreenPoint(x: x, y: $0) } })
        default:
            try toolCall(c)
        }
    }

    /// Logs a snap: what the point snapped to (`target`: `vertex`, `edge` or `guide` with its
    /// `guide` kind), where (`layer` and `graphic` index for a graphics layer, else the sketch;
    /// `part`, `index`) and the snapped map point.
    private func logSnap(_ s: SnapTarget) {
        var o: JSONObject = [:]
        switch s.kind {
        case .vertex: o["target"] = "vertex"
        case .edge: o["target"] = "edge"
        case .guide(let g):
            o["target"] = "guide"
            o["guide"] = .string(g.rawValue)
        }
        switch s.source {
        case .sketch: o["source"] = "sketch"
        case .layer(let name, let id):
            o["source"] = "layer"
            o["layer"] = .string(name)
            o["graphic"] = .integer(Int64(graphicIndex(name, id) ?? -1))
        }
        o["part"] = .integer(Int64(s.part))
        o["index"] = .integer(Int64(s.index))
        o["x"] = .number(s.point.x)
        o["y"] = .number(s.point.y)
        log.append(.snapped, o)
    }

    /// The calls of format version 3: part and geometry selection, transforms, tools, the reticle.
    private func toolCall(_ c: TraceCall) throws {
        let sketch = try requireSketch(c)
        switch c {
        case .selectPart(let part): try sketch.selectPart(part)
        case .selectGeometry: try sketch.selectGeometry()
        case .moveSelection(let dx, let dy): try sketch.moveSelection(dx: dx, dy: dy)
        case .rotateSelection(let degrees, let anchor): try sketch.rotateSelection(degrees: degrees, anchor: anchor)
        case .scaleSelection(let sx, let sy, let anchor): try sketch.scaleSelection(x: sx, y: sy, anchor: anchor)
        case .setTransformAnchor(let anchor): sketch.transformAnchor = anchor
        case .setTool(let tool):
            try sketch.setTool(tool)
            var o: JSONObject = ["tool": .string(tool.name)]
            if case .shape(let shape) = tool { o["shape"] = .string(shape.name) }
            log.append(.tool, o)
        case .reticleSelect: try sketch.reticleSelect()
        case .reticlePickUp:
            try sketch.reticlePickUp()
            log.append(.pickedUp, ["selection": ReplayLog.json(sketch.reticlePickedUp ?? .none)])
        case .reticlePlace: try sketch.reticlePlace()
        case .reticleCancel:
            let had = sketch.reticlePickedUp != nil
            try sketch.reticleCancel()
            if had { log.append(.pickUpCancelled) }
        case .setSnapping(let s):
            sketch.snapSettings = s
            observeSnaps()
        default:
            throw ReplayCallError("\(c.name.rawValue) is not a tool call")
        }
    }
}
