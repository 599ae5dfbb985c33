/// A ring prepared for topology analysis: closed, repeated vertices removed.
struct ValidationRing {
    var pts: [Point]
    /// The original vertex index of each point in `pts`.
    var orig: [Int]
    var part: Int
    /// The number of vertices of the ring as given.
    var count: Int
    /// The polygon this ring belongs to for touch analysis, or -1 (no touch analysis).
    var polygon: Int
    var isShell: Bool

    /// Builds from a ring as given (open or closed).
    init(_ ring: [Point], part: Int, polygon: Int, isShell: Bool) {
        var pts: [Point] = []
        var orig: [Int] = []
        pts.reserveCapacity(ring.count + 1)
        for (k, p) in ring.enumerated() where pts.last.map({ !$0.equals2D(p) }) ?? true {
            pts.append(p.xy)
            orig.append(k)
        }
        if let f = pts.first, !Polygon.isClosed(pts) {
            pts.append(f)
            orig.append(0)
        }
        if pts.count == 1 {
            pts.append(pts[0])
            orig.append(0)
        }
        self.pts = pts
        self.orig = orig
        self.part = part
        count = ring.count
        self.polygon = polygon
        self.isShell = isShell
    }

    /// The segment `pts[s]`–`pts[s + 1]` as numbered in the ring as given (segment k from its
    /// vertex k to k + 1): the one ending at `pts[s + 1]`'s vertex, so a run of repeated
    /// vertices before it is not named; the segment back to vertex 0 of a ring given open is
    /// its last.
    func segment(_ s: Int) -> Int {
        let end = orig[s + 1]
        return end == 0 ? max(count - 1, 0) : end - 1
    }
}

struct Validator {
    var issues: [ValidationIssue] = []

    mutating func add(_ rule: ValidationIssue.Rule, part: Int?, vertex: Int?, at p: Point?, _ msg: String) {
        issues.append(ValidationIssue(rule: rule, part: part, vertex: vertex, location: p, message: msg))
    }

    mutating func checkFinite(_ pts: [Point], part: Int) {
        for (k, p) in pts.enumerated() where !(p.x.isFinite && p.y.isFinite) {
            add(.nonFiniteCoordinate, part: part, vertex: k, at: nil, "x or y is NaN or infinite")
        }
    }

    static func distinctCount(_ pts: [Point], limit: Int) -> Int {
        var n = 0
        var prev: Point?
        for p in pts where prev.map({ !$0.equals2D(p) }) ?? true {
            n += 1
            prev = p
            if n >= limit { return n }
        }
        return n
    }

    mutating func checkLineSize(_ path: [Point], part: Int) {
        if Self.distinctCount(path, limit: 2) < 2 {
            add(.tooFewPoints, part: part, vertex: 0, at: path.first?.xy, "a path needs at least 2 distinct vertices")
        }
    }

    /// A closed ring (as written) needs 4 non-repeated points, i.e. 3 distinct vertices.
    mutating func checkRingSize(_ ring: [Point], part: Int) {
        guard !ring.isEmpty else { return }
        if Self.distinctCount(Polygon.closed(ring), limit: 4) < 4 {
            add(.tooFewPoints, part: part, vertex: 0, at: ring.first?.xy, "a ring needs at least 3 distinct vertices")
        }
    }

    mutating func checkClosed(_ ring: [Point], part: Int) {
        guard let l = ring.last, !Polygon.isClosed(ring) else { return }
        add(.ringNotClosed, part: part, vertex: ring.count - 1, at: l.xy, "the ring's last vertex differs from its first")
    }

    // MARK: WKT trees (JTS structure)

