/// Ring-in-ring tests (JTS `PolygonTopologyAnalyzer.isRingNested` and friends).
enum PolygonNesting {
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
        if Kernel.areaSign(ring) > 0 { swap(&rPrev, &rNext) }
        return NodeTopology.isInteriorSegment(p0, rPrev, rNext, p1)
    }

    /// Whether two closed rings have the same vertex set.
    static func sameRing(_ a: [Point], _ b: [Point]) -> Bool {
        guard a.count == b.count else { return false }
        func key(_ p: Point) -> [Double] { [p.x, p.y] }
        let sa = a.dropLast().map(key).sorted { $0.lexicographicallyPrecedes($1) }
        let sb = b.dropLast().map(key).sorted { $0.lexicographicallyPrecedes($1) }
        return sa == sb
    }
}
