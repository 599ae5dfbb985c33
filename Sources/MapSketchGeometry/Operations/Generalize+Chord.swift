/// One split of ``GeometryEngine/generalize(_:maxDeviation:)``: the chord between two kept
/// vertices, and the vertex farthest from it found so far beyond the tolerance.
///
/// Distances are compared squared. ``distance2(_:_:)`` is the only distance that decides what is
/// kept: `GeometryEngine.closest(_:_:_:_:_:_:)`'s expression, term for term. To pass over
/// vertices cheaply, ``proxy(_:_:)`` computes the same distance another way, four points at a
/// time, without a division or a branch: with r = p − a and v = b − a,
///
///     P = ((r × v)² + e²) / |v|²,   e = max(0, −r·v, r·v − |v|²),
///
/// the squared distance to the line plus the squared distance beyond the nearer end along it:
/// the squared distance to the segment (Pythagoras), in exact arithmetic.
///
/// Under rounding the two differ by a bounded amount. Let M be the largest magnitude of any
/// coordinate of the path. While every coordinate is finite, 2⁻²⁰⁰ ≤ M ≤ 2²⁵⁰ and the chord is at
/// least M·2⁻²⁶ long (the chord ``isPrunable``), √d and √P are each a handful of roundings of
/// quantities no larger than 4M, within 2⁷·2⁻⁵³·M of the true distance (random trials stay
/// under 8·2⁻⁵³·M); no underflow or overflow reaches that scale. So for every vertex
///
///     |d − P| ≤ P·2⁻²⁰ + S,   S = M²·2⁻⁶⁰
///
/// (S is more than 2¹⁰ times what the rounding needs). The distance to a segment is convex, so
/// over a box it is largest at a corner: d ≤ P·(1 + 2⁻²⁰) + S holds for every vertex in a box
/// with P the largest of its four corners' (``bound(_:)``). Hence a vertex or box whose P is
/// below ``threshold``, (best − S)·(1 − 2⁻¹⁹), is strictly nearer than `best`, and a vertex whose
/// P is below ``rivalFloor(_:_:)`` of another's is strictly nearer than that one: neither can be
/// chosen, not even on a tie. The margins only ever make a search measure more vertices; they
/// never change the one it keeps.
struct GeneralizeChord {
    let ax: Double, ay: Double, bx: Double, by: Double
    let dx: Double, dy: Double, length2: Double
    /// Whether ``proxy(_:_:)`` and ``bound(_:)`` may prune this chord's vertices (see the type).
    let isPrunable: Bool
    /// 1 / |v|², for the proxy only.
    private let inverseLength2: Double
    private let slack: Double
    /// The squared distance of ``farthest`` (the tolerance squared while there is none).
    private(set) var best: Double
    /// The vertex chosen so far, or −1.
    private(set) var farthest = -1
    /// Proxies below this cannot beat or tie ``best``.
    private(set) var threshold: Double

    /// The chord from vertex `i` to vertex `j` of `coordinates`, looking for vertices farther
    /// than `limit` (squared).
    init(_ coordinates: GeneralizeCoordinates, _ i: Int, _ j: Int, limit: Double) {
        ax = coordinates.x[i]
        ay = coordinates.y[i]
        bx = coordinates.x[j]
        by = coordinates.y[j]
        dx = bx - ax
        dy = by - ay
        length2 = dx * dx + dy * dy
        isPrunable = coordinates.isPrunable && length2 >= coordinates.shortestPrunableChord2
        inverseLength2 = 1 / length2
        slack = coordinates.slack
        best = limit
        threshold = (limit - slack) * (1 - 0x1p-19)
    }

    /// The squared distance from (px, py) to the segment: `closest`'s, term for term.
    @inline(__always)
    func distance2(_ px: Double, _ py: Double) -> Double {
        var t = length2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / length2 : 0
        t = min(1, max(0, t))
        let cx = t == 0 ? ax : (t == 1 ? bx : ax + t * dx)
        let cy = t == 0 ? ay : (t == 1 ? by : ay + t * dy)
        let ex = px - cx, ey = py - cy
        return ex * ex + ey * ey
    }

