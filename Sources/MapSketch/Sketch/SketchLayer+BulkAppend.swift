package import MapSketchGeometry

// Appending many vertices at once, for a sketch built in one go (a GPS track converted from a
// file): the vertices go straight into the store, without an undo record, a selection change and
// a geometry-changed event per vertex.

extension SketchEditor {
    /// Whether ``appendVerticesInBulk(_:)`` can take vertices now: a multipoint, polyline or
    /// polygon with no validation rule on and no drag under way (a rule checks each edit; a point
    /// takes one vertex).
    package var acceptsBulkAppend: Bool {
        store.type != .point && store.type != .envelope && !validation.isActive && drag == nil && transformGesture == nil
    }

    /// Appends `points` to the last part (creating the first part of an empty sketch) as a load,
    /// not as edits: no undo step is recorded, and the history is cleared (its steps describe the
    /// sketch before the load); the last vertex becomes selected, as after ``appendVertex(_:)``.
    /// The store ends as the same appends one at a time leave it.
    /// - Returns: false, changing nothing, when the sketch does not accept a bulk append (see
    ///   ``acceptsBulkAppend``) or a point is not finite; true once the points are appended.
    /// - Complexity: O(k) amortised for k points.
    package mutating func appendVerticesInBulk(_ points: some Collection<Point>) -> Bool {
        // The loops run over a buffer of points: called from another module, this function is
        // not specialised, and iterating `points` through the generic collection allocated a
        // coroutine frame per element read (four mallocs per vertex in a GPS conversion).
        if let done = points.withContiguousStorageIfAvailable({ appendVerticesInBulk(buffer: $0) }) { return done }
        return Array(points).withUnsafeBufferPointer { appendVerticesInBulk(buffer: $0) }
    }

    private mutating func appendVerticesInBulk(buffer points: UnsafeBufferPointer<Point>) -> Bool {
        guard acceptsBulkAppend, points.allSatisfy(\.isFinite) else { return false }
        guard !points.isEmpty else { return true }
        do {
            for p in points { try store.append(p) }
        } catch {
            // Unreachable: the type takes vertices and every point is finite.
            return false
        }
        history.removeAll()
        let part = store.partCount - 1
        selection = .vertex(part: part, index: store.parts[part].count - 1)
        return true
    }
}

extension SketchLayer {
    /// Appends `points` to the last part in one go (see ``SketchEditor/appendVerticesInBulk(_:)``):
    /// no undo step, one geometry-changed event (`.replaced`) and one selection change for the
    /// whole batch instead of one of each per vertex.
    /// - Returns: false, changing and posting nothing, when the sketch does not accept a bulk
    ///   append or a point is not finite.
    /// - Complexity: O(k) amortised for k points.
    @discardableResult
    package func appendVerticesInBulk(_ points: some Collection<Point>) -> Bool {
        guard !points.isEmpty else { return editor.acceptsBulkAppend }
        return perform(.replaced) { editor in editor.appendVerticesInBulk(points) }
    }
}
