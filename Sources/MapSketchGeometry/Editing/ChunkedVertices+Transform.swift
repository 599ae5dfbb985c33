/// Whole-part and whole-geometry transforms of chunked storage: one pass over the chunks, each
/// vertex transformed once, written into new chunks.
extension ChunkedVertices {
    /// A new part holding every vertex transformed by `transform` (z and m kept), in order. This
    /// part is not changed, so a snapshot of it (an undo record) stays exactly as it was.
    ///
    /// The new part is one run built in bulk: its buffers are allocated once at the exact size,
    /// each transformed vertex is written in place, and the chunk envelopes and the pyramid
    /// above them are computed once at the end (not an append, with its envelope update, per
    /// vertex).
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)`` (with `part` as given) for
    ///   the first vertex the transform takes to a NaN or infinite coordinate.
    /// - Complexity: O(n) for n vertices; two allocations (three when a vertex has z or m).
    public func transformed(by transform: AffineTransform, part: Int = 0) throws -> ChunkedVertices {
        let n = count
        guard n > 0 else { return ChunkedVertices() }
        let run = _VertexRun(capacity: n)
        var index = 0
        var hasZM = false
        try forEachChunkBuffer { chunk in
            for p in chunk {
                let q = transform.apply(p)
                guard q.isFinite else { throw GeometryError.nonFiniteCoordinate(part: part, index: index) }
                (run.xy + index).initialize(to: _ChunkXY(x: q.x, y: q.y))
                hasZM = hasZM || q.z != nil || q.m != nil
                index += 1
            }
        }
        if hasZM {
            let zs = _VertexRun.allocate(_ZM.self, run.capacity)
            var i = 0
            forEachChunkBuffer { chunk in
                for p in chunk {
                    let q = transform.apply(p)
                    (zs + i).initialize(to: _ZM(z: q.z, m: q.m))
                    i += 1
                }
            }
            run.zm = zs
        }
        run.count = n
        for c in 0..<run.chunkCount { run.envelopes[c] = run.chunkReferenceFold(c) }
        run.rebuildUpperLevels()
        var out = ChunkedVertices()
        out._tail = run
        out._checkInvariants()
        return out
    }

    /// The centroid of this part as a ring (`dimension` 2), a path (1) or points (0), by the rule
    /// of ``GeometryEngine/centroid(_:)``; nil when the part is empty.
    /// - Complexity: O(n) for n vertices, no allocation.
    public func centroid(dimension: Int) -> Point? {
        CentroidSums.of(parts: CollectionOfOne(self), dimension: dimension)
    }
}

extension VertexStore {
    /// This store with `transform` applied to part `part`, or to every part when `part` is nil.
    /// This store is not changed: parts left alone are shared with it (copy-on-write), so the
    /// result costs O(n) for the n vertices transformed plus O(p) for p parts.
    /// - Throws: ``GeometryError/partIndexOutOfRange(part:partCount:)``;
    ///   ``GeometryError/nonFiniteCoordinate(part:index:)`` when a coordinate would not be finite.
    public func transformed(by transform: AffineTransform, part: Int? = nil) throws -> VertexStore {
        var out = self
        let targets = try part.map { p -> Range<Int> in
            guard p >= 0, p < partCount else { throw GeometryError.partIndexOutOfRange(part: p, partCount: partCount) }
            return p..<(p + 1)
        } ?? 0..<partCount
        // Parts are taken out and put back in place: the same checks and invariants as any edit.
        for p in targets {
            let moved = try parts[p].transformed(by: transform, part: p)
            try out.replacePart(p, with: moved)
        }
        return out
    }

    /// The centroid of part `part`, or of the whole geometry when `part` is nil, by the rule of
    /// ``GeometryEngine/centroid(_:)`` (rings for polygons, paths for polylines, points
    /// otherwise); nil when there is no vertex.
    /// - Complexity: O(n) for the n vertices measured, no allocation.
    public func centroid(part: Int? = nil) -> Point? {
        let dimension = type == .polygon ? 2 : (type == .polyline ? 1 : 0)
        if let part {
            guard part >= 0, part < partCount else { return nil }
            return parts[part].centroid(dimension: dimension)
        }
        return CentroidSums.of(parts: parts, dimension: dimension)
    }

    /// The envelope of part `part`, or of every part when `part` is nil; nil when empty.
    /// - Complexity: O(1) for a part, O(p) for p parts.
    public func envelope(part: Int?) -> Envelope? {
        guard let part else { return envelope }
        guard part >= 0, part < partCount else { return nil }
        return parts[part].envelope
    }

    /// Replaces part `index` with `vertices` (through remove and insert, so a point keeps its
    /// single part and every coordinate is checked).
    mutating func replacePart(_ index: Int, with vertices: ChunkedVertices) throws {
        let old = try removePart(index)
        do {
            try insertPart(vertices, at: index)
        } catch {
            try? insertPart(old, at: index)
            throw error
        }
    }
}
