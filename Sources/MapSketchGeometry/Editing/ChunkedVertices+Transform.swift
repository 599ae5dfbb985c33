/// Whole-part and whole-geometry transforms of chunked storage: one pass over the chunks, each
/// vertex transformed once, written into new chunks.
extension ChunkedVertices {
    /// A new part holding every vertex transformed by `transform` (z and m kept), in order. This
    /// part is not changed, so a snapshot of it (an undo record) stays exactly as it was.
    ///
    /// The new part is one run built in bulk: its buffers are allocated once at the exact size,
    /// and one pass reads each chunk's x and y in place, writes the transformed vertex and folds
    /// it into its chunk's envelope (the pyramid above is computed once at the end); whether
    /// every coordinate is finite is summed up in the same pass (`x − x` is 0 exactly for a
    /// finite `x`), and only a failed sum looks for the vertex to name.
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)`` (with `part` as given) for
    ///   the first vertex the transform takes to a NaN or infinite coordinate.
    /// - Complexity: O(n) for n vertices; two allocations (three when a vertex has z or m).
    public func transformed(by transform: AffineTransform, part: Int = 0) throws -> ChunkedVertices {
        let n = count
        guard n > 0 else { return ChunkedVertices() }
        let run = _VertexRun(capacity: n)
        let xy = run.xy, envelopes = run.envelopes
        let ax = transform.anchorX, ay = transform.anchorY, tx = transform.translationX, ty = transform.translationY
        let a = transform.a, b = transform.b, c = transform.c, d = transform.d
        var index = 0
        var hasZM = false
        var finite = 0.0  // stays 0 while every coordinate is finite (NaN otherwise)
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        forEachChunkBuffer { chunk in
            guard let src = chunk.xy else { return }
            if chunk.zm != nil && !hasZM { hasZM = chunk.hasZM }
            for k in 0..<chunk.count {
                // AffineTransform.apply, term for term.
                let dx = src[k].x - ax, dy = src[k].y - ay
                let x = ax + (a * dx + b * dy) + tx
                let y = ay + (c * dx + d * dy) + ty
                (xy + index).initialize(to: _ChunkXY(x: x, y: y))
                finite += (x - x) + (y - y)
                x0 = Swift.min(x0, x)
                y0 = Swift.min(y0, y)
                x1 = Swift.max(x1, x)
                y1 = Swift.max(y1, y)
                index &+= 1
                if index & (_VertexRun.chunkSize &- 1) == 0 || index == n {
                    envelopes[(index &- 1) >> _VertexRun.chunkShift] = Envelope(xmin: x0, ymin: y0, xmax: x1, ymax: y1)
                    x0 = .infinity
                    y0 = .infinity
                    x1 = -.infinity
                    y1 = -.infinity
                }
            }
        }
        if finite != 0 || finite.isNaN {
            for i in 0..<n where !(xy[i].x.isFinite && xy[i].y.isFinite) {
                throw GeometryError.nonFiniteCoordinate(part: part, index: i)
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
            // The same count, every coordinate checked finite: the part is replaced in place.
            out.replacePart(p, withTransformed: try parts[p].transformed(by: transform, part: p))
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
}
