/// The edges of one or more open rings, bucketed into horizontal bands for many exact
/// point-location queries: the index behind ``PreparedPolygon`` and ``Kernel/PreparedRing``.
///
/// Each band lists, contiguously, a copy of the end points of every edge whose y-range meets the
/// band, sorted by the edge's greatest x, descending. A query at `p` reads the band of `p.y` and
/// stops at the first edge lying wholly left of `p` (the ray to +x meets none of the rest); an
/// edge lying wholly right of `p` crosses the ray exactly when its half-open y-range holds `p.y`,
/// a comparison of y values; only the edges whose x-range holds `p.x` need the exact orientation
/// test. The answer is ``Kernel/locate(_:inRing:)``'s, summed over the rings by parity: an edge
/// whose y-range does not hold `p.y` contributes nothing but a boundary hit at its end vertex, and
/// every edge whose y-range holds `p.y` (so both edges at a vertex with that y) is in the band.
///
/// - Complexity: building O(e log e) for e band entries (about 2√n bands, fewer when edges span
///   many, so that e stays below 8n + bands); a query O(edges of its band right of `p`).
struct PreparedEdges: Sendable {
    /// One edge, from `a` to `b` (the ring's order).
    struct Edge: Sendable {
        var ax: Double, ay: Double, bx: Double, by: Double
    }

    /// The least y of any vertex (+∞ when there is none).
    let ymin: Double
    /// The greatest y of any vertex (−∞ when there is none).
    let ymax: Double
    /// Bands per unit of y.
    private let scale: Double
    /// The number of bands (at least 1).
    private let bandCount: Int
    /// Band k's edges are `edges[starts[k] ..< starts[k + 1]]`.
    private let starts: [Int32]
    private let edges: [Edge]

    /// Indexes the edges of `rings` (each open: the last vertex joins the first).
    init<Rings: Collection>(rings: Rings) where Rings.Element == [Point] {
        var lo = Double.infinity, hi = -Double.infinity, n = 0
        for ring in rings {
            n += ring.count
            for v in ring {
                lo = Swift.min(lo, v.y)
                hi = Swift.max(hi, v.y)
            }
        }
        ymin = lo
        ymax = hi
        // About 2√n bands, halved while the edges would be listed more than 8 times each on average.
        var count = Swift.max(1, Int((4 * Double(n)).squareRoot()))
        var entries = 0
        while true {
            let s = Self.scale(lo, hi, count)
            entries = 0
            for ring in rings where !ring.isEmpty {
                var a = ring[ring.count - 1]
                for b in ring {
                    entries += Self.band(Swift.max(a.y, b.y), lo, s, count) - Self.band(Swift.min(a.y, b.y), lo, s, count) + 1
                    a = b
                }
            }
            if entries <= 8 * n + count || count == 1 { break }
            count = Swift.max(1, count / 2)
        }
        precondition(entries < Int(Int32.max), "a prepared polygon holds fewer than 2³¹ band entries")
        let s = Self.scale(lo, hi, count)
        scale = s
        bandCount = count
        // Counting pass, then each edge written into every band it meets.
        var starts = [Int32](repeating: 0, count: count + 1)
        for ring in rings where !ring.isEmpty {
            var a = ring[ring.count - 1]
            for b in ring {
                for k in Self.band(Swift.min(a.y, b.y), lo, s, count)...Self.band(Swift.max(a.y, b.y), lo, s, count) {
                    starts[k + 1] += 1
                }
                a = b
            }
        }
        for k in 0..<count { starts[k + 1] += starts[k] }
        var fill = starts
        var edges = [Edge](repeating: Edge(ax: 0, ay: 0, bx: 0, by: 0), count: entries)
        for ring in rings where !ring.isEmpty {
            var a = ring[ring.count - 1]
            for b in ring {
                let e = Edge(ax: a.x, ay: a.y, bx: b.x, by: b.y)
                for k in Self.band(Swift.min(a.y, b.y), lo, s, count)...Self.band(Swift.max(a.y, b.y), lo, s, count) {
                    edges[Int(fill[k])] = e
                    fill[k] += 1
                }
                a = b
            }
        }
        edges.withUnsafeMutableBufferPointer { all in
            for k in 0..<count {
                all[Int(starts[k])..<Int(starts[k + 1])].sort { Swift.max($0.ax, $0.bx) > Swift.max($1.ax, $1.bx) }
            }
        }
        self.starts = starts
        self.edges = edges
    }

    private static func scale(_ lo: Double, _ hi: Double, _ count: Int) -> Double {
        hi > lo ? Double(count) / (hi - lo) : 0
    }

    /// The band holding `y`, clamped to the bands (NaN reads the first); non-decreasing in `y`.
    @inline(__always)
    private static func band(_ y: Double, _ lo: Double, _ scale: Double, _ count: Int) -> Int {
        let k = ((y - lo) * scale).rounded(.down)
        guard k > 0 else { return 0 }
        return k < Double(count - 1) ? Int(k) : count - 1
    }

    /// Where `p` lies relative to the rings: on an edge (``Kernel/RingLocation/boundary``), else
    /// inside or outside by the parity of the ray crossings over all the rings.
    func locate(_ p: Point) -> Kernel.RingLocation {
        // No edge's y-range holds a y outside the vertices' (nor NaN).
        guard p.y >= ymin, p.y <= ymax else { return .exterior }
        let k = Self.band(p.y, ymin, scale, bandCount)
        let px = p.x, py = p.y
        var crossings = 0
        return starts.withUnsafeBufferPointer { st in
            edges.withUnsafeBufferPointer { es in
                for i in Int(st[k])..<Int(st[k + 1]) {
                    let e = es[i]
                    // Sorted by greatest x: this edge and every later one lie left of the ray.
                    if Swift.max(e.ax, e.bx) < px { break }
                    if Swift.min(e.ax, e.bx) > px {
                        // Wholly right of p: a crossing exactly when the half-open y-range holds
                        // p.y (the exact test's answer: p is strictly left of the edge).
                        if (e.ay > py) != (e.by > py) { crossings &+= 1 }
                        continue
                    }
                    switch Kernel.rayCrossing(p, SIMD2(e.ax, e.ay), SIMD2(e.bx, e.by)) {
                    case .boundary: return .boundary
                    case .crossing: crossings &+= 1
                    case .none: break
                    }
                }
                return crossings & 1 == 1 ? .interior : .exterior
            }
        }
    }

    /// Bytes held by the band table and the edge copies.
    var memoryFootprint: Int { starts.capacity * 4 + edges.capacity * MemoryLayout<Edge>.stride }
}
