/// Splits segments at their mutual intersections so that the result meets only at endpoints
/// (identical fragments may coincide).
///
/// Strategy (as JTS OverlayNG does it): floating-point noding first, iterated until an exact
/// check finds no intersection left that is not a shared endpoint; if that does not converge,
/// snap rounding (Hobby 1999; Guibas & Marimont 1998) on a power-of-two grid, whose hot pixels
/// are the rounded vertices and intersection points, each segment bending through every hot
/// pixel it passes (decided with exact predicates on exactly representable pixel corners). The
/// snapped result is checked exactly too; the grid is coarsened until the check passes, which
/// must happen once every vertex collapses onto one pixel, so the result is always fully noded.
struct Noder {
    struct Seg: Hashable {
        var a: Point
        var b: Point
    }

    /// Fully noded fragments of `segs` (zero-length input segments are dropped).
    static func node(_ segs: [Seg]) -> [Seg] {
        var cur = segs.filter { !$0.a.equals2D($0.b) }
        for _ in 0..<6 {
            let (next, changed) = nodeOnce(cur)
            cur = next
            if !changed && isFullyNoded(cur) { return cur }
        }
        if isFullyNoded(cur) { return cur }
        var maxAbs = 0.0
        for s in segs { maxAbs = max(maxAbs, abs(s.a.x), abs(s.a.y), abs(s.b.x), abs(s.b.y)) }
        guard maxAbs > 0, maxAbs.isFinite else { return [] }
        var cell = Double(sign: .plus, exponent: maxAbs.exponent - 36, significand: 1)
        for _ in 0..<80 {
            let snapped = snapRound(segs, cell: cell)
            // Pixel centres beyond the largest double overflow: nothing finite is left to try.
            if !snapped.allSatisfy({ $0.a.x.isFinite && $0.a.y.isFinite && $0.b.x.isFinite && $0.b.y.isFinite }) { return [] }
            if isFullyNoded(snapped) { return snapped }
            cell *= 2
        }
        return []
    }

    private static func isEndpoint(_ p: Point, _ s: Seg) -> Bool { p.equals2D(s.a) || p.equals2D(s.b) }

    /// Calls `body(i, j, how segs[i] and segs[j] meet)` for each pair of segments whose envelopes
    /// meet, in sweep order, until it returns false (a pair may still not intersect: `.none`).
    private static func forEachIntersection(
        _ segs: [Seg], _ body: (Int, Int, Kernel.SegmentIntersection) -> Bool
    ) {
        var sweep = SegmentSweep()
        for (i, s) in segs.enumerated() { sweep.addChain([s.a, s.b], chain: i) }
        sweep.forEachPair { i, _, j, _ in
            body(i, j, Kernel.intersect(segs[i].a, segs[i].b, segs[j].a, segs[j].b))
        }
    }

    /// One round of floating noding; `changed` when any segment was split or crossed.
    static func nodeOnce(_ segs: [Seg]) -> ([Seg], changed: Bool) {
        var splits: [Int: [Point]] = [:]
        var changed = false
        forEachIntersection(segs) { i, j, intersection in
            let si = segs[i], sj = segs[j]
            switch intersection {
            case .none: break
            case .proper(let p):
                changed = true
                splits[i, default: []].append(interpolated(p, on: si))
                splits[j, default: []].append(interpolated(p, on: sj))
            case .vertex(let p):
                if !isEndpoint(p, si) { splits[i, default: []].append(interpolated(p, on: si)) }
                if !isEndpoint(p, sj) { splits[j, default: []].append(interpolated(p, on: sj)) }
            case .overlap(let f, let t):
                for p in [f, t] {
                    if !isEndpoint(p, si) { splits[i, default: []].append(interpolated(p, on: si)) }
                    if !isEndpoint(p, sj) { splits[j, default: []].append(interpolated(p, on: sj)) }
                }
            }
            return true
        }
        if splits.isEmpty { return (segs, changed) }
        var out: [Seg] = []
        out.reserveCapacity(segs.count + splits.count * 2)
        for (i, s) in segs.enumerated() {
            guard let ps = splits[i] else {
                out.append(s)
                continue
            }
            changed = true
            appendFragments(s, through: ps, into: &out)
        }
        return (out, changed)
    }

    /// Appends s split at `points` (ordered along s, duplicates and zero-length pieces dropped).
    static func appendFragments(_ s: Seg, through points: [Point], into out: inout [Seg]) {
        let dx = s.b.x - s.a.x, dy = s.b.y - s.a.y
        let sorted = points.sorted {
            let ta = ($0.x - s.a.x) * dx + ($0.y - s.a.y) * dy
            let tb = ($1.x - s.a.x) * dx + ($1.y - s.a.y) * dy
            return ta != tb ? ta < tb : ($0.x, $0.y) < ($1.x, $1.y)
        }
        var prev = s.a
        for p in sorted + [s.b] where !p.equals2D(prev) {
            out.append(Seg(a: prev, b: p))
            prev = p
        }
    }