    mutating func validateTree(_ t: WKTGeometry) {
        switch t.shape {
        case .point(let p): if let p { checkFinite([p], part: 0) }
        case .multiPoint(let ps): checkFinite(ps.compactMap { $0 }, part: 0)
        case .lineString(let ps):
            checkFinite(ps, part: 0)
            if issues.isEmpty && !ps.isEmpty { checkLineSize(ps, part: 0) }
        case .multiLineString(let ls):
            for (i, ps) in ls.enumerated() { checkFinite(ps, part: i) }
            if issues.isEmpty { for (i, ps) in ls.enumerated() where !ps.isEmpty { checkLineSize(ps, part: i) } }
        case .linearRing(let ps):
            checkFinite(ps, part: 0)
            guard issues.isEmpty, !ps.isEmpty else { return }
            checkClosed(ps, part: 0)
            guard issues.isEmpty else { return }
            checkRingSize(ps, part: 0)
            guard issues.isEmpty else { return }
            var a = TopologyAnalyzer(rings: [ValidationRing(ps, part: 0, polygon: -1, isShell: true)])
            if let i = a.findInvalidIntersection() {
                issues.append(
                    i.meeting.map { ValidationIssue(rule: .ringSelfIntersection, meeting: $0) }
                        ?? ValidationIssue(
                            rule: .ringSelfIntersection, part: i.part, vertex: i.vertex, location: i.location, message: "the ring touches or crosses itself"))
            }
        case .polygon(let rings): validatePolygons(rings.isEmpty ? [] : [rings])
        case .multiPolygon(let polys): validatePolygons(polys)
        case .geometryCollection(let gs):
            for g in gs {
                validateTree(g)
                if !issues.isEmpty { return }
            }
        }
    }

    /// JTS `isValid(Polygon)` / `isValid(MultiPolygon)` over explicit polygon structure.
    mutating func validatePolygons(_ polys: [[[Point]]]) {
        var part = 0
        var rings: [ValidationRing] = []
        var structure: [(shell: Int, holes: [Int])] = []
        for (pi, poly) in polys.enumerated() {
            guard let shell = poly.first, !shell.isEmpty else {
                part += poly.count
                continue
            }
            let hasHoles = poly.dropFirst().contains { !$0.isEmpty }
            var entry = (shell: rings.count, holes: [Int]())
            for (ri, ring) in poly.enumerated() {
                defer { part += 1 }
                checkFinite(ring, part: part)
                guard !ring.isEmpty else { continue }
                if ri > 0 { entry.holes.append(rings.count) }
                rings.append(ValidationRing(ring, part: part, polygon: hasHoles ? pi : -1, isShell: ri == 0))
            }
            structure.append(entry)
        }
        guard issues.isEmpty else { return }
        var p = 0
        for poly in polys { for ring in poly { checkClosed(ring, part: p); p += 1 } }
        guard issues.isEmpty else { return }
        p = 0
        for poly in polys { for ring in poly { checkRingSize(ring, part: p); p += 1 } }
        guard issues.isEmpty else { return }
        var analyzer = TopologyAnalyzer(rings: rings)
        if let i = analyzer.findInvalidIntersection() {
            issues.append(i)
            return
        }
        // Holes inside their shells.
        for s in structure {
            for h in s.holes where !PolygonNesting.isRingNested(rings[h].pts, in: rings[s.shell].pts) {
                add(.holeOutsideShell, part: rings[h].part, vertex: 0, at: rings[h].pts[0], "the hole is not inside its polygon's exterior")
                return
            }
        }
        let envs = rings.map { Envelope(points: $0.pts) }
        func covers(_ o: Int, _ i: Int) -> Bool {
            guard let eo = envs[o], let ei = envs[i] else { return false }
            return eo.covers(ei)
        }
        // Holes not nested.
        for s in structure {
            for h in s.holes {
                for o in s.holes where o != h && covers(o, h)
                    && PolygonNesting.isRingNested(rings[h].pts, in: rings[o].pts)
                {
                    add(.nestedHoles, part: rings[h].part, vertex: 0, at: rings[h].pts[0], "the hole lies inside hole \(rings[o].part)")
                    return
                }
            }
        }
        // Shells not nested (JTS checkShellsNotNested).
        if structure.count > 1 {
            for (i, s) in structure.enumerated() {
                let shell = rings[s.shell].pts
                for (j, t) in structure.enumerated() where i != j {
                    let other = rings[t.shell].pts
                    guard covers(t.shell, s.shell) else { continue }
                    let s0 = shell[0]
                    let s1 = PolygonNesting.nonEqualVertex(shell, s0)
                    guard PolygonNesting.isSegmentInRing(s0, s1, other) else { continue }
                    let inHole = t.holes.contains { h in
                        covers(h, s.shell) && PolygonNesting.isSegmentInRing(s0, s1, rings[h].pts)
                    }
                    if !inHole {
                        add(.nestedShells, part: rings[s.shell].part, vertex: 0, at: s0, "the exterior lies inside the polygon of exterior \(rings[t.shell].part)")
                        return
                    }
                }
            }
        }
        if let d = analyzer.disconnection() {
            add(.disconnectedInterior, part: d.part, vertex: nil, at: d.location, "holes touch the exterior or each other so that the interior is disconnected")
        }
    }

