/// What is selected in a sketch: nothing, a vertex, or a mid-vertex (the midpoint of a segment).
public enum SketchSelection: Hashable, Sendable, CustomStringConvertible {
    /// Nothing is selected: a tap on the map appends to the last part.
    case none
    /// Vertex `index` of `part`: a tap on the map inserts after it.
    case vertex(part: Int, index: Int)
    /// The mid-vertex of `segment` in `part` (between vertices `segment` and `segment + 1`, or the
    /// closing segment of a ring): a tap on the map inserts between them.
    case midVertex(part: Int, segment: Int)

    /// The selected part, if any.
    public var part: Int? {
        switch self {
        case .none: nil
        case .vertex(let p, _), .midVertex(let p, _): p
        }
    }

    /// `none`, `vertex(part, index)` or `midVertex(part, segment)`.
    public var description: String {
        switch self {
        case .none: "none"
        case .vertex(let p, let i): "vertex(\(p), \(i))"
        case .midVertex(let p, let s): "midVertex(\(p), \(s))"
        }
    }
}

/// A selection in 13 bytes, for undo records.
struct PackedSelection: Hashable, Sendable {
    var index: Int
    var part: Int32
    /// 0 none, 1 vertex, 2 mid-vertex.
    var tag: UInt8

    init(_ s: SketchSelection) {
        switch s {
        case .none: (tag, part, index) = (0, 0, 0)
        case .vertex(let p, let i): (tag, part, index) = (1, Int32(truncatingIfNeeded: p), i)
        case .midVertex(let p, let i): (tag, part, index) = (2, Int32(truncatingIfNeeded: p), i)
        }
    }

    var selection: SketchSelection {
        switch tag {
        case 1: .vertex(part: Int(part), index: index)
        case 2: .midVertex(part: Int(part), segment: index)
        default: .none
        }
    }
}