    /// `p` (x, y) with z and m interpolated along `s` when both ends carry them.
    static func interpolated(_ p: Point, on s: Seg) -> Point {
        if p.equals2D(s.a) { return s.a }
        if p.equals2D(s.b) { return s.b }
        guard s.a.z != nil || s.a.m != nil else { return p.xy }
        let len2 = (s.b.x - s.a.x) * (s.b.x - s.a.x) + (s.b.y - s.a.y) * (s.b.y - s.a.y)
        let t = len2 > 0 ? min(1, max(0, ((p.x - s.a.x) * (s.b.x - s.a.x) + (p.y - s.a.y) * (s.b.y - s.a.y)) / len2)) : 0
        var q = p.xy
        q.interpolateZM(from: s.a, to: s.b, at: t)
        return q
    }

    /// Whether every pair of segments meets only at a shared endpoint or coincides exactly.
    static func isFullyNoded(_ segs: [Seg]) -> Bool {
        var ok = true
        forEachIntersection(segs) { i, j, intersection in
            let si = segs[i], sj = segs[j]
            switch intersection {
            case .none: return true
            case .proper: ok = false
            case .vertex(let p): ok = isEndpoint(p, si) && isEndpoint(p, sj)
            case .overlap(let f, let t):
                ok = isEndpoint(f, si) && isEndpoint(t, si) && isEndpoint(f, sj) && isEndpoint(t, sj)
            }
            return ok
        }
        return ok
    }

    /// Snap rounding of `segs` on a grid of spacing `cell` (a power of two).
    static func snapRound(_ segs: [Seg], cell: Double) -> [Seg] {
        func round(_ p: Point) -> Point {
            var q = p
            q.x = (p.x / cell).rounded() * cell
            q.y = (p.y / cell).rounded() * cell
            return q
        }
        let rounded = segs.map { Seg(a: round($0.a), b: round($0.b)) }.filter { !$0.a.equals2D($0.b) }
        struct Key: Hashable { var x: Double; var y: Double }
        var hot: [Key: Point] = [:]
        for s in rounded {
            if hot[Key(x: s.a.x, y: s.a.y)] == nil { hot[Key(x: s.a.x, y: s.a.y)] = s.a }
            if hot[Key(x: s.b.x, y: s.b.y)] == nil { hot[Key(x: s.b.x, y: s.b.y)] = s.b }
        }
        forEachIntersection(rounded) { i, j, intersection in
            let si = rounded[i], sj = rounded[j]
            if case .proper(let p) = intersection {
                let c = round(p)
                for dx in -1...1 {
                    for dy in -1...1 {
                        let q = Point(c.x + Double(dx) * cell, c.y + Double(dy) * cell)
                        if (dx == 0 && dy == 0) || (crosses(si, pixel: q, cell: cell) && crosses(sj, pixel: q, cell: cell)) {
                            let key = Key(x: q.x, y: q.y)
                            if hot[key] == nil { hot[key] = interpolated(q, on: si) }
                        }
                    }
                }
            }
            return true
        }
        let pixels = hot.values.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        let half = cell / 2
        var out: [Seg] = []
        for s in rounded {
            let lo = min(s.a.x, s.b.x) - half, hi = max(s.a.x, s.b.x) + half
            let ylo = min(s.a.y, s.b.y) - half, yhi = max(s.a.y, s.b.y) + half
            var k = lowerBound(pixels, lo)
            var through: [Point] = []
            while k < pixels.count, pixels[k].x <= hi {
                let q = pixels[k]
                if q.y >= ylo, q.y <= yhi, !q.equals2D(s.a), !q.equals2D(s.b), crosses(s, pixel: q, cell: cell) {
                    through.append(q)
                }
                k += 1
            }
            appendFragments(s, through: through, into: &out)
        }
        return out
    }

    private static func lowerBound(_ ps: [Point], _ x: Double) -> Int {
        var lo = 0, hi = ps.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ps[mid].x < x { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Whether segment s meets the closed pixel square centred at c (exact).
    static func crosses(_ s: Seg, pixel c: Point, cell: Double) -> Bool {
        let h = cell / 2
        let x0 = c.x - h, x1 = c.x + h, y0 = c.y - h, y1 = c.y + h
        if max(s.a.x, s.b.x) < x0 || min(s.a.x, s.b.x) > x1 || max(s.a.y, s.b.y) < y0 || min(s.a.y, s.b.y) > y1 {
            return false
        }
        let o1 = Kernel.orient2d(s.a.x, s.a.y, s.b.x, s.b.y, x0, y0)
        let o2 = Kernel.orient2d(s.a.x, s.a.y, s.b.x, s.b.y, x1, y0)
        let o3 = Kernel.orient2d(s.a.x, s.a.y, s.b.x, s.b.y, x1, y1)
        let o4 = Kernel.orient2d(s.a.x, s.a.y, s.b.x, s.b.y, x0, y1)
        return !((o1 > 0 && o2 > 0 && o3 > 0 && o4 > 0) || (o1 < 0 && o2 < 0 && o3 < 0 && o4 < 0))
    }
}