    // MARK: Flat polygons (Esri structure)

    mutating func validateFlatPolygon(_ input: [[Point]], mode: ValidationMode) {
        for (i, r) in input.enumerated() { checkFinite(r, part: i) }
        guard issues.isEmpty else { return }
        for (i, r) in input.enumerated() { checkRingSize(r, part: i) }
        guard issues.isEmpty else { return }
        let nonEmpty = input.indices.filter { !input[$0].isEmpty }
        let rings = nonEmpty.map { ValidationRing(input[$0], part: $0, polygon: -1, isShell: true) }
        var analyzer = TopologyAnalyzer(rings: rings, recordAllTouches: true)
        if let i = analyzer.findInvalidIntersection() {
            issues.append(i)
            return
        }
        // No two rings cross here: roles follow nesting depth (even → exterior, odd → hole).
        let n = rings.count
        var parent = [Int](repeating: -1, count: n)
        var depth = [Int](repeating: 0, count: n)
        let areas = rings.map { abs(Kernel.signedDoubleArea($0.pts)) }
        let envs = rings.map { Envelope(points: $0.pts) }
        // Candidates by x: rings sorted by xmin, so only those starting left of ring i are scanned.
        let byXmin = (0..<n).sorted { (envs[$0]?.xmin ?? 0, $0) < (envs[$1]?.xmin ?? 0, $1) }
        for i in 0..<n {
            var best = -1
            guard let ei = envs[i] else { continue }
            for j in byXmin {
                guard let ej = envs[j] else { continue }
                if ej.xmin > ei.xmin { break }
                guard j != i, ej.covers(ei), PolygonNesting.isRingNested(rings[i].pts, in: rings[j].pts) else { continue }
                depth[i] += 1
                if best < 0 || areas[j] < areas[best] { best = j }
            }
            parent[i] = best
        }
        var polygonOf = [Int](repeating: -1, count: n)
        var isShell = [Bool](repeating: true, count: n)
        var hasHoles = [Bool](repeating: false, count: n)
        for i in 0..<n where depth[i] % 2 == 1 && parent[i] >= 0 { hasHoles[parent[i]] = true }
        for i in 0..<n {
            isShell[i] = depth[i] % 2 == 0
            let owner = isShell[i] ? i : parent[i]
            polygonOf[i] = owner >= 0 && hasHoles[owner] ? owner : -1
        }
        if mode == .esriSimple {
            for (i, r) in rings.enumerated() {
                let a = Kernel.areaSign(r.pts)
                if isShell[i] && a > 0 {
                    add(.wrongOrientation, part: r.part, vertex: nil, at: nil, "an exterior ring must be clockwise")
                } else if !isShell[i] && a < 0 {
                    add(.wrongOrientation, part: r.part, vertex: nil, at: nil, "a hole must be counter-clockwise")
                }
            }
            guard issues.isEmpty else { return }
        }
        // The touches recorded in the first pass, now read per polygon.
        analyzer.assignPolygons(polygonOf, isShell: isShell)
        if let d = analyzer.disconnection() {
            add(.disconnectedInterior, part: d.part, vertex: nil, at: d.location, "holes touch the exterior or each other so that the interior is disconnected")
        }
    }
}
