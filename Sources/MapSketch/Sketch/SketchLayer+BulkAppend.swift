public import MapSketchGeometry

// Appending many vertices at once: as one edit (`appendVertices`: one undo step, one event), or,
// for a sketch built in one go (a GPS track converted from a file), as a load
// (`appendVerticesInBulk`: no undo step at all). Either way the vertices go straight into the
// store, without an undo record, a selection change and a geometry-changed event per vertex.

extension SketchEditor {
    /// Appends `points` to the last part (creating the first part of an empty sketch) as one
    /// edit: one undo step, which takes them all away again; the last of them becomes selected,
    /// as after ``appendVertex(_:)``. An empty collection changes nothing and records no step.
    /// The store ends as appending them one at a time leaves it.
    ///
    /// The ``validation`` rules judge the edit as a whole (the new segments, the measures the
    /// sketch ends with); a rejected edit appends nothing.
    /// - Throws: ``GeometryError/pointHasOneVertex`` for a point sketch (its point moves with
    ///   ``appendVertex(_:)``); ``GeometryError/nonFiniteCoordinate(part:index:)`` naming the
    ///   first NaN or infinite point where it would have gone; ``SketchError/editRejected(_:)``.
    ///   Nothing is appended when it throws.
    /// - Complexity: O(k) amortised for k points, plus O(parts) for the undo step's snapshots
    ///   (and, with rules on, O(k log n) to check the new segments).
    package mutating func appendVertices(_ points: some Collection<Point>) throws {
        guard !points.isEmpty else { return }
        // Over a buffer: see `appendVerticesInBulk(_:)`.
        if try points.withContiguousStorageIfAvailable({ try appendVertices(buffer: $0) }) != nil { return }
        try Array(points).withUnsafeBufferPointer { try appendVertices(buffer: $0) }
    }

    private mutating func appendVertices(buffer points: UnsafeBufferPointer<Point>) throws {
        commitDrag()
        guard store.type != .point else { throw GeometryError.pointHasOneVertex }
        let part = Swift.max(store.partCount - 1, 0)
        let from = store.partCount == 0 ? 0 : store.parts[part].count
        if let bad = points.firstIndex(where: { !$0.isFinite }) {
            throw GeometryError.nonFiniteCoordinate(part: part, index: from + bad)
        }
        let before = selection
        let snapshot = validationSnapshot
        let old = store
        try appendToStore(points, restoring: old)
        try validate(.verticesAppended(part: part, from: from), kind: .appendVertices, against: snapshot, part: part)
        let last = store.parts[part].count - 1
        let r = SketchEditRecord(kind: .appendVertices, part: part, index: last, selectionBefore: before)
        history.push(r, payload: .stores(before: old, after: store))
        selection = .vertex(part: part, index: last)
    }

    /// Appends finite `points` to the store one by one; puts `old` back if the store refuses one
    /// (it cannot: the callers take multipoints, polylines and polygons, and check finiteness).
    private mutating func appendToStore(_ points: UnsafeBufferPointer<Point>, restoring old: VertexStore) throws {
        do {
            for p in points { try store.append(p) }
        } catch {
            store = old
            throw error
        }
    }

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
            // Straight into the store: holding the old store here (to put it back) would share its
            // buffers and make the first append of every batch copy them.
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
    /// Appends `points` to the last part (creating the first part of an empty sketch) and
    /// selects the last of them, as one edit: one undo step (an undo takes them all away, a redo
    /// puts them back), one geometry-changed event (`.edit(.appendVertices)`) and at most one
    /// selection change, however many points there are. Appending a million vertices this way
    /// leaves one undo step where a loop of ``appendVertex(_:)`` leaves a million. An empty
    /// collection changes and posts nothing.
    ///
    /// ```swift
    /// try sketch.appendVertices((0..<1_000_000).map { Point(Double($0), 0) })
    /// sketch.undoCount   // 1
    /// sketch.undo()      // every appended vertex is gone
    /// ```
    /// - Throws: ``GeometryError/pointHasOneVertex`` for a point sketch;
    ///   ``GeometryError/nonFiniteCoordinate(part:index:)`` for a NaN or infinite point;
    ///   ``SketchError/editRejected(_:)`` when a ``validation`` rule refuses the edit. Nothing is
    ///   appended when it throws.
    /// - Complexity: O(k) amortised for k points (see ``SketchEditor/appendVertices(_:)``).
    public func appendVertices(_ points: some Collection<Point>) throws {
        guard !points.isEmpty else { return }
        try performEdit(.appendVertices) { try $0.appendVertices(points) }
    }

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
