package import MapSketchGeometry
package import MapSketchReplay

/// What replaying one trace produced, as the texts golden files hold, with what the check needs to
/// judge it: the trace's tolerance, its refused calls, the map's spatial reference.
package struct GoldenRendering: Sendable {
    /// The output document (pretty JSON, newline-terminated): the replay's output, or for a trace
    /// that declares the error it fails with, `{"trace": …, "error": "…"}`. Empty when
    /// ``problem`` is set.
    package var json: String
    /// The SVG of the map, when rendered.
    package var svg: String?
    /// Why there is nothing to compare or record, when the trace cannot be judged by its golden.
    package var problem: GoldenProblem?
    /// The tolerance of the comparison: the trace's `expect.tolerance`, else the standard.
    package var tolerance: GoldenTolerance
    /// The refused calls of the replay, checked against the trace's declaration.
    package var refusals: ReplayRefusals
    /// The map's spatial reference (for the units of the diff picture); nil when unknown.
    package var spatialReference: SpatialReference?
    /// The digest of the trace's bytes as they were replayed (`PendingOrigin.digest`), which
    /// a pending output records; nil when not known (the check then reads the trace file).
    package var traceDigest: String?

    /// Creates a rendering of a trace that replayed.
    package init(
        json: String, svg: String? = nil, tolerance: GoldenTolerance = .standard,
        refusals: ReplayRefusals = ReplayRefusals(declared: []), spatialReference: SpatialReference? = nil
    ) {
        self.json = json
        self.svg = svg
        self.tolerance = tolerance
        self.refusals = refusals
        self.spatialReference = spatialReference
    }

    /// A rendering with nothing to compare: the trace's `GoldenProblem`.
    package init(problem: GoldenProblem) {
        self.init(json: "")
        self.problem = problem
    }
}

/// Why a trace has no output a golden can be compared with or recorded from.
package enum GoldenProblem: Hashable, Sendable {
    /// The trace cannot be read, or its header cannot be set up, and it does not declare that
    /// error: the trace is wrong, not the code. `check` exits 2 naming file:line:column; nothing
    /// is recorded in any mode.
    case inputError(InputError)
    /// The trace declares an error (`expect.error`) that did not happen: it replayed, or failed
    /// with another error. A failure; nothing is recorded.
    case unmetExpectation(String)
}
