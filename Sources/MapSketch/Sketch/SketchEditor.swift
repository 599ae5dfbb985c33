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

/// A history record whose payload is gone: a bug, reported by `historyOutOfSync`.
enum _HistoryError: Error {
    case missingPayload(SketchEditRecord.Kind)
}

/// What a tap in map coordinates hits in the sketch.
public enum SketchHit: Hashable, Sendable {
    /// Nothing: the tap is on the map.
    case map
    /// A vertex.
    case vertex(part: Int, index: Int)
    /// A mid-vertex.
    case midVertex(part: Int, segment: Int)
}

/// How far, in map units, a tap reaches each kind of sketch element.
public struct SketchHitReach: Hashable, Sendable {
    /// Reach of the selected vertex.
    public var selectedVertex: Double
    /// Reach of any other vertex.
    public var vertex: Double
    /// Reach of a mid-vertex.
    public var midVertex: Double

    /// Reaches in map units (half the marker size plus the tolerance, times the resolution).
    public init(selectedVertex: Double, vertex: Double, midVertex: Double) {
        self.selectedVertex = selectedVertex
        self.vertex = vertex
        self.midVertex = midVertex
    }
}

/// The sketch's editing model without a map: the geometry in chunked storage, the selection and
/// the undo history. ``SketchLayer`` drives it from touches and reports its changes as events;
/// benchmarks and the replay harness may drive it directly.
///
/// Selection after each change (documented rule; an undo restores the selection before):
/// - insert or move a vertex (by tap, drag or call) selects that vertex;
/// - remove a vertex selects the vertex before it in its part (the new first vertex when the
///   first was removed; nothing when the part is left empty);
/// - add or remove a part, clear, apply or set the geometry select nothing, so the next tap
///   appends to the last part.
///
/// ```swift
/// var e = try SketchEditor(type: .polyline)
/// try e.tap(at: Point(0, 0), reach: r)   // appends (creating the first part)
/// try e.tap(at: Point(10, 0), reach: r)  // appends after the selected vertex
/// e.undo()                              // back to one vertex, vertex 0 selected
/// ```
public struct SketchEditor: Sendable {
    /// The geometry being edited.
    public private(set) var store: VertexStore
    /// The current selection.
    public private(set) var selection: SketchSelection = .none
    /// The history of changes.
    public private(set) var history: SketchUndoStack
    /// The vertex being dragged and where it started, between ``beginDrag(part:index:)`` and the end.
    public private(set) var drag: (part: Int, index: Int, origin: Point, selectionBefore: SketchSelection)?

    /// An empty sketch of `type` (point, multipoint, polyline or polygon).
    /// - Throws: ``GeometryError/unsupported(_:)`` for an envelope.
    public init(type: GeometryType, levelsOfUndo: Int = 0) throws {
        store = try VertexStore(type: type)
        history = SketchUndoStack(levelsOfUndo: levelsOfUndo)
    }

