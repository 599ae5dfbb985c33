public import MapSketchGeometry

/// How touches edit a sketch, as the tools of ArcGIS's `GeometryEditor`. Every tool edits the
/// same sketch: switching (``SketchLayer/setTool(_:)``) keeps the geometry, the selection and
/// the undo history.
///
/// - ``vertex``: the sketch layer's own rules (taps add and select vertices, a hold on the
///   selected vertex drags it), the default. See <doc:VertexTool>.
/// - ``freehand(tolerance:)``: a one-finger drag draws a stroke that becomes a new part when the
///   finger lifts, simplified so no vertex dropped was more than `tolerance` points off the
///   stroke. See <doc:FreehandTool>.
/// - ``shape(_:)``: a drag from one corner of a box to the other draws a ``SketchShape`` in it.
///   See <doc:ShapeTool>.
/// - ``reticle``: touches only move the map; the reticle calls (select, pick up, place) edit at
///   the screen's centre. See <doc:ReticleTool>.
///
/// Under every tool but the reticle, a part or the whole geometry selected shows transform
/// handles, and a drag that starts on one moves, rotates or scales the selection (see
/// <doc:TransformsAndValidation>).
public enum SketchTool: Hashable, Sendable, CustomStringConvertible {
    /// Taps add and select vertices; holds drag the selected vertex (the default).
    case vertex
    /// A drag draws a stroke, simplified by Douglas–Peucker with `tolerance` in points.
    case freehand(tolerance: Double = SketchTool.defaultFreehandTolerance)
    /// A drag draws `shape` in the box from where it starts to where it ends.
    case shape(SketchShape)
    /// Edits happen at the screen's centre, by the reticle calls.
    case reticle

    /// The freehand tolerance when none is given: 2 points.
    public static let defaultFreehandTolerance: Double = 2

    /// The tool's name, as traces and logs write it: `vertex`, `freehand`, `shape` or `reticle`.
    public var name: String {
        switch self {
        case .vertex: "vertex"
        case .freehand: "freehand"
        case .shape: "shape"
        case .reticle: "reticle"
        }
    }

    /// The name, with the shape for the shape tool (`shape(ellipse)`).
    public var description: String {
        switch self {
        case .shape(let s): "shape(\(s.name))"
        default: name
        }
    }

    /// Checks that the tool can sketch `type` with its settings.
    /// - Throws: ``SketchError/toolUnsupported(tool:geometryType:)`` (freehand and shapes draw
    ///   polylines and polygons); ``SketchError/invalidToolSetting(_:)`` for a tolerance that is
    ///   negative or not finite, or an ellipse of fewer than 3 or more than 100,000 vertices.
    package func check(for type: GeometryType) throws {
        switch self {
        case .vertex, .reticle: return
        case .freehand(let tolerance):
            guard tolerance >= 0, tolerance.isFinite else {
                throw SketchError.invalidToolSetting("the freehand tolerance must be a finite number of points ≥ 0, not \(tolerance)")
            }
        case .shape(let shape):
            if case .ellipse(let n) = shape, !(3...SketchShape.maximumEllipseVertices).contains(n) {
                throw SketchError.invalidToolSetting(
                    "an ellipse needs 3 to \(SketchShape.maximumEllipseVertices) vertices, not \(n)")
            }
        }
        guard type == .polyline || type == .polygon else {
            throw SketchError.toolUnsupported(tool: name, geometryType: type)
        }
    }
}

/// The drag a tool has under way (at most one at a time).
enum SketchToolDrag {
    /// A transform handle; the finger was last at `last` (map units).
    case handle(last: Point)
    /// A freehand stroke: the finger's positions so far, in map units.
    case stroke([Point])
    /// A shape: where the drag started and where the finger is, on screen.
    case shape(start: ScreenPoint, current: ScreenPoint)
}

/// The tool of a sketch layer and what it has under way.
struct SketchToolState {
    var tool: SketchTool = .vertex
    var drag: SketchToolDrag?
    /// The vertex or mid-vertex the reticle picked up.
    var pickedUp: SketchSelection?
    /// The anchor of interactive rotations and scales (nil: the selection's centroid).
    var transformAnchor: Point?
}

extension SketchLayer {
    /// The tool touches edit with (``SketchTool/vertex`` unless set).
    public var tool: SketchTool { toolState.tool }

    /// Switches to `tool`, keeping the geometry, the selection and the undo history. A drag under
    /// way ends as if the finger lifted (a vertex drag, transform, stroke or shape is committed
    /// as one step); a vertex the reticle picked up is put down where it is.
    /// - Throws: what ``SketchTool/check(for:)`` throws; the tool stays as it was then.
    public func setTool(_ tool: SketchTool) throws {
        try tool.check(for: geometryType)
        finishToolDrag()
        toolState.pickedUp = nil
        toolState.tool = tool
    }

    /// Ends the drag under way as a release where the finger last was.
    func finishToolDrag() {
        if let d = toolState.drag, let map = mapView {
            switch d {
            case .handle(let last): _ = endToolDrag(map, at: map.toScreen(last), mapPoint: last, cancelled: false)
            case .stroke(let points):
                if let last = points.last { _ = endToolDrag(map, at: map.toScreen(last), mapPoint: last, cancelled: false) }
            case .shape(_, let current): _ = endToolDrag(map, at: current, mapPoint: map.toMap(current), cancelled: false)
            }
        }
        toolState.drag = nil
        if isDragging { perform(.edit(.moveVertex)) { $0.commitDrag() } }
    }

    // MARK: Drags

