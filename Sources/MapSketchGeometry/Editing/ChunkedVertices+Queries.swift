/// Proximity queries that prune by chunk, node and pyramid envelopes instead of scanning every
/// vertex.
extension ChunkedVertices {
    /// The vertex nearest to `p` within distance `d` (inclusive), or nil. Ties go to the lowest index.
    ///
    /// A subtree (or a run's pyramid entry) is skipped when its envelope is farther than the best
    /// distance so far.
    /// - Complexity: O(log n + k) for k vertices in the chunks near `p`; O(n) only when every
    ///   chunk's envelope reaches `p`.
    package func nearestVertex(to p: Point, within d: Double) -> (index: Int, distanceSquared: Double)? {
        guard d >= 0, !isEmpty else { return nil }
        var best = NearestCandidate(limit: d * d)
        withUnsafeMutablePointer(to: &best) { best in
            forEachCandidateChunk(NearReach(p: p, best: best)) { offset, pts, _ in
                for (i, q) in pts.enumerated() { best.pointee.offer(offset + i, squaredDistance(q, p)) }
            }
        }
        return best.index >= 0 ? (best.index, best.limit) : nil
    }

    /// The indices of every vertex within distance `d` of `p` (inclusive), ascending.
    /// - Complexity: O(log n + k) for n vertices and k vertices in the chunks near `p`, as
    ///   ``nearestVertex(to:within:)``, plus the result.
    package func vertexIndices(within d: Double, of p: Point) -> [Int] {
        var out: [Int] = []
        guard d >= 0 else { return out }
        let d2 = d * d
        forEachCandidateChunk(WithinReach(p: p, d2: d2)) { offset, pts, _ in
            for (i, q) in pts.enumerated() where squaredDistance(q, p) <= d2 { out.append(offset + i) }
        }
        return out
    }

    /// The number of segments: `count - 1` for a path; for a ring (`closed`) with at least three
    /// vertices, `count` (the closing segment from the last vertex back to the first included).
    package func segmentCount(closed: Bool) -> Int {
        let n = count
        if closed && n >= 3 { return n }
        return Swift.max(0, n - 1)
    }

    /// The mid-vertex of `segment`: the midpoint of vertices `segment` and `segment + 1` (the
    /// first vertex for a ring's closing segment). z and m are averaged when both ends carry them.
    /// - Complexity: O(log n) for n vertices.
    package func midVertex(segment: Int, closed: Bool) -> Point {
        precondition(segment >= 0 && segment < segmentCount(closed: closed), "segment index out of range")
        let a = self[segment]
        let b = self[segment + 1 == count ? 0 : segment + 1]
        return midpoint(a, b)
    }

    /// The mid-vertex nearest to `p` within distance `d` (inclusive), as its segment index, or nil.
    /// Ties go to the lowest segment index. `closed` includes a ring's closing segment.
    ///
    /// Each subtree is tested against its envelope grown to take in the first vertex after it, so
    /// the segment that crosses from one chunk into the next is never missed.
    /// - Complexity: O(log n + k) for k vertices in the chunks near `p`.
    package func nearestMidVertex(to p: Point, within d: Double, closed: Bool) -> (
        segment: Int, distanceSquared: Double
    )? {
        guard d >= 0, count >= 2 else { return nil }
        var best = NearestCandidate(limit: d * d)
        withUnsafeMutablePointer(to: &best) { best in
            forEachCandidateChunk(widenedByNext: true, NearReach(p: p, best: best)) { offset, pts, next in
                pts.forEachMidVertex(offset: offset, next: next) { i, m in best.pointee.offer(i, squaredDistance(m, p)) }
            }
        }
        if closed, count >= 3, let f = first, let l = last {
            best.offer(count - 1, squaredDistance(midpoint(l, f), p))
        }
        return best.index >= 0 ? (best.index, best.limit) : nil
    }

