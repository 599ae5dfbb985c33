/// What is selected in a sketch: nothing, a vertex, a mid-vertex (the midpoint of a segment), a
/// whole part, or the whole geometry (part and geometry selection as in ArcGIS's
/// `GeometryEditor`: what the transform handles and transform calls act on).
public enum SketchSelection: Hashable, Sendable, CustomStringConvertible {
    /// Nothing is selected: a tap on the map appends to the last part.
    case none
    /// Vertex `index` of `part`: a tap on the map inserts after it.
    case vertex(part: Int, index: Int)
    /// The mid-vertex of `segment` in `part` (between vertices `segment` and `segment + 1`, or the
    /// closing segment of a ring): a tap on the map inserts between them.
    case midVertex(part: Int, segment: Int)
    /// Part `part` as a whole: transforms act on it; a tap on the map appends to it.
    case part(Int)
    /// The whole geometry: transforms act on every part; a tap on the map appends to the last part.
    case geometry

    /// The selected part, if any: the part of a vertex, mid-vertex or part selection.
    public var part: Int? {
        switch self {
        case .none, .geometry: nil
        case .vertex(let p, _), .midVertex(let p, _), .part(let p): p
        }
    }

    /// `none`, `vertex(part, index)`, `midVertex(part, segment)`, `part(index)` or `geometry`.
    public var description: String {
        switch self {
        case .none: "none"
        case .vertex(let p, let i): "vertex(\(p), \(i))"
        case .midVertex(let p, let s): "midVertex(\(p), \(s))"
        case .part(let p): "part(\(p))"
        case .geometry: "geometry"
        }
    }
}

/// A selection in 13 bytes, for undo records.
struct PackedSelection: Hashable, Sendable {
    var index: Int
    var part: Int32
    /// 0 none, 1 vertex, 2 mid-vertex, 3 part, 4 geometry.
    var tag: UInt8

    init(_ s: SketchSelection) {
        switch s {
        case .none: (tag, part, index) = (0, 0, 0)
        case .vertex(let p, let i): (tag, part, index) = (1, Int32(truncatingIfNeeded: p), i)
        case .midVertex(let p, let i): (tag, part, index) = (2, Int32(truncatingIfNeeded: p), i)
        case .part(let p): (tag, part, index) = (3, Int32(truncatingIfNeeded: p), 0)
        case .geometry: (tag, part, index) = (4, 0, 0)
        }
    }

    var selection: SketchSelection {
        switch tag {
        case 1: .vertex(part: Int(part), index: index)
        case 2: .midVertex(part: Int(part), segment: index)
        case 3: .part(Int(part))
        case 4: .geometry
        default: .none
        }
    }
}
