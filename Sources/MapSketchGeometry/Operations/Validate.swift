/// One reason a geometry is not valid: which rule, which part and vertex, and where.
public struct ValidationIssue: Hashable, Sendable, CustomStringConvertible {
    /// The rules ``GeometryEngine/validate(_:mode:)`` checks.
    public enum Rule: String, Hashable, Sendable, CaseIterable {
        /// A path with fewer than 2 distinct vertices, or a ring with fewer than 3.
        case tooFewPoints
        /// A WKT ring whose last vertex differs from its first.
        case ringNotClosed
        /// Segments of the geometry cross, overlap, or a ring passes through another's vertex
        /// crosswise (JTS `SELF_INTERSECTION`).
        case selfIntersection
        /// A ring touches or crosses itself (JTS `RING_SELF_INTERSECTION`).
        case ringSelfIntersection
        /// A hole not inside its polygon's exterior.
        case holeOutsideShell
        /// A hole inside another hole of the same polygon.
        case nestedHoles
        /// An exterior inside another polygon's interior.
        case nestedShells
        /// Holes touching the exterior or each other so that the interior falls apart.
        case disconnectedInterior
        /// A NaN or infinite coordinate.
        case nonFiniteCoordinate
        /// Esri-simple only: an exterior not clockwise or a hole not counter-clockwise.
        case wrongOrientation
        /// Two rings with the same vertices.
        case duplicateRings
    }

    /// The rule broken.
    public var rule: Rule
    /// The part (path or ring) index, counting rings across all polygons in order.
    public var part: Int?
    /// The vertex index within the part (as given, repeated vertices included).
    public var vertex: Int?
    /// Where the problem is, when a location is known.
    public var location: Point?
    /// A readable explanation.
    public var message: String

    /// Creates an issue.
    public init(rule: Rule, part: Int?, vertex: Int?, location: Point?, message: String) {
        self.rule = rule
        self.part = part
        self.vertex = vertex
        self.location = location
        self.message = message
    }

    public var description: String {
        var s = rule.rawValue
        if let part { s += " at part \(part)" }
        if let vertex { s += " vertex \(vertex)" }
        if let location { s += " \(location)" }
        return s + ": " + message
    }
}

/// Which validity to check.
public enum ValidationMode: Hashable, Sendable {
    /// OGC Simple Features validity, as JTS `IsValidOp` checks it (orientation ignored; a flat
    /// ``Polygon``'s rings take their role, exterior or hole, from how deeply they nest).
    case ogc
    /// OGC validity plus the Esri convention: exteriors clockwise, holes counter-clockwise.
    case esriSimple
}

/// The geometry engine: operations on ``Geometry`` values, one per file.
public enum GeometryEngine {}

extension GeometryEngine {
    /// The validity issues of `g`; empty when valid.
    ///
    /// Checks run in stages as in JTS `IsValidOp` (coordinates, point counts, intersections,
    /// hole and shell nesting, interior connectivity); the issues of the first failing stage are
    /// returned, because later stages assume the earlier ones hold.
    ///
    /// ```swift
    /// GeometryEngine.validate(try WKT.decode("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))"))
    /// // [selfIntersection at part 0 …]
    /// ```
    /// - Complexity: O(n log n + k) for n vertices and k segment pairs whose x-ranges overlap,
    ///   plus O(r²·n) ring-nesting tests for r rings (pruned by envelopes).
    /// - Source: JTS `IsValidOp`, `PolygonTopologyAnalyzer`, `PolygonIntersectionAnalyzer`,
    ///   `PolygonRing` (locationtech/jts 1.19+).
    public static func validate(_ g: Geometry, mode: ValidationMode = .ogc) -> [ValidationIssue] {
        var v = _Validator()
        switch g {
        case .point(let p):
            if let p { v.checkFinite([p], part: 0) }
        case .multipoint(let mp):
            v.checkFinite(mp.points, part: 0)
        case .polyline(let pl):
            for (i, path) in pl.paths.enumerated() { v.checkFinite(path, part: i) }
            if v.issues.isEmpty {
                for (i, path) in pl.paths.enumerated() where !path.isEmpty { v.checkLineSize(path, part: i) }
            }
        case .envelope(let e):
            if !g.isFinite { v.add(.nonFiniteCoordinate, part: 0, vertex: nil, at: nil, "the envelope has a NaN or infinite bound") }
            else if e.width <= 0 || e.height <= 0 { v.add(.tooFewPoints, part: 0, vertex: nil, at: nil, "the envelope has no area") }
        case .polygon(let pg):
            v.validateFlatPolygon(pg.rings, mode: mode)
        }
        return v.issues
    }

