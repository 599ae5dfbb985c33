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

/// Point-in-ring location with the edges bucketed into horizontal bands, so that a query looks at
/// the edges of one band instead of the whole ring. It gives exactly ``Kernel/locate(_:inRing:)``'s
/// answer: an edge whose y-range does not contain the query's y contributes nothing to that test,
/// and every edge whose y-range does is in the query's band.
/// - Complexity: building O(n + Σ bands spanned per edge); a query O(edges in the band), about
///   O(√n) for well-spread rings.
struct _BandedRing {
    let ring: [Point]
    let ymin: Double
    let ymax: Double
    let bandHeight: Double
    /// Edge start indices per band (edge i runs from vertex i-1 to vertex i, as in Kernel.locate).
    var bands: [[Int32]]

    init(_ ring: [Point]) {
        self.ring = ring
        let env = Envelope(points: ring) ?? Envelope(xmin: 0, ymin: 0, xmax: 0, ymax: 0)
        ymin = env.ymin
        ymax = env.ymax
        let count = max(1, Int(Double(ring.count).squareRoot()))
        bandHeight = env.height > 0 ? env.height / Double(count) : 1
        bands = Array(repeating: [], count: count)
        let n = ring.count
        for i in 0..<n {
            let a = ring[(i + n - 1) % n], b = ring[i]
            let lo = band(min(a.y, b.y)), hi = band(max(a.y, b.y))
            for k in lo...hi { bands[k].append(Int32(i)) }
        }
    }

    func band(_ y: Double) -> Int {
        let k = ((y - ymin) / bandHeight).rounded(.down)
        guard k.isFinite else { return 0 }
        return Swift.min(bands.count - 1, Swift.max(0, Int(k)))
    }

    /// Where `p` lies relative to the ring: the JTS ray-crossing rule of ``Kernel/locate(_:inRing:)``.
    func locate(_ p: Point) -> Kernel.RingLocation {
        let n = ring.count
        guard n > 0 else { return .exterior }
        // No edge's y-range holds a y outside the ring's.
        if p.y < ymin || p.y > ymax { return .exterior }
        var crossings = 0
        for e in bands[band(p.y)] {
            let i = Int(e)
            let p1 = ring[(i + n - 1) % n], p2 = ring[i]
            if p1.x < p.x && p2.x < p.x { continue }
            if p.x == p2.x && p.y == p2.y { return .boundary }
            if p1.y == p.y && p2.y == p.y {
                if p.x >= min(p1.x, p2.x) && p.x <= max(p1.x, p2.x) { return .boundary }
                continue
            }
            if (p1.y > p.y && p2.y <= p.y) || (p2.y > p.y && p1.y <= p.y) {
                var o = Kernel.orient2d(p1, p2, p)
                if o == 0 { return .boundary }
                if p2.y < p1.y { o = -o }
                if o > 0 { crossings += 1 }
            }
        }
        return crossings % 2 == 1 ? .interior : .exterior
    }
}

/// Groups Esri-convention rings into polygons: each clockwise (or zero-area) ring is an exterior,
/// each counter-clockwise ring a hole attached to the smallest exterior containing its first
/// vertex that is not on that exterior's boundary; failing that, to the smallest exterior
/// containing any of its vertices (a hole that crosses its exterior's boundary, which
/// `arcgis-to-geojson-utils` also attaches); failing that, the hole stands alone as its own
/// polygon, so no ring is ever lost. (The kernel's `_RingNesting`, used by WKT, makes a crossing
/// hole stand alone instead.) Exteriors keep their order, holes keep their order within an
/// exterior, lone holes come last.
///
/// Candidate exteriors come from a packed R-tree of their envelopes; an exterior with many
/// vertices tested more than once gets a banded edge index (``_BandedRing``).
///
/// Returns, for each polygon, the ring indices (exterior first).
/// - Complexity: O(R log R) for R rings to classify and index, plus per hole the point tests
///   against the exteriors whose envelope meets the hole's (each O(√n) once indexed).
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
    let empty = Envelope(xmin: .infinity, ymin: .infinity, xmax: -.infinity, ymax: -.infinity)
    let tree = PackedRTree(envelopes: exteriors.map { envelopes[$0] ?? empty })
    var banded: [Int: _BandedRing] = [:]
    var tested = [Int](repeating: 0, count: rings.count)
    func locate(_ p: Point, _ e: Int) -> Kernel.RingLocation {
        if let b = banded[e] { return b.locate(p) }
        tested[e] += 1
        if rings[e].count > 64 && tested[e] > 1 {
            let b = _BandedRing(rings[e])
            banded[e] = b
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
