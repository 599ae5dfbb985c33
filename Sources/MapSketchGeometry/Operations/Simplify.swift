extension GeometryEngine {
    /// Makes a geometry topologically simple (OGC-valid and Esri-simple), multipoints and
    /// polylines with the xy tolerance of `spatialReference` (``SpatialReference/xyTolerance``;
    /// with none, ``SpatialReference/defaultXYTolerance``). See ``simplify(_:tolerance:)``.
    ///
    /// - Complexity: as ``simplify(_:tolerance:)``.
    public static func simplify(_ g: Geometry, spatialReference: SpatialReference?) -> Geometry {
        simplify(g, tolerance: spatialReference?.xyTolerance ?? SpatialReference.defaultXYTolerance)
    }

    /// Makes a geometry topologically simple (OGC-valid and Esri-simple): a polygon becomes
    /// exactly the region its rings enclose by the odd-even rule; multipoints and polylines snap
    /// to `tolerance` as Esri's simplify snaps to the xy tolerance.
    ///
    /// - Point: unchanged (a NaN or infinite point becomes empty).
    /// - Multipoint: non-finite points dropped, and points closer than the tolerance to an
    ///   earlier kept one (equal ones too).
    /// - Polyline: non-finite vertices dropped, and each vertex closer than the tolerance to the
    ///   vertex kept before it (a path's last vertex is kept in place of that one, so the path
    ///   still ends where it ended), then paths with fewer than 2 vertices. Paths may cross
    ///   (an Esri-simple polyline may).
    /// - Polygon: repaired with the **odd-even** fill rule, exactly: the result covers the
    ///   region covered an odd number of times by the rings, and its area is that region's area
    ///   to the rounding of the computed crossings (about 1e-14 relative on everyday
    ///   coordinates). The tolerance is not used: snapping a vertex or a crossing to another
    ///   one a tolerance away drags the edges that end there and changes the area by up to the
    ///   tolerance times their length. All ring segments are noded at the **resolution** of the
    ///   coordinates, 2^-48 of the largest magnitude (see `Noder`: points closer than that —
    ///   two computed crossings, a crossing and a vertex — are one, the first standing for
    ///   both; snap rounding on a grid as fine as the arithmetic allows as the fallback), edges
    ///   covered an even number of times cancel (this removes spikes, collapsed and duplicate
    ///   rings), the faces of the planar arrangement are traced and classified inside or
    ///   outside by parity, and each inside face's boundary becomes a clockwise exterior with
    ///   counter-clockwise holes (y up), its walks split at repeated vertices so no ring touches
    ///   itself. Holes go to the smallest exterior containing them. So no ring has zero area,
    ///   and no two vertices are closer than the resolution, nor a vertex closer than it to an
    ///   edge that does not end at it; vertices closer than the tolerance stay when the region
    ///   has them. Input vertices keep their z and m; new vertices (crossings) interpolate them.
    ///   Output is canonical: each ring starts at its lowest-x, lowest-y vertex, polygons are
    ///   ordered by their exterior's vertex sequence and their holes likewise, so
    ///   `simplify(simplify(g)) == simplify(g)`. Coordinates of any magnitude are safe
    ///   (rings near ±1e308 or of size 1e-300 are noded scaled by a power of two).
    /// - Envelope: unchanged.
    ///
    /// A negative or non-finite tolerance counts as 0.
    ///
    /// ```swift
    /// let bowTie = try WKT.decode("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))")
    /// WKT.encode(GeometryEngine.simplify(bowTie))
    /// // MULTIPOLYGON (((0 0, 0 10, 5 5, 0 0)), ((5 5, 10 10, 10 0, 5 5)))
    /// ```
    /// - Complexity: O(r · (n log n + k)) for n vertices, k segment pairs whose x-ranges
    ///   (grown by the resolution) overlap and r noding rounds (usually one or two), O(n log n)
    ///   for the arrangement, plus the hole assignment and one ray count per connected
    ///   component of the boundary, over one of √E bands of edges.
    /// - Source: odd-even boundary extraction on a planar arrangement (de Berg et al.,
    ///   *Computational Geometry*, 3rd ed., ch. 2, doubly-connected edge lists); snap rounding
    ///   as in Hobby, "Practical segment intersection with finite precision output", CGTA 1999;
    ///   snapping noding after JTS `SnappingNoder` (locationtech/jts 1.18).
    public static func simplify(_ g: Geometry, tolerance: Double = SpatialReference.defaultXYTolerance) -> Geometry {
        let tolerance = tolerance.isFinite && tolerance > 0 ? tolerance : 0
        switch g {
        case .point(let p):
            guard let p, p.x.isFinite, p.y.isFinite else { return .point(nil) }
            return .point(p)
        case .envelope: return g
        case .multipoint(let mp):
            var pts: [Point] = []
            SimplifyRule.keptPoints([mp.points], tolerance: tolerance) { pts.append($0) }
            return .multipoint(Multipoint(points: pts, hasZ: mp.hasZ, hasM: mp.hasM))
        case .polyline(let pl):
            var paths: [[Point]] = []
            var last = -1
            SimplifyRule.keptPathVertices(pl.paths, tolerance: tolerance) { part, p in
                if part != last {
                    paths.append([])
                    last = part
                }
                paths[paths.count - 1].append(p)
            }
            return .polyline(Polyline(paths: paths, hasZ: pl.hasZ, hasM: pl.hasM))
        case .polygon(let pg):
            return .polygon(Polygon(rings: OddEvenRepair.simplify(pg.rings), hasZ: pg.hasZ, hasM: pg.hasM))
        }
    }
}

