import MapSketchGeometry

/// The ``SketchValidation/noSelfIntersection`` rule: finds a segment the change made that meets
/// another segment of the sketch where it may not, looking only near the new segments (the
/// sketch's segments are found by chunk envelope).
enum SketchCrossings {
    /// What is wrong, or nil when the segments `change` made meet nothing they may not.
    /// - Complexity: O(s (log n + k)) for the s segments the change made, with k segments near each.
    static func find(_ change: SketchChange, in store: VertexStore) -> String? {
        let closed = store.isClosed
        switch change {
        case .vertexInserted(let p, let i), .vertexMoved(let p, let i, _):
            return check(segmentsAround(vertex: i, in: store.parts[p], closed: closed), part: p, in: store)
        case .vertexRemoved(let p, let i, _):
            // The one new segment joins the removed vertex's neighbours (now i − 1 and i).
            let part = store.parts[p]
            let n = part.count
            let joining = i >= 1 ? i - 1 : (closed && n >= 3 ? n - 1 : -1)
            let segments = joining >= 0 && joining < part.segmentCount(closed: closed) ? [joining] : []
            return check(segments, part: p, in: store)
        case .partInserted(let p), .partReplaced(let p):
            return check(Array(0..<store.parts[p].segmentCount(closed: closed)), part: p, in: store)
        case .verticesAppended(let p, let i):
            // The segments from the last old vertex on, and a ring's new closing segment.
            return check(Array(max(i - 1, 0)..<store.parts[p].segmentCount(closed: closed)), part: p, in: store)
        case .partRemoved:
            return nil
        case .transformed(let t) where t.isInvertible:
            // An invertible affine map keeps distinct points distinct: nothing new can meet.
            return nil
        case .transformed, .replaced:
            for p in 0..<store.partCount {
                if let found = check(Array(0..<store.parts[p].segmentCount(closed: closed)), part: p, in: store) {
                    return found
                }
            }
            return nil
        }
    }

    /// The segments that end at vertex `i`: the one before it (the closing segment for a ring's
    /// first vertex) and the one after it.
    static func segmentsAround(vertex i: Int, in part: ChunkedVertices, closed: Bool) -> [Int] {
        let n = part.count
        let segments = part.segmentCount(closed: closed)
        var out: [Int] = []
        if i >= 1 {
            out.append(i - 1)
        } else if closed, n >= 3 {
            out.append(n - 1)
        }
        if i < segments { out.append(i) }
        return out.filter { $0 < segments }
    }

    /// Checks each of `segments` of part `p` against every segment of the sketch near it.
    private static func check(_ segments: [Int], part p: Int, in store: VertexStore) -> String? {
        let closed = store.isClosed
        let part = store.parts[p]
        let n = part.count
        for j in segments {
            let a = part[j]
            let b = part[j + 1 == n ? 0 : j + 1]
            let window = Envelope(a).union(Envelope(b))
            var found: String?
            for (q, other) in store.parts.enumerated() {
                other.forEachSegment(meeting: window, closed: closed) { k, c, d in
                    if q == p && k == j { return true }
                    guard let (how, at, to) = violation(a, b, j, c, d, k, samePart: q == p, part: part, closed: closed) else { return true }
                    found = SegmentMeeting(how, part: p, segment: j, otherPart: q, otherSegment: k, at: at, to: to).sentence(would: true)
                    return false
                }
                if let found { return found }
            }
        }
        return nil
    }

    /// How and where segments a–b (index j) and c–d (index k) meet where they may not (an
    /// overlap from `at` to `to`), or nil when they do not, or meet only as neighbours at their
    /// common vertex.
    private static func violation(
        _ a: Point, _ b: Point, _ j: Int, _ c: Point, _ d: Point, _ k: Int, samePart: Bool, part: ChunkedVertices,
        closed: Bool
    ) -> (SegmentMeeting.Kind, at: Point, to: Point?)? {
        switch Kernel.intersect(a, b, c, d) {
        case .none:
            return nil
        case .proper(let x):
            return (.cross, x, nil)
        case .overlap(let from, let to):
            return (.overlap, from, to)
        case .vertex(let x):
            guard samePart else { return (.touch, x, nil) }
            let n = part.count
            let last = part.segmentCount(closed: closed) - 1
            if abs(j - k) == 1 || (closed && n >= 3 && Set([j, k]) == Set([0, n - 1])) { return nil }
            // A closed path: its first and last segments meet at its start.
            if !closed, last >= 1, Set([j, k]) == Set([0, last]), let f = part.first, let l = part.last,
                f.equals2D(l), x.equals2D(f)
            {
                return nil
            }
            return (.touch, x, nil)
        }
    }
}