    /// Whether `g` is valid in `mode` (``validate(_:mode:)`` is empty).
    public static func isValid(_ g: Geometry, mode: ValidationMode = .ogc) -> Bool {
        validate(g, mode: mode).isEmpty
    }

    /// The OGC validity issues of a WKT tree, with JTS's polygon structure (each POLYGON's own
    /// exterior and holes, linear rings, collections). Part numbers count rings within each
    /// (multi)polygon, or members within a collection's component.
    /// - Complexity: as ``validate(_:mode:)``.
    public static func validate(_ t: WKTGeometry) -> [ValidationIssue] {
        var v = _Validator()
        v.validateTree(t)
        return v.issues
    }

    /// Whether a WKT tree is OGC-valid (JTS `isValid`).
    public static func isValid(_ t: WKTGeometry) -> Bool { validate(t).isEmpty }
}

/// A ring prepared for topology analysis: closed, repeated vertices removed.
struct _VRing {
    var pts: [Point]
    /// The original vertex index of each point in `pts`.
    var orig: [Int]
    var part: Int
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
        self.polygon = polygon
        self.isShell = isShell
    }
}

struct _Validator {
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
            var a = _TopologyAnalyzer(rings: [_VRing(ps, part: 0, polygon: -1, isShell: true)])
            if let i = a.findInvalidIntersection() {
                issues.append(ValidationIssue(rule: .ringSelfIntersection, part: i.part, vertex: i.vertex,
                                              location: i.location, message: "the ring touches or crosses itself"))
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
        var rings: [_VRing] = []
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
                rings.append(_VRing(ring, part: part, polygon: hasHoles ? pi : -1, isShell: ri == 0))
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
        var analyzer = _TopologyAnalyzer(rings: rings)
        if let i = analyzer.findInvalidIntersection() {
            issues.append(i)
            return
        }
        // Holes inside their shells.
        for s in structure {
            for h in s.holes where !_Nesting.isRingNested(rings[h].pts, in: rings[s.shell].pts) {
                add(.holeOutsideShell, part: rings[h].part, vertex: 0, at: rings[h].pts[0], "the hole is not inside its polygon's exterior")
                return
            }
        }
        let envs = rings.map { Envelope(points: $0.pts) }
        func covers(_ o: Int, _ i: Int) -> Bool {
            guard let eo = envs[o], let ei = envs[i] else { return false }
            return _Nesting.covers(eo, ei)
        }
        // Holes not nested.
        for s in structure {
            for h in s.holes {
                for o in s.holes where o != h && covers(o, h)
                    && _Nesting.isRingNested(rings[h].pts, in: rings[o].pts)
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
                    let s1 = _Nesting.nonEqualVertex(shell, s0)
                    guard _Nesting.isSegmentInRing(s0, s1, other) else { continue }
                    let inHole = t.holes.contains { h in
                        covers(h, s.shell) && _Nesting.isSegmentInRing(s0, s1, rings[h].pts)
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
        let rings = nonEmpty.map { _VRing(input[$0], part: $0, polygon: -1, isShell: true) }
        var analyzer = _TopologyAnalyzer(rings: rings, recordAllTouches: true)
        if let i = analyzer.findInvalidIntersection() {
            issues.append(i)
            return
        }
        // Rings no longer cross: roles follow nesting depth (even → exterior, odd → hole).
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
                guard j != i, _Nesting.covers(ej, ei), _Nesting.isRingNested(rings[i].pts, in: rings[j].pts) else { continue }
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
                let a = Kernel.signedDoubleArea(r.pts)
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

/// Ring-in-ring tests (JTS `PolygonTopologyAnalyzer.isRingNested` and friends).
enum _Nesting {
    static func envelopeCovers(_ outer: [Point], _ inner: [Point]) -> Bool {
        guard let o = Envelope(points: outer), let i = Envelope(points: inner) else { return false }
        return covers(o, i)
    }

    static func covers(_ o: Envelope, _ i: Envelope) -> Bool {
        o.xmin <= i.xmin && o.xmax >= i.xmax && o.ymin <= i.ymin && o.ymax >= i.ymax
    }

    /// The first vertex of a closed ring different from `p` (or the last one).
    static func nonEqualVertex(_ ring: [Point], _ p: Point) -> Point {
        var i = 1
        var next = ring[min(i, ring.count - 1)]
        while next.equals2D(p) && i < ring.count - 1 {
            i += 1
            next = ring[i]
        }
        return next
    }

    /// Whether the closed ring `test` lies inside the closed ring `target`, given the two do not cross.
    static func isRingNested(_ test: [Point], in target: [Point]) -> Bool {
        guard let p0 = test.first else { return false }
        switch Kernel.locate(p0, inRing: target) {  // a closed ring's repeated vertex is harmless
        case .exterior: return false
        case .interior: return true
        case .boundary:
            return isIncidentSegmentInRing(p0, nonEqualVertex(test, p0), target)
        }
    }

    /// Whether segment p0–p1 (p0 on or in the ring) starts into the ring's interior.
    static func isSegmentInRing(_ p0: Point, _ p1: Point, _ ring: [Point]) -> Bool {
        switch Kernel.locate(p0, inRing: ring) {
        case .interior: return true
        case .exterior: return false
        case .boundary: return isIncidentSegmentInRing(p0, p1, ring)
        }
    }

    static func isIncidentSegmentInRing(_ p0: Point, _ p1: Point, _ ring: [Point]) -> Bool {
        let n = ring.count
        guard n >= 4, !p0.equals2D(p1) else { return false }
        var index = -1
        for i in 0..<(n - 1) where Kernel.isOnSegment(p0, ring[i], ring[i + 1]) {
            index = p0.equals2D(ring[i + 1]) ? i + 1 : i
            break
        }
        guard index >= 0 else { return false }
        func prevIndex(_ i: Int) -> Int { i == 0 ? n - 2 : i - 1 }
        func nextIndex(_ i: Int) -> Int { i >= n - 2 ? 0 : i + 1 }
        var iPrev = index
        var rPrev = ring[iPrev]
        var guardCount = 0
        while p0.equals2D(rPrev) && guardCount < n {
            iPrev = prevIndex(iPrev)
            rPrev = ring[iPrev]
            guardCount += 1
        }
        var iNext = min(index + 1, n - 1)
        var rNext = ring[iNext]
        guardCount = 0
        while p0.equals2D(rNext) && guardCount < n {
            iNext = nextIndex(iNext)
            rNext = ring[iNext]
            guardCount += 1
        }
        // Interior on the right for clockwise rings (y up); flip for counter-clockwise ones.
        if Kernel.signedDoubleArea(ring) > 0 { swap(&rPrev, &rNext) }
        return _NodeTopology.isInteriorSegment(p0, rPrev, rNext, p1)
    }
}

/// Angle comparisons around a node (JTS `PolygonNodeTopology`), with exact orientation.
enum _NodeTopology {
    static func quadrant(_ o: Point, _ p: Point) -> Int {
        let dx = p.x - o.x, dy = p.y - o.y
        if dx >= 0 { return dy >= 0 ? 0 : 3 }
        return dy >= 0 ? 1 : 2
    }

    /// Compares the angles of o→p and o→q from the positive x-axis: 1 when p's is greater.
    static func compareAngle(_ o: Point, _ p: Point, _ q: Point) -> Int {
        let qp = quadrant(o, p), qq = quadrant(o, q)
        if qp > qq { return 1 }
        if qp < qq { return -1 }
        return Kernel.orient2d(o, q, p)
    }

    static func isAngleGreater(_ o: Point, _ p: Point, _ q: Point) -> Bool { compareAngle(o, p, q) > 0 }

    static func compareBetween(_ o: Point, _ p: Point, _ e0: Point, _ e1: Point) -> Int {
        let c0 = compareAngle(o, p, e0)
        if c0 == 0 { return 0 }
        let c1 = compareAngle(o, p, e1)
        if c1 == 0 { return 0 }
        return c0 > 0 && c1 < 0 ? 1 : -1
    }

    /// Whether the edges node→b0 and node→b1 lie on different sides of the corner a0–node–a1.
    static func isCrossing(_ node: Point, _ a0: Point, _ a1: Point, _ b0: Point, _ b1: Point) -> Bool {
        var lo = a0, hi = a1
        if isAngleGreater(node, lo, hi) { swap(&lo, &hi) }
        let c0 = compareBetween(node, b0, lo, hi)
        if c0 == 0 { return false }
        let c1 = compareBetween(node, b1, lo, hi)
        if c1 == 0 { return false }
        return c0 != c1
    }

    static func isBetween(_ o: Point, _ p: Point, _ e0: Point, _ e1: Point) -> Bool {
        guard isAngleGreater(o, p, e0) else { return false }
        return !isAngleGreater(o, p, e1)
    }

    /// Whether node→b lies in the interior of the corner a0–node–a1 whose interior is on the
    /// right of a0→node→a1.
    static func isInteriorSegment(_ node: Point, _ a0: Point, _ a1: Point, _ b: Point) -> Bool {
        var lo = a0, hi = a1
        var interiorBetween = true
        if isAngleGreater(node, lo, hi) {
            swap(&lo, &hi)
            interiorBetween = false
        }
        let between = isBetween(node, b, lo, hi)
        return between == interiorBetween
    }
}

/// Finds invalid intersections among rings and records touches for the connectivity check
/// (JTS `PolygonIntersectionAnalyzer` with inverted rings invalid, and `PolygonRing`).
struct _TopologyAnalyzer {
    var rings: [_VRing]
    /// touches[r][other] = the first point where the two rings touch.
    private var touches: [[Int: Point]]
    /// Ring pairs found touching at a second, different point, in discovery order.
    private var secondTouches: [(r0: Int, r1: Int, at: Point)] = []
    /// Record touches between every pair of rings (the polygons are assigned afterwards with
    /// ``assignPolygons(_:)``), instead of only between rings already known to share a polygon.
    private let recordAllTouches: Bool

    init(rings: [_VRing], recordAllTouches: Bool = false) {
        self.rings = rings
        self.recordAllTouches = recordAllTouches
        touches = Array(repeating: [:], count: rings.count)
    }

    /// Sets each ring's polygon (-1: none) and role after the fact.
    mutating func assignPolygons(_ polygon: [Int], isShell: [Bool]) {
        for i in rings.indices {
            rings[i].polygon = polygon[i]
            rings[i].isShell = isShell[i]
        }
    }

    private func samePolygon(_ a: Int, _ b: Int) -> Bool {
        rings[a].polygon >= 0 && rings[a].polygon == rings[b].polygon
    }

    /// The first invalid intersection (in sweep order), or nil; records touches as it goes.
    mutating func findInvalidIntersection() -> ValidationIssue? {
        var sweep = _SegmentSweep()
        for (i, r) in rings.enumerated() { sweep.addChain(r.pts, chain: i) }
        var found: ValidationIssue?
        sweep.forEachPair { r0, s0, r1, s1 in
            if r0 == r1 && s0 == s1 { return true }
            if let issue = check(r0, s0, r1, s1) {
                found = issue
                return false
            }
            return true
        }
        return found
    }

    private func isAdjacent(_ r: Int, _ s0: Int, _ s1: Int) -> Bool {
        let d = abs(s1 - s0)
        return d <= 1 || d >= rings[r].pts.count - 2
    }

    private func prevInRing(_ r: Int, _ s: Int) -> Point {
        let pts = rings[r].pts
        return s == 0 ? pts[pts.count - 2] : pts[s - 1]
    }

    private mutating func check(_ r0: Int, _ s0: Int, _ r1: Int, _ s1: Int) -> ValidationIssue? {
        let a = rings[r0].pts, b = rings[r1].pts
        let p00 = a[s0], p01 = a[s0 + 1], p10 = b[s1], p11 = b[s1 + 1]
        let sameRing = r0 == r1
        let ix = Kernel.intersect(p00, p01, p10, p11)
        let pt: Point
        switch ix {
        case .none: return nil
        case .proper(let p):
            return issue(.selfIntersection, r0, s0, p, "segments cross")
        case .overlap(let from, _):
            if !sameRing && _Nesting.sameRing(a, b) {
                return issue(.duplicateRings, r0, s0, from, "rings \(rings[r0].part) and \(rings[r1].part) have the same vertices")
            }
            return issue(.selfIntersection, r0, s0, from, "segments overlap")
        case .vertex(let p): pt = p
        }
        if sameRing && isAdjacent(r0, s0, s1) { return nil }
        if sameRing {
            return issue(.ringSelfIntersection, r0, s0, pt, "the ring touches itself")
        }
        if pt.equals2D(p01) || pt.equals2D(p11) { return nil }
        var e00 = p00, e01 = p01
        if pt.equals2D(p00) {
            e00 = prevInRing(r0, s0)
            e01 = p01
        }
        var e10 = p10, e11 = p11
        if pt.equals2D(p10) {
            e10 = prevInRing(r1, s1)
            e11 = p11
        }
        if _NodeTopology.isCrossing(pt, e00, e01, e10, e11) {
            return issue(.selfIntersection, r0, s0, pt, "rings \(rings[r0].part) and \(rings[r1].part) cross at a vertex")
        }
        // Touch bookkeeping (JTS PolygonRing.addTouch) for the connectivity check.
        if recordAllTouches || samePolygon(r0, r1) {
            if let t = touches[r0][r1] {
                if !t.equals2D(pt) { secondTouches.append((r0, r1, pt)) }
            } else {
                touches[r0][r1] = pt
                touches[r1][r0] = pt
            }
        }
        return nil
    }

    private func issue(_ rule: ValidationIssue.Rule, _ r: Int, _ s: Int, _ p: Point, _ msg: String) -> ValidationIssue {
        ValidationIssue(rule: rule, part: rings[r].part, vertex: rings[r].orig[s], location: p, message: msg)
    }

    /// Where the interior of a polygon is disconnected: a double touch between two rings of one
    /// polygon, or a cycle of touching rings (JTS `PolygonRing.findHoleCycleLocation`).
    func disconnection() -> (part: Int, location: Point)? {
        for t in secondTouches where samePolygon(t.r0, t.r1) { return (rings[t.r0].part, t.at) }
        var root = [Int](repeating: -1, count: rings.count)
        for start in rings.indices where rings[start].polygon >= 0 && root[start] < 0 {
            root[start] = start
            let first = touches[start].filter { samePolygon(start, $0.key) }
            if first.isEmpty { continue }
            var stack: [(ring: Int, at: Point)] = []
            for (other, p) in first.sorted(by: { $0.key < $1.key }) {
                root[other] = start
                stack.append((other, p))
            }
            while let cur = stack.popLast() {
                for (other, p) in touches[cur.ring].sorted(by: { $0.key < $1.key }) where samePolygon(cur.ring, other) {
                    if cur.at.equals2D(p) { continue }
                    if root[other] == start { return (rings[other].part, p) }
                    root[other] = start
                    stack.append((other, p))
                }
            }
        }
        return nil
    }
}

extension _Nesting {
    /// Whether two closed rings have the same vertex set.
    static func sameRing(_ a: [Point], _ b: [Point]) -> Bool {
        guard a.count == b.count else { return false }
        func key(_ p: Point) -> [Double] { [p.x, p.y] }
        let sa = a.dropLast().map(key).sorted { $0.lexicographicallyPrecedes($1) }
        let sb = b.dropLast().map(key).sorted { $0.lexicographicallyPrecedes($1) }
        return sa == sb
    }
}
