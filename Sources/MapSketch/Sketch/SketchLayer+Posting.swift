import MapSketchGeometry

// Posting: every change the layer makes reaches its observers from here, in a fixed order (the
// magnifier, a refused drag, the change, the selection).
extension SketchLayer {
    /// Runs an editor call that records one step of `kind` (nil: a replacement), then posts.
    func performEdit(_ kind: SketchEditRecord.Kind?, _ body: (inout SketchEditor) throws -> Void) throws {
        try perform(kind.map { .edit($0) } ?? .replaced) { editor in
            try body(&editor)
            return true
        }
    }

    /// Runs an editor call that reports whether it changed the geometry, then posts. `body` has
    /// the editor exclusively: it must not read the layer (compute what it needs first). Posts: the
    /// magnifier hides if the call ended a drag, a drag the call committed, the change (when
    /// there is one), then the selection (when it moved). When the call throws, only what it
    /// committed first is posted, and a rule's rejection of the call itself.
    @discardableResult
    func perform(_ reason: SketchGeometryChange.Reason, _ body: (inout SketchEditor) throws -> Bool) rethrows -> Bool {
        let old = editor.selection
        let wasDragging = isDragging
        let changed: Bool
        do {
            changed = try body(&editor)
        } catch {
            settleDrag(wasDragging: wasDragging)
            postRejections(of: error)
            postSelectionIfChanged(from: old)
            throw error
        }
        settleDrag(wasDragging: wasDragging)
        if changed { postGeometryChange(reason) }
        postSelectionIfChanged(from: old)
        return changed
    }

    /// After a call: the magnifier hides if the call ended a vertex drag, and a drag the call
    /// committed that a rule refused is posted (its vertex or transform went back).
    private func settleDrag(wasDragging: Bool) {
        if wasDragging, !isDragging, magnifierShown { postMagnifier(.hide) }
        if postPendingRejections() { postGeometryChange(.dragCancelled) }
    }

    func postGeometryChange(_ reason: SketchGeometryChange.Reason) {
        changeCount += 1
        let e = SketchGeometryChange(reason: reason, sequence: changeCount)
        let hs = geometryObservers.handlers
        for h in hs { h.body(e) }
        geometryObservers.yieldToStreams(e)
    }

    func postSelectionIfChanged(from old: SketchSelection) {
        let new = editor.selection
        guard new != old else { return }
        let e = SketchSelectionChange(old: old, new: new)
        let hs = selectionObservers.handlers
        for h in hs { h.body(e) }
        selectionObservers.yieldToStreams(e)
    }

    func postMagnifier(_ e: SketchMagnifierEvent) {
        switch e {
        case .show: magnifierShown = true
        case .hide: magnifierShown = false
        case .move: break
        }
        let hs = magnifierObservers.handlers
        for h in hs { h.body(e) }
        magnifierObservers.yieldToStreams(e)
    }
}
