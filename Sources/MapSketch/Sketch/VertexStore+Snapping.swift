import MapSketchGeometry
import Foundation

// The sketch's snap queries, on its storage: a caller holding the editor in a class property
// reads only the store out of it (no copy of the whole editor per query). Candidates are weighed
// as ``SnapPick``s (plain values); only the winner becomes a ``SnapTarget``.
extension VertexStore {
    /// The sketch vertex nearest to `p` within `distance` map units (the bound included), leaving
    /// out the vertex a ``SnapContext/move(part:index:)`` moves. Ties go to the lower part, then
    /// the lower index.
    /// - Complexity: O(parts · log n + k) for the k vertices in the chunks near `p`.
    func snapVertex(near p: Point, within distance: Double, context: SnapContext) -> SnapTarget? {
        sketchSnapPicks(p, within: distance, context: context, vertices: true, edges: false).vertex?.target(layers: [])
    }

    /// The point of a sketch edge nearest to `p` within `distance` map units (the bound
    /// included), leaving out the edges a ``SnapContext/move(part:index:)`` moves (the two that
    /// end at the moved vertex). Ties go to the lower part, then the lower segment index (a
    /// ring's closing segment is the last). Points and multipoints have no edges.
    /// - Complexity: O(parts · log n + k) for the k vertices in the chunks near `p`.
    func snapEdge(near p: Point, within distance: Double, context: SnapContext) -> SnapTarget? {
        sketchSnapPicks(p, within: distance, context: context, vertices: false, edges: true).edge?.target(layers: [])
    }

    /// The sketch's own snap candidate for `p` (its vertices and edges, whichever are on, as
    /// ``SnapSettings/snapsToSketchVertices`` and ``SnapSettings/snapsToSketchEdges`` say;
    /// `tolerance` in map units): the nearer vertex, else the nearer edge point.
    func sketchSnapPick(_ p: Point, vertices: Bool, edges: Bool, tolerance: Double, context: SnapContext) -> SnapPick? {
        guard vertices || edges, !parts.isEmpty else { return nil }
        let found = sketchSnapPicks(p, within: tolerance, context: context, vertices: vertices, edges: edges)
        return found.vertex ?? found.edge
    }

    /// The nearest vertex and the nearest edge point of the sketch to `p` within `distance`
    /// (each only when asked for; see ``snapVertex(near:within:context:)`` and
    /// ``snapEdge(near:within:context:)`` for what is left out and how ties go), in one walk of
    /// each part's chunks.
    /// - Complexity: O(parts · log n + k) for the k vertices in the chunks near `p`.
    func sketchSnapPicks(
        _ p: Point, within distance: Double, context: SnapContext, vertices: Bool, edges wantEdges: Bool
    ) -> (vertex: SnapPick?, edge: SnapPick?) {
        let edges = wantEdges && (type == .polyline || type == .polygon)
        guard vertices || edges, p.isFinite, distance >= 0, distance.isFinite else { return (nil, nil) }
        let box = Envelope(xmin: p.x - distance, ymin: p.y - distance, xmax: p.x + distance, ymax: p.y + distance)
        let limit = distance * distance
        let closed = isClosed
        var v = SnapPick.Nearest(limit: limit), e = SnapPick.Nearest(limit: limit)
        var skip = (part: -1, index: -1)
        if case .move(let mp, let mi) = context { skip = (mp, mi) }
        for pi in 0..<parts.count {
            let moved = edges ? movedSegments(context, part: pi, count: parts[pi].count, closed: closed) : (-1, -1)
            parts[pi].nearestVertexAndSegment(
                to: p, in: box, closed: closed, vertices: vertices, segments: edges, skipVertex: pi == skip.part ? skip.index : -1,
                skipSegments: moved
            ) { isVertex, i, d2, q in
                if isVertex { v.offer(d2, part: pi, index: i, q) } else { e.offer(d2, part: pi, index: i, q) }
            }
        }
        return (v.pick(.vertex), e.pick(.edge))
    }

