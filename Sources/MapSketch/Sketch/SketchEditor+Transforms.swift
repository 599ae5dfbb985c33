@_spi(MapSketchInternal) public import MapSketchGeometry

/// What a transform acts on: the whole geometry or one part.
public enum SketchTransformScope: Hashable, Sendable, CustomStringConvertible {
    /// Every part.
    case geometry
    /// Part `index` alone.
    case part(Int)

    /// The part index, or nil for the whole geometry.
    public var partIndex: Int? {
        switch self {
        case .geometry: nil
        case .part(let p): p
        }
    }

    /// `geometry` or `part(index)`.
    public var description: String {
        switch self {
        case .geometry: "geometry"
        case .part(let p): "part(\(p))"
        }
    }
}

extension SketchSelection {
    /// What a transform of this selection acts on: the selected part or the whole geometry; nil
    /// for a vertex, a mid-vertex or nothing.
    public var transformScope: SketchTransformScope? {
        switch self {
        case .part(let p): .part(p)
        case .geometry: .geometry
        case .none, .vertex, .midVertex: nil
        }
    }
}

/// A transform being dragged by one of the handles: what it acts on, about which anchor, where
/// the finger started and the transform it asks for now.
///
/// The geometry is not touched while the finger moves: each move only replaces ``transform``
/// (O(1)); the release applies it once (O(n)) and records one undo step.
public struct SketchTransformGesture: Hashable, Sendable {
    /// What a handle does.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Move: the geometry follows the finger.
        case move
        /// Rotate about the anchor by the angle the finger turned through, seen from the anchor.
        case rotate
        /// Scale uniformly about the anchor by the ratio of the finger's distance from it to the
        /// distance it started at.
        case scale
    }

    /// What the handle does.
    package let kind: Kind
    /// What the gesture transforms.
    package let scope: SketchTransformScope
    /// The point rotations and scales keep fixed (the scope's centroid unless one was given).
    package let anchor: Point
    /// Where the finger started, in map units.
    package let start: Point
    /// The transform the finger asks for now (identity until it moves).
    package internal(set) var transform: AffineTransform
    /// The selection when the gesture began (restored by undo).
    let selectionBefore: SketchSelection

    /// The transform for the finger at `p`; nil when it names none (a rotation or scale seen
    /// from the anchor itself).
    func transform(to p: Point) -> AffineTransform? {
        switch kind {
        case .move:
            return .translation(dx: p.x - start.x, dy: p.y - start.y)
        case .rotate:
            return .rotation(
                from: (start.x - anchor.x, start.y - anchor.y), to: (p.x - anchor.x, p.y - anchor.y), about: anchor)
        case .scale:
            let d0 = hypot(start.x - anchor.x, start.y - anchor.y)
            let d1 = hypot(p.x - anchor.x, p.y - anchor.y)
            guard d0 > 0, d0.isFinite, d1.isFinite else { return nil }
            let f = d1 / d0
            return .scale(x: f, y: f, about: anchor)
        }
    }

    private func hypot(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }
}

extension SketchEditor {
    /// The geometry as it is shown: ``store``, with the transform being dragged applied.
    /// - Complexity: O(1) with no transform under way, else O(n) for the n vertices it moves.
    package var displayStore: VertexStore {
        guard let g = transformGesture, let moved = try? store.transformed(by: g.transform, part: g.scope.partIndex)
        else { return store }
        return moved
    }

    /// The centroid of what `scope` names (``GeometryEngine/centroid(_:)``'s rule), or nil when
    /// it has no vertex.
    /// - Complexity: O(n) for the n vertices of the scope.
    package func centroid(of scope: SketchTransformScope) -> Point? {
        store.centroid(part: scope.partIndex)
    }

    /// Applies `transform` to `scope` as one undo step; the selection stays as it is. An identity
    /// transform, or one of an empty sketch, changes nothing and records nothing.
    /// - Throws: ``GeometryError/partIndexOutOfRange(part:partCount:)``;
    ///   ``GeometryError/nonFiniteCoordinate(part:index:)`` when a coordinate would not be finite;
    ///   ``SketchError/editRejected(_:)`` when a ``validation`` rule refuses it.
    /// - Returns: whether a step was recorded.
    /// - Complexity: O(n) for the n vertices transformed, plus O(p) for p parts; the undo record
    ///   keeps the geometry before and after as chunked snapshots (no copy of the vertices).
    @discardableResult
    @_spi(MapSketchInternal) public mutating func transform(_ scope: SketchTransformScope, by transform: AffineTransform) throws -> Bool {
        commitDrag()
        return try applyTransform(transform, to: scope, selectionBefore: selection)
    }

