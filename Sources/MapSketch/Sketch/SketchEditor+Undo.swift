import MapSketchGeometry

/// A history record whose payload is gone: a bug, reported by `historyOutOfSync`.
enum HistoryError: Error {
    case missingPayload(SketchEditRecord.Kind)
}

extension SketchEditor {
    /// Undoes the latest step, restoring geometry and selection exactly.
    /// - Returns: whether a step was undone.
    /// - Complexity: O(log n) for a vertex step; O(parts) for a part or whole-geometry step.
    @discardableResult
    @_spi(MapSketchInternal) public mutating func undo() -> Bool {
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
                guard case .part(let v) = history.payload(of: r) else { throw HistoryError.missingPayload(r.kind) }
                try store.insertPart(v, at: r.part)
            case .replaceGeometry, .transform, .freehand, .shape, .appendVertices:
                guard case .stores(let before, _) = history.payload(of: r) else {
                    throw HistoryError.missingPayload(r.kind)
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
    @_spi(MapSketchInternal) public mutating func redo() -> Bool {
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
                    throw HistoryError.missingPayload(r.kind)
                }
                store = after
                selection = .none
            case .transform, .freehand, .shape:
                guard case .stores(_, let after) = history.payload(of: r) else {
                    throw HistoryError.missingPayload(r.kind)
                }
                store = after
                selection = Self.selection(afterRedoing: r)
            case .appendVertices:
                guard case .stores(_, let after) = history.payload(of: r) else {
                    throw HistoryError.missingPayload(r.kind)
                }
                store = after
                selection = .vertex(part: r.part, index: r.index)
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
}
