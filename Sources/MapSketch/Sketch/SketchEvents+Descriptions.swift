import MapSketchGeometry

// What the sketch's events and records print: short English for logs and debugging
// (`#3 insert vertex`, `insert vertex 2 of part 0 at (10.0 20.0)`), not Swift's type dump.

extension SketchEditRecord.Kind: CustomStringConvertible {
    /// The kind in words: `insert vertex`, `remove part`, `append vertices`, …
    public var description: String {
        switch self {
        case .insertVertex: "insert vertex"
        case .removeVertex: "remove vertex"
        case .moveVertex: "move vertex"
        case .addPart: "add part"
        case .removePart: "remove part"
        case .replaceGeometry: "replace geometry"
        case .transform: "transform"
        case .freehand: "freehand"
        case .shape: "shape"
        case .appendVertices: "append vertices"
        }
    }
}

extension SketchEditRecord: CustomStringConvertible {
    /// The step in words, with where it happened: `insert vertex 2 of part 0 at (10.0 20.0)`,
    /// `move vertex 1 of part 0 from (0.0 0.0) to (5.0 5.0)`, `remove part 1`,
    /// `append vertices to part 0 (the last is vertex 999)`, `transform geometry`.
    public var description: String {
        switch kind {
        case .insertVertex, .removeVertex: "\(kind) \(index) of part \(part) at \(point)"
        case .moveVertex where !isHeavy: "\(kind) \(index) of part \(part) from \(from2D) to \(to2D)"
        case .moveVertex: "\(kind) \(index) of part \(part)"  // the ends (with z or m) are in the stack
        case .addPart, .removePart, .freehand, .shape: "\(kind) \(part)"
        case .transform: part < 0 ? "\(kind) geometry" : "\(kind) part \(part)"
        case .replaceGeometry: "\(kind)"
        case .appendVertices: "\(kind) to part \(part) (the last is vertex \(index))"
        }
    }
}

extension SketchGeometryChange.Reason: CustomStringConvertible {
    /// Why, in words: the edit's kind (`insert vertex`), `drag moved`, `drag cancelled`, `undo`,
    /// `redo` or `replaced` (set geometry).
    public var description: String {
        switch self {
        case .edit(let kind): kind.description
        case .dragMoved: "drag moved"
        case .dragCancelled: "drag cancelled"
        case .undo: "undo"
        case .redo: "redo"
        case .replaced: "replaced"
        }
    }
}

extension SketchSelectionChange: CustomStringConvertible {
    /// The selection before and after: `vertex(0, 1) → none`.
    public var description: String { "\(old) → \(new)" }
}

extension SketchMagnifierEvent: CustomStringConvertible {
    /// `show at (x, y)`, `move to (x, y)` or `hide`.
    public var description: String {
        switch self {
        case .show(let p): "show at \(p)"
        case .move(let p): "move to \(p)"
        case .hide: "hide"
        }
    }
}
