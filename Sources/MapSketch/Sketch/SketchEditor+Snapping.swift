import Foundation
public import MapSketchGeometry

// Snapping to the sketch itself and the geometry guides (see SnapSettings.swift for the rules).
// Every query is a window query over the chunked storage (`forEachVertex(in:)`,
// `forEachSegment(meeting:closed:)`): O(log n + k) for the k vertices near the point, never a
// scan of the sketch.

extension SketchEditor {
    /// Where a vertex added by a tap at the map (``insertAtSelection(_:)``) would go: the context
    /// for snapping that point.
    public var insertionContext: SnapContext {
        if store.type == .point { return store.isEmpty ? .free : .move(part: 0, index: 0) }
        switch selection {
        case .vertex(let p, let i): return .insert(part: p, index: i + 1)
        case .midVertex(let p, let s): return .insert(part: p, index: s + 1)
        case .part(let p) where p < store.partCount: return .insert(part: p, index: store.parts[p].count)
        case .none, .geometry, .part:
            let p = store.partCount - 1
            return p < 0 ? .insert(part: 0, index: 0) : .insert(part: p, index: store.parts[p].count)
        }
    }

    /// The sketch vertex nearest to `p` within `distance` map units (the bound included), leaving
    /// out the vertex a ``SnapContext/move(part:index:)`` moves. Ties go to the lower part, then
    /// the lower index.
    /// - Complexity: O(parts · log n + k) for the k vertices in the chunks near `p`.
    public func snapVertex(near p: Point, within distance: Double, context: SnapContext) -> SnapTarget? {
        guard p.isFinite, distance >= 0, distance.isFinite else { return nil }
        let box = Envelope(xmin: p.x - distance, ymin: p.y - distance, xmax: p.x + distance, ymax: p.y + distance)
        let limit = distance * distance
        var best: (d2: Double, part: Int, index: Int, point: Point)?
        var skip = (part: -1, index: -1)
        if case .move(let mp, let mi) = context { skip = (mp, mi) }
        for (pi, part) in store.parts.enumerated() {
            part.forEachVertex(in: box) { i, v in
                if pi == skip.part && i == skip.index { return }
                let dx = v.x - p.x, dy = v.y - p.y
                let d2 = dx * dx + dy * dy
                if d2 <= limit, d2 < best?.d2 ?? .infinity { best = (d2, pi, i, v) }
            }
        }
        return best.map {
            SnapTarget(kind: .vertex, source: .sketch, part: $0.part, index: $0.index, point: $0.point, distance: $0.d2.squareRoot())
        }
    }

    /// The point of a sketch edge nearest to `p` within `distance` map units (the bound
    /// included), leaving out the edges a ``SnapContext/move(part:index:)`` moves (the two that
    /// end at the moved vertex). Ties go to the lower part, then the lower segment index (a
    /// ring's closing segment is the last). Points and multipoints have no edges.
    /// - Complexity: O(parts · log n + k) for the k vertices in the chunks near `p`.
    public func snapEdge(near p: Point, within distance: Double, context: SnapContext) -> SnapTarget? {
        guard store.type == .polyline || store.type == .polygon else { return nil }
        guard p.isFinite, distance >= 0, distance.isFinite else { return nil }
        let box = Envelope(xmin: p.x - distance, ymin: p.y - distance, xmax: p.x + distance, ymax: p.y + distance)
        let limit = distance * distance
        let closed = store.isClosed
        var best: (d2: Double, part: Int, index: Int, point: Point)?
        for (pi, part) in store.parts.enumerated() {
            let moved = movedSegments(context, part: pi, count: part.count, closed: closed)
            part.forEachSegment(meeting: box, closed: closed) { i, a, b in
                if i == moved.0 || i == moved.1 { return true }
                let (c, d2) = GeometryEngine.closestPoint(to: p, onSegment: a, b)
                if d2 <= limit, d2 < best?.d2 ?? .infinity { best = (d2, pi, i, c) }
                return true
            }
        }
        return best.map {
            SnapTarget(kind: .edge, source: .sketch, part: $0.part, index: $0.index, point: $0.point, distance: $0.d2.squareRoot())
        }
    }

    /// The geometry guide `p` lies close to, and `p` projected onto it (see ``GeometryGuides``
    /// for the guides and their tolerances), or nil. `resolution` is map units per screen point.
    /// - Complexity: O(1) for the perpendicular and extension guides; O(parts · log n + k) for
    ///   parallel guides, over the k segments near the anchor.
    public func snapGuide(near p: Point, guides: GeometryGuides, resolution: Double, context: SnapContext) -> SnapTarget? {
        guard guides.isAnyOn, p.isFinite, resolution > 0, resolution.isFinite else { return nil }
        let (part, index): (Int, Int)
        switch context {
        case .free: return nil
        case .insert(let pp, let i), .move(let pp, let i): (part, index) = (pp, i)
        }
        guard part >= 0, part < store.partCount else { return nil }
        let vertices = store.parts[part]
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
            let closed = store.isClosed
            for (pi, other) in store.parts.enumerated() {
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

    /// The snap target for `p` among the sketch's own vertices and edges and the guides, with
    /// `layerCandidates` (the graphics layers' nearest vertex and edge, in settings order)
    /// weighed in by the precedence of ``SnapSettings``, or nil when nothing is in reach or
    /// snapping is off. `resolution` is map units per screen point.
    /// - Complexity: as ``snapVertex(near:within:context:)`` plus ``snapGuide(near:guides:resolution:context:)``
    ///   when no vertex or edge is in reach.
    public func snap(
        _ p: Point, settings: SnapSettings, resolution: Double, context: SnapContext, layerCandidates: [SnapTarget] = []
    ) -> SnapTarget? {
        snap(p, settings: settings, resolution: resolution, context: context) { best in
            for c in layerCandidates { SnapTarget.keepBetter(&best, c) }
        }
    }

    /// ``snap(_:settings:resolution:context:layerCandidates:)`` with the layers' candidates
    /// weighed in by `layers`, which offers each to the best so far through
    /// ``SnapTarget/keepBetter(_:_:)``: nothing is gathered into an array.
    func snap(
        _ p: Point, settings: SnapSettings, resolution: Double, context: SnapContext, layers: (inout SnapTarget?) -> Void
    ) -> SnapTarget? {
        guard settings.isEnabled, resolution > 0, resolution.isFinite else { return nil }
        let tolerance = settings.tolerance * resolution
        var best: SnapTarget?
        if settings.snapsToSketchVertices, let v = snapVertex(near: p, within: tolerance, context: context) { best = v }
        if settings.snapsToSketchEdges, let e = snapEdge(near: p, within: tolerance, context: context) {
            SnapTarget.keepBetter(&best, e)
        }
        layers(&best)
        if best == nil { return snapGuide(near: p, guides: settings.guides, resolution: resolution, context: context) }
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
