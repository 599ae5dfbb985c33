/// Errors raised when making or editing geometry. `Hashable` so tests can assert the exact case.
public enum GeometryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A part index outside `0..<partCount`.
    case partIndexOutOfRange(part: Int, partCount: Int)
    /// A vertex index outside the valid range for that part and operation.
    case vertexIndexOutOfRange(part: Int, index: Int, count: Int)
    /// A coordinate that is NaN or infinite.
    case nonFiniteCoordinate(part: Int, index: Int)
    /// An operation that needs a different geometry type.
    case typeMismatch(expected: GeometryType, found: GeometryType)
    /// A point geometry can have only one vertex.
    case pointHasOneVertex
    /// An operation that is not defined for the given input, with the reason.
    case unsupported(String)

    public var description: String {
        switch self {
        case .partIndexOutOfRange(let p, let n): "part index \(p) out of range (geometry has \(n) parts)"
        case .vertexIndexOutOfRange(let p, let i, let n): "vertex index \(i) out of range in part \(p) (\(n) vertices)"
        case .nonFiniteCoordinate(let p, let i): "part \(p) vertex \(i): coordinate is NaN or infinite"
        case .typeMismatch(let e, let f): "expected a \(e) geometry, found a \(f)"
        case .pointHasOneVertex: "a point geometry has exactly one vertex"
        case .unsupported(let s): s
        }
    }
}
