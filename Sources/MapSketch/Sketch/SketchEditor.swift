public import MapSketchGeometry

/// The sketch's editing model without a map: the geometry in chunked storage, the selection and
/// the undo history. ``SketchLayer`` drives it from touches and reports its changes as events;
/// benchmarks and the replay harness may drive it directly.
///
/// Selection after each change (documented rule; an undo restores the selection before):
/// - insert or move a vertex (by tap, drag, call or the reticle) selects that vertex;
/// - remove a vertex selects the vertex before it in its part (the new first vertex when the
///   first was removed; nothing when the part is left empty);
/// - add or remove a part, clear, apply or set the geometry select nothing, so the next tap
///   appends to the last part;
/// - a transform keeps the selection; a freehand stroke or a shape selects its new part.
///
/// Edits are checked against ``validation`` before they commit; a rejected edit changes
/// nothing and throws ``SketchError/editRejected(_:)``.
///
/// ```swift
/// var e = try SketchEditor(type: .polyline)
/// try e.tap(at: Point(0, 0), reach: r)   // appends (creating the first part)
/// try e.tap(at: Point(10, 0), reach: r)  // appends after the selected vertex
/// e.undo()                              // back to one vertex, vertex 0 selected
/// ```
public struct SketchEditor: Sendable {
    /// The geometry being edited. While a transform is being dragged it holds the geometry as it
    /// was when the drag began (the drag is applied once, on release; ``geometry`` shows it).
    @_spi(MapSketchInternal) public internal(set) var store: VertexStore {
        didSet { measureCache = nil }  // no `oldValue`: edits still happen in place
    }
    /// The current selection.
    package internal(set) var selection: SketchSelection = .none
    /// The history of changes.
    @_spi(MapSketchInternal) public internal(set) var history: SketchUndoStack
    /// The vertex being dragged and where it started, between ``beginDrag(part:index:)`` and the end.
    package internal(set) var drag: (part: Int, index: Int, origin: Point, selectionBefore: SketchSelection)?
    /// The transform being dragged by a handle, between ``beginTransform(_:of:at:anchor:)`` and its end.
    package internal(set) var transformGesture: SketchTransformGesture?
    /// The rules an edit must keep to commit (none by default).
    package var validation = SketchValidation()
    /// The measures of ``store`` for the minimum rules, when known (see SketchValidation.swift).
    var measureCache: SketchMeasures?
    /// The measures when the vertex drag under way began.
    var dragMeasures: SketchMeasures?
    /// Edits the editor committed on its own (a drag ended by another call) that a rule
    /// refused: the layer posts them (``takeRejections()``).
    var pendingRejections: [SketchEditRejection] = []
    /// Measures the validation of each edit for a measuring tool: the probe of the map the
    /// sketch layer is on (none on its own).
    package var probe = OperationProbeHandle.none

    /// An empty sketch of `type` (point, multipoint, polyline or polygon).
    /// - Throws: ``GeometryError/unsupported(_:)`` for an envelope.
    /// - Precondition: `levelsOfUndo` ≥ 0 (0: unbounded).
    @_spi(MapSketchInternal) public init(type: GeometryType, levelsOfUndo: Int = 0) throws {
        store = try VertexStore(type: type)
        history = SketchUndoStack(levelsOfUndo: levelsOfUndo)
    }

