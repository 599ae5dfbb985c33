import MapSketchGeometry

// Validation hooks on the layer: the rules (kept by the editor, consulted before every edit
// commits) and the rejection events, posted for edits asked for by a call (which also throws),
// by a touch, or committed by the editor on its own (a drag ended by another call).
extension SketchLayer {
    /// The rules an edit must keep to commit (see ``SketchValidation``); none by default.
    public var validation: SketchValidation {
        get { editor.validation }
        set { editor.validation = newValue }
    }

    /// Calls `handler` with every edit a ``validation`` rule rejects, after the geometry has been
    /// left (or put back) as it was.
    /// - Returns: a token for ``removeObserver(_:)``.
    @discardableResult
    public func onEditRejected(_ handler: @escaping @MainActor (SketchEditRejection) -> Void) -> SketchObservation {
        register(handler, in: &rejectionObservers)
    }

    /// A new stream of every later rejected edit (unbounded buffer). Ends when dropped.
    package var editRejections: AsyncStream<SketchEditRejection> { rejectionObservers.stream(takeID()) }

    /// Posts the rejection `error` carries, if it is one, after those waiting in the editor.
    func postRejections(of error: any Error) {
        _ = postPendingRejections()
        if case SketchError.editRejected(let r) = error { postRejection(r) }
    }

    /// Posts the rejections of edits the editor committed on its own.
    /// - Returns: whether there was any.
    func postPendingRejections() -> Bool {
        let pending = editor.takeRejections()
        for r in pending { postRejection(r) }
        return !pending.isEmpty
    }

    private func postRejection(_ r: SketchEditRejection) {
        let hs = rejectionObservers.handlers
        for h in hs { h.body(r) }
        rejectionObservers.yieldToStreams(r)
    }
}
