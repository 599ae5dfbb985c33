/// Whole-part and whole-geometry transforms of chunked storage: one pass over the chunks, each
/// vertex transformed once, written into new chunks.
extension ChunkedVertices {
    /// A new part holding every vertex transformed by `transform` (z and m kept), in order. This
    /// part is not changed, so a snapshot of it (an undo record) stays exactly as it was.
    ///
    /// The new part is one run built in bulk: its buffers are allocated once at the exact size
    /// (2 MiB pages asked for when it is large), and one pass reads each chunk's x and y in place
    /// and writes the transformed vertices; each completed 128-vertex chunk is then folded into
    /// its envelope while it is still in cache (the pyramid above is computed once at the end),
    /// and whether every coordinate is finite is summed up in the same fold (`x − x` is 0 exactly
    /// for a finite `x`): only a failed sum looks for the vertex to name.
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)`` (with `part` as given) for
    ///   the first vertex the transform takes to a NaN or infinite coordinate.
    /// - Complexity: O(n) for n vertices; two allocations (three when a vertex has z or m).
    package func transformed(by transform: AffineTransform, part: Int = 0) throws -> ChunkedVertices {
        let n = count
        guard n > 0 else { return ChunkedVertices() }
        let run = _VertexRun(capacity: n)
        let xy = run.xy, envelopes = run.envelopes
        // A fresh buffer of megabytes: 2 MiB pages make its first writes a few faults, not thousands.
        HugePages.advise(UnsafeMutableRawPointer(xy), bytes: n * MemoryLayout<_ChunkXY>.stride)
        let ax = transform.anchorX, ay = transform.anchorY, tx = transform.translationX, ty = transform.translationY
        let a = transform.a, b = transform.b, c = transform.c, d = transform.d
        var index = 0
        var folded = 0  // the vertices whose chunks' envelopes are written
        var hasZM = false
        var finite = true
        forEachChunkBuffer { chunk in
            guard let src = chunk.xy else { return }
            if chunk.zm != nil && !hasZM { hasZM = chunk.hasZM }
            let dst = xy + index
            for k in 0..<chunk.count {
                // AffineTransform.apply, term for term.
                let dx = src[k].x - ax, dy = src[k].y - ay
                (dst + k).initialize(to: _ChunkXY(x: ax + (a * dx + b * dy) + tx, y: ay + (c * dx + d * dy) + ty))
            }
            index &+= chunk.count
            // The chunks just completed, while they are in cache.
            while folded &+ _VertexRun.chunkSize <= index {
                finite = Self.fold(xy + folded, _VertexRun.chunkSize, into: &envelopes[folded >> _VertexRun.chunkShift]) && finite
                folded &+= _VertexRun.chunkSize
            }
        }
        if folded < n { finite = Self.fold(xy + folded, n &- folded, into: &envelopes[folded >> _VertexRun.chunkShift]) && finite }
        if !finite {
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

    /// Writes the envelope of the `n` vertices at `p` to `envelope` and returns whether all their
    /// coordinates are finite (`v − v` is 0 exactly for finite `v`), with independent
    /// accumulators so the pass is not one long chain of dependent minimums.
    @inline(__always)
    private static func fold(_ p: UnsafePointer<_ChunkXY>, _ n: Int, into envelope: inout Envelope) -> Bool {
        let raw = UnsafeRawPointer(p)
        let stride = MemoryLayout<_ChunkXY>.stride
        var lo0 = SIMD2<Double>(repeating: .infinity), lo1 = lo0
        var hi0 = SIMD2<Double>(repeating: -.infinity), hi1 = hi0
        var z0 = SIMD2<Double>.zero, z1 = z0
        var i = 0
        while i &+ 1 < n {
            let v0 = raw.loadUnaligned(fromByteOffset: i &* stride, as: SIMD2<Double>.self)
            let v1 = raw.loadUnaligned(fromByteOffset: (i &+ 1) &* stride, as: SIMD2<Double>.self)
            lo0 = lo0.replacing(with: v0, where: v0 .< lo0)
            hi0 = hi0.replacing(with: v0, where: v0 .> hi0)
            lo1 = lo1.replacing(with: v1, where: v1 .< lo1)
            hi1 = hi1.replacing(with: v1, where: v1 .> hi1)
            z0 += v0 - v0
            z1 += v1 - v1
            i &+= 2
        }
        if i < n {
            let v = raw.loadUnaligned(fromByteOffset: i &* stride, as: SIMD2<Double>.self)
            lo0 = lo0.replacing(with: v, where: v .< lo0)
            hi0 = hi0.replacing(with: v, where: v .> hi0)
            z0 += v - v
        }
        let lo = lo0.replacing(with: lo1, where: lo1 .< lo0), hi = hi0.replacing(with: hi1, where: hi1 .> hi0)
        envelope = Envelope(xmin: lo.x, ymin: lo.y, xmax: hi.x, ymax: hi.y)
        let z = z0 + z1
        return z.x == 0 && z.y == 0
    }

    /// The centroid of this part as a ring (`dimension` 2), a path (1) or points (0), by the rule
    /// of ``GeometryEngine/centroid(_:)``; nil when the part is empty.
    /// - Complexity: O(n) for n vertices, no allocation.
    package func centroid(dimension: Int) -> Point? {
        CentroidSums.of(parts: CollectionOfOne(self), dimension: dimension)
    }
}

extension VertexStore {
    /// This store with `transform` applied to part `part`, or to every part when `part` is nil.
    /// This store is not changed: parts left alone are shared with it (copy-on-write), so the
    /// result costs O(n) for the n vertices transformed plus O(p) for p parts.
    /// - Throws: ``GeometryError/partIndexOutOfRange(part:partCount:)``;
    ///   ``GeometryError/nonFiniteCoordinate(part:index:)`` when a coordinate would not be finite.
    package func transformed(by transform: AffineTransform, part: Int? = nil) throws -> VertexStore {
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
    package func centroid(part: Int? = nil) -> Point? {
        let dimension = type == .polygon ? 2 : (type == .polyline ? 1 : 0)
        if let part {
            guard part >= 0, part < partCount else { return nil }
            return parts[part].centroid(dimension: dimension)
        }
        return CentroidSums.of(parts: parts, dimension: dimension)
    }

    /// The envelope of part `part`, or of every part when `part` is nil; nil when empty.
    /// - Complexity: O(1) for a part, O(p) for p parts.
    package func envelope(part: Int?) -> Envelope? {
        guard let part else { return envelope }
        guard part >= 0, part < partCount else { return nil }
        return parts[part].envelope
    }
}
