// Ring orientation and grouping for the GeoJSON codec (internal), on the kernel's exact
// predicates (Kernel.signedDoubleArea, Kernel.locate, Kernel.PreparedRing).

extension GeoJSON {
    /// Groups Esri-convention rings into polygons: each clockwise (or zero-area) ring is an exterior,
    /// each counter-clockwise ring a hole attached to the smallest exterior containing its first
    /// vertex that is not on that exterior's boundary; failing that, to the smallest exterior
    /// containing any of its vertices (a hole that crosses its exterior's boundary, which
    /// `arcgis-to-geojson-utils` also attaches); failing that, the hole stands alone as its own
    /// polygon, so no ring is ever lost. (The kernel's ring grouping for WKT, `RingNesting`, makes a crossing
    /// hole stand alone instead.) Exteriors keep their order, holes keep their order within an
    /// exterior, lone holes come last.
    ///
    /// Candidate exteriors come from a packed R-tree of their envelopes; an exterior with many
    /// vertices tested more than once gets a prepared form (``Kernel/PreparedRing``).
    ///
    /// Returns, for each polygon, the ring indices (exterior first).
    /// - Complexity: O(R log R) for R rings to classify and index, plus per hole the point tests
    ///   against the exteriors whose envelope meets the hole's (each O(√n) once indexed).
    static func groupRings(_ rings: [[Point]]) -> [[Int]] {
        var exteriors: [Int] = []
        var holes: [Int] = []
        var areas = [Double](repeating: 0, count: rings.count)
        for (k, r) in rings.enumerated() {
            let a = Kernel.signedDoubleArea(r)
            areas[k] = abs(a)
            if Kernel.areaSign(r, signedDoubleArea: a) > 0 { holes.append(k) } else { exteriors.append(k) }
        }
        var groups = exteriors.map { [$0] }
        guard !holes.isEmpty else { return groups }
        let envelopes = rings.map { Envelope(points: $0) }
        let empty = Envelope(xmin: .infinity, ymin: .infinity, xmax: -.infinity, ymax: -.infinity)
        let tree = PackedRTree(envelopes: exteriors.map { envelopes[$0] ?? empty })
        var prepared: [Int: Kernel.PreparedRing] = [:]
        var tested = [Int](repeating: 0, count: rings.count)
        func locate(_ p: Point, _ e: Int) -> Kernel.RingLocation {
            if let b = prepared[e] { return b.locate(p) }
            tested[e] += 1
            if rings[e].count > 64 && tested[e] > 1 {
                let b = Kernel.PreparedRing(rings[e])
                prepared[e] = b
                return b.locate(p)
            }
            return Kernel.locate(p, inRing: rings[e])
        }
        var lone: [[Int]] = []
        var candidates: [Int] = []
        for h in holes {
            let hole = rings[h]
            guard let he = envelopes[h] else {
                lone.append([h])
                continue
            }
            candidates.removeAll(keepingCapacity: true)
            tree.search(he) { g in
                candidates.append(g)
                return true
            }
            // Smallest first, ties by position, so the result does not depend on the tree's order.
            candidates.sort { (areas[exteriors[$0]], $0) < (areas[exteriors[$1]], $1) }
            // The smallest exterior holding the hole's first vertex off its boundary.
            var found: Int?
            search: for g in candidates {
                for p in hole {
                    switch locate(p, exteriors[g]) {
                    case .interior:
                        found = g
                        break search
                    case .exterior: continue search
                    case .boundary: continue
                    }
                }
            }
            // A hole crossing an exterior's boundary: the smallest exterior holding any of its vertices.
            if found == nil {
                search: for g in candidates {
                    let e = exteriors[g]
                    guard let env = envelopes[e] else { continue }
                    for p in hole where env.contains(p) && locate(p, e) == .interior {
                        found = g
                        break search
                    }
                }
            }
            if let g = found {
                groups[g].append(h)
            } else {
                lone.append([h])
            }
        }
        return groups + lone
    }
}
