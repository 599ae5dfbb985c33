/// Angle comparisons around a node (JTS `PolygonNodeTopology`), with exact orientation.
enum NodeTopology {
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
