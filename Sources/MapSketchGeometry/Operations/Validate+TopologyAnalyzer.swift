/// Finds invalid intersections among rings and records touches for the connectivity check
/// (JTS `PolygonIntersectionAnalyzer` with inverted rings invalid, and `PolygonRing`).
struct TopologyAnalyzer {
    var rings: [ValidationRing]
    /// touches[r][other] = the first point where the two rings touch.
    private var touches: [[Int: Point]]
    /// Ring pairs found touching at a second, different point, in discovery order.
    private var secondTouches: [(r0: Int, r1: Int, at: Point)] = []
    /// Record touches between every pair of rings (the polygons are assigned afterwards with
    /// ``assignPolygons(_:)``), instead of only between rings already known to share a polygon.
    private let recordAllTouches: Bool

    init(rings: [ValidationRing], recordAllTouches: Bool = false) {
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
        var sweep = SegmentSweep()
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
            return meeting(.selfIntersection, .cross, r0, s0, r1, s1, p)
        case .overlap(let from, let to):
            if !sameRing && PolygonNesting.sameRing(a, b) {
                return issue(.duplicateRings, r0, s0, from, "rings \(rings[r0].part) and \(rings[r1].part) have the same vertices")
            }
            return meeting(.selfIntersection, .overlap, r0, s0, r1, s1, from, to: to)
        case .vertex(let p): pt = p
        }
        if sameRing && isAdjacent(r0, s0, s1) { return nil }
        if sameRing {
            return meeting(.ringSelfIntersection, .touch, r0, s0, r1, s1, pt)
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
        if NodeTopology.isCrossing(pt, e00, e01, e10, e11) {
            return meeting(.selfIntersection, .cross, r0, s0, r1, s1, pt)
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
        ValidationIssue(rule: rule, part: rings[r].part, vertex: rings[r].segment(s), location: p, message: msg)
    }

    /// The issue of segment `s0` of ring `r0` meeting segment `s1` of ring `r1` at `p` (through
    /// `to` for an overlap), the segments numbered as the rings were given, the one of the lower
    /// part (then segment) first.
    private func meeting(
        _ rule: ValidationIssue.Rule, _ kind: SegmentMeeting.Kind, _ r0: Int, _ s0: Int, _ r1: Int, _ s1: Int, _ p: Point,
        to: Point? = nil
    ) -> ValidationIssue {
        var a = (part: rings[r0].part, segment: rings[r0].segment(s0))
        var b = (part: rings[r1].part, segment: rings[r1].segment(s1))
        if (b.part, b.segment) < (a.part, a.segment) { swap(&a, &b) }
        return ValidationIssue(
            rule: rule, meeting: SegmentMeeting(kind, part: a.part, segment: a.segment, otherPart: b.part, otherSegment: b.segment, at: p, to: to))
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
