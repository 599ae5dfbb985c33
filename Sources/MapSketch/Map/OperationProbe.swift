/// An operation inside the map model that a measuring tool can time: the work a touch causes
/// between the map receiving it and the sketch changing.
///
/// The calls an app makes itself (programmatic edits, undo, redo) are timed around the call by
/// whoever makes it; these are the operations only the model can delimit.
package enum ProbedOperation: Int, Hashable, Sendable, CaseIterable {
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

/// What a probe noted when an operation began (``OperationProbe/begin(_:)``), handed back when it
/// ends: a clock reading and allocation counters, as the probe defines them.
@frozen
package struct ProbeMark: Sendable {
    /// A clock reading (0 when the probe does not time this operation).
    package var ticks: UInt64
    /// Allocation counters at the start.
    package var allocations: UInt64, bytes: UInt64
    /// Whether the probe times this operation.
    package var timed: Bool

    /// A mark.
    @inlinable
    package init(ticks: UInt64, allocations: UInt64, bytes: UInt64, timed: Bool) {
        self.ticks = ticks
        self.allocations = allocations
        self.bytes = bytes
        self.timed = timed
    }
}

/// Times the model's operations (``ProbedOperation``) for a measuring tool, such as the replay
/// harness's `bench`. A map without a probe (the default) pays one nil check per operation.
///
/// The map brackets each operation with ``begin(_:)`` and ``end(_:_:)`` (two plain calls, no
/// closure), unless the probe must run the operation itself (``wrapsOperations``: e.g. to have a
/// profiler attribute it to a named function), when it calls ``wrap(_:_:)``.
@MainActor
package protocol OperationProbe: AnyObject {
    /// Whether operations must run inside ``wrap(_:_:)`` rather than between ``begin(_:)`` and
    /// ``end(_:_:)``. Read once, when the probe is installed.
    var wrapsOperations: Bool { get }
    /// Runs `body`, the whole of one `operation`, and measures it. (Not generic and not throwing,
    /// so the call through the existential stays a plain indirect call.)
    func wrap(_ operation: ProbedOperation, _ body: () -> Void)
    /// Called just before an operation runs.
    func begin(_ operation: ProbedOperation) -> ProbeMark
    /// Called just after it ran (also when it threw), with what ``begin(_:)`` returned.
    func end(_ operation: ProbedOperation, _ mark: ProbeMark)
}

extension MapView {
    /// Runs `body` as one `operation`, measured by the map's probe when it has one.
    @inline(__always)
    package func measure<Result, Failure: Error>(
        _ operation: ProbedOperation, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard let probe = operationProbe else { return try body() }
        if probeWrapsOperations { return try runWrapped({ probe.wrap(operation, $0) }, body) }
        let mark = probe.begin(operation)
        defer { probe.end(operation, mark) }
        return try body()
    }
}

/// Runs a throwing `body` through `wrapper`, which takes a plain `() -> Void` (a probe's `wrap`, a
/// C function's callback), and gives back its result or throws its error.
@inline(__always)
package func runWrapped<Result, Failure: Error>(
    _ wrapper: (() -> Void) -> Void, _ body: () throws(Failure) -> Result
) throws(Failure) -> Result {
    var result: Result?
    var failure: Failure?
    withoutActuallyEscaping(body) { body in
        wrapper {
            do throws(Failure) { result = try body() } catch { failure = error }
        }
    }
    if let failure { throw failure }
    // `result` is set once `wrapper` returns without a failure (a wrapper must call its body
    // once); evaluating `body` again is unreachable.
    if let result { return result }
    return try body()
}
