/// Groups flat polygon rings into polygons (exterior plus holes).
enum RingNesting {
    /// A polygon: the index of its exterior ring and of its holes.
    struct Group: Hashable, Sendable {
        var exterior: Int
        var holes: [Int]
    }

    /// Esri grouping: clockwise (and zero-area) rings are exteriors, counter-clockwise rings are
    /// holes; each hole goes to the smallest-area exterior that contains its first vertex not on
    /// that exterior's boundary. A hole no exterior contains becomes a group of its own, so no
    /// ring is ever lost. Groups keep the exteriors' order.
    /// - Complexity: O(h·e·n) worst case for h holes and e exteriors, pruned by envelopes.
    static func groupByOrientation(_ rings: [[Point]]) -> [Group] {
        var exteriors: [Int] = []
        var holes: [Int] = []
        var areas = [Double](repeating: 0, count: rings.count)
        for (i, r) in rings.enumerated() {
            areas[i] = Kernel.signedDoubleArea(r)
            if Kernel.areaSign(r, signedDoubleArea: areas[i]) > 0 { holes.append(i) } else { exteriors.append(i) }
        }
        let envs = rings.map { Envelope(points: $0) }
        var groups = exteriors.map { Group(exterior: $0, holes: []) }
        var groupOf: [Int: Int] = [:]
        for (gi, e) in exteriors.enumerated() { groupOf[e] = gi }
        // Exteriors by increasing area so the first container found is the smallest.
        let bySize = exteriors.sorted { (abs(areas[$0]), $0) < (abs(areas[$1]), $1) }
        var orphans: [Int] = []
        for h in holes {
            var owner: Int?
            for e in bySize {
                guard let he = envs[h], let ee = envs[e], ee.covers(he) else { continue }
                if ringInside(rings[h], rings[e]) {
                    owner = e
                    break
                }
            }
            if let owner, let gi = groupOf[owner] { groups[gi].holes.append(h) } else { orphans.append(h) }
        }
        for o in orphans { groups.append(Group(exterior: o, holes: [])) }
        return groups
    }

    /// Whether `inner` lies inside `outer`: decided by the first vertex of `inner` not on
    /// `outer`'s boundary, or, when every vertex is on it, by the midpoint of an edge.
    static func ringInside(_ inner: [Point], _ outer: [Point]) -> Bool {
        for p in inner {
            switch Kernel.locate(p, inRing: outer) {
            case .interior: return true
            case .exterior: return false
            case .boundary: continue
            }
        }
        for i in inner.indices {
            let a = inner[i], b = inner[(i + 1) % inner.count]
            let m = Point((a.x + b.x) / 2, (a.y + b.y) / 2)
            switch Kernel.locate(m, inRing: outer) {
            case .interior: return true
            case .exterior: return false
            case .boundary: continue
            }
        }
        return false
    }
}
