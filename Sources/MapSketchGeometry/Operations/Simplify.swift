extension GeometryEngine {
    /// Makes a geometry topologically simple (OGC-valid and Esri-simple).
    ///
    /// - Point: unchanged (a NaN or infinite point becomes empty).
    /// - Multipoint: non-finite and duplicate points dropped (first occurrence kept).
    /// - Polyline: non-finite and duplicate consecutive vertices dropped, then paths with fewer
    ///   than 2 vertices.
    /// - Polygon: repaired with the **odd-even** fill rule. All ring segments are noded (see
    ///   `Noder`: floating noding checked exactly, snap rounding as fallback, so the result is
    ///   valid even for nearly-degenerate input), edges covered an even number of times cancel
    ///   (this removes spikes, collapsed and duplicate rings), the faces of the planar
    ///   arrangement are traced and classified inside or outside by parity, and each inside
    ///   face's boundary becomes a clockwise exterior with counter-clockwise holes (y up), its
    ///   walks split at repeated vertices so no ring touches itself. Holes go to the smallest
    ///   exterior containing them. Input vertices keep their z and m; new vertices (crossings)
    ///   interpolate them. Output is canonical: each ring starts at its lowest-x, lowest-y vertex,
    ///   polygons are ordered by their exterior's vertex sequence and their holes likewise, so
    ///   `simplify(simplify(g)) == simplify(g)`.
    /// - Envelope: unchanged.
    ///
    /// ```swift
    /// let bowTie = try WKT.decode("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))")
    /// WKT.encode(GeometryEngine.simplify(bowTie))
    /// // MULTIPOLYGON (((0 0, 0 10, 5 5, 0 0)), ((5 5, 10 10, 10 0, 5 5)))
    /// ```
    /// - Complexity: O(n log n + k) for n vertices and k segment pairs whose x-ranges overlap
    ///   (noding and its exact check), O(n log n) for the arrangement, plus the hole assignment
    ///   and one ray count per connected component of the boundary, over one of √E bands of edges.
    /// - Source: odd-even boundary extraction on a planar arrangement (de Berg et al.,
    ///   *Computational Geometry*, 3rd ed., ch. 2, doubly-connected edge lists); snap rounding
    ///   as in Hobby, "Practical segment intersection with finite precision output", CGTA 1999.
    public static func simplify(_ g: Geometry) -> Geometry {
        switch g {
        case .point(let p):
            guard let p, p.x.isFinite, p.y.isFinite else { return .point(nil) }
            return .point(p)
        case .envelope: return g
        case .multipoint(let mp):
            var seen = Set<XYKey>()
            let pts = mp.points.filter { $0.x.isFinite && $0.y.isFinite && seen.insert(XYKey($0)).inserted }
            return .multipoint(Multipoint(points: pts, hasZ: mp.hasZ, hasM: mp.hasM))
        case .polyline(let pl):
            var paths: [[Point]] = []
            for path in pl.paths {
                var out: [Point] = []
                for p in path where p.x.isFinite && p.y.isFinite && !(out.last?.equals2D(p) ?? false) { out.append(p) }
                if out.count >= 2 { paths.append(out) }
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
    static func simplify(_ input: [[Point]]) -> [[Point]] {
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
        let frags = Noder.node(segs)
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
        let rings = arrangement.insideRings()
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