/// An x, y key for hashing vertices (−0 folded to 0).
struct XYKey: Hashable {
    var x: Double
    var y: Double
    init(_ p: Point) {
        x = p.x == 0 ? 0 : p.x
        y = p.y == 0 ? 0 : p.y
    }
}

/// Odd-even polygon repair on a planar arrangement.
enum OddEvenRepair {
    /// The rings of the odd-even repair of `input`, noded at the resolution of its coordinates
    /// (``Noder/resolution(of:)``). Rings of coordinates beyond 2^500 or all below 2^-500 in
    /// magnitude are repaired scaled by a power of two, so no arithmetic overflows or
    /// underflows, and scaled back.
    static func simplify(_ input: [[Point]]) -> [[Point]] {
        var m = 0.0
        for ring in input {
            for p in ring where p.x.isFinite && p.y.isFinite { m = max(m, p.x.magnitude, p.y.magnitude) }
        }
        let k = m > 0 ? -Int(m.exponent) : 0
        guard k < -500 || k > 500 else { return repair(input) }
        func scaled(_ p: Point, _ k: Int) -> Point {
            var q = p
            q.x = Kernel.scaled(p.x, by: k)
            q.y = Kernel.scaled(p.y, by: k)
            return q
        }
        let rings = repair(input.map { $0.map { scaled($0, k) } })
        return rings.map { $0.map { scaled($0, -k) } }
    }

