// Noding to a tolerance: Esri's "cracking and clustering" — vertices closer than the tolerance
// become one, a vertex closer than the tolerance to a segment becomes a vertex of it, and a
// crossing closer than the tolerance to a vertex goes through that vertex. Polygon repair nodes
// at the resolution of the coordinates (`resolution(of:)`), so nothing moves by more than the
// arithmetic's own error and the odd-even region keeps its area.

extension Noder {
    /// The boundary of the odd-even fill of `segs`, fully noded, as fragments whose vertices
    /// are at least `tolerance` apart and at least `tolerance` from every fragment that does not
    /// end at them — a tolerance of at least ``resolution(of:)``, which is what polygon repair
    /// asks for (tolerance 0); ``node(_:)`` when even that is 0. Fragments are kept modulo 2: of equal
    /// fragments (the same two ends, either way round) an even number cancels and an odd number
    /// leaves one, which the odd-even rule cannot tell apart — and which keeps a fragment split
    /// back and forth at two nearby vertices from multiplying.
    ///
    /// Strategy (after JTS's `SnappingNoder`, with snap rounding as its fallback as in OverlayNG):
    /// the input's vertices are clustered (``VertexSnapper``: the first vertex of a cluster
    /// stands for it); then, round after round, every pair of fragments closer than the
    /// tolerance is examined: a crossing is computed and snapped to the nearest vertex closer
    /// than the tolerance (or kept as a new vertex), a vertex closer than the tolerance to the
    /// other fragment splits it there, and both fragments are split at what they share. A round
    /// that splits nothing leaves the fragments as promised. When rounds keep splitting, snap
    /// rounding on a grid of at least twice the tolerance takes over (``snapRounded(_:tolerance:)``).
    ///
    /// - Complexity: O(r · (n log n + k)) for r rounds (usually one or two), n fragments and k
    ///   pairs of fragments whose x-ranges, grown by the tolerance, overlap.
    static func node(_ segs: [Seg], tolerance requested: Double) -> [Seg] {
        // A tolerance finer than 2^-48 of the largest coordinate cannot be honoured by computed
        // crossings (they are off by ulps of that coordinate) and kept rounds splitting without
        // end on a ring spanning 1e308 and 0.001: it is raised to that resolution
        // (``resolution(of:)``).
        let tolerance = max(requested.isFinite ? requested : 0, resolution(of: segs))
        guard tolerance > 0 else { return node(segs) }
        var snapper = VertexSnapper(tolerance: tolerance)
        var cur: [Seg] = []
        cur.reserveCapacity(segs.count)
        for s in segs {
            let a = snapper.snap(s.a), b = snapper.snap(s.b)
            if !a.equals2D(b) { cur.append(Seg(a: a, b: b)) }
        }
        cur = oddMultiplicity(cur)
        for _ in 0..<12 {
            let splits = toleranceSplits(cur, tolerance: tolerance, snapper: &snapper)
            if splits.isEmpty { return cur }
            cur = oddMultiplicity(applying(splits, to: cur))
        }
        return snapRounded(cur, tolerance: tolerance)
    }

    /// The fallback of ``node(_:tolerance:)``: snap rounding on the finest power-of-two grid at
    /// least twice the tolerance — pixel centres are a whole cell apart, and a fragment passing
    /// a pixel goes through its centre, so each vertex moves by at most half a cell's diagonal —
    /// checked as the rounds are, and coarsened until the check passes, which it must once
    /// everything falls into one pixel. Empty when no finite grid does.
    /// - Complexity: O(g · (n log n + k)) for g grids tried (usually one).
    static func snapRounded(_ cur: [Seg], tolerance: Double) -> [Seg] {
        var maxAbs = 0.0
        for s in cur { maxAbs = max(maxAbs, abs(s.a.x), abs(s.a.y), abs(s.b.x), abs(s.b.y)) }
        guard maxAbs.isFinite, tolerance > 0 else { return [] }
        var cell = Double(sign: .plus, exponent: (2 * tolerance).exponent, significand: 1)
        if cell < 2 * tolerance { cell *= 2 }
        // Coarsened until one pixel holds everything: `cell / 4 > maxAbs` rather than
        // `cell > 4 * maxAbs`, which overflows to infinity near the largest doubles and never
        // stopped; a grid whose pixel centres overflow gives up the same way.
        while cell.isFinite && cell / 4 <= maxAbs {
            let snapped = oddMultiplicity(snapRound(cur, cell: cell))
            if !snapped.allSatisfy({ $0.a.x.isFinite && $0.a.y.isFinite && $0.b.x.isFinite && $0.b.y.isFinite }) { return [] }
            var check = VertexSnapper(tolerance: tolerance)
            for s in snapped {
                check.keep(s.a)
                check.keep(s.b)
            }
            if isFullyNoded(snapped) && toleranceSplits(snapped, tolerance: tolerance, snapper: &check, checkOnly: true).isEmpty {
                return snapped
            }
            cell *= 2
        }
        return []
    }