    /// Starts the drag the tool makes of a finger down at `screen`: a transform when it is on a
    /// handle, else a stroke (freehand) or a shape. The vertex and reticle tools start none
    /// (the vertex tool's own drag is rule 4's).
    /// - Returns: whether a drag started.
    func beginToolDrag(_ map: MapView, at screen: ScreenPoint, mapPoint: Point) -> Bool {
        if case .reticle = tool { return false }
        if let scope = editor.selection.transformScope, let handle = handleHit(at: screen, in: map) {
            let anchor = toolState.transformAnchor
            return map.measure(.transformHandle) {
                do {
                    try perform(.dragMoved) { try $0.beginTransform(handle.kind, of: scope, at: mapPoint, anchor: anchor); return false }
                } catch {
                    return false
                }
                toolState.drag = .handle(last: mapPoint)
                return true
            }
        }
        switch tool {
        case .freehand: map.measure(.toolStroke) { toolState.drag = .stroke([mapPoint]) }
        case .shape: map.measure(.toolStroke) { toolState.drag = .shape(start: screen, current: screen) }
        case .vertex, .reticle: return false
        }
        return true
    }

    /// The finger of the tool's drag is at `screen`: a transform follows it (the geometry is not
    /// touched, O(1)), a stroke gains a point, a shape's box grows.
    /// - Returns: whether a tool drag is under way.
    func continueToolDrag(_ map: MapView, to screen: ScreenPoint, mapPoint: Point) -> Bool {
        guard let kind = toolDragOperation else { return false }
        map.measure(kind) { stepDrag(to: screen, mapPoint: mapPoint) }
        return true
    }

    /// The operation the drag under way is measured as (nil: none is under way). Reads the drag
    /// without retaining a stroke's points, which must stay uniquely referenced as they grow.
    private var toolDragOperation: ProbedOperation? {
        switch toolState.drag {
        case .handle?: .transformHandle
        case .stroke?, .shape?: .toolStroke
        case nil: nil
        }
    }

    /// One step of the drag under way.
    private func stepDrag(to screen: ScreenPoint, mapPoint: Point) {
        guard let d = toolState.drag else { return }
        switch d {
        case .handle:
            toolState.drag = .handle(last: mapPoint)
            if editor.updateTransform(to: mapPoint) { postGeometryChange(.dragMoved) }
        case .stroke(var points):
            toolState.drag = nil  // keep the array uniquely referenced while it grows
            if points.last.map({ !$0.equals2D(mapPoint) }) ?? true { points.append(mapPoint) }
            toolState.drag = .stroke(points)
        case .shape(let start, _):
            toolState.drag = .shape(start: start, current: screen)
        }
    }

    /// The finger of the tool's drag lifted at `screen` (or the drag was cancelled): the
    /// transform, stroke or shape becomes one undo step, or goes away.
    /// - Returns: whether a tool drag was under way.
    func endToolDrag(_ map: MapView, at screen: ScreenPoint, mapPoint: Point, cancelled: Bool) -> Bool {
        guard let kind = toolDragOperation else { return false }
        map.measure(kind) { finishDrag(map, at: screen, mapPoint: mapPoint, cancelled: cancelled) }
        return true
    }

    /// The end of the drag under way.
    private func finishDrag(_ map: MapView, at screen: ScreenPoint, mapPoint: Point, cancelled: Bool) {
        guard let d = toolState.drag else { return }
        toolState.drag = nil
        switch d {
        case .handle:
            if cancelled {
                if editor.cancelTransform() { postGeometryChange(.dragCancelled) }
                return
            }
            let old = editor.selection
            if editor.endTransform(at: mapPoint) {
                postGeometryChange(.edit(.transform))
            } else if postPendingRejections() {
                postGeometryChange(.dragCancelled)
            }
            postSelectionIfChanged(from: old)
        case .stroke(var points):
            guard !cancelled else { return }
            if points.last.map({ !$0.equals2D(mapPoint) }) ?? true { points.append(mapPoint) }
            guard case .freehand(let tolerance) = tool else { return }
            let deviation = tolerance * map.viewport.resolution
            _ = try? perform(.edit(.freehand)) { try $0.addFreehandStroke(points, maxDeviation: deviation) }
        case .shape(let start, _):
            guard !cancelled, case .shape(let shape) = tool else { return }
            let vertices = shape.vertices(shape.outline(from: start, to: screen).map(map.toMap), closedPath: geometryType == .polyline)
            _ = try? perform(.edit(.shape)) { try $0.addShape(vertices) }
        }
    }

    /// Whether the tool keeps a hold to itself: the reticle tool ignores holds, freehand and
    /// shapes start their drag with one (after a finger rested before moving).
    func toolTakesHold(_ map: MapView, at screen: ScreenPoint, mapPoint: Point) -> Bool {
        switch tool {
        case .vertex: return false
        case .reticle: return true
        case .freehand, .shape:
            _ = beginToolDrag(map, at: screen, mapPoint: mapPoint)
            return true
        }
    }

    // MARK: Drags the map hands over

    /// A one-finger drag starting at `screen`: taken when it starts on a transform handle, or
    /// by the freehand and shape tools (the map then does not pan).
    public func mapView(_ mapView: MapView, shouldBeginDragAt screen: ScreenPoint, mapPoint: Point) -> Bool {
        guard !isDragging else { return false }
        return beginToolDrag(mapView, at: screen, mapPoint: mapPoint)
    }

    /// The finger of a drag the layer took moved.
    public func mapView(_ mapView: MapView, didDragTo screen: ScreenPoint, mapPoint: Point) {
        _ = continueToolDrag(mapView, to: screen, mapPoint: mapPoint)
    }

    /// The drag the layer took ended: committed as one step, or dropped when cancelled.
    public func mapView(_ mapView: MapView, didEndDragAt screen: ScreenPoint, mapPoint: Point, cancelled: Bool) {
        _ = endToolDrag(mapView, at: screen, mapPoint: mapPoint, cancelled: cancelled)
    }
}
