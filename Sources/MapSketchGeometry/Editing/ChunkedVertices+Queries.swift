/// Proximity queries that prune by chunk and node envelopes instead of scanning every vertex.
extension ChunkedVertices {
    /// The vertex nearest to `p` within distance `d` (inclusive), or nil. Ties go to the lowest index.
    ///
    /// A subtree is skipped when its envelope is farther than the best distance so far.
    /// - Complexity: O(log n + k) for k vertices in the chunks near `p`; O(n) only when every
    ///   chunk's envelope reaches `p`.
    public func nearestVertex(to p: Point, within d: Double) -> (index: Int, distanceSquared: Double)? {
        guard d >= 0, !isEmpty else { return nil }
        var best = NearestCandidate(limit: d * d)
        if let r = _root { searchNearestVertex(r, offset: 0, p, &best) }
        if !tailPoints.isEmpty, tailEnvelope.distanceSquared(to: p) <= best.limit {
            let base = treeCount
            for (i, q) in tailPoints.enumerated() { best.offer(base + i, squaredDistance(q, p)) }
        }
        return best.index >= 0 ? (best.index, best.limit) : nil
    }

    private func searchNearestVertex(_ n: _VertexNode, offset: Int, _ p: Point, _ best: inout NearestCandidate) {
        if n.isLeaf {
            for (i, q) in n.points.enumerated() { best.offer(offset + i, squaredDistance(q, p)) }
            return
        }
        var off = offset
        let envelopes = n.childEnvelopes
        let counts = n.childCounts
        for (i, c) in n.children.enumerated() {
            if envelopes[i].distanceSquared(to: p) <= best.limit { searchNearestVertex(c, offset: off, p, &best) }
            off += counts[i]
        }
    }

    /// The indices of every vertex within distance `d` of `p` (inclusive), ascending.
    /// - Complexity: O(log n + k) for n vertices and k vertices in the chunks near `p`, as
    ///   ``nearestVertex(to:within:)``, plus the result.
    public func vertexIndices(within d: Double, of p: Point) -> [Int] {
        var out: [Int] = []
        guard d >= 0 else { return out }
        let d2 = d * d
        func visit(_ n: _VertexNode, _ offset: Int) {
            if n.isLeaf {
                for (i, q) in n.points.enumerated() where squaredDistance(q, p) <= d2 { out.append(offset + i) }
                return
            }
            var off = offset
            let envelopes = n.childEnvelopes
            let counts = n.childCounts
            for (i, c) in n.children.enumerated() {
                if envelopes[i].distanceSquared(to: p) <= d2 { visit(c, off) }
                off += counts[i]
            }
        }
        if let r = _root { visit(r, 0) }
        if tailEnvelope.distanceSquared(to: p) <= d2 {
            let base = treeCount
            for (i, q) in tailPoints.enumerated() where squaredDistance(q, p) <= d2 { out.append(base + i) }
        }
        return out
    }

    /// The number of segments: `count - 1` for a path; for a ring (`closed`) with at least three
    /// vertices, `count` (the closing segment from the last vertex back to the first included).
    public func segmentCount(closed: Bool) -> Int {
        let n = count
        if closed && n >= 3 { return n }
        return Swift.max(0, n - 1)
    }