    static func repair(_ input: [[Point]]) -> [[Point]] {
        // Segments of every ring (closing segment included), non-finite vertices dropped.
        var segs: [Noder.Seg] = []
        for ring in input {
            let pts = ring.filter { $0.x.isFinite && $0.y.isFinite }
            guard pts.count >= 2 else { continue }
            for i in pts.indices {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                if !a.equals2D(b) { segs.append(Noder.Seg(a: a, b: b)) }
            }
        }
        // Noded at the resolution of the coordinates, never the xy tolerance: the region is kept.
        let frags = Noder.node(segs, tolerance: 0)
        // Vertices (first z/m seen wins) and edges with odd multiplicity.
        var ids: [XYKey: Int] = [:]
        var nodes: [Point] = []
        func id(_ p: Point) -> Int {
            if let i = ids[XYKey(p)] { return i }
            ids[XYKey(p)] = nodes.count
            nodes.append(p)
            return nodes.count - 1
        }
        struct EdgeKey: Hashable { var u: Int; var v: Int }
        var odd = Set<EdgeKey>()
        for f in frags {
            let u = id(f.a), v = id(f.b)
            let k = EdgeKey(u: min(u, v), v: max(u, v))
            if odd.remove(k) == nil { odd.insert(k) }
        }
        let edges = odd.sorted { ($0.u, $0.v) < ($1.u, $1.v) }
        guard !edges.isEmpty else { return [] }
        let arrangement = Arrangement(nodes: nodes, edges: edges.map { ($0.u, $0.v) })
        // Inside faces of a fully noded arrangement have area; a ring whose vertices all lie on
        // one line would have none, and is dropped should one ever come out.
        let rings = arrangement.insideRings().filter { Kernel.areaSign($0) != 0 }
        // Canonical form: rotate each ring to its smallest vertex, group, order.
        let canon = rings.map(canonicalRing)
        let groups = RingNesting.groupByOrientation(canon)
        var polys = groups.map { g -> [[Point]] in
            [canon[g.exterior]] + g.holes.map { canon[$0] }.sorted(by: ringPrecedes)
        }
        polys.sort { ringPrecedes($0[0], $1[0]) }
        return polys.flatMap { $0 }
    }

    /// A total order on rings: lexicographic on the (x, y) vertex sequence.
    static func ringPrecedes(_ a: [Point], _ b: [Point]) -> Bool {
        for (p, q) in zip(a, b) where !p.equals2D(q) { return (p.x, p.y) < (q.x, q.y) }
        return a.count < b.count
    }

    /// The ring rotated to start at its lexicographically smallest (x, y) vertex.
    static func canonicalRing(_ r: [Point]) -> [Point] {
        guard var best = r.indices.first else { return r }
        for i in r.indices where (r[i].x, r[i].y) < (r[best].x, r[best].y) { best = i }
        return Array(r[best...] + r[..<best])
    }
}

/// A planar straight-line graph of odd-multiplicity boundary edges, as half-edges sorted
/// around each vertex, with faces classified by odd-even parity.
struct Arrangement {
    let nodes: [Point]
    /// Half-edge h runs from `origin[h]` to `origin[h ^ 1]`.
    private var origin: [Int]
    /// Outgoing half-edges of each vertex, counter-clockwise from the positive x-axis.
    private var out: [[Int]]
    /// Position of each half-edge in its origin's `out` list.
    private var pos: [Int]

    init(nodes: [Point], edges: [(Int, Int)]) {
        self.nodes = nodes
        origin = [Int](repeating: 0, count: edges.count * 2)
        out = Array(repeating: [], count: nodes.count)
        pos = [Int](repeating: 0, count: edges.count * 2)
        for (e, (u, v)) in edges.enumerated() {
            origin[2 * e] = u
            origin[2 * e + 1] = v
            out[u].append(2 * e)
            out[v].append(2 * e + 1)
        }
        for v in out.indices where out[v].count > 1 {
            let o = nodes[v]
            let dests = origin
            let ns = nodes
            out[v].sort { NodeTopology.compareAngle(o, ns[dests[$0 ^ 1]], ns[dests[$1 ^ 1]]) < 0 }
        }
        for v in out.indices { for (i, h) in out[v].enumerated() { pos[h] = i } }
    }

    private func dest(_ h: Int) -> Int { origin[h ^ 1] }

    /// The next half-edge around the face on the left of `h`.
    private func next(_ h: Int) -> Int {
        let v = dest(h)
        let list = out[v]
        let i = pos[h ^ 1]
        return list[(i + list.count - 1) % list.count]
    }

