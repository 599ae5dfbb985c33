// Ring orientation and grouping for the GeoJSON codec (internal), on the kernel's exact
// predicates (Kernel.signedDoubleArea, Kernel.locate).

/// Twice the signed area of an open ring (positive = counter-clockwise, y up): the kernel's.
@inline(__always)
func _signedArea2(_ ring: [Point]) -> Double { Kernel.signedDoubleArea(ring) }

/// An open ring reversed, keeping its first vertex first: [v0, v1, …, vn-1] → [v0, vn-1, …, v1].
func _reversedRing(_ ring: [Point]) -> [Point] {
    guard ring.count > 2 else { return ring }
    var out = [ring[0]]
    out.reserveCapacity(ring.count)
    out.append(contentsOf: ring[1...].reversed())
    return out
}

/// Groups Esri-convention rings into polygons: each clockwise (or zero-area) ring is an exterior,
/// each counter-clockwise ring a hole attached to the smallest exterior containing its first
/// vertex that is not on that exterior's boundary; failing that, to the smallest exterior
/// containing any of its vertices (a hole that crosses its exterior's boundary, which
/// `arcgis-to-geojson-utils` also attaches); failing that, the hole stands alone as its own
/// polygon, so no ring is ever lost. (The kernel's `_RingNesting`, used by WKT, makes a crossing
/// hole stand alone instead.)
/// Exteriors keep their order, holes keep their order within an exterior, lone holes come last.
///
/// Returns, for each polygon, the ring indices (exterior first).
/// - Complexity: O(R log R + Σ over holes of the vertex counts of the exteriors whose envelope
///   meets the hole's), R rings: envelopes prune every candidate test.
func _groupRings(_ rings: [[Point]]) -> [[Int]] {
    var exteriors: [Int] = []
    var holes: [Int] = []
    var areas = [Double](repeating: 0, count: rings.count)
    for (k, r) in rings.enumerated() {
        let a = _signedArea2(r)
        areas[k] = abs(a)
        if a > 0 { holes.append(k) } else { exteriors.append(k) }
    }
    var groups = exteriors.map { [$0] }
    guard !holes.isEmpty else { return groups }
    let envelopes = rings.map { Envelope(points: $0) }
    // Exteriors sorted by area so the first container found is the smallest.
    let bySize = exteriors.indices.sorted { areas[exteriors[$0]] < areas[exteriors[$1]] }
    var lone: [[Int]] = []
    for h in holes {
        let hole = rings[h]
        // The smallest exterior holding the hole's first vertex off its boundary.
        var found: Int?
        search: for g in bySize {
            let e = exteriors[g]
            guard let env = envelopes[e], let he = envelopes[h], env.intersects(he) else { continue }
            for p in hole {
                switch Kernel.locate(p, inRing: rings[e]) {
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
            search: for g in bySize {
                let e = exteriors[g]
                guard let env = envelopes[e], let he = envelopes[h], env.intersects(he) else { continue }
                for p in hole where env.contains(p) && Kernel.locate(p, inRing: rings[e]) == .interior {
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