    /// The mid-vertex of `segment`: the midpoint of vertices `segment` and `segment + 1` (the
    /// first vertex for a ring's closing segment). z and m are averaged when both ends carry them.
    /// - Complexity: O(log n) for n vertices.
    public func midVertex(segment: Int, closed: Bool) -> Point {
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
    public func nearestMidVertex(to p: Point, within d: Double, closed: Bool) -> (segment: Int, distanceSquared: Double)? {
        guard d >= 0, count >= 2 else { return nil }
        var best = NearestCandidate(limit: d * d)
        let tailFirst = tailPoints.first
        if let r = _root { searchNearestMidVertex(r, offset: 0, next: tailFirst, p, &best) }
        if !tailPoints.isEmpty, tailEnvelope.distanceSquared(to: p) <= best.limit {
            tailPoints.forEachMidVertex(offset: treeCount, next: nil) { i, m in best.offer(i, squaredDistance(m, p)) }
        }
        if closed, count >= 3, let f = first, let l = last {
            best.offer(count - 1, squaredDistance(midpoint(l, f), p))
        }
        return best.index >= 0 ? (best.index, best.limit) : nil
    }

    private func searchNearestMidVertex(_ n: _VertexNode, offset: Int, next: Point?, _ p: Point, _ best: inout NearestCandidate) {
        if n.isLeaf {
            n.points.forEachMidVertex(offset: offset, next: next) { i, m in best.offer(i, squaredDistance(m, p)) }
            return
        }
        var off = offset
        let cs = n.children
        let envelopes = n.childEnvelopes
        let counts = n.childCounts
        for i in 0..<cs.count {
            let (e, after) = _VertexNode.midVertexReach(cs, envelopes, child: i, next: next)
            if e.distanceSquared(to: p) <= best.limit { searchNearestMidVertex(cs[i], offset: off, next: after, p, &best) }
            off += counts[i]
        }
    }
}

extension ChunkedVertices {
    /// Calls `body` with the index and position of every vertex inside `envelope` (boundary
    /// included), in index order, skipping chunks whose envelope misses it.
    /// - Complexity: O(log n + k) for k vertices in the chunks that meet `envelope`.
    public func forEachVertex(in envelope: Envelope, _ body: (Int, Point) -> Void) {
        func visit(_ n: _VertexNode, _ offset: Int) {
            if n.isLeaf {
                for (i, q) in n.points.enumerated() where envelope.contains(q) { body(offset + i, q) }
                return
            }
            var off = offset
            let envelopes = n.childEnvelopes
            let counts = n.childCounts
            for (i, c) in n.children.enumerated() {
                if envelopes[i].intersects(envelope) { visit(c, off) }
                off += counts[i]
            }
        }
        if let r = _root { visit(r, 0) }
        if tailEnvelope.intersects(envelope) {
            let base = treeCount
            for (i, q) in tailPoints.enumerated() where envelope.contains(q) { body(base + i, q) }
        }
    }

    /// Calls `body` with the segment index and position of every mid-vertex inside `envelope`, in
    /// segment order (a ring's closing segment last), pruning as ``nearestMidVertex(to:within:closed:)``.
    /// - Complexity: O(log n + k) for k vertices in the chunks that meet `envelope`.
    public func forEachMidVertex(in envelope: Envelope, closed: Bool, _ body: (Int, Point) -> Void) {
        guard count >= 2 else { return }
        func emitChunk(_ pts: LeafPoints, _ offset: Int, next: Point?) {
            pts.forEachMidVertex(offset: offset, next: next) { i, m in if envelope.contains(m) { body(i, m) } }
        }
        func visit(_ n: _VertexNode, _ offset: Int, next: Point?) {
            if n.isLeaf { return emitChunk(n.points, offset, next: next) }
            var off = offset
            let cs = n.children
            let envelopes = n.childEnvelopes
            let counts = n.childCounts
            for i in 0..<cs.count {
                let (e, after) = _VertexNode.midVertexReach(cs, envelopes, child: i, next: next)
                if e.intersects(envelope) { visit(cs[i], off, next: after) }
                off += counts[i]
            }
        }
        if let r = _root { visit(r, 0, next: tailPoints.first) }
        if !tailPoints.isEmpty, tailEnvelope.intersects(envelope) { emitChunk(tailPoints, treeCount, next: nil) }
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

extension _VertexNode {
    /// What the mid-vertices of the segments starting in child `i` (of `children`, whose
    /// envelopes are `envelopes`) can reach: the child's envelope grown to take in the vertex
    /// after it (the next child's first, or `next` after the last child), and that vertex.
    @inline(__always)
    static func midVertexReach(
        _ children: [_VertexNode], _ envelopes: [Envelope], child i: Int, next: Point?
    ) -> (envelope: Envelope, after: Point?) {
        let after = i + 1 < children.count ? children[i + 1].first : next
        var e = envelopes[i]
        if let after { e.expand(toInclude: after) }
        return (e, after)
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