    /// The boundaries of the inside faces as simple rings, inside on the right (exteriors
    /// clockwise, holes counter-clockwise).
    func insideRings() -> [[Point]] {
        let hCount = origin.count
        // Face cycles.
        var cycleOf = [Int](repeating: -1, count: hCount)
        var cycles: [[Int]] = []
        for h0 in 0..<hCount where cycleOf[h0] < 0 {
            var cyc: [Int] = []
            var h = h0
            while cycleOf[h] < 0 {
                cycleOf[h] = cycles.count
                cyc.append(h)
                h = next(h)
            }
            cycles.append(cyc)
        }
        // Connected components of vertices.
        var comp = [Int](repeating: -1, count: nodes.count)
        var compCount = 0
        for s in nodes.indices where comp[s] < 0 && !out[s].isEmpty {
            var stack = [s]
            comp[s] = compCount
            while let v = stack.popLast() {
                for h in out[v] where comp[dest(h)] < 0 {
                    comp[dest(h)] = compCount
                    stack.append(dest(h))
                }
            }
            compCount += 1
        }
        // Leftmost-lowest vertex of each component.
        var anchor = [Int](repeating: -1, count: compCount)
        for v in nodes.indices where comp[v] >= 0 {
            let c = comp[v]
            if anchor[c] < 0 || (nodes[v].x, nodes[v].y) < (nodes[anchor[c]].x, nodes[anchor[c]].y) { anchor[c] = v }
        }
        // Edges in horizontal bands (about √E of them, at most 4096), so each component's ray
        // count scans only the edges of the band holding its anchor.
        var ylo = Double.infinity, yhi = -Double.infinity
        for p in nodes {
            ylo = min(ylo, p.y)
            yhi = max(yhi, p.y)
        }
        let edgeCount = hCount / 2
        var bands = EdgeBands(ymin: ylo, ymax: yhi, count: min(4096, Int(Double(edgeCount).squareRoot())))
        for h in stride(from: 0, to: hCount, by: 2) {
            bands.add(Int32(h), y0: nodes[origin[h]].y, y1: nodes[dest(h)].y)
        }
        // Parity of each cycle's face: 1 inside.
        var parity = [Int](repeating: -1, count: cycles.count)
        for c in 0..<compCount {
            let v = anchor[c]
            let p = nodes[v]
            // The outer face lies left of the last outgoing half-edge pointing up or right-up.
            let list = out[v]
            var outerH = list[list.count - 1]
            for h in list where NodeTopology.quadrant(p, nodes[dest(h)]) == 0 { outerH = h }
            // Ray from p towards −x, counted against other components' edges.
            var crossings = 0
            for e in bands.edges(at: p.y) {
                let h = Int(e)
                var a = nodes[origin[h]], b = nodes[dest(h)]
                // Half-open in y: the edge counts when min y ≤ p.y < max y.
                guard min(a.y, b.y) <= p.y, max(a.y, b.y) > p.y, comp[origin[h]] != c else { continue }
                if a.y > b.y { swap(&a, &b) }
                if min(a.x, b.x) >= p.x { continue }
                // Upward edge a→b passes left of p when p is to its right.
                if Kernel.orient2d(a, b, p) < 0 { crossings += 1 }
            }
            let start = cycleOf[outerH]
            guard parity[start] < 0 else { continue }
            parity[start] = crossings % 2
            var queue = [start]
            while let cy = queue.popLast() {
                for h in cycles[cy] {
                    let other = cycleOf[h ^ 1]
                    if parity[other] < 0 {
                        parity[other] = 1 - parity[cy]
                        queue.append(other)
                    }
                }
            }
        }
        // Inside cycles, reversed (inside on the right) and split at repeated vertices.
        var rings: [[Point]] = []
        for (ci, cyc) in cycles.enumerated() where parity[ci] == 1 {
            let verts = cyc.reversed().map { dest($0) }
            splitSimple(verts, into: &rings)
        }
        return rings
    }

    /// Splits a closed vertex walk into simple loops.
    private func splitSimple(_ walk: [Int], into rings: inout [[Point]]) {
        var stack: [Int] = []
        var at: [Int: Int] = [:]
        for v in walk + [walk[0]] {
            if let i = at[v] {
                let loop = Array(stack[i...])
                for u in loop.dropFirst() { at[u] = nil }
                stack.removeSubrange((i + 1)...)
                if loop.count >= 3 { rings.append(loop.map { nodes[$0] }) }
            } else {
                at[v] = stack.count
                stack.append(v)
            }
        }
    }
}