    /// The geometry guide `p` lies close to, and `p` projected onto it (see ``GeometryGuides``
    /// for the guides and their tolerances), or nil. `resolution` is map units per screen point.
    /// - Complexity: O(1) for the perpendicular and extension guides; O(parts · log n + k) for
    ///   parallel guides, over the k segments near the anchor.
    func snapGuide(near p: Point, guides: GeometryGuides, resolution: Double, context: SnapContext) -> SnapTarget? {
        guard guides.isAnyOn, p.isFinite, resolution > 0, resolution.isFinite else { return nil }
        let (part, index): (Int, Int)
        switch context {
        case .free: return nil
        case .insert(let pp, let i), .move(let pp, let i): (part, index) = (pp, i)
        }
        guard part >= 0, part < partCount else { return nil }
        let vertices = parts[part]
        let a = index - 1  // the anchor
        guard a >= 0, a < vertices.count else { return nil }
        let anchor = vertices[a]
        let maxDistance = guides.distanceTolerance * resolution
        let maxAngle = guides.angleTolerance
        var best: SnapTarget?
        func offer(_ kind: GuideKind, _ dx: Double, _ dy: Double, ray: Bool, part gp: Int, segment: Int) {
            let w2 = dx * dx + dy * dy
            guard w2 > 0 else { return }
            let vx = p.x - anchor.x, vy = p.y - anchor.y
            guard vx != 0 || vy != 0 else { return }
            let along = vx * dx + vy * dy
            if ray && along <= 0 { return }
            let w = w2.squareRoot()
            let off = abs(dx * vy - dy * vx) / w
            let angle = atan2Degrees(off, abs(along) / w)
            guard off <= maxDistance, angle <= maxAngle else { return }
            let t = along / w2
            let q = Point(x: anchor.x + t * dx, y: anchor.y + t * dy)
            let target = SnapTarget(
                kind: .guide(kind), source: .sketch, part: gp, index: segment, point: q, distance: off, guideOrigin: anchor)
            if let b = best, !(off < b.distance) { return }
            best = target
        }
        if a >= 1 {
            let prev = vertices[a - 1]
            let dx = anchor.x - prev.x, dy = anchor.y - prev.y
            if guides.perpendicular { offer(.perpendicular, -dy, dx, ray: false, part: part, segment: a - 1) }
            if guides.extension { offer(.extension, dx, dy, ray: true, part: part, segment: a - 1) }
        }
        if guides.parallel {
            let r = guides.parallelSearchRadius * resolution
            let box = Envelope(xmin: anchor.x - r, ymin: anchor.y - r, xmax: anchor.x + r, ymax: anchor.y + r)
            let closed = isClosed
            for (pi, other) in parts.enumerated() {
                // Left out: the previous segment (the extension's line) and the segments the new or
                // moved vertex makes or ends.
                var skip: [Int] = []
                if pi == part {
                    skip = [a - 1, a]
                    if case .move = context { skip.append(a + 1) }
                    if closed, other.count >= 3 { skip = skip.map { $0 < 0 ? other.count + $0 : $0 } }
                }
                other.forEachSegment(meeting: box, closed: closed) { i, s, e in
                    if !skip.contains(i) { offer(.parallel, e.x - s.x, e.y - s.y, ray: false, part: pi, segment: i) }
                    return true
                }
            }
        }
        return best
    }

    /// The segment indices a move of `context` drags along (its two edges in `part`), or -1.
    private func movedSegments(_ context: SnapContext, part: Int, count: Int, closed: Bool) -> (Int, Int) {
        guard case .move(let mp, let i) = context, mp == part else { return (-1, -1) }
        let before = i > 0 ? i - 1 : (closed && count >= 3 ? count - 1 : -1)
        return (before, i)
    }
}

/// atan2(y, x) in degrees, for the guides' angle test.
@inline(__always)
private func atan2Degrees(_ y: Double, _ x: Double) -> Double {
    atan2(y, x) * 180 / .pi
}
