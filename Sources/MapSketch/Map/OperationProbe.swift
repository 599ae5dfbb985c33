/// An operation inside the map model that a measuring tool can time: the work a touch causes
/// between the map receiving it and the sketch changing.
///
/// The calls an app makes itself (programmatic edits, undo, redo) are timed around the call by
/// whoever makes it; these are the operations only the model can delimit.
package enum ProbedOperation: Int, Hashable, Sendable, CaseIterable {
    /// The gesture recogniser turning one raw touch into gestures.
    case gestureRecognition
    /// A recognised gesture handed to the map and its touch delegate (``MapView/dispatch(_:)``):
    /// announcing it and everything it causes (the operations below nest inside it).
    case gestureDispatch
    /// A pan gesture moving the map.
    case viewportPan
    /// A pinch step zooming (and turning) the map.
    case viewportPinch
    /// A tap showing or dismissing a callout (its map hit test included).
    case callout
    /// A map hit test for a tap (the graphics under it, topmost first), as a callout makes it.
    case mapHitTest
    /// The sketch's vertex / mid-vertex hit test for a tap or a hold.
    case sketchHitTest
    /// A tap on a vertex or mid-vertex selecting it.
    case sketchSelect
    /// A tap on the map inserting (or appending) a vertex.
    case vertexInsert
    /// A tap moving a point sketch's point, or a vertex drag: its start, a step, its release.
    case vertexMove
    /// A snap query: the point under the finger snapped to the sketch, the chosen graphics
    /// layers or a geometry guide (a tap that adds a vertex, a drag step, a reticle placement).
    case snapQuery
    /// A freehand or shape tool's stroke: its start, a step, its end.
    case toolStroke
    /// A transform handle's drag: its start, a step, its release.
    case transformHandle
    /// The sketch's validation rules judging an edit before it commits.
    case validation
}

/// What a probe noted when an operation began (`OperationProbe.begin`), handed back when it
/// ends: a clock reading and allocation counters, as the probe defines them.
@frozen
package struct ProbeMark: Sendable {
    /// A clock reading (0 when the probe does not time this operation).
    package var ticks: UInt64
    /// Allocation counters at the start.
    package var allocations: UInt64, bytes: UInt64
    /// Whether the probe times this operation.
    package var timed: Bool
    /// Whether the operation is inside no other one.
    package var outermost: Bool

    /// A mark.
    @inlinable
    package init(ticks: UInt64, allocations: UInt64, bytes: UInt64, timed: Bool, outermost: Bool) {
        self.ticks = ticks
        self.allocations = allocations
        self.bytes = bytes
        self.timed = timed
        self.outermost = outermost
    }
}

/// Times the model's operations (`ProbedOperation`) for a measuring tool, such as the replay
/// harness's `bench`. A map without a probe (the default) pays one nil check per operation.
///
/// The map brackets each operation with ``begin(_:)`` and ``end(_:_:)`` (two plain calls, no
/// closure), unless the probe must run the operation itself (``wrapsOperations``: e.g. to have a
/// profiler attribute it to a named function), when it calls ``wrap(_:_:)``.
///
/// A probe is called from whatever thread runs the model's operations (the main actor for a map;
/// the caller's thread for a sketch editor used on its own): it must be used by one thread at a
/// time, as a replay uses it.
package protocol OperationProbe: AnyObject, Sendable {
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

/// A map's probe as the model's code calls it: the probe (nil: not measuring) and whether it wraps
/// operations, read once. Copied into what measures on the map's behalf (the sketch's editor).
package struct OperationProbeHandle: Sendable {
    /// The probe.
    package let probe: (any OperationProbe)?
    /// The probe's `OperationProbe.wrapsOperations`.
    let wraps: Bool

    /// No probe: operations run unmeasured.
    package static let none = OperationProbeHandle(nil)

    /// A handle on `probe`.
    package init(_ probe: (any OperationProbe)?) {
        self.probe = probe
        wraps = probe?.wrapsOperations ?? false
    }

    /// Runs `body` as one `operation`, measured by the probe when there is one.
    @inline(__always)
    package func measure<Result, Failure: Error>(
        _ operation: ProbedOperation, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard let probe else { return try body() }
        if wraps { return try runWrapped(ProbeWrapper(probe: probe, operation: operation), body) }
        let mark = probe.begin(operation)
        defer { probe.end(operation, mark) }
        return try body()
    }
}

extension MapView {
    /// Runs `body` as one `operation`, measured by the map's probe when it has one.
    @inline(__always)
    package func measure<Result, Failure: Error>(
        _ operation: ProbedOperation, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try probe.measure(operation, body)
    }
}

/// Something that runs a plain `() -> Void` inside itself: a probe's marker of one operation.
@usableFromInline
package protocol OperationWrapper {
    /// Runs `body` once, inside the wrapper.
    func run(_ body: () -> Void)
}

/// Runs a throwing `body` through `wrapper`, which takes a plain `() -> Void` (a probe's `wrap`, a
/// C function's callback), and gives back its result or throws its error. Nothing is allocated:
/// the closures stay on the stack.
@inlinable @inline(__always)
package func runWrapped<Result, Failure: Error>(
    _ wrapper: some OperationWrapper, _ body: () throws(Failure) -> Result
) throws(Failure) -> Result {
    var result: Result?
    var failure: Failure?
    wrapper.run {
        do throws(Failure) { result = try body() } catch { failure = error }
    }
    if let failure { throw failure }
    // `result` is set once the wrapper returns without a failure (a wrapper must call its body
    // once); evaluating `body` again is unreachable.
    if let result { return result }
    return try body()
}

/// A probe's wrap of one model operation.
private struct ProbeWrapper: OperationWrapper {
    let probe: any OperationProbe
    let operation: ProbedOperation
    func run(_ body: () -> Void) { probe.wrap(operation, body) }
}