    /// The finest distance noding can honour among `segs`: 2^-48 of their largest coordinate
    /// magnitude, 16 units in the last place of it. Computed crossings are off by about one
    /// unit in the last place, so two crossings, or a crossing and a vertex, closer than this
    /// are the same point to the arithmetic; merging them moves the boundary by no more than
    /// this, so a polygon's area changes by at most this times its perimeter.
    /// - Complexity: O(n).
    static func resolution(of segs: [Seg]) -> Double {
        var maxInput = 0.0
        for s in segs { maxInput = max(maxInput, abs(s.a.x), abs(s.a.y), abs(s.b.x), abs(s.b.y)) }
        return maxInput * 0x1p-48
    }

    /// The points each fragment must be split at (by index), as one round of
    /// ``node(_:tolerance:)`` finds them; empty when the fragments are fully noded and no vertex
    /// is closer than the tolerance to a fragment not ending at it. With `checkOnly`, stops at
    /// the first split found and keeps no new vertex.
    static func toleranceSplits(
        _ segs: [Seg], tolerance: Double, snapper: inout VertexSnapper, checkOnly: Bool = false
    ) -> [Int: [Point]] {
        var splits: [Int: [Point]] = [:]
        let t2 = tolerance * tolerance
        func split(_ i: Int, at p: Point) {
            let s = segs[i]
            if !p.equals2D(s.a) && !p.equals2D(s.b) { splits[i, default: []].append(p) }
        }
        /// Splits `segs[j]` at `v` (an end of another fragment) when `v` is closer than the
        /// tolerance to it.
        func crack(_ j: Int, at v: Point) {
            let s = segs[j]
            if !v.equals2D(s.a) && !v.equals2D(s.b) && GeometryEngine.closest(v, s.a, s.b).1 < t2 {
                splits[j, default: []].append(v)
            }
        }
        var sweep = SegmentSweep()
        for (i, s) in segs.enumerated() { sweep.addChain([s.a, s.b], chain: i, margin: tolerance) }
        sweep.forEachPair { i, _, j, _ in
            let si = segs[i], sj = segs[j]
            switch Kernel.intersect(si.a, si.b, sj.a, sj.b) {
            case .none: break
            case .proper(let p):
                if checkOnly {
                    splits[i] = [p]
                    return false
                }
                // The crossing goes through the nearest vertex closer than the tolerance, or
                // becomes a vertex itself (with z and m interpolated along the first fragment).
                let q: Point
                if let n = snapper.nearest(to: p) {
                    q = snapper.vertices[n]
                } else {
                    q = interpolated(p, on: si)
                    snapper.keep(q)
                }
                split(i, at: q)
                split(j, at: q)
            case .vertex(let p):
                split(i, at: p)
                split(j, at: p)
            case .overlap(let f, let t):
                for p in [f, t] {
                    split(i, at: p)
                    split(j, at: p)
                }
            }
            crack(j, at: si.a)
            crack(j, at: si.b)
            crack(i, at: sj.a)
            crack(i, at: sj.b)
            return !(checkOnly && !splits.isEmpty)
        }
        return splits
    }

    /// One fragment for each set of equal fragments (the same two ends, either way round) of odd
    /// size, in the order of their first occurrence; the others cancel.
    /// - Complexity: O(n) expected for n fragments.
    static func oddMultiplicity(_ segs: [Seg]) -> [Seg] {
        struct Key: Hashable {
            var a: XYKey
            var b: XYKey
        }
        func key(_ s: Seg) -> Key {
            let a = XYKey(s.a), b = XYKey(s.b)
            return (a.x, a.y) <= (b.x, b.y) ? Key(a: a, b: b) : Key(a: b, b: a)
        }
        var odd: [Key: Bool] = [:]
        for s in segs { odd[key(s), default: false].toggle() }
        var out: [Seg] = []
        for s in segs where odd[key(s)] == true {
            out.append(s)
            odd[key(s)] = false
        }
        return out
    }

    /// The fragments with each one in `splits` cut through its points (ordered along it).
    static func applying(_ splits: [Int: [Point]], to segs: [Seg]) -> [Seg] {
        var out: [Seg] = []
        out.reserveCapacity(segs.count + splits.count * 2)
        for (i, s) in segs.enumerated() {
            if let ps = splits[i] { appendFragments(s, through: ps, into: &out) } else { out.append(s) }
        }
        return out
    }
}
