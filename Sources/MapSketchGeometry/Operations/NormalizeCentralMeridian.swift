extension GeometryEngine {
    /// Folds a geometry into one world width, −180…180 degrees (WGS 84) or
    /// ±20037508.342789244 m (Web Mercator), splitting it where it crosses the antimeridian:
    /// paths are cut into parts there, polygons are cut into pieces, each shifted back by
    /// whole world widths, and the pieces repaired with ``simplify(_:)``. Geometry already
    /// inside the range is returned unchanged; a polygon that only needs a shift is shifted.
    ///
    /// Like `AGSGeometryEngine.normalizeCentralMeridianOfGeometry:` (ArcGIS Runtime 10.x). A
    /// polygon wider than one world overlaps itself once folded; the overlap then follows the
    /// odd-even rule of ``simplify(_:)``.
    ///
    /// ```swift
    /// let track = Geometry.polyline(Polyline(paths: [[Point(170, 0), Point(190, 10)]]))
    /// try GeometryEngine.normalizeCentralMeridian(track, spatialReference: .wgs84)
    /// // paths [[(170 0), (180 5)], [(-180 5), (-170 10)]]
    /// ```
    /// - Throws: ``ProjectionError/unsupportedSpatialReference(_:operation:)`` unless the spatial
    ///   reference is WGS 84 or Web Mercator.
    /// - Complexity: O(n + w) for n vertices and w antimeridian crossings; polygons that cross
    ///   add the cost of ``simplify(_:)``.
    public static func normalizeCentralMeridian(_ g: Geometry, spatialReference: SpatialReference) throws -> Geometry {
        let half: Double
        if spatialReference.isWGS84 {
            half = 180
        } else if spatialReference.isWebMercator {
            half = webMercatorHalfWidth
        } else {
            throw ProjectionError.unsupportedSpatialReference(spatialReference, operation: "normalizeCentralMeridian")
        }
        let w = WorldWrap(half: half)
        switch g {
        case .point(let p): return .point(p.map(w.fold))
        case .multipoint(let mp):
            return .multipoint(Multipoint(points: mp.points.map(w.fold), hasZ: mp.hasZ, hasM: mp.hasM))
        case .polyline(let pl):
            var paths: [[Point]] = []
            for path in pl.paths { w.split(path, into: &paths) }
            return .polyline(Polyline(paths: paths, hasZ: pl.hasZ, hasM: pl.hasM))
        case .polygon(let pg):
            return w.normalize(pg)
        case .envelope(let e):
            let k0 = w.world(e.xmin), k1 = w.world(e.xmax)
            if k0 == k1 || (k1 == k0 + 1 && e.xmax == w.boundary(k0)) {
                let s = w.shift(k0)
                return .envelope(Envelope(xmin: e.xmin + s, ymin: e.ymin, xmax: e.xmax + s, ymax: e.ymax))
            }
            return w.normalize(Polygon(rings: g.parts))
        }
    }
}

/// World-width arithmetic for one spatial reference.
struct WorldWrap {
    let half: Double
    var width: Double { 2 * half }

    /// The world index of x: 0 for −half ≤ x < half.
    func world(_ x: Double) -> Int {
        guard x.isFinite else { return 0 }
        return Int(((x + half) / width).rounded(.down))
    }

    /// The right boundary of world k.
    func boundary(_ k: Int) -> Double { -half + Double(k + 1) * width }

    /// The shift that brings world k to world 0.
    func shift(_ k: Int) -> Double { -Double(k) * width }

    /// A point folded into −half…half (half itself is kept).
    func fold(_ p: Point) -> Point {
        if p.x >= -half && p.x <= half { return p }
        var q = p
        q.x += shift(world(p.x))
        return q
    }

    /// Splits a path at every world boundary it crosses, shifting each piece into world 0.
    func split(_ path: [Point], into parts: inout [[Point]]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            parts.append([fold(first)])
            return
        }
        var current: [Point] = []
        var currentWorld: Int?
        for i in 0..<(path.count - 1) {
            let a = path[i], b = path[i + 1]
            // Cut points strictly between a.x and b.x, ordered along the segment.
            var cuts: [Point] = []
            let lo = min(a.x, b.x), hi = max(a.x, b.x)
            if lo.isFinite && hi.isFinite && world(lo) != world(hi) {
                var k = world(lo)
                while boundary(k) < hi {
                    let x = boundary(k)
                    if x > lo { cuts.append(interpolate(a, b, atX: x)) }
                    k += 1
                }
                if a.x > b.x { cuts.reverse() }
            }
            let pts = [a] + cuts + [b]
            for j in 0..<(pts.count - 1) {
                let p = pts[j], q = pts[j + 1]
                let k = world((p.x + q.x) / 2)
                let s = shift(k)
                if k != currentWorld {
                    if current.count >= 2 { parts.append(current) }
                    current = [shifted(p, s)]
                    currentWorld = k
                }
                current.append(shifted(q, s))
            }
        }
        if current.count >= 2 { parts.append(current) }
    }

    private func shifted(_ p: Point, _ s: Double) -> Point {
        var q = p
        q.x += s
        return q
    }

    /// The point of a–b at `x`, with y, z and m interpolated; x is exactly `x`.
    func interpolate(_ a: Point, _ b: Point, atX x: Double) -> Point {
        let t = (x - a.x) / (b.x - a.x)
        var p = Point(x: x, y: a.y + (b.y - a.y) * t)
        p.interpolateZM(from: a, to: b, at: t)
        return p
    }

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
        for k in k0...k1 {
            let l = boundary(k - 1), r = boundary(k), s = shift(k)
            for ring in pg.rings {
                let clipped = clip(clip(ring, keepLeftOf: r), keepRightOf: l)
                if clipped.count >= 3 { rings.append(clipped.map { shifted($0, s) }) }
            }
        }
        return GeometryEngine.simplify(.polygon(Polygon(rings: rings, hasZ: pg.hasZ, hasM: pg.hasM)))
    }

    /// Sutherland–Hodgman against the half-plane x ≤ r (degenerate edges along x = r cancel
    /// under the odd-even rule of simplify).
    private func clip(_ ring: [Point], keepLeftOf r: Double) -> [Point] {
        clipHalfPlane(ring, inside: { $0.x <= r }, at: r)
    }

    private func clip(_ ring: [Point], keepRightOf l: Double) -> [Point] {
        clipHalfPlane(ring, inside: { $0.x >= l }, at: l)
    }

    private func clipHalfPlane(_ ring: [Point], inside: (Point) -> Bool, at x: Double) -> [Point] {
        guard var prev = ring.last else { return [] }
        var out: [Point] = []
        for p in ring {
            let pin = inside(p), qin = inside(prev)
            if pin {
                if !qin { out.append(interpolate(prev, p, atX: x)) }
                out.append(p)
            } else if qin {
                out.append(interpolate(prev, p, atX: x))
            }
            prev = p
        }
        return out
    }
}