    /// A sketch editing `geometry` (an empty geometry starts a new sketch of its type).
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)`` for a NaN or infinite coordinate.
    /// - Precondition: `levelsOfUndo` ≥ 0 (0: unbounded).
    @_spi(MapSketchInternal) public init(geometry: Geometry, levelsOfUndo: Int = 0) throws {
        store = try VertexStore(geometry)
        history = SketchUndoStack(levelsOfUndo: levelsOfUndo)
    }

    /// The geometry type being sketched.
    package var geometryType: GeometryType { store.type }
    /// The sketch as a geometry (with the transform being dragged applied, if any).
    /// - Complexity: O(n) for n vertices (it is assembled from the chunked storage).
    @_spi(MapSketchInternal) public var geometry: Geometry { displayStore.geometry }
    /// Whether an undo is possible.
    @_spi(MapSketchInternal) public var canUndo: Bool { history.canUndo }
    /// Whether a redo is possible.
    @_spi(MapSketchInternal) public var canRedo: Bool { history.canRedo }
    /// The bound on undo steps (0: unbounded).
    /// - Precondition: 0 or more (see ``SketchUndoStack/levelsOfUndo``).
    package var levelsOfUndo: Int {
        get { history.levelsOfUndo }
        set { history.levelsOfUndo = newValue }
    }

    // MARK: Programmatic edits

    /// Inserts `point` so that it becomes vertex `index` of `part`, and selects it.
    /// In a sketch without parts, (0, 0) creates part 0, as ``appendVertex(_:)`` does (undo
    /// removes the part with the vertex); in a point sketch, (0, 0) sets the point.
    /// - Throws: ``GeometryError`` for indices out of range or non-finite coordinates.
    /// - Complexity: O(log n).
    @_spi(MapSketchInternal) public mutating func insertVertex(_ point: Point, part: Int, at index: Int) throws {
        commitDrag()
        let before = selection
        let snapshot = validationSnapshot
        let created = store.type != .point && store.partCount == 0 && part == 0
        try store.insertVertex(point, part: part, at: index)
        try validate(.vertexInserted(part: part, index: index), kind: .insertVertex, against: snapshot, part: part, index: index)
        var r = SketchEditRecord.insertVertex(part: part, index: index, point: point, selectionBefore: before)
        r.createdPart = created
        history.push(r)
        selection = .vertex(part: part, index: index)
    }

    /// Appends `point` to the last part (creating the first part of an empty sketch) and selects
    /// it: one undo step. A point sketch moves (or sets) its point.
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)``.
    /// - Complexity: O(1) amortised.
    @_spi(MapSketchInternal) public mutating func appendVertex(_ point: Point) throws {
        commitDrag()
        if store.type == .point {
            if store.isEmpty {
                try insertVertex(point, part: 0, at: 0)
            } else {
                try moveVertex(part: 0, index: 0, to: point)
            }
            return
        }
        if store.partCount == 0 { return try insertVertex(point, part: 0, at: 0) }
        // `insertVertex(point, part: p, at: count)` without its second drag commit and its
        // created-part check (the part exists): one store append, one record.
        let p = store.partCount - 1
        let index = store.parts[p].count
        let before = selection
        let snapshot = validationSnapshot
        try store.insertVertex(point, part: p, at: index)
        try validate(.vertexInserted(part: p, index: index), kind: .insertVertex, against: snapshot, part: p, index: index)
        history.push(.insertVertex(part: p, index: index, point: point, selectionBefore: before))
        selection = .vertex(part: p, index: index)
    }

    /// Moves vertex (part, index) to `point` and selects it.
    /// - Throws: ``GeometryError`` for indices out of range or non-finite coordinates.
    /// - Complexity: O(log n).
    package mutating func moveVertex(part: Int, index: Int, to point: Point) throws {
        commitDrag()
        let before = selection
        let snapshot = validationSnapshot
        let old = try store.moveVertex(part: part, index: index, to: point)
        try validate(.vertexMoved(part: part, index: index, from: old), kind: .moveVertex, against: snapshot, part: part, index: index)
        history.pushMove(part: part, index: index, from: old, to: point, selectionBefore: before)
        selection = .vertex(part: part, index: index)
    }

    /// Removes vertex (part, index); the vertex before it becomes selected.
    /// - Throws: ``GeometryError`` for indices out of range.
    /// - Complexity: O(log n).
    package mutating func removeVertex(part: Int, index: Int) throws {
        commitDrag()
        let before = selection
        let snapshot = validationSnapshot
        let old = try store.removeVertex(part: part, index: index)
        try validate(.vertexRemoved(part: part, index: index, point: old), kind: .removeVertex, against: snapshot, part: part, index: index)
        history.push(.removeVertex(part: part, index: index, point: old, selectionBefore: before))
        selection = selectionAfterRemoving(part: part, index: index)
    }

    /// Adds an empty part at the end, selects nothing (so taps append to it) and returns its index.
    /// - Throws: ``GeometryError/unsupported(_:)`` for a point, or a multipoint that has its part.
    @discardableResult
    package mutating func addPart() throws -> Int {
        commitDrag()
        let before = selection
        let snapshot = validationSnapshot
        let i = try store.addPart()
        try validate(.partInserted(i), kind: .addPart, against: snapshot, part: i)
        history.push(.addPart(part: i, selectionBefore: before))
        selection = .none
        return i
    }

    /// Removes part `index` with its vertices; selects nothing.
    /// - Throws: ``GeometryError/partIndexOutOfRange(part:partCount:)``.
    package mutating func removePart(_ index: Int) throws {
        commitDrag()
        let before = selection
        let snapshot = validationSnapshot
        let removed = try store.removePart(index)
        try validate(.partRemoved(index, removed), kind: .removePart, against: snapshot, part: index)
        let r = SketchEditRecord(kind: .removePart, part: index, index: 0, selectionBefore: before)
        history.push(r, payload: .part(removed))
        selection = .none
    }

    /// Removes the selected vertex.
    /// - Throws: ``SketchError/nothingSelected(operation:)`` unless a vertex is selected.
    package mutating func removeSelectedVertex() throws {
        commitDrag()
        guard case .vertex(let p, let i) = selection else {
            throw SketchError.nothingSelected(operation: .removeSelectedVertex)
        }
        try removeVertex(part: p, index: i)
    }

    /// Removes the part holding the selected vertex or mid-vertex.
    /// - Throws: ``SketchError/nothingSelected(operation:)`` when nothing is selected.
    package mutating func removeSelectedPart() throws {
        commitDrag()
        guard let p = selection.part else { throw SketchError.nothingSelected(operation: .removeSelectedPart) }
        try removePart(p)
    }

    /// Selects the last vertex of the last non-empty part (nothing when the sketch is empty).
    /// Selection alone is not an undo step.
    /// - Returns: whether the selection changed.
    @discardableResult
    package mutating func selectLastVertex() -> Bool {
        commitDrag()
        var s = SketchSelection.none
        for p in stride(from: store.partCount - 1, through: 0, by: -1) where !store.parts[p].isEmpty {
            s = .vertex(part: p, index: store.parts[p].count - 1)
            break
        }
        return setSelection(s)
    }

    /// Selects a vertex, a mid-vertex, a part, the geometry or nothing. Selection alone is not an
    /// undo step.
    /// - Throws: ``SketchError/invalidSelection(_:)`` when it names no vertex, segment or part
    ///   (the geometry can be selected once it has a part).
    /// - Returns: whether the selection changed.
    @discardableResult
    package mutating func select(_ s: SketchSelection) throws -> Bool {
        commitDrag()
        switch s {
        case .none: break
        case .vertex(let p, let i):
            guard p >= 0, p < store.partCount, i >= 0, i < store.parts[p].count else {
                throw SketchError.invalidSelection(s)
            }
        case .midVertex(let p, let seg):
            guard store.type == .polyline || store.type == .polygon, p >= 0, p < store.partCount,
                seg >= 0, seg < store.parts[p].segmentCount(closed: store.isClosed)
            else { throw SketchError.invalidSelection(s) }
        case .part(let p):
            guard p >= 0, p < store.partCount else { throw SketchError.invalidSelection(s) }
        case .geometry:
            guard store.partCount > 0 else { throw SketchError.invalidSelection(s) }
        }
        return setSelection(s)
    }

    /// Removes every vertex and part (one undo step); selects nothing. No-op on an empty sketch.
    /// - Returns: whether the geometry changed.
    @discardableResult
    package mutating func clear() -> Bool {
        commitDrag()
        guard store.partCount > 0 else { return false }
        var empty = store
        empty.removeAll()
        try? replace(with: empty, validated: false)
        return true
    }

    /// Replaces the sketch with `geometry` of the same type, as one undo step; selects nothing.
    /// - Throws: ``SketchError/typeMismatch(expected:found:)`` for another type;
    ///   ``GeometryError/nonFiniteCoordinate(part:index:)`` for a bad coordinate;
    ///   ``SketchError/editRejected(_:)`` when a ``validation`` rule refuses it.
    /// - Complexity: O(n) for the new geometry's n vertices; the old one is kept as a snapshot.
    package mutating func applyGeometry(_ geometry: Geometry) throws {
        commitDrag()
        guard geometry.type == store.type else {
            throw SketchError.typeMismatch(expected: store.type, found: geometry.type)
        }
        try replace(with: try VertexStore(geometry), validated: true)
    }

    /// Replaces the sketch (of any type) and clears the undo history; selects nothing.
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)``.
    package mutating func setGeometry(_ geometry: Geometry) throws {
        let s = try VertexStore(geometry)
        drag = nil
        store = s
        selection = .none
        history.removeAll()
    }

    /// Replaces the store as one step (checked by the rules when `validated`: apply, not clear).
    private mutating func replace(with new: VertexStore, validated: Bool) throws {
        let snapshot = validated ? validationSnapshot : nil
        let old = store
        store = new
        try validate(.replaced, kind: .replaceGeometry, against: snapshot)
        let r = SketchEditRecord(kind: .replaceGeometry, part: 0, index: 0, selectionBefore: selection)
        history.push(r, payload: .stores(before: old, after: new))
        selection = .none
    }

    // MARK: Helpers

    @discardableResult
    mutating func setSelection(_ s: SketchSelection) -> Bool {
        guard s != selection else { return false }
        selection = s
        return true
    }

    func selectionAfterRemoving(part: Int, index: Int) -> SketchSelection {
        guard part < store.partCount else { return .none }
        let n = store.parts[part].count
        if n == 0 { return .none }
        return .vertex(part: part, index: Swift.max(0, Swift.min(index - 1, n - 1)))
    }
}
