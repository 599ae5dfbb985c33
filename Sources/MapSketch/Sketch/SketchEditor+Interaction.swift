package import MapSketchGeometry

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
package struct SketchHitReach: Hashable, Sendable {
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

extension SketchEditor {
    /// What a tap at `p` hits. Precedence: the selected vertex, then the nearest other vertex,
    /// then the nearest mid-vertex, each within its reach; ties go to the lower part, then index.
    /// - Complexity: O(parts · (log n + k)) with envelope pruning.
    package func hitTest(_ p: Point, reach: SketchHitReach) -> SketchHit {
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
    package enum TapOutcome: Hashable, Sendable {
        /// The tap selected a vertex or mid-vertex; the geometry did not change.
        case selected(SketchSelection)
        /// The tap edited the geometry (one undo step).
        case edited(SketchEditRecord.Kind)
    }

    /// Applies the tap rules to a tap at map point `p` (see ``SketchLayer`` for all five rules of
    /// sketching by touch).
    ///
    /// 1. On the map: a point sketch moves its point there; other types insert a vertex after the
    ///    selected vertex (or at the selected mid-vertex's segment, or at the end of the selected
    ///    part) and select it; with nothing (or the whole geometry) selected it is appended to the
    ///    last part.
    /// 2. On a vertex: selects it.
    /// 3. On a mid-vertex: selects it; the next tap on the map inserts there.
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)`` for a non-finite point.
    package mutating func tap(at p: Point, reach: SketchHitReach) throws -> TapOutcome {
        try tap(at: p, hit: hitTest(p, reach: reach))
    }

    /// The edit a tap that hit `hit` makes (the kind of its undo step), or nil when it selects.
    package func tapEdit(for hit: SketchHit) -> SketchEditRecord.Kind? {
        guard hit == .map else { return nil }
        return store.type == .point && !store.isEmpty ? .moveVertex : .insertVertex
    }

    /// Applies the tap rules to a tap at map point `p` whose hit test (``hitTest(_:reach:)``)
    /// found `hit`: what ``tap(at:reach:)`` does after its hit test.
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)`` for a non-finite point;
    ///   ``SketchError/editRejected(_:)`` when a validation rule refuses the edit.
    package mutating func tap(at p: Point, hit: SketchHit) throws -> TapOutcome {
        commitDrag()
        switch hit {
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
        return .edited(try insertAtSelection(p))
    }

    /// Adds a vertex at `p` as a tap on the map does (rule 1, without looking for a vertex
    /// there): a point sketch moves its point; otherwise after the selected vertex, into the
    /// selected mid-vertex's segment, at the end of the selected part, or appended to the last
    /// part. The new vertex is selected.
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)``; ``SketchError/editRejected(_:)``.
    /// - Returns: the kind of step recorded.
    @discardableResult
    package mutating func insertAtSelection(_ p: Point) throws -> SketchEditRecord.Kind {
        commitDrag()
        if store.type == .point {
            let kind: SketchEditRecord.Kind = store.isEmpty ? .insertVertex : .moveVertex
            try appendVertex(p)
            return kind
        }
        switch selection {
        case .vertex(let part, let i):
            try insertVertex(p, part: part, at: i + 1)
        case .midVertex(let part, let seg):
            try insertVertex(p, part: part, at: seg + 1)
        case .part(let part) where part < store.partCount:
            try insertVertex(p, part: part, at: store.parts[part].count)
        case .none, .geometry, .part:
            try appendVertex(p)
        }
        return .insertVertex
    }

    /// Starts dragging vertex (part, index) (rule 4: after a hold on the selected vertex).
    /// - Throws: ``GeometryError`` for indices out of range.
    package mutating func beginDrag(part: Int, index: Int) throws {
        commitDrag()
        let origin = try store.vertex(part: part, index: index)
        drag = (part, index, origin, selection)
        dragMeasures = measureCache
        selection = .vertex(part: part, index: index)
    }

    /// Moves the dragged vertex to `p` (no undo step yet). Non-finite points are ignored.
    /// - Returns: whether the geometry changed.
    @discardableResult
    package mutating func updateDrag(to p: Point) -> Bool {
        guard let d = drag, p.isFinite else { return false }
        guard let old = try? store.moveVertex(part: d.part, index: d.index, to: p) else { return false }
        return old != p
    }

    /// Ends the drag at `p` and records it as one move step (none when the vertex ends where it
    /// started). When a ``validation`` rule refuses the move, the vertex goes back where it
    /// started and the rejection waits in ``takeRejections()``.
    /// - Returns: whether a step was recorded.
    @discardableResult
    package mutating func endDrag(at p: Point) -> Bool {
        updateDrag(to: p)
        return commitDrag()
    }

    /// Cancels the drag: the vertex goes back where it started; nothing is recorded.
    /// - Returns: whether the geometry changed.
    @discardableResult
    package mutating func cancelDrag() -> Bool {
        guard let d = drag else { return false }
        drag = nil
        selection = d.selectionBefore
        guard let old = try? store.moveVertex(part: d.part, index: d.index, to: d.origin) else { return false }
        return old != d.origin
    }

    /// Records a drag in progress (of a vertex or of a transform handle) as one step. Every
    /// other call commits a drag under way first, as a release would.
    @discardableResult
    mutating func commitDrag() -> Bool {
        // A tag test in place: `transformGesture != nil` compiled to the Equatable comparison of
        // two optionals, copying the 200-byte gesture twice (about 120 instructions on every undo,
        // redo and edit).
        if case .some = transformGesture { return commitTransformGesture() }
        guard let d = drag else { return false }
        drag = nil
        guard let now = try? store.vertex(part: d.part, index: d.index), now != d.origin else { return false }
        if validation.isActive {
            // Judge the whole drag as one move from where it began.
            var before = store
            _ = try? before.moveVertex(part: d.part, index: d.index, to: d.origin)
            do {
                try validate(
                    .vertexMoved(part: d.part, index: d.index, from: d.origin), kind: .moveVertex,
                    against: ValidationSnapshot(store: before, measures: dragMeasures), part: d.part, index: d.index)
            } catch SketchError.editRejected(let r) {
                pendingRejections.append(r)
                selection = d.selectionBefore
                return false
            } catch {
                return false
            }
        }
        history.pushMove(part: d.part, index: d.index, from: d.origin, to: now, selectionBefore: d.selectionBefore)
        return true
    }

    /// Hands over the rejections of edits the editor committed on its own (a drag released or
    /// ended by another call), oldest first, and forgets them.
    package mutating func takeRejections() -> [SketchEditRejection] {
        defer { pendingRejections.removeAll() }
        return pendingRejections
    }
}
