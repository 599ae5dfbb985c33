extension GeometryEngine {
    /// OGC simplicity (JTS `IsSimpleOp` with the Mod-2 boundary rule).
    ///
    /// A point is simple; a multipoint is simple when no two points are equal; a polyline is
    /// simple when its paths meet only at path endpoints (a closed path may close on itself, but
    /// nothing may touch it there); a polygon is simple when each of its rings is.
    ///
    /// ```swift
    /// GeometryEngine.isSimple(try WKT.decode("LINESTRING (0 0, 10 10, 10 0, 0 10)"))   // false
    /// ```
    /// - Complexity: O(n log n + k) for n vertices and k segment pairs whose x-ranges overlap.
    /// - Source: JTS `IsSimpleOp` / `NonSimpleIntersectionFinder` (locationtech/jts 1.18+).
    public static func isSimple(_ g: Geometry) -> Bool {
        switch g {
        case .point, .envelope: return true
        case .multipoint(let mp): return Simplicity.pointsDistinct(mp.points)
        case .polyline(let pl): return Simplicity.linesSimple(pl.paths)
        case .polygon(let pg): return pg.rings.allSatisfy { $0.isEmpty || Simplicity.linesSimple([Polygon.closed($0)]) }
        }
    }

    /// OGC simplicity of a WKT tree; a collection is simple when every member is.
    package static func isSimple(_ t: WKTGeometry) -> Bool {
        switch t.shape {
        case .point: return true
        case .multiPoint(let ps): return Simplicity.pointsDistinct(ps.compactMap { $0 })
        case .lineString(let ps), .linearRing(let ps): return Simplicity.linesSimple([ps])
        case .multiLineString(let ls): return Simplicity.linesSimple(ls)
        case .polygon(let rings): return rings.allSatisfy { Simplicity.linesSimple([$0]) }
        case .multiPolygon(let polys): return polys.allSatisfy { $0.allSatisfy { Simplicity.linesSimple([$0]) } }
        case .geometryCollection(let gs): return gs.allSatisfy(isSimple)
        }
    }
}

enum Simplicity {
    static func pointsDistinct(_ ps: [Point]) -> Bool {
        struct Key: Hashable { var x: Double; var y: Double }
        var seen = Set<Key>()
        seen.reserveCapacity(ps.count)
        for p in ps where !seen.insert(Key(x: p.x == 0 ? 0 : p.x, y: p.y == 0 ? 0 : p.y)).inserted { return false }
        return true
    }

    /// Whether a set of lines (paths as written) is simple under the Mod-2 rule.
    static func linesSimple(_ lines: [[Point]]) -> Bool {
        var chains: [[Point]] = []
        for line in lines {
            var pts: [Point] = []
            for p in line where pts.last.map({ !$0.equals2D(p) }) ?? true { pts.append(p.xy) }
            if pts.count >= 2 { chains.append(pts) }
        }
        guard !chains.isEmpty else { return true }
        var sweep = SegmentSweep()
        for (i, c) in chains.enumerated() { sweep.addChain(c, chain: i) }
        var simple = true
        sweep.forEachPair { c0, s0, c1, s1 in
            if c0 == c1 && s0 == s1 { return true }
            if nonSimple(chains, c0, s0, c1, s1) {
                simple = false
                return false
            }
            return true
        }
        return simple
    }

    private static func nonSimple(_ chains: [[Point]], _ c0: Int, _ s0: Int, _ c1: Int, _ s1: Int) -> Bool {
        let a = chains[c0], b = chains[c1]
        let p00 = a[s0], p01 = a[s0 + 1], p10 = b[s1], p11 = b[s1 + 1]
        let pt: Point
        switch Kernel.intersect(p00, p01, p10, p11) {
        case .none: return false
        case .proper, .overlap: return true
        case .vertex(let p): pt = p
        }
        // An intersection interior to either segment.
        let endOfA = pt.equals2D(p00) || pt.equals2D(p01)
        let endOfB = pt.equals2D(p10) || pt.equals2D(p11)
        if !endOfA || !endOfB { return true }
        let same = c0 == c1
        if same && abs(s1 - s0) <= 1 { return false }
        let isEnd0 = pt.equals2D(p00) ? s0 == 0 : s0 + 2 == a.count
        let isEnd1 = pt.equals2D(p10) ? s1 == 0 : s1 + 2 == b.count
        if !(isEnd0 && isEnd1) { return true }
        if !same {
            if Polygon.isClosed(a) || Polygon.isClosed(b) { return true }
        }
        return false
    }
}
