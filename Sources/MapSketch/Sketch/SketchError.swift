public import MapSketchGeometry

/// Why a sketch operation was refused.
public enum SketchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The operation needs a selected vertex (or, for parts, a selected vertex or mid-vertex).
    case nothingSelected(operation: Operation)
    /// A selection that does not name an existing vertex or segment.
    case invalidSelection(SketchSelection)
    /// Apply geometry needs a geometry of the sketch's type.
    case typeMismatch(expected: GeometryType, found: GeometryType)
    /// A validation rule refused the edit; nothing changed (see ``SketchValidation``).
    case editRejected(SketchEditRejection)
    /// The tool cannot sketch this geometry type (freehand and shapes draw polylines and polygons).
    case toolUnsupported(tool: String, geometryType: GeometryType)
    /// The call belongs to a tool that is not the layer's current one (the reticle calls need
    /// the reticle tool).
    case toolNotActive(needed: String, current: String)
    /// A tool setting out of range (a negative freehand tolerance, an ellipse of 2 vertices).
    case invalidToolSetting(String)
    /// The operation works in screen points (the reticle, a shape's box) and the layer is on no map.
    case notOnMap(operation: String)

    /// The operations that act on the selection; the raw values name them in error messages.
    public enum Operation: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// ``SketchEditor/removeSelectedVertex()``.
        case removeSelectedVertex = "remove selected vertex"
        /// ``SketchEditor/removeSelectedPart()``.
        case removeSelectedPart = "remove selected part"
        /// A transform of the selection (``SketchEditor/transformSelection(_:)``).
        case transform = "transform"
        /// ``SketchLayer/reticlePickUp()``.
        case reticlePickUp = "reticle pick up"

        /// What the operation needs selected.
        var needs: String {
            switch self {
            case .removeSelectedVertex, .removeSelectedPart: "a selected vertex, but nothing is selected"
            case .transform: "a selected part or the selected geometry"
            case .reticlePickUp: "a selected vertex or mid-vertex"
            }
        }

        /// The raw value, e.g. `remove selected vertex`.
        public var description: String { rawValue }
    }

    /// A sentence saying what was refused and why.
    public var description: String {
        switch self {
        case .nothingSelected(let op): "\(op) needs \(op.needs)"
        case .invalidSelection(let s): "selection \(s) names no vertex, segment or part of the sketch"
        case .typeMismatch(let e, let f): "the sketch edits a \(e); a \(f) cannot be applied"
        case .editRejected(let r): "the \(r.kind) edit was rejected by rule \(r.rule): \(r.reason)"
        case .toolUnsupported(let tool, let type): "the \(tool) tool cannot sketch a \(type)"
        case .toolNotActive(let needed, let current): "the call needs the \(needed) tool, but the \(current) tool is active"
        case .invalidToolSetting(let message): message
        case .notOnMap(let operation): "\(operation) needs the sketch layer on a map"
        }
    }
}