    /// The proxy P of four points (see the type).
    @inline(__always)
    func proxy(_ px: SIMD4<Double>, _ py: SIMD4<Double>) -> SIMD4<Double> {
        let rx = px - ax, ry = py - ay
        let along = rx * dx + ry * dy
        let across = rx * dy - ry * dx
        let behind = -along, beyond = along - length2
        var outside = behind.replacing(with: beyond, where: beyond .> behind)
        outside.replace(with: 0, where: outside .< 0)
        return (across * across + outside * outside) * inverseLength2
    }

    /// The proxy of the loaded chunk `k..<k + 4` of `coordinates`.
    @inline(__always)
    func proxy(_ coordinates: GeneralizeCoordinates, _ k: Int) -> SIMD4<Double> {
        proxy(coordinates.xChunk(k), coordinates.yChunk(k))
    }

    /// The largest proxy of a box's corners (minX, minY, maxX, maxY): no vertex in the box is
    /// farther than that allows.
    @inline(__always)
    func bound(_ box: SIMD4<Double>) -> Double {
        let p = proxy(SIMD4(box[0], box[2], box[0], box[2]), SIMD4(box[1], box[1], box[3], box[3]))
        return max(max(p[0], p[1]), max(p[2], p[3]))
    }

    /// Below this, a proxy belongs to a vertex strictly nearer than the one whose proxy is
    /// `largest`: d ≤ P·(1 + 2⁻²⁰) + S for the one, d ≥ P·(1 − 2⁻²⁰) − S for the other.
    @inline(__always)
    static func rivalFloor(_ largest: Double, _ slack: Double) -> Double {
        (largest * (1 - 0x1p-18) - 2 * slack) * (1 - 0x1p-18)
    }

    /// Vertex `k` at squared distance `d`: taken when `d` beats ``best``, or ties it and
    /// `orTie` (the caller knows `k` comes before ``farthest``).
    @inline(__always)
    private mutating func consider(_ k: Int, _ d: Double, orTie: Bool) {
        guard d > best || (orTie && d == best) else { return }
        best = d
        farthest = k
        threshold = (d - slack) * (1 - 0x1p-19)
    }

    /// Every vertex of `first...last` by ``distance2(_:_:)`` in index order, the first of the
    /// farthest winning: the plain scan, for a chord that is not prunable.
    mutating func scanExactly(_ coordinates: GeneralizeCoordinates, _ first: Int, _ last: Int) {
        var best = self.best, farthest = self.farthest
        for k in first...last {
            let d = distance2(coordinates.x[k], coordinates.y[k])
            if d > best {
                best = d
                farthest = k
            }
        }
        if farthest != self.farthest { consider(farthest, best, orTie: false) }
    }

    /// Looks for a farther vertex among `first...last` (none of them visited before, ``farthest``
    /// outside the range). One pass without a branch gathers the range's largest proxy, its
    /// vertex and the largest of the others' (``ProxyLeaders``). When that runner-up is below the
    /// ``rivalFloor(_:_:)`` of the largest, the vertex with the largest proxy is the farthest of
    /// the range and the only one measured; otherwise (a near tie) ``scan(_:_:_:)`` measures
    /// every contender.
    @inline(__always)
    mutating func search(_ coordinates: GeneralizeCoordinates, _ first: Int, _ last: Int) {
        var leaders = ProxyLeaders()
        // The first and the last chunk may hold lanes outside the range; the ones between do not.
        var k = first & ~3
        leaders.add(proxy(coordinates, k), k, within: first...last)
        k += 4
        while k + 3 <= last {
            leaders.add(proxy(coordinates, k), k)
            k += 4
        }
        if k <= last { leaders.add(proxy(coordinates, k), k, within: first...last) }
        let (largest, vertex, runnerUp) = leaders.result()
        guard largest >= threshold else { return }
        if runnerUp < Self.rivalFloor(largest, slack) {
            consider(vertex, distance2(coordinates.x[vertex], coordinates.y[vertex]), orTie: vertex < farthest)
        } else {
            scan(coordinates, first, last)
        }
    }

