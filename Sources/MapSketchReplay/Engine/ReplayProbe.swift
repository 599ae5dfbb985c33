package import MapSketch

/// An operation the replay engine itself delimits, beside the model's own
/// (`ReplayOperation.model`): the trace's calls, the GPS stages of a fix, the renderer lookup
/// a graphic needs.
package enum ReplayOperation: Hashable, Sendable {
    /// A touch of the trace fed to the map: its gestures recognised and dispatched (the model's
    /// operations nest inside it).
    case touch
    /// A GPS fix of the trace taken in: filtered, projected and appended (its stages nest
    /// inside it).
    case gpsFix
    /// One of the model's operations, delimited by the model (`ProbedOperation`).
    case model(ProbedOperation)
    /// A trace call, around the model call it makes.
    case call(TraceCallName)
    /// The GPS filter deciding whether a fix is kept.
    case gpsFilter
    /// Projecting a kept fix into the map's spatial reference.
    case gpsProject
    /// Appending a projected fix to the sketch.
    case gpsAppend
    /// A renderer resolving a graphic's symbol from its attributes.
    case rendererLookup(RendererKind)
    /// A header layer's features read from its file (`source`) into the layer.
    case layerLoad
    /// The user's code of a registration of ``ReplayExtensions`` (its index in registration
    /// order), measured as the kind `user.<name>`.
    case user(Int)

    /// The kind of renderer a lookup runs.
    package enum RendererKind: Hashable, Sendable {
        case simple, classBreaks, uniqueValue

        /// The kind of `renderer`.
        package init(_ renderer: Renderer) {
            switch renderer {
            case .simple: self = .simple
            case .classBreaks: self = .classBreaks
            case .uniqueValue: self = .uniqueValue
            }
        }
    }
}

/// The replay engine's one observation point for a measuring tool (`mapsketch bench`): the model's
/// operations through `OperationProbe` (the session installs the probe in its map), and the
/// engine's own (`ReplayOperation`) through the same begin / end pair. A session without a probe
/// (the default) pays one nil check per event.
package protocol ReplayProbe: OperationProbe {
    /// Called just before an engine operation runs.
    func begin(_ operation: ReplayOperation) -> ProbeMark
    /// Called just after it ran (also when it threw), with what `begin(_:)` returned.
    func end(_ operation: ReplayOperation, _ mark: ProbeMark)
    /// Runs `body`, the whole of one engine operation, and measures it (for a probe that
    /// `OperationProbe.wrapsOperations`).
    func wrap(_ operation: ReplayOperation, _ body: () -> Void)
    /// Keeps a result computed only to be measured, so the optimiser keeps the computation.
    func keep(_ value: Int)
}

extension ReplayProbe {
    /// Runs `body` as one engine `operation`, measured by this probe.
    @inline(__always)
    package func measure<Result, Failure: Error>(
        _ operation: ReplayOperation, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if wrapsOperations { return try runWrapped(ReplayWrapper(probe: self, operation: operation), body) }
        let mark = begin(operation)
        defer { end(operation, mark) }
        return try body()
    }
}

/// A probe's wrap of one engine operation.
private struct ReplayWrapper: OperationWrapper {
    let probe: any ReplayProbe
    let operation: ReplayOperation
    func run(_ body: () -> Void) { probe.wrap(operation, body) }
}
