/// An operation inside the map model that a measuring tool can time: the work a touch causes
/// between the map receiving it and the sketch changing.
///
/// The calls an app makes itself (programmatic edits, undo, redo) are timed around the call by
/// whoever makes it; these are the operations only the model can delimit.
public enum ProbedOperation: Int, Hashable, Sendable, CaseIterable {
    /// The gesture recogniser turning one raw touch into gestures.
    case gestureRecognition
    /// A map hit test for a tap (the graphics under it, topmost first), as a callout makes it.
    case mapHitTest
    /// The sketch's vertex / mid-vertex hit test for a tap or a hold.
    case sketchHitTest
    /// A tap on a vertex or mid-vertex selecting it.
    case sketchSelect
    /// A tap on the map inserting (or appending) a vertex.
    case vertexInsert
    /// A tap moving a point sketch's point, or one step of a vertex drag (and its release).
    case vertexMove
    /// A snap query: the point under the finger snapped to the sketch, the chosen graphics
    /// layers or a geometry guide (a tap that adds a vertex, a drag step, a reticle placement).
    case snapQuery
}

/// Times the model's operations (``ProbedOperation``) for a measuring tool, such as the replay
/// harness's `bench`. A map without a probe (the default) pays one nil check per operation.
@MainActor
package protocol OperationProbe: AnyObject {
    /// Runs `body`, the whole of one `operation`, and measures it. (Not generic, so the call
    /// through the existential stays a plain indirect call.)
    func measure(_ operation: ProbedOperation, _ body: () throws -> Void) rethrows
}

extension MapView {
    /// Runs `body` as one `operation`, measured by the map's probe when it has one.
    @inline(__always)
    package func measure<Result>(_ operation: ProbedOperation, _ body: () throws -> Result) rethrows -> Result {
        guard let probe = operationProbe else { return try body() }
        var result: Result?
        try probe.measure(operation) { result = try body() }
        // `result` is set once `measure` returns; evaluating `body` again is unreachable.
        return try result ?? body()
    }
}
