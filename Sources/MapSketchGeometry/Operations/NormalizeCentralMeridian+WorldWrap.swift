/// World-width arithmetic for one spatial reference: world indices, shifts, cuts at the
/// antimeridian and the clipping of rings into worlds.
struct WorldWrap {
    let half: Double
    let spatialReference: SpatialReference
    var width: Double { 2 * half }

    /// The largest |x| of a path or ring vertex: whole worlds are counted exactly below it.
    static let maxMagnitude = 0x1p50

    /// The world index of x: 0 for −half ≤ x < half (|x| ≤ 2^50, so it is a whole number well
    /// inside the exact range of doubles).
    func world(_ x: Double) -> Double { ((x + half) / width).rounded(.down) }

    /// The right boundary of world k.
    func boundary(_ k: Double) -> Double { -half + (k + 1) * width }

    /// The shift that brings world k to world 0.
    func shift(_ k: Double) -> Double { -k * width }

    /// The arithmetic of `normalizeCentralMeridian` in `sr`: WGS 84 (a world 360° wide) or Web
    /// Mercator.
    /// - Throws: ``ProjectionError/unsupportedSpatialReference(_:operation:)`` for any other.
    init(normalizing sr: SpatialReference) throws(ProjectionError) {
        if sr.isWGS84 {
            half = 180
        } else if sr.isWebMercator {
            half = GeometryEngine.webMercatorHalfWidth
        } else {
            throw .unsupportedSpatialReference(sr, operation: "normalizeCentralMeridian")
        }
        spatialReference = sr
    }

    /// Checks that every vertex is finite and within ±2^50 in x and, when `spanLimit`, that no
    /// segment (the closing one too when `closed`) spans more than one world width.
    /// - Throws: ``ProjectionError`` naming the part and vertex.
    func checkDomain(_ parts: [[Point]], closed: Bool, spanLimit: Bool = true) throws(ProjectionError) {
        try checkDomain(partCount: parts.count, size: { parts[$0].count }, x: { parts[$0][$1].x }, closed: closed, spanLimit: spanLimit)
    }

    /// ``checkDomain(_:closed:spanLimit:)`` of `partCount` parts of `size(i)` vertices, vertex k
    /// of part i at x `x(i, k)`, whatever holds them.
    /// - Throws: ``ProjectionError`` naming the part and vertex.
    func checkDomain(
        partCount: Int, size: (Int) -> Int, x: (Int, Int) -> Double, closed: Bool, spanLimit: Bool = true
    ) throws(ProjectionError) {
        for i in 0..<partCount {
            let n = size(i)
            for k in 0..<n where !(x(i, k).magnitude <= Self.maxMagnitude) {
                throw .vertexOutOfDomain(
                    part: i, vertex: k, operation: "normalizeCentralMeridian", found: "x \(WKT.format(x(i, k)))",
                    expected: "x within ±\(Int64(Self.maxMagnitude)) (2^50)")
            }
            guard spanLimit, n >= 2 else { continue }
            for k in 0..<(closed ? n : n - 1) {
                let span = (x(i, (k + 1) % n) - x(i, k)).magnitude
                if span > width {
                    throw .segmentWiderThanWorld(part: i, vertex: k, span: span, worldWidth: width)
                }
            }
        }
    }

    /// A point folded into −half…half (half itself is kept), from any finite x: within ±2^50 by
    /// its world's shift, beyond that by the exact remainder of x by the world width.
    func fold(_ p: Point) -> Point {
        if p.x >= -half && p.x <= half || !p.x.isFinite { return p }
        var q = p
        if p.x.magnitude <= Self.maxMagnitude {
            q.x += shift(world(p.x))
        } else {
            var r = p.x.truncatingRemainder(dividingBy: width)  // exact
            if r >= half { r -= width } else if r < -half { r += width }  // exact (Sterbenz)
            q.x = r
        }
        return q
    }

    /// Splits a path at every world boundary it crosses, shifting each piece into world 0.
    /// Each segment spans at most one world width (``checkDomain(_:closed:spanLimit:)``), so it
    /// crosses at most one boundary.
    func split(_ path: [Point], into parts: inout [[Point]]) {
        var current: [Point] = []
        split(count: path.count, vertex: { path[$0] }) { p, startsPiece in
            if startsPiece, !current.isEmpty {
                parts.append(current)
                current = []
            }
            current.append(p)
        }
        if !current.isEmpty { parts.append(current) }
    }

