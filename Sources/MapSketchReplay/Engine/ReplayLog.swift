import MapSketch
import MapSketchGeometry

/// The event log of a replay: gestures the map recognised, sketch edits and selections,
/// magnifier, callouts and failed calls, in the order they happened.
///
/// The many small steps of a pan, a hold drag or a vertex drag are coalesced into one entry each
/// (with the total delta or step count) so golden files stay readable. A pinch is one entry too,
/// with its totals and a `path` row per step: the step's time, focal point and scale since the
/// pinch began (and its rotation, when the map turns with the fingers).
///
/// A reference: the session, its sketch's observers and the GPS ingest all write to the one log,
/// the observers while the ingest is appending a vertex.
@MainActor
final class ReplayLog {
    /// The entries, each a JSON object with `t` and `event`.
    private(set) var entries: [JSONValue] = []
    /// The current event time.
    var now: Double = 0
    /// Counts by event (coalesced steps count once per gesture).
    private(set) var counts: [ReplayLogEvent: Int] = [:]

    private var pan: (t: Double, dx: Double, dy: Double, steps: Int)?
    private var pinch: (t: Double, start: ScreenPoint, last: PinchStep, path: [JSONValue])?
    /// Whether pinch entries report the fingers' rotation (the map turns with them).
    var reportsRotation = false
    private var holdMoves: (t: Double, count: Int)?
    private var dragMoves: (t: Double, count: Int)?

    /// While true, entries are counted (in ``counts``) but not written (see ``countingOnly(_:)``).
    private var muted = false

    /// Runs `body` with the entries it causes counted but not written: GPS appends would otherwise
    /// put thousands of identical edit and select entries in the log.
    func countingOnly<T>(_ body: () throws -> T) rethrows -> T {
        muted = true
        defer { muted = false }
        return try body()
    }

    /// Writes an entry (or, muted, only counts it: its members are then never built).
    func append(_ event: ReplayLogEvent, _ members: @autoclosure () -> JSONObject = [:]) {
        if muted {
            counts[event, default: 0] += 1
            return
        }
        flush()
        emit(event, members())
    }

    private func emit(_ event: ReplayLogEvent, _ members: JSONObject, at t: Double? = nil) {
        var o: JSONObject = ["t": .number(t ?? now), "event": .string(event.rawValue)]
        for (k, v) in members { o[k] = v }
        entries.append(.object(o))
        counts[event, default: 0] += 1
    }

    /// Writes any pending coalesced pan, pinch, hold moves or drag moves.
    func flush() {
        if let p = pan {
            pan = nil
            emit(.pan, ["dx": .number(p.dx), "dy": .number(p.dy), "steps": .integer(Int64(p.steps))], at: p.t)
        }
        if let p = pinch {
            pinch = nil
            var o: JSONObject = [
                "x": .number(p.start.x), "y": .number(p.start.y),
                "toX": .number(p.last.focalPoint.x), "toY": .number(p.last.focalPoint.y),
                "scale": .number(p.last.scale),
            ]
            if reportsRotation { o["rotation"] = .number(p.last.rotation) }
            o["steps"] = .integer(Int64(p.path.count))
            o["path"] = .array(p.path)
            emit(.pinch, o, at: p.t)
        }
        if let h = holdMoves {
            holdMoves = nil
            emit(.holdMove, ["count": .integer(Int64(h.count))], at: h.t)
        }
        if let d = dragMoves {
            dragMoves = nil
            emit(.dragMove, ["count": .integer(Int64(d.count))], at: d.t)
        }
    }

    /// Logs a gesture the map recognised.
    func gesture(_ g: Gesture) {
        switch g {
        case .tap(let s): append(.tap, ["x": .number(s.x), "y": .number(s.y)])
        case .holdBegan(let s): append(.hold, ["x": .number(s.x), "y": .number(s.y)])
        case .holdMoved:
            holdMoves = (holdMoves?.t ?? now, (holdMoves?.count ?? 0) + 1)
        case .holdEnded(let s): append(.holdEnd, ["x": .number(s.x), "y": .number(s.y)])
        case .holdCancelled: append(.holdCancel)
        case .pan(let from, let to):
            if pan == nil { flush() }
            let p = pan ?? (now, 0, 0, 0)
            pan = (p.t, p.dx + to.x - from.x, p.dy + to.y - from.y, p.steps + 1)
        case .panEnded:
            flush()
        case .pinch(let step):
            if pinch == nil { flush() }
            var p = pinch ?? (now, step.startFocalPoint, step, [])
            var row: [JSONValue] = [.number(now), .number(step.focalPoint.x), .number(step.focalPoint.y), .number(step.scale)]
            if reportsRotation { row.append(.number(step.rotation)) }
            p.path.append(.array(row))
            p.last = step
            pinch = p
        case .pinchEnded:
            flush()
        }
    }

    /// Logs a geometry change of the sketch.
    func geometryChanged(_ c: SketchGeometryChange) {
        switch c.reason {
        case .dragMoved:
            // Keep hold moves and drag moves as two counters without flushing one another.
            dragMoves = (dragMoves?.t ?? now, (dragMoves?.count ?? 0) + 1)
        case .edit(let kind): append(.edit, ["kind": .string(Self.name(kind))])
        case .dragCancelled: append(.dragCancelled)
        case .undo: append(.undo)
        case .redo: append(.redo)
        case .replaced: append(.setGeometry)
        }
    }

    static func name(_ k: SketchEditRecord.Kind) -> String {
        switch k {
        case .insertVertex: "insertVertex"
        case .removeVertex: "removeVertex"
        case .moveVertex: "moveVertex"
        case .addPart: "addPart"
        case .removePart: "removePart"
        case .replaceGeometry: "replaceGeometry"
        case .transform: "transform"
        case .freehand: "freehand"
        case .shape: "shape"
        case .appendVertices: "appendVertices"
        }
    }

    /// Logs a selection change.
    func selectionChanged(_ s: SketchSelection) {
        append(.select, ["selection": Self.json(s)])
    }

    static func json(_ s: SketchSelection) -> JSONValue {
        switch s {
        case .none: .null
        case .vertex(let p, let i): ["vertex": .integer(Int64(i)), "part": .integer(Int64(p))]
        case .midVertex(let p, let seg): ["midVertex": .integer(Int64(seg)), "part": .integer(Int64(p))]
        case .part(let p): ["part": .integer(Int64(p))]
        case .geometry: ["geometry": true]
        }
    }
}

/// The names of the replay log's entries, as the output's `"event"` members and `counts` keys
/// write them.
enum ReplayLogEvent: String, CaseIterable, Sendable {
    // Gestures the map recognised (pan, pinch and the move steps coalesced).
    case tap, hold, holdMove, holdEnd, holdCancel, pan, pinch
    // Sketch changes and selection.
    case edit, dragMove, dragCancelled, undo, redo, setGeometry, select, magnifier, magnifierHide
    // Callouts, symbols and graphics layers.
    case callout, calloutDismissed, symbolMismatch, graphicAdded, graphicRemoved, graphicsCleared, layerAdded, layerRemoved
    // Tools: the tool switched, the reticle's pick-up and its cancel, and edits a validation
    // rule rejected.
    case tool, pickedUp, pickUpCancelled, rejected
    // Snapping: a point snapped to a vertex, an edge or a guide.
    case snapped
    // GPS parts, and calls or fixes the model refused.
    case gpsSegment, error
}
