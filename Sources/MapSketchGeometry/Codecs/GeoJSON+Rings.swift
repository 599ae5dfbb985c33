// Ring orientation and grouping for the GeoJSON codec (internal). When the geometry engine's
// kernel lands, these predicates can move there; they are kept tiny and exact here.

/// Twice the signed area of an open ring by the shoelace formula (positive = counter-clockwise,
/// y up). Coordinates are taken relative to the first vertex to limit cancellation.
/// - Complexity: O(n).
func _signedArea2(_ ring: [Point]) -> Double {
    guard ring.count >= 3 else { return 0 }
    let o = ring[0]
    var s = 0.0
    var px = 0.0
    var py = 0.0
    for k in 1..<ring.count {
        let x = ring[k].x - o.x
        let y = ring[k].y - o.y
        s += px * y - x * py
        px = x
        py = y
    }
    return s
}

/// An open ring reversed, keeping its first vertex first: [v0, v1, …, vn-1] → [v0, vn-1, …, v1].
func _reversedRing(_ ring: [Point]) -> [Point] {
    guard ring.count > 2 else { return ring }
    var out = [ring[0]]
    out.reserveCapacity(ring.count)
    out.append(contentsOf: ring[1...].reversed())
    return out
}

/// Whether `p` is strictly inside the open ring (crossing-number test, W. R. Franklin's PNPOLY);
/// points on the boundary may go either way.
/// - Complexity: O(n).
func _ringContains(_ ring: [Point], _ p: Point) -> Bool {
    var inside = false
    var j = ring.count - 1
    for i in 0..<ring.count {
        let a = ring[i]
        let b = ring[j]
        if (a.y > p.y) != (b.y > p.y) {
            let xCross = (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x
            if p.x < xCross { inside.toggle() }
        }
        j = i
    }
    return inside
}

/// Groups Esri-convention rings into polygons: each clockwise (or zero-area) ring is an exterior,
/// each counter-clockwise ring a hole attached to the smallest exterior containing its first
/// vertex; failing that, to the smallest exterior containing any of its vertices (a hole that
/// crosses its exterior's boundary); failing that, the hole stands alone as its own polygon.
/// Exteriors keep their order, holes keep their order within an exterior, lone holes come last.
///
/// Returns, for each polygon, the ring indices (exterior first).
/// - Complexity: O(R log R + Σ over holes of the vertex counts of the exteriors whose envelope
///   contains the hole's first vertex), R rings: envelopes prune every candidate test.
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
        func container(for p: Point) -> Int? {
            for g in bySize {
                let e = exteriors[g]
                guard let env = envelopes[e], env.contains(p) else { continue }
                if _ringContains(rings[e], p) { return g }
            }
            return nil
        }
        var found: Int?
        if let first = hole.first { found = container(for: first) }
        if found == nil {
            for p in hole.dropFirst() {
                if let g = container(for: p) {
                    found = g
                    break
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