    /// Looks for a farther vertex among `first...last` (none of them visited before, ``farthest``
    /// outside the range), measuring every vertex whose proxy reaches ``threshold``, four at a
    /// time. Forward, keeping strictly farther vertices, when the range comes after ``farthest``
    /// (or there is none); backward, keeping equally far ones too, when it comes before: so the
    /// first of the farthest vertices wins whatever order ranges are visited in.
    mutating func scan(_ coordinates: GeneralizeCoordinates, _ first: Int, _ last: Int) {
        let x = coordinates.x, y = coordinates.y
        if farthest < first {
            var k = first & ~3
            while k <= last {
                let p = proxy(coordinates, k)
                if any(p .>= threshold) {
                    for lane in 0..<4 where k + lane >= first && k + lane <= last && p[lane] >= threshold {
                        consider(k + lane, distance2(x[k + lane], y[k + lane]), orTie: false)
                    }
                }
                k += 4
            }
        } else {
            assert(farthest > last, "a searched range holds the vertex chosen so far")
            var k = last & ~3
            while k + 3 >= first {
                let p = proxy(coordinates, k)
                if any(p .>= threshold) {
                    for lane in (0..<4).reversed() where k + lane >= first && k + lane <= last && p[lane] >= threshold {
                        consider(k + lane, distance2(x[k + lane], y[k + lane]), orTie: true)
                    }
                }
                k -= 4
            }
        }
    }
}

/// The largest proxy of a run of vertices, the vertex with it, and the largest proxy of all the
/// others, gathered four lanes at a time without a branch.
struct ProxyLeaders {
    private static let none = SIMD4<Double>(repeating: -1)
    /// Lane by lane: the largest proxy, its vertex (the first, as a double), the runner-up.
    private var top = none, at = none, second = none

    /// Adds the proxies `p` of vertices `k..<k + 4`.
    @inline(__always)
    mutating func add(_ p: SIMD4<Double>, _ k: Int) {
        let lane = SIMD4<Double>(0, 1, 2, 3) + Double(k)
        let lower = top.replacing(with: p, where: p .< top)
        second.replace(with: lower, where: lower .> second)
        let higher = p .> top
        top.replace(with: p, where: higher)
        at.replace(with: lane, where: higher)
    }

    /// Adds the proxies `p` of those of vertices `k..<k + 4` that lie in `range` (proxies are
    /// never negative, so −1 stands for none).
    @inline(__always)
    mutating func add(_ p: SIMD4<Double>, _ k: Int, within range: ClosedRange<Int>) {
        let lane = SIMD4<Double>(0, 1, 2, 3) + Double(k)
        let outside = (lane .< Double(range.lowerBound)) .| (lane .> Double(range.upperBound))
        add(p.replacing(with: Self.none, where: outside), k)
    }

    /// The largest proxy, its vertex, and the largest of the others' (equal to the largest on a
    /// tie). At least one proxy must have been added.
    @inline(__always)
    func result() -> (largest: Double, vertex: Int, runnerUp: Double) {
        var largest = top[0], vertex = at[0]
        var runnerUp = max(max(second[0], second[1]), max(second[2], second[3]))
        for lane in 1..<4 {
            if top[lane] > largest {
                runnerUp = max(runnerUp, largest)
                largest = top[lane]
                vertex = at[lane]
            } else {
                runnerUp = max(runnerUp, top[lane])
            }
        }
        return (largest, Int(vertex), runnerUp)
    }
}