    /// Applies `transform` to the selected part or geometry (one undo step).
    /// - Throws: ``SketchError/nothingSelected(operation:)`` unless a part or the geometry is
    ///   selected; otherwise as ``transform(_:by:)``.
    /// - Returns: whether a step was recorded.
    @discardableResult
    package mutating func transformSelection(_ transform: AffineTransform) throws -> Bool {
        commitDrag()
        guard let scope = selection.transformScope else { throw SketchError.nothingSelected(operation: .transform) }
        return try self.transform(scope, by: transform)
    }

    /// Starts dragging a handle: a `kind` transform of `scope`, the finger down at `p`, about
    /// `anchor` (the scope's centroid when nil). Nothing changes until the finger moves.
    /// - Throws: ``GeometryError/partIndexOutOfRange(part:partCount:)``; ``SketchError/invalidSelection(_:)``
    ///   for an empty geometry.
    /// - Complexity: O(n) for the centroid when no anchor is given, else O(1).
    @_spi(MapSketchInternal) public mutating func beginTransform(
        _ kind: SketchTransformGesture.Kind, of scope: SketchTransformScope, at p: Point, anchor: Point? = nil
    ) throws {
        commitDrag()
        if let part = scope.partIndex, part < 0 || part >= store.partCount {
            throw GeometryError.partIndexOutOfRange(part: part, partCount: store.partCount)
        }
        guard let a = anchor ?? centroid(of: scope) else { throw SketchError.invalidSelection(selection) }
        transformGesture = SketchTransformGesture(
            kind: kind, scope: scope, anchor: a, start: p, transform: .identity, selectionBefore: selection)
    }

    /// The finger of the transform under way is at `p`: only the gesture's transform changes.
    /// Non-finite points are ignored.
    /// - Returns: whether the shown geometry changed.
    /// - Complexity: O(1): the geometry is not copied or touched.
    @discardableResult
    @_spi(MapSketchInternal) public mutating func updateTransform(to p: Point) -> Bool {
        guard var g = transformGesture, p.isFinite, let t = g.transform(to: p), t.isFinite, t != g.transform else {
            return false
        }
        g.transform = t
        transformGesture = g
        return true
    }

    /// Ends the transform under way at `p`: applied once and recorded as one step (none when it
    /// changes nothing). When it is refused (a ``validation`` rule, or a coordinate that would
    /// not be finite) the geometry stays as it was and the rejection waits in
    /// ``takeRejections()``.
    /// - Returns: whether a step was recorded.
    /// - Complexity: O(n) for the n vertices transformed, once per gesture.
    @discardableResult
    @_spi(MapSketchInternal) public mutating func endTransform(at p: Point) -> Bool {
        updateTransform(to: p)
        return commitDrag()
    }

    /// Cancels the transform under way: nothing was changed, nothing is recorded.
    /// - Returns: whether the shown geometry changes back (the finger had moved it).
    @discardableResult
    package mutating func cancelTransform() -> Bool {
        guard let g = transformGesture else { return false }
        transformGesture = nil
        return !g.transform.isIdentity
    }

    /// Applies the transform under way as one step.
    mutating func commitTransformGesture() -> Bool {
        guard let g = transformGesture else { return false }
        transformGesture = nil
        do {
            return try applyTransform(g.transform, to: g.scope, selectionBefore: g.selectionBefore)
        } catch SketchError.editRejected(let r) {
            pendingRejections.append(r)
            return false
        } catch {
            return false
        }
    }

