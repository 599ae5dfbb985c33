public import MapSketchGeometry

/// Why a sketch operation was refused.
public enum SketchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The operation needs a selected vertex (or, for parts, a selected vertex or mid-vertex).
    case nothingSelected(operation: Operation)
    /// A selection that does not name an existing vertex or segment.
    case invalidSelection(SketchSelection)
    /// Apply geometry needs a geometry of the sketch's type.
    case typeMismatch(expected: GeometryType, found: GeometryType)

    /// The operations that act on the selection; the raw values name them in error messages.
    public enum Operation: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// ``SketchEditor/removeSelectedVertex()``.
        case removeSelectedVertex = "remove selected vertex"
        /// ``SketchEditor/removeSelectedPart()``.
        case removeSelectedPart = "remove selected part"

        /// The raw value, e.g. `remove selected vertex`.
        public var description: String { rawValue }
    }

    /// A sentence saying what was refused and why.
    public var description: String {
        switch self {
        case .nothingSelected(let op): "\(op) needs a selected vertex, but nothing is selected"
        case .invalidSelection(let s): "selection \(s) names no vertex or segment of the sketch"
        case .typeMismatch(let e, let f): "the sketch edits a \(e); a \(f) cannot be applied"
        }
    }
}
