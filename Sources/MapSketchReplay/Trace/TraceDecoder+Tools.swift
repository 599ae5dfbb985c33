import MapSketch
import MapSketchGeometry

// The calls of format version 3: part and geometry selection, transforms, tools and the reticle.
extension TraceDecoder {
    static let toolNames = ["vertex", "freehand", "shape", "reticle"]
    static let shapeNames = ["rectangle", "ellipse", "triangle", "arrow"]

    static func decodeToolCall(_ name: TraceCallName, _ f: inout TraceFields) throws -> TraceCall {
        func finite(_ key: String) throws -> Double {
            let d = try f.requiredDouble(key)
            guard d.isFinite else { throw JSONError("expected a finite number, found \(JSONWriter.format(d))", path: [.key(key)]) }
            return d
        }
        switch name {
        case .selectPart: return .selectPart(part: try f.requiredInt("part"))
        case .selectGeometry: return .selectGeometry
        case .moveSelection: return .moveSelection(dx: try finite("dx"), dy: try finite("dy"))
        case .rotateSelection:
            return .rotateSelection(degrees: try finite("degrees"), anchor: try f.nested("anchor", decodePoint))
        case .scaleSelection:
            let sx = try finite("sx")
            let sy = try f.double("sy") ?? sx
            guard sy.isFinite else { throw JSONError("expected a finite number, found \(JSONWriter.format(sy))", path: [.key("sy")]) }
            return .scaleSelection(sx: sx, sy: sy, anchor: try f.nested("anchor", decodePoint))
        case .setTransformAnchor: return .setTransformAnchor(try f.nested("anchor", decodePoint))
        case .setTool: return .setTool(try decodeTool(&f))
        case .reticleSelect: return .reticleSelect
        case .reticlePickUp: return .reticlePickUp
        case .reticlePlace: return .reticlePlace
        case .reticleCancel: return .reticleCancel
        case .setSnapping: return .setSnapping(try decodeSnapMembers(&f))
        default:
            throw JSONError("\"\(name.rawValue)\" is not a tool call")
        }
    }

    /// `setTool`'s members: `tool`, then `tolerance` (freehand), or `shape` and `vertexCount`
    /// (an ellipse); a member another tool takes is unknown here.
    static func decodeTool(_ f: inout TraceFields) throws -> SketchTool {
        guard let tool = try f.oneOf("tool", toolNames) else {
            throw JSONError("missing member \"tool\": expected one of \(toolNames.joined(separator: ", "))")
        }
        switch tool {
        case "freehand":
            let tolerance = try f.double("tolerance") ?? SketchTool.defaultFreehandTolerance
            guard tolerance >= 0 else {
                throw JSONError("expected a tolerance ≥ 0 points, found \(JSONWriter.format(tolerance))", path: [.key("tolerance")])
            }
            return .freehand(tolerance: tolerance)
        case "shape":
            guard let shape = try f.oneOf("shape", shapeNames) else {
                throw JSONError("missing member \"shape\": expected one of \(shapeNames.joined(separator: ", "))")
            }
            switch shape {
            case "rectangle": return .shape(.rectangle)
            case "triangle": return .shape(.triangle)
            case "arrow": return .shape(.arrow)
            default:
                let n = try f.int("vertexCount") ?? SketchShape.defaultEllipseVertices
                guard (3...SketchShape.maximumEllipseVertices).contains(n) else {
                    throw JSONError(
                        "expected 3 to \(SketchShape.maximumEllipseVertices) vertices, found \(n)", path: [.key("vertexCount")])
                }
                return .shape(.ellipse(vertexCount: n))
            }
        case "reticle": return .reticle
        default: return .vertex
        }
    }
}