    /// Calls `body(offset, vertices, next)` for each chunk, in order, whose envelope `reaching`
    /// reaches — first tested at every tree node and run pyramid entry above it, so a subtree that
    /// fails is skipped whole. `offset` is the index of the chunk's first vertex and `next` the
    /// vertex after its last (nil after the part's last). With `widenedByNext`, each envelope is
    /// widened by the vertex after what it covers first (for mid-vertex and segment queries).
    ///
    /// The test is a value of a concrete type, not a closure: the walk is specialised for it and
    /// the test inlined (a query tests a few hundred pyramid entries, and a closure call for each
    /// was most of its time), and nothing it reads is captured (a captured variable that the body
    /// also changes would be boxed on the heap).
    func forEachCandidateChunk<Reach: ChunkReach>(
        widenedByNext: Bool = false, _ reaching: Reach, _ body: (Int, LeafPoints, Point?) -> Void
    ) {
        let tailFirst: Point? = (_tail?.count ?? 0) > 0 ? _tail?.point(at: 0) : nil
        if let r = _root { visitCandidates(r, offset: 0, next: tailFirst, widenedByNext, reaching, body) }
        if let t = _tail, t.count > 0 {
            Self.visitCandidates(t, 0..<t.count, offset: treeCount, next: nil, widenedByNext, reaching, body)
        }
    }

    private func visitCandidates<Reach: ChunkReach>(
        _ n: _VertexNode, offset: Int, next: Point?, _ widened: Bool, _ reaching: Reach,
        _ body: (Int, LeafPoints, Point?) -> Void
    ) {
        if let run = n.h.pointee.run {
            let s = n.h.pointee.runStart
            return Self.visitCandidates(run, s..<(s + n.count), offset: offset, next: next, widened, reaching, body)
        }
        if n.isLeaf { return body(offset, n.points, next) }
        var off = offset
        let cs = n.children
        let envelopes = n.childEnvelopes
        let counts = n.childCounts
        for i in 0..<cs.count {
            var e = envelopes[i]
            let after = widened ? (i + 1 < cs.count ? cs[i + 1].first : next) : nil
            if let after { e.expand(toInclude: after) }
            if reaching.reaches(e) { visitCandidates(cs[i], offset: off, next: after, widened, reaching, body) }
            off += counts[i]
        }
    }

    /// The chunks of `run` in `range` (starting a chunk; ending one or at the run's end), as
    /// ``forEachCandidateChunk(widenedByNext:_:_:)``; vertex `range.lowerBound` is `offset`.
    private static func visitCandidates<Reach: ChunkReach>(
        _ run: _VertexRun, _ range: Range<Int>, offset: Int, next: Point?, _ widened: Bool,
        _ reaching: Reach, _ body: (Int, LeafPoints, Point?) -> Void
    ) {
        let shift = _VertexRun.chunkShift
        /// The vertex after chunk `c` within the range, or `next` after its last chunk.
        func after(_ c: Int) -> Point? {
            let e = (c + 1) << shift
            return e < range.upperBound ? run.point(at: e) : next
        }
        run.forEachChunk(
            from: range.lowerBound >> shift, to: _VertexRun.chunks(range.upperBound),
            enter: { e, last in
                guard widened, let a = after(last) else { return reaching.reaches(e) }
                var w = e
                w.expand(toInclude: a)
                return reaching.reaches(w)
            }
        ) { c in
            let r = run.chunkRange(c)
            body(offset + r.lowerBound - range.lowerBound, run.points(r), widened ? after(c) : nil)
        }
    }
}

/// Which chunks a query of the chunked storage reads: those whose envelope (or a pyramid
/// entry's or node's above them) `reaches`.
protocol ChunkReach {
    /// Whether anything the query looks for can lie in `envelope`.
    func reaches(_ envelope: Envelope) -> Bool
}

/// The chunks meeting a box.
struct BoxReach: ChunkReach {
    let box: Envelope
    @inline(__always) func reaches(_ envelope: Envelope) -> Bool { envelope.intersects(box) }
}