    private mutating func applyTransform(
        _ t: AffineTransform, to scope: SketchTransformScope, selectionBefore: SketchSelection
    ) throws -> Bool {
        if let part = scope.partIndex, part < 0 || part >= store.partCount {
            throw GeometryError.partIndexOutOfRange(part: part, partCount: store.partCount)
        }
        guard !t.isIdentity, !store.isEmpty else { return false }
        let after = try store.transformed(by: t, part: scope.partIndex)
        let snapshot = validationSnapshot
        let before = store
        store = after
        let change: SketchChange = scope.partIndex.map { .partReplaced($0) } ?? .transformed(t)
        try validate(change, kind: .transform, against: snapshot, part: scope.partIndex)
        let r = SketchEditRecord(kind: .transform, part: scope.partIndex ?? -1, index: 0, selectionBefore: selectionBefore)
        history.push(r, payload: .stores(before: before, after: after))
        return true
    }

    // MARK: Parts drawn whole

    /// Adds a freehand stroke as a new part (one undo step): `points`, simplified by
    /// ``GeometryEngine/generalize(_:maxDeviation:)`` with `maxDeviation` (map units), become a
    /// path, or a ring for a polygon sketch (its last vertex dropped when it ends on the first).
    /// An empty last part (after ``addPart()``) is filled instead of adding another. The new
    /// part is selected. A stroke too short to make a part (fewer than 2 distinct vertices for
    /// a path, 3 for a ring) changes nothing.
    /// - Throws: ``SketchError/toolUnsupported(tool:geometryType:)`` unless the sketch is a
    ///   polyline or polygon; ``GeometryError/nonFiniteCoordinate(part:index:)``;
    ///   ``SketchError/editRejected(_:)``.
    /// - Returns: whether a step was recorded.
    /// - Complexity: O(m log m) expected for m points (the simplification), plus O(p) for p parts.
    @discardableResult
    package mutating func addFreehandStroke(_ points: [Point], maxDeviation: Double) throws -> Bool {
        commitDrag()
        guard store.type == .polyline || store.type == .polygon else {
            throw SketchError.toolUnsupported(tool: "freehand", geometryType: store.type)
        }
        var kept = GeometryEngine.generalize(points, maxDeviation: maxDeviation)
        if store.type == .polygon, kept.count >= 2, let f = kept.first, let l = kept.last, f.equals2D(l) {
            kept.removeLast()
        }
        return try addWholePart(kept, kind: .freehand)
    }

    /// Adds the outline of a shape as a new part (one undo step), as ``addFreehandStroke(_:maxDeviation:)``
    /// adds a stroke but without simplification: `vertices` are a ring for a polygon sketch and a
    /// path for a polyline (close it yourself by repeating the first vertex).
    /// - Throws: as ``addFreehandStroke(_:maxDeviation:)`` (the tool named `shape`).
    /// - Returns: whether a step was recorded.
    @discardableResult
    package mutating func addShape(_ vertices: [Point]) throws -> Bool {
        commitDrag()
        guard store.type == .polyline || store.type == .polygon else {
            throw SketchError.toolUnsupported(tool: "shape", geometryType: store.type)
        }
        return try addWholePart(vertices, kind: .shape)
    }

    private mutating func addWholePart(_ vertices: [Point], kind: SketchEditRecord.Kind) throws -> Bool {
        var distinct: [Point] = []
        for v in vertices where !distinct.contains(where: { $0.equals2D(v) }) {
            distinct.append(v)
            if distinct.count == 3 { break }
        }
        guard distinct.count >= (store.type == .polygon ? 3 : 2) else { return false }
        let snapshot = validationSnapshot
        let before = store
        var s = store
        let fills = s.partCount > 0 && s.parts[s.partCount - 1].isEmpty
        let index = fills ? s.partCount - 1 : s.partCount
        if fills { try s.removePart(index) }
        try s.insertPart(ChunkedVertices(vertices), at: index)
        store = s
        try validate(fills ? .partReplaced(index) : .partInserted(index), kind: kind, against: snapshot, part: index)
        let r = SketchEditRecord(kind: kind, part: index, index: 0, selectionBefore: selection)
        history.push(r, payload: .stores(before: before, after: s))
        selection = .part(index)
        return true
    }

    /// The selection a redo of `r` leaves: what the step itself leaves (a transform keeps the
    /// selection; a stroke or a shape selects its part).
    static func selection(afterRedoing r: SketchEditRecord) -> SketchSelection {
        switch r.kind {
        case .freehand, .shape: .part(r.part)
        default: r.selectionBefore
        }
    }
}