    /// A sketch editing `geometry` (an empty geometry starts a new sketch of its type).
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)`` for a NaN or infinite coordinate.
    public init(geometry: Geometry, levelsOfUndo: Int = 0) throws {
        store = try VertexStore(geometry)
        history = SketchUndoStack(levelsOfUndo: levelsOfUndo)
    }

    /// The geometry type being sketched.
    public var geometryType: GeometryType { store.type }
    /// The sketch as a geometry. - Complexity: O(n).
    public var geometry: Geometry { store.geometry }
    /// Whether an undo is possible.
    public var canUndo: Bool { history.canUndo }
    /// Whether a redo is possible.
    public var canRedo: Bool { history.canRedo }
    /// The bound on undo steps (0: unbounded).
    public var levelsOfUndo: Int {
        get { history.levelsOfUndo }
        set { history.levelsOfUndo = newValue }
    }

    // MARK: Programmatic edits

    /// Inserts `point` so that it becomes vertex `index` of `part`, and selects it.
    /// In an empty multipoint, part 0 is created; in a point sketch, (0, 0) sets the point.
    /// - Throws: ``GeometryError`` for indices out of range or non-finite coordinates.
    /// - Complexity: O(log n).
    public mutating func insertVertex(_ point: Point, part: Int, at index: Int) throws {
        commitDrag()
        let before = selection
        let created = store.type == .multipoint && store.partCount == 0 && part == 0
        try store.insertVertex(point, part: part, at: index)
        var r = SketchEditRecord.insertVertex(part: part, index: index, point: point, selectionBefore: before)
        r.createdPart = created
        history.push(r)
        selection = .vertex(part: part, index: index)
    }

    /// Appends `point` to the last part (creating the first part of an empty sketch) and selects
    /// it: one undo step. A point sketch moves (or sets) its point.
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)``.
    /// - Complexity: O(1) amortised.
    public mutating func appendVertex(_ point: Point) throws {
        commitDrag()
        if store.type == .point {
            if store.isEmpty {
                try insertVertex(point, part: 0, at: 0)
            } else {
                try moveVertex(part: 0, index: 0, to: point)
            }
            return
        }
        if store.partCount == 0 {
            guard point.isFinite else { throw GeometryError.nonFiniteCoordinate(part: 0, index: 0) }
            let before = selection
            try store.addPart()
            try store.insertVertex(point, part: 0, at: 0)
            var r = SketchEditRecord.insertVertex(part: 0, index: 0, point: point, selectionBefore: before)
            r.createdPart = true
            history.push(r)
            selection = .vertex(part: 0, index: 0)
            return
        }
        // `insertVertex(point, part: p, at: count)` without its second drag commit and its
        // created-part check (the part exists): one store append, one record.
        let p = store.partCount - 1
        let index = store.parts[p].count
        let before = selection
        try store.insertVertex(point, part: p, at: index)
        history.push(.insertVertex(part: p, index: index, point: point, selectionBefore: before))
        selection = .vertex(part: p, index: index)
    }

    /// Moves vertex (part, index) to `point` and selects it.
    /// - Throws: ``GeometryError`` for indices out of range or non-finite coordinates.
    /// - Complexity: O(log n).
    public mutating func moveVertex(part: Int, index: Int, to point: Point) throws {
        commitDrag()
        let before = selection
        let old = try store.moveVertex(part: part, index: index, to: point)
        history.pushMove(part: part, index: index, from: old, to: point, selectionBefore: before)
        selection = .vertex(part: part, index: index)
    }

    /// Removes vertex (part, index); the vertex before it becomes selected.
    /// - Throws: ``GeometryError`` for indices out of range.
    /// - Complexity: O(log n).
    public mutating func removeVertex(part: Int, index: Int) throws {
        commitDrag()
        let before = selection
        let old = try store.removeVertex(part: part, index: index)
        history.push(.removeVertex(part: part, index: index, point: old, selectionBefore: before))
        selection = selectionAfterRemoving(part: part, index: index)
    }

    /// Adds an empty part at the end, selects nothing (so taps append to it) and returns its index.
    /// - Throws: ``GeometryError/unsupported(_:)`` for a point, or a multipoint that has its part.
    @discardableResult
    public mutating func addPart() throws -> Int {
        commitDrag()
        let before = selection
        let i = try store.addPart()
        history.push(.addPart(part: i, selectionBefore: before))
        selection = .none
        return i
    }

    /// Removes part `index` with its vertices; selects nothing.
    /// - Throws: ``GeometryError/partIndexOutOfRange(part:partCount:)``.
    public mutating func removePart(_ index: Int) throws {
        commitDrag()
        let before = selection
        let removed = try store.removePart(index)
        let r = SketchEditRecord(kind: .removePart, part: index, index: 0, selectionBefore: before)
        history.push(r, payload: .part(removed))
        selection = .none
    }

    /// Removes the selected vertex.
    /// - Throws: ``SketchError/nothingSelected(operation:)`` unless a vertex is selected.
    public mutating func removeSelectedVertex() throws {
        commitDrag()
        guard case .vertex(let p, let i) = selection else {
            throw SketchError.nothingSelected(operation: .removeSelectedVertex)
        }
        try removeVertex(part: p, index: i)
    }

    /// Removes the part holding the selected vertex or mid-vertex.
    /// - Throws: ``SketchError/nothingSelected(operation:)`` when nothing is selected.
    public mutating func removeSelectedPart() throws {
        commitDrag()
        guard let p = selection.part else { throw SketchError.nothingSelected(operation: .removeSelectedPart) }
        try removePart(p)
    }

    /// Selects the last vertex of the last non-empty part (nothing when the sketch is empty).
    /// Selection alone is not an undo step.
    /// - Returns: whether the selection changed.
    @discardableResult
    public mutating func selectLastVertex() -> Bool {
        commitDrag()
        var s = SketchSelection.none
        for p in stride(from: store.partCount - 1, through: 0, by: -1) where !store.parts[p].isEmpty {
            s = .vertex(part: p, index: store.parts[p].count - 1)
            break
        }
        return setSelection(s)
    }

    /// Selects a vertex, a mid-vertex or nothing. Selection alone is not an undo step.
    /// - Throws: ``SketchError/invalidSelection(_:)`` when it names no vertex or segment.
    /// - Returns: whether the selection changed.
    @discardableResult
    public mutating func select(_ s: SketchSelection) throws -> Bool {
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
        }
        return setSelection(s)
    }

    /// Removes every vertex and part (one undo step); selects nothing. No-op on an empty sketch.
    /// - Returns: whether the geometry changed.
    @discardableResult
    public mutating func clear() -> Bool {
        commitDrag()
        guard store.partCount > 0 else { return false }
        var empty = store
        empty.removeAll()
        replace(with: empty)
        return true
    }

    /// Replaces the sketch with `geometry` of the same type, as one undo step; selects nothing.
    /// - Throws: ``SketchError/typeMismatch(expected:found:)`` for another type;
    ///   ``GeometryError/nonFiniteCoordinate(part:index:)`` for a bad coordinate.
    /// - Complexity: O(n) for the new geometry's n vertices; the old one is kept as a snapshot.
    public mutating func applyGeometry(_ geometry: Geometry) throws {
        commitDrag()
        guard geometry.type == store.type else {
            throw SketchError.typeMismatch(expected: store.type, found: geometry.type)
        }
        replace(with: try VertexStore(geometry))
    }

    /// Replaces the sketch (of any type) and clears the undo history; selects nothing.
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)``.
    public mutating func setGeometry(_ geometry: Geometry) throws {
        let s = try VertexStore(geometry)
        drag = nil
        store = s
        selection = .none
        history.removeAll()
    }

    private mutating func replace(with new: VertexStore) {
        let r = SketchEditRecord(kind: .replaceGeometry, part: 0, index: 0, selectionBefore: selection)
        history.push(r, payload: .stores(before: store, after: new))
        store = new
        selection = .none
    }

    // MARK: Undo and redo

    /// Undoes the latest step, restoring geometry and selection exactly.
    /// - Returns: whether a step was undone.
    /// - Complexity: O(log n) for a vertex step; O(parts) for a part or whole-geometry step.
    @discardableResult
    public mutating func undo() -> Bool {
        commitDrag()
        guard let r = history.popUndo() else { return false }
        do {
            switch r.kind {
            case .insertVertex:
                try store.removeVertex(part: r.part, index: r.index)
                if r.createdPart, store.type != .point { try store.removePart(r.part) }
            case .removeVertex:
                try store.insertVertex(r.point, part: r.part, at: r.index)
            case .moveVertex:
                try store.moveVertex(part: r.part, index: r.index, to: history.moveEnds(of: r).from)
            case .addPart:
                try store.removePart(r.part)
            case .removePart:
                guard case .part(let v) = history.payload(of: r) else { throw _HistoryError.missingPayload(r.kind) }
                try store.insertPart(v, at: r.part)
            case .replaceGeometry:
                guard case .stores(let before, _) = history.payload(of: r) else {
                    throw _HistoryError.missingPayload(r.kind)
                }
                store = before
            }
        } catch {
            historyOutOfSync(error)
            return false
        }
        selection = r.selectionBefore
        return true
    }

    /// Redoes the latest undone step, restoring geometry and selection exactly.
    /// - Returns: whether a step was redone.
    /// - Complexity: as ``undo()``.
    @discardableResult
    public mutating func redo() -> Bool {
        commitDrag()
        guard let r = history.popRedo() else { return false }
        do {
            switch r.kind {
            case .insertVertex:
                if r.createdPart, store.type != .point { try store.insertPart(ChunkedVertices(), at: r.part) }
                try store.insertVertex(r.point, part: r.part, at: r.index)
                selection = .vertex(part: r.part, index: r.index)
            case .removeVertex:
                try store.removeVertex(part: r.part, index: r.index)
                selection = selectionAfterRemoving(part: r.part, index: r.index)
            case .moveVertex:
                try store.moveVertex(part: r.part, index: r.index, to: history.moveEnds(of: r).to)
                selection = .vertex(part: r.part, index: r.index)
            case .addPart:
                try store.insertPart(ChunkedVertices(), at: r.part)
                selection = .none
            case .removePart:
                try store.removePart(r.part)
                selection = .none
            case .replaceGeometry:
                guard case .stores(_, let after) = history.payload(of: r) else {
                    throw _HistoryError.missingPayload(r.kind)
                }
                store = after
                selection = .none
            }
        } catch {
            historyOutOfSync(error)
            return false
        }
        return true
    }

    /// A history step that no longer fits the geometry is a bug; drop the history rather than
    /// corrupt the sketch.
    private mutating func historyOutOfSync(_ error: any Error) {
        assertionFailure("sketch undo history out of sync with the geometry: \(error)")
        history.removeAll()
    }

    // MARK: Interaction (map coordinates)

    /// What a tap at `p` hits. Precedence: the selected vertex, then the nearest other vertex,
    /// then the nearest mid-vertex, each within its reach; ties go to the lower part, then index.
    /// - Complexity: O(parts · (log n + k)) with envelope pruning.
    public func hitTest(_ p: Point, reach: SketchHitReach) -> SketchHit {
        if case .vertex(let part, let i) = selection, part < store.partCount, i < store.parts[part].count {
            let v = store.parts[part][i]
            let dx = v.x - p.x
            let dy = v.y - p.y
            if dx * dx + dy * dy <= reach.selectedVertex * reach.selectedVertex { return .vertex(part: part, index: i) }
        }
        var best: (part: Int, index: Int, d2: Double)?
        for (pi, part) in store.parts.enumerated() {
            let limit = best.map { $0.d2.squareRoot() } ?? reach.vertex
            if let h = part.nearestVertex(to: p, within: limit), best == nil || h.distanceSquared < best?.d2 ?? 0 {
                best = (pi, h.index, h.distanceSquared)
            }
        }
        if let best { return .vertex(part: best.part, index: best.index) }
        guard store.type == .polyline || store.type == .polygon else { return .map }
        var bestMid: (part: Int, segment: Int, d2: Double)?
        for (pi, part) in store.parts.enumerated() {
            let limit = bestMid.map { $0.d2.squareRoot() } ?? reach.midVertex
            if let h = part.nearestMidVertex(to: p, within: limit, closed: store.isClosed),
                bestMid == nil || h.distanceSquared < bestMid?.d2 ?? 0
            {
                bestMid = (pi, h.segment, h.distanceSquared)
            }
        }
        if let bestMid { return .midVertex(part: bestMid.part, segment: bestMid.segment) }
        return .map
    }

    /// What a tap did.
    public enum TapOutcome: Hashable, Sendable {
        /// The tap selected a vertex or mid-vertex; the geometry did not change.
        case selected(SketchSelection)
        /// The tap edited the geometry (one undo step).
        case edited(SketchEditRecord.Kind)
    }

    /// Applies DESIGN §5 rules 1–3 to a tap at map point `p`.
    ///
    /// 1. On the map: a point sketch moves its point there; other types insert a vertex after the
    ///    selected vertex (or at the selected mid-vertex's segment) and select it; with nothing
    ///    selected it is appended to the last part.
    /// 2. On a vertex: selects it.
    /// 3. On a mid-vertex: selects it; the next tap on the map inserts there.
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)`` for a non-finite point.
    public mutating func tap(at p: Point, reach: SketchHitReach) throws -> TapOutcome {
        commitDrag()
        switch hitTest(p, reach: reach) {
        case .vertex(let part, let i):
            let s = SketchSelection.vertex(part: part, index: i)
            setSelection(s)
            return .selected(s)
        case .midVertex(let part, let seg):
            let s = SketchSelection.midVertex(part: part, segment: seg)
            setSelection(s)
            return .selected(s)
        case .map:
            break
        }
        if store.type == .point {
            let kind: SketchEditRecord.Kind = store.isEmpty ? .insertVertex : .moveVertex
            try appendVertex(p)
            return .edited(kind)
        }
        switch selection {
        case .vertex(let part, let i):
            try insertVertex(p, part: part, at: i + 1)
        case .midVertex(let part, let seg):
            try insertVertex(p, part: part, at: seg + 1)
        case .none:
            try appendVertex(p)
        }
        return .edited(.insertVertex)
    }

    /// Starts dragging vertex (part, index) (rule 4: after a hold on the selected vertex).
    /// - Throws: ``GeometryError`` for indices out of range.
    public mutating func beginDrag(part: Int, index: Int) throws {
        commitDrag()
        let origin = try store.vertex(part: part, index: index)
        drag = (part, index, origin, selection)
        selection = .vertex(part: part, index: index)
    }

    /// Moves the dragged vertex to `p` (no undo step yet). Non-finite points are ignored.
    /// - Returns: whether the geometry changed.
    @discardableResult
    public mutating func updateDrag(to p: Point) -> Bool {
        guard let d = drag, p.isFinite else { return false }
        guard let old = try? store.moveVertex(part: d.part, index: d.index, to: p) else { return false }
        return old != p
    }

    /// Ends the drag at `p` and records it as one move step (none when the vertex ends where it
    /// started). - Returns: whether a step was recorded.
    @discardableResult
    public mutating func endDrag(at p: Point) -> Bool {
        updateDrag(to: p)
        return commitDrag()
    }

    /// Cancels the drag: the vertex goes back where it started; nothing is recorded.
    /// - Returns: whether the geometry changed.
    @discardableResult
    public mutating func cancelDrag() -> Bool {
        guard let d = drag else { return false }
        drag = nil
        selection = d.selectionBefore
        guard let old = try? store.moveVertex(part: d.part, index: d.index, to: d.origin) else { return false }
        return old != d.origin
    }

    /// Records a drag in progress as one step.
    @discardableResult
    private mutating func commitDrag() -> Bool {
        guard let d = drag else { return false }
        drag = nil
        guard let now = try? store.vertex(part: d.part, index: d.index), now != d.origin else { return false }
        history.pushMove(part: d.part, index: d.index, from: d.origin, to: now, selectionBefore: d.selectionBefore)
        return true
    }

    // MARK: Validity

    /// Whether the sketch is a valid geometry of its type (DESIGN §5): a point has its vertex; a
    /// multipoint ≥ 1 vertex; every polyline part ≥ 2 vertices; every polygon part ≥ 3 distinct
    /// vertices (2D). An empty polyline or polygon (no parts) is not valid.
    /// - Complexity: O(n) for polygons (distinct vertices are counted until 3 are found), O(parts) otherwise.
    public var isSketchValid: Bool {
        switch store.type {
        case .point, .multipoint: return store.vertexCount >= 1
        case .polyline: return store.partCount > 0 && store.parts.allSatisfy { $0.count >= 2 }
        case .polygon, .envelope:
            guard store.partCount > 0 else { return false }
            return store.parts.allSatisfy { part in
                guard part.count >= 3 else { return false }
                var distinct: [Point] = []
                for v in part where !distinct.contains(where: { $0.equals2D(v) }) {
                    distinct.append(v.xy)
                    if distinct.count == 3 { return true }
                }
                return false
            }
        }
    }

    // MARK: Helpers

    @discardableResult
    private mutating func setSelection(_ s: SketchSelection) -> Bool {
        guard s != selection else { return false }
        selection = s
        return true
    }

    private func selectionAfterRemoving(part: Int, index: Int) -> SketchSelection {
        guard part < store.partCount else { return .none }
        let n = store.parts[part].count
        if n == 0 { return .none }
        return .vertex(part: part, index: Swift.max(0, Swift.min(index - 1, n - 1)))
    }
}