/// The chunks that may hold something nearer to `p` than the best found so far (`best`, which
/// the query's body updates).
struct NearReach: ChunkReach {
    let p: Point
    let best: UnsafeMutablePointer<NearestCandidate>
    @inline(__always) func reaches(_ envelope: Envelope) -> Bool { envelope.distanceSquared(to: p) <= best.pointee.limit }
}

/// The chunks within a squared distance `d2` of `p`.
struct WithinReach: ChunkReach {
    let p: Point
    let d2: Double
    @inline(__always) func reaches(_ envelope: Envelope) -> Bool { envelope.distanceSquared(to: p) <= d2 }
}

/// The chunks meeting `box` until the query's body sets `stopped`.
struct BoxUntilStopped: ChunkReach {
    let box: Envelope
    let stopped: UnsafeMutablePointer<Bool>
    @inline(__always) func reaches(_ envelope: Envelope) -> Bool { !stopped.pointee && envelope.intersects(box) }
}

extension ChunkedVertices {
    /// Calls `body` with the index and position of every vertex inside `envelope` (boundary
    /// included), in index order, skipping chunks whose envelope misses it.
    /// - Complexity: O(log n + k) for k vertices in the chunks that meet `envelope`.
    package func forEachVertex(in envelope: Envelope, _ body: (Int, Point) -> Void) {
        forEachCandidateChunk(BoxReach(box: envelope)) { offset, pts, _ in
            for (i, q) in pts.enumerated() where envelope.contains(q) { body(offset + i, q) }
        }
    }

    /// Calls `body` with the segment index and position of every mid-vertex inside `envelope`, in
    /// segment order (a ring's closing segment last), pruning as ``nearestMidVertex(to:within:closed:)``.
    /// - Complexity: O(log n + k) for k vertices in the chunks that meet `envelope`.
    package func forEachMidVertex(in envelope: Envelope, closed: Bool, _ body: (Int, Point) -> Void) {
        guard count >= 2 else { return }
        forEachCandidateChunk(widenedByNext: true, BoxReach(box: envelope)) { offset, pts, next in
            pts.forEachMidVertex(offset: offset, next: next) { i, m in if envelope.contains(m) { body(i, m) } }
        }
        if closed, count >= 3, let f = first, let l = last {
            let m = midpoint(l, f)
            if envelope.contains(m) { body(count - 1, m) }
        }
    }
}

extension LeafPoints {
    /// Calls `body` with the index (counted from `offset`) and position of the mid-vertex of each
    /// segment that starts in this chunk: between consecutive vertices, then from the last vertex
    /// to `next` (the first vertex of the following chunk) when there is one.
    @inline(__always)
    func forEachMidVertex(offset: Int, next: Point?, _ body: (Int, Point) -> Void) {
        for i in 0..<count {
            let b: Point
            if i + 1 < count {
                b = self[i + 1]
            } else if let next {
                b = next
            } else {
                break
            }
            body(offset + i, midpoint(self[i], b))
        }
    }
}

/// The best candidate so far: its index and squared distance (`limit` until one is found).
struct NearestCandidate {
    var limit: Double
    var index = -1

    init(limit: Double) { self.limit = limit }

    /// Takes `i` when strictly nearer, or when it is the first candidate within the limit.
    @inline(__always)
    mutating func offer(_ i: Int, _ d2: Double) {
        if d2 < limit || (index < 0 && d2 <= limit) {
            limit = d2
            index = i
        }
    }
}

@inline(__always)
func squaredDistance(_ a: Point, _ b: Point) -> Double {
    let dx = a.x - b.x
    let dy = a.y - b.y
    return dx * dx + dy * dy
}

@inline(__always)
func midpoint(_ a: Point, _ b: Point) -> Point {
    var m = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
    if let za = a.z, let zb = b.z { m.z = (za + zb) / 2 }
    if let ma = a.m, let mb = b.m { m.m = (ma + mb) / 2 }
    return m
}
