import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The single-point fast paths (``GeometryEngine/projectGeographicToWebMercator(_:)`` and
/// ``PointProjection``) against the general ``GeometryEngine/project(_:from:to:)``: bit-identical
/// on seeded random coordinates and on the edge latitudes.
@Suite struct ProjectFastPathTests {
    static func same(_ a: Point, _ b: Point) -> Bool {
        a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern
            && a.z?.bitPattern == b.z?.bitPattern && a.m?.bitPattern == b.m?.bitPattern
    }

    /// Seeded random points over the whole globe (and beyond the poles, which only the fast paths take), plus
    /// the edge latitudes and signed zeros, with and without z and m.
    static func geographicPoints() -> [Point] {
        var rng = SeededRandom(seed: 85)
        let limit = GeometryEngine.webMercatorMaxLatitude
        var lats: [Double] = [0, -0.0, 90, -90, limit, -limit, limit.nextUp, limit.nextDown, (-limit).nextUp,
            (-limit).nextDown, 85.0511287798066, -85.0511287798066, 89.999999, 91, -91, 1e-300, -1e-300]
        for _ in 0..<5000 { lats.append(rng.double(in: -90...90)) }
        for _ in 0..<500 { lats.append(rng.double(in: 84...86) * (rng.int(in: 0...1) == 0 ? 1 : -1)) }
        var points: [Point] = []
        for (i, lat) in lats.enumerated() {
            let lon = i % 7 == 0 ? [180, -180, 0, -0.0, 179.9999999, 360, -540][i / 7 % 7] : rng.double(in: -180...180)
            switch i % 3 {
            case 0: points.append(Point(x: lon, y: lat))
            case 1: points.append(Point(x: lon, y: lat, z: rng.double(in: -500...9000)))
            default: points.append(Point(x: lon, y: lat, z: rng.double(in: -5...5), m: Double(i)))
            }
        }
        return points
    }

    @Test func geographicToWebMercatorIsBitIdentical() throws {
        let toMap = try PointProjection(from: .wgs84, to: .webMercator)
        let toMap3857 = try PointProjection(from: SpatialReference(wkid: 4326), to: SpatialReference(wkid: 3857))
        for p in Self.geographicPoints() {
            guard p.y.magnitude <= 90 else {
                // Beyond the poles the general projection refuses the vertex; the unchecked fast
                // paths clamp it.
                #expect(throws: ProjectionError.self) { try GeometryEngine.project(p, from: .wgs84, to: .webMercator) }
                #expect(Self.same(toMap.project(p), GeometryEngine.projectGeographicToWebMercator(p)))
                continue
            }
            let general = try GeometryEngine.project(p, from: .wgs84, to: .webMercator)
            let geometry = try GeometryEngine.project(.point(p), from: .wgs84, to: .webMercator)
            #expect(geometry == .point(general))
            let fast = GeometryEngine.projectGeographicToWebMercator(p)
            #expect(Self.same(fast, general), "\(p): \(fast) vs \(general)")
            #expect(Self.same(toMap.project(p), general), "\(p)")
            #expect(Self.same(toMap3857.project(p), general), "\(p)")
        }
        // Clamping: the poles land on the edge of the Web Mercator square.
        let pole = GeometryEngine.projectGeographicToWebMercator(Point(0, 90))
        let edge = GeometryEngine.projectGeographicToWebMercator(Point(0, GeometryEngine.webMercatorMaxLatitude))
        #expect(pole.y == edge.y && (-pole.y).bitPattern == GeometryEngine.projectGeographicToWebMercator(Point(0, -90)).y.bitPattern)
    }

    @Test func webMercatorToGeographicAndIdentityAreBitIdentical() throws {
        let toGeographic = try PointProjection(from: .webMercator, to: .wgs84)
        let identity = try PointProjection(from: .webMercator, to: SpatialReference(wkid: 3857))
        let wgsIdentity = try PointProjection(from: .wgs84, to: .wgs84)
        var rng = SeededRandom(seed: 3857)
        let h = GeometryEngine.webMercatorHalfWidth
        var points = [Point(h, h), Point(-h, -h), Point(0, 0), Point(-0.0, -0.0), Point(x: 1, y: 2, z: 3, m: 4)]
        for _ in 0..<3000 { points.append(Point(x: rng.double(in: -h...h), y: rng.double(in: -2 * h...2 * h), z: rng.double(in: 0...10))) }
        for p in points {
            let general = try GeometryEngine.project(p, from: .webMercator, to: .wgs84)
            #expect(Self.same(toGeographic.project(p), general), "\(p)")
            #expect(Self.same(identity.project(p), p))
            #expect(Self.same(wgsIdentity.project(p), p))
        }
    }

    @Test func unsupportedPairsThrowTheSameError() {
        let utm = SpatialReference(wkid: 32633)
        #expect(throws: ProjectionError.unsupportedTransformation(from: .wgs84, to: utm)) {
            try PointProjection(from: .wgs84, to: utm)
        }
        #expect(throws: ProjectionError.unsupportedTransformation(from: utm, to: .webMercator)) {
            try PointProjection(from: utm, to: .webMercator)
        }
    }
}