    /// ``split(_:into:)`` of the path of `count` vertices `vertex(i)`, whatever holds them: `add`
    /// receives the vertices of the pieces in order, `startsPiece` set on the first of each. A
    /// path of one vertex is one piece of that vertex folded into world 0; every other piece
    /// has at least two vertices.
    func split(count: Int, vertex: (Int) -> Point, add: (Point, _ startsPiece: Bool) -> Void) {
        guard count > 0 else { return }
        if count == 1 {
            add(fold(vertex(0)), true)
            return
        }
        var currentWorld: Double?
        var cuts: [Point] = []
        for i in 0..<(count - 1) {
            let a = vertex(i), b = vertex(i + 1)
            // Cut points strictly between a.x and b.x, ordered along the segment.
            cuts.removeAll(keepingCapacity: true)
            let lo = min(a.x, b.x), hi = max(a.x, b.x)
            if world(lo) != world(hi) {
                var k = world(lo)
                while boundary(k) < hi {
                    let x = boundary(k)
                    if x > lo { cuts.append(interpolate(a, b, atX: x)) }
                    k += 1
                }
                if a.x > b.x { cuts.reverse() }
            }
            var p = a
            for j in 0...cuts.count {
                let q = j < cuts.count ? cuts[j] : b
                let k = world((p.x + q.x) / 2)
                let s = shift(k)
                if k != currentWorld {
                    add(shifted(p, s), true)
                    currentWorld = k
                }
                add(shifted(q, s), false)
                p = q
            }
        }
    }

    private func shifted(_ p: Point, _ s: Double) -> Point {
        var q = p
        q.x += s
        return q
    }

    /// The point of a–b at `x`, with y, z and m interpolated; x is exactly `x` (an end itself
    /// when it lies at `x`).
    func interpolate(_ a: Point, _ b: Point, atX x: Double) -> Point {
        if b.x == x { return b }
        if a.x == x { return a }
        let t = (x - a.x) / (b.x - a.x)
        var p = Point(x: x, y: a.y + (b.y - a.y) * t)
        p.interpolateZM(from: a, to: b, at: t)
        return p
    }

    /// The polygon folded into world 0: each ring clipped to every world it enters (the closed
    /// strip between the world's boundaries), the pieces shifted into world 0 and repaired with
    /// the odd-even rule.
    ///
    /// A ring's part in a world is the in-strip part of each of its edges, in ring order: a
    /// ring that leaves the strip comes back across the same boundary line (the strip is
    /// unbounded in y), so consecutive pieces join along it, as Sutherland–Hodgman clipping
    /// joins them (the joining edges lie on the boundary and cancel under the odd-even rule).
    /// Each edge meets at most three worlds, so this is O(n) for n vertices, however many worlds
    /// the polygon spans.
    func normalize(_ pg: Polygon) -> Geometry {
        let xs = pg.rings.flatMap { $0 }.map(\.x).filter(\.isFinite)
        guard let lo = xs.min(), let hi = xs.max() else { return .polygon(pg) }
        let k0 = world(lo)
        var k1 = world(hi)
        if hi == boundary(k1 - 1) { k1 -= 1 }  // touching the right edge only
        if k0 == k1 {
            if k0 == 0 { return .polygon(pg) }
            let s = shift(k0)
            return .polygon(Polygon(rings: pg.rings.map { $0.map { shifted($0, s) } }, hasZ: pg.hasZ, hasM: pg.hasM))
        }
        var rings: [[Point]] = []
        for ring in pg.rings {
            var byWorld: [Double: [Point]] = [:]
            var order: [Double] = []
            func add(_ p: Point, _ k: Double) {
                if byWorld[k] == nil { order.append(k) }
                if let last = byWorld[k]?.last, last.equals2D(p) { return }
                byWorld[k, default: []].append(p)
            }
            for (i, a) in ring.enumerated() {
                let b = ring[(i + 1) % ring.count]
                let lo = min(a.x, b.x), hi = max(a.x, b.x)
                var k = world(lo)
                // The worlds whose closed strip [l, r] the edge meets: from the one holding its
                // left end (and the one to its left when that end is on the boundary) to the one
                // holding its right end.
                if lo == boundary(k - 1) { k -= 1 }
                while k <= world(hi) {
                    let l = boundary(k - 1), r = boundary(k)
                    if hi >= l && lo <= r {
                        // The edge's part within [l, r], in the edge's direction.
                        let entry = a.x < l ? interpolate(a, b, atX: l) : (a.x > r ? interpolate(a, b, atX: r) : a)
                        let exit = b.x < l ? interpolate(a, b, atX: l) : (b.x > r ? interpolate(a, b, atX: r) : b)
                        add(entry, k)
                        add(exit, k)
                    }
                    k += 1
                }
            }
            for k in order {
                guard let piece = byWorld[k] else { continue }
                var p = piece
                if p.count > 1, let f = p.first, let l = p.last, f.equals2D(l) { p.removeLast() }
                if p.count >= 3 { rings.append(p.map { shifted($0, shift(k)) }) }
            }
        }
        return GeometryEngine.simplify(.polygon(Polygon(rings: rings, hasZ: pg.hasZ, hasM: pg.hasM)), spatialReference: spatialReference)
    }
}
