import Foundation

/// Why a projection or a spatial-reference-dependent operation cannot run.
public enum ProjectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No transformation is implemented between the two spatial references.
    case unsupportedTransformation(from: SpatialReference, to: SpatialReference)
    /// The operation needs a geographic (4326) or Web Mercator spatial reference.
    case unsupportedSpatialReference(SpatialReference, operation: String)
    /// A vertex outside the domain of the operation: which part and vertex (0-based), what was
    /// found (`"latitude 95"`) and what was expected (`"a latitude within -90…90"`).
    case vertexOutOfDomain(part: Int, vertex: Int, operation: String, found: String, expected: String)
    /// A segment of ``GeometryEngine/normalizeCentralMeridian(_:spatialReference:)``'s input
    /// (from vertex `vertex` to the next, in part `part`) spans more than one world width in x:
    /// it wraps the whole world and has no meaningful fold.
    case segmentWiderThanWorld(part: Int, vertex: Int, span: Double, worldWidth: Double)

    public var description: String {
        switch self {
        case .unsupportedTransformation(let f, let t):
            "cannot project from \(f) to \(t): only WGS 84 (4326) ↔ Web Mercator (3857/102100) is supported"
        case .unsupportedSpatialReference(let sr, let op):
            "\(op) needs WGS 84 (4326) or Web Mercator (3857/102100), got \(sr)"
        case .vertexOutOfDomain(let part, let vertex, let op, let found, let expected):
            "\(op): part \(part) vertex \(vertex): expected \(expected), found \(found)"
        case .segmentWiderThanWorld(let part, let vertex, let span, let world):
            "normalizeCentralMeridian: part \(part) vertex \(vertex): expected a segment at most one world width "
                + "(\(WKT.format(world))) wide in x, found one spanning \(WKT.format(span)) (it wraps the whole world)"
        }
    }
}

extension GeometryEngine {
    /// The Web Mercator sphere radius: the WGS 84 semi-major axis, in meters.
    package static let webMercatorRadius = 6_378_137.0
    /// The latitude limit of Web Mercator, in degrees; latitudes beyond it (up to ±90) are clamped.
    package static let webMercatorMaxLatitude = 85.05112878
    /// Half the width of the Web Mercator world, in meters (π · 6378137).
    package static let webMercatorHalfWidth = 20_037_508.342789244

    /// Projects a geometry between WGS 84 (4326, degrees) and spherical Web Mercator
    /// (3857/102100, meters); z and m pass through. Identical spatial references return `g`.
    ///
    /// The domain: from WGS 84, latitudes within −90…90 (those beyond ±85.05112878, the Web
    /// Mercator limit, are clamped to it, as Web Mercator maps do) and finite longitudes whose
    /// x is finite (|longitude| below about 1.6e303; beyond ±180 they stay unwrapped, as wrapped
    /// maps need); from Web Mercator, finite coordinates. A vertex outside it is refused rather
    /// than projected to an infinite or clamped value.
    ///
    /// ```swift
    /// try GeometryEngine.project(.point(Point(180, 0)), from: .wgs84, to: .webMercator)
    /// // .point((20037508.342789244 0.0))
    /// ```
    /// - Throws: ``ProjectionError/unsupportedTransformation(from:to:)`` for any other pair;
    ///   ``ProjectionError/vertexOutOfDomain(part:vertex:operation:found:expected:)`` for the
    ///   first vertex outside the domain (an envelope's corners count as the vertices of
    ///   ``Geometry/parts``).
    /// - Complexity: O(n) for n vertices.
    /// - Source: EPSG Guidance Note 7-2, §1.3.3.2 "Popular Visualisation Pseudo Mercator".
    public static func project(_ g: Geometry, from: SpatialReference, to: SpatialReference) throws -> Geometry {
        try project(g, from: from, to: to, decimal: false)
    }

    /// ``project(_:from:to:)-(Geometry,_,_)``; with `decimal`, Web Mercator to WGS 84 gives the
    /// coordinates an output writes (``webMercatorToGeographicDecimal(_:)``).
    package static func project(_ g: Geometry, from: SpatialReference, to: SpatialReference, decimal: Bool) throws -> Geometry {
        if from == to { return g }
        let f = try projection(from: from, to: to, decimal: decimal)
        for (i, part) in g.parts.enumerated() {
            for (k, p) in part.enumerated() { try checkDomain(p, from: from, part: i, vertex: k) }
        }
        return g.mapPoints(f)
    }

    /// Projects one point (see ``project(_:from:to:)-(Geometry,_,_)``).
    /// - Throws: ``ProjectionError/unsupportedTransformation(from:to:)``;
    ///   ``ProjectionError/vertexOutOfDomain(part:vertex:operation:found:expected:)`` (part 0,
    ///   vertex 0) outside the domain.
    public static func project(_ p: Point, from: SpatialReference, to: SpatialReference) throws -> Point {
        if from == to { return p }
        let f = try projection(from: from, to: to)
        try checkDomain(p, from: from, part: 0, vertex: 0)
        return f(p)
    }

    /// Refuses a vertex outside the domain of the projection from `from` (see
    /// ``project(_:from:to:)-(Geometry,_,_)``).
    static func checkDomain(_ p: Point, from: SpatialReference, part: Int, vertex: Int) throws(ProjectionError) {
        func refuse(_ found: String, _ expected: String) -> ProjectionError {
            .vertexOutOfDomain(part: part, vertex: vertex, operation: "project", found: found, expected: expected)
        }
        if from.isWGS84 {
            guard p.y.magnitude <= 90 else {
                throw refuse("latitude \(WKT.format(p.y))", "a latitude within -90…90")
            }
            // The x of geographicToWebMercator, computed the same way.
            guard (p.x * .pi / 180 * webMercatorRadius).isFinite else {
                throw refuse("longitude \(WKT.format(p.x))", "a finite longitude whose Web Mercator x is finite (|longitude| below about 1.6e303)")
            }
        } else {
            guard p.x.isFinite, p.y.isFinite else {
                throw refuse("x \(WKT.format(p.x)), y \(WKT.format(p.y))", "finite coordinates")
            }
        }
    }

    /// Projects one WGS 84 point (longitude x, latitude y, degrees) to Web Mercator meters: the
    /// arithmetic of ``project(_:from:to:)-(Geometry,_,_)`` for that pair, bit for bit (latitude clamped to
    /// ±``webMercatorMaxLatitude``, z and m pass through), without comparing spatial references,
    /// for streams of GPS fixes. It does not check the domain: a latitude beyond ±90 is clamped
    /// like any other, and its caller keeps its input in range. See also ``PointProjection``.
    /// - Complexity: O(1).
    package static func projectGeographicToWebMercator(_ p: Point) -> Point {
        geographicToWebMercator(p)
    }

    static func projection(from: SpatialReference, to: SpatialReference, decimal: Bool = false) throws -> @Sendable (Point) -> Point {
        if from.isWGS84 && to.isWebMercator { return geographicToWebMercator }
        if from.isWebMercator && to.isWGS84 { return decimal ? webMercatorToGeographicDecimal : webMercatorToGeographic }
        throw ProjectionError.unsupportedTransformation(from: from, to: to)
    }

    /// Longitude/latitude in degrees to Web Mercator meters (latitude clamped to ±85.05112878°).
    @Sendable static func geographicToWebMercator(_ p: Point) -> Point {
        var q = p
        q.x = webMercatorX(longitude: p.x)
        q.y = webMercatorY(latitude: p.y)
        return q
    }

    /// The Web Mercator x of a longitude in degrees (what ``geographicToWebMercator(_:)`` computes).
    @inline(__always) static func webMercatorX(longitude: Double) -> Double {
        longitude * .pi / 180 * webMercatorRadius
    }

    /// The Web Mercator y of a latitude in degrees, clamped to ±``webMercatorMaxLatitude`` (what
    /// ``geographicToWebMercator(_:)`` computes).
    @inline(__always) static func webMercatorY(latitude: Double) -> Double {
        let lat = min(max(latitude, -webMercatorMaxLatitude), webMercatorMaxLatitude)
        // atanh(sin φ) equals ln(tan(π/4 + φ/2)) but is exact at the equator and better conditioned near it.
        return atanh(sin(lat * .pi / 180)) * webMercatorRadius
    }

    /// Web Mercator meters to the longitude/latitude an output writes: each coordinate of
    /// ``webMercatorToGeographic(_:)`` rounded to 15 significant decimal digits (failing that,
    /// 14 or 13) when the rounded value projects back (``geographicToWebMercator(_:)``) to the very same
    /// meters, bit for bit; otherwise the inverse as computed. The inverse of a vertex projected
    /// from decimal degrees carries noise in its last bits (latitude 46.434981 comes back as
    /// 46.43498100000001); the rounding takes it off, and the coordinate written reads back, and
    /// projects, to the same vertex. z and m pass through.
    /// - Complexity: O(1): one forward projection of each coordinate, at most three.
    @Sendable static func webMercatorToGeographicDecimal(_ p: Point) -> Point {
        var q = webMercatorToGeographic(p)
        q.x = roundTripDecimal(q.x, target: p.x) { webMercatorX(longitude: $0) }
        q.y = roundTripDecimal(q.y, target: p.y) { webMercatorY(latitude: $0) }
        return q
    }

    /// `v` rounded to 15 significant digits where `forward` of the rounded value is `target`
    /// exactly; failing that, to 14 or 13 (the inverse's error reaches half a unit of the 15th
    /// digit near ±84° and ±10°); `v` when it already has 15 digits or fewer, or when no rounding
    /// projects back.
    @inline(__always) private static func roundTripDecimal(_ v: Double, target: Double, _ forward: (Double) -> Double) -> Double {
        guard v.isFinite, v != 0 else { return v }
        // The inverse is within a few units in the last place of the decimal it came from (3.5
        // near ±84°): a rounding further away than 8 of them is not that decimal, and is not
        // projected to find out.
        let reach = 8 * v.ulp
        let exponent = decimalExponent(v)
        for digits in stride(from: 15, through: 13, by: -1) {
            guard let c = rounded(v, significantDigits: digits, exponent: exponent) else { continue }
            if c == v { return v }
            if (c - v).magnitude <= reach, forward(c) == target { return c }
        }
        return v
    }

    /// Exact powers of ten, 10^0 … 10^22 (every one of them a double).
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]

    /// The double nearest `v` rounded to `digits` significant decimal digits, or nil when that
    /// cannot be computed with exact arithmetic (the scale is not an exact power of ten, or the
    /// digits exceed 2^53). The division of an integer below 2^53 by an exact power of ten is
    /// correctly rounded, so the result is the double nearest that decimal.
    static func rounded(_ v: Double, significantDigits digits: Int) -> Double? {
        guard v.isFinite, v != 0 else { return nil }
        return rounded(v, significantDigits: digits, exponent: decimalExponent(v))
    }

    /// ⌊log10 |v|⌋ for a finite, non-zero `v` (off by one at most next to a power of ten, which
    /// moves the rounding by a digit, never makes it inexact).
    @inline(__always) private static func decimalExponent(_ v: Double) -> Int {
        Int(log10(v.magnitude).rounded(.down))
    }

    /// ``rounded(_:significantDigits:)`` for `v` whose ``decimalExponent(_:)`` is `exponent`.
    @inline(__always) private static func rounded(_ v: Double, significantDigits digits: Int, exponent: Int) -> Double? {
        let places = digits - 1 - exponent
        guard places >= 0, places < powersOfTen.count else { return nil }
        let scale = powersOfTen[places]
        let m = (v * scale).rounded()
        guard m.magnitude < 9_007_199_254_740_992 else { return nil }
        return m / scale
    }

    /// Web Mercator meters to longitude/latitude in degrees.
    @Sendable static func webMercatorToGeographic(_ p: Point) -> Point {
        var q = p
        q.x = p.x / webMercatorRadius * 180 / .pi
        // The Gudermannian atan(sinh(y/R)) equals 2·atan(exp(y/R)) − π/2 without its cancellation near 0.
        q.y = atan(sinh(p.y / webMercatorRadius)) * 180 / .pi
        return q
    }
}

/// A projection between two spatial references resolved once, then applied to many points: the
/// same results as ``GeometryEngine/project(_:from:to:)-(Geometry,_,_)``, bit for bit, without
/// comparing the spatial references for every point (what replaying a GPS stream needs). It
/// does not check the domain (a latitude beyond ±90 is clamped like any other); the caller
/// keeps its input in range.
///
/// ```swift
/// let toMap = try PointProjection(from: .wgs84, to: .webMercator)
/// let p = toMap.project(Point(x: 14.5, y: 46.05))
/// ```
public struct PointProjection: Hashable, Sendable {
    /// The spatial reference of the input points.
    public let from: SpatialReference
    /// The spatial reference of the output points.
    public let to: SpatialReference
    private let kind: Kind

    private enum Kind: UInt8, Hashable, Sendable {
        case identity
        case geographicToWebMercator
        case webMercatorToGeographic
        case webMercatorToGeographicDecimal
    }

    /// Resolves the projection `from` → `to` (identical spatial references project to themselves).
    /// - Throws: ``ProjectionError/unsupportedTransformation(from:to:)`` for any pair other than
    ///   WGS 84 ↔ Web Mercator, as ``GeometryEngine/project(_:from:to:)-(Geometry,_,_)``.
    public init(from: SpatialReference, to: SpatialReference) throws(ProjectionError) {
        try self.init(from: from, to: to, decimal: false)
    }

    /// The projection `from` → `to`; with `decimal`, Web Mercator to WGS 84 gives the coordinates
    /// an output writes (``GeometryEngine/webMercatorToGeographicDecimal(_:)``).
    package init(from: SpatialReference, to: SpatialReference, decimal: Bool) throws(ProjectionError) {
        self.from = from
        self.to = to
        if from == to {
            kind = .identity
        } else if from.isWGS84 && to.isWebMercator {
            kind = .geographicToWebMercator
        } else if from.isWebMercator && to.isWGS84 {
            kind = decimal ? .webMercatorToGeographicDecimal : .webMercatorToGeographic
        } else {
            throw .unsupportedTransformation(from: from, to: to)
        }
    }

    /// `p` in the target spatial reference (z and m pass through).
    /// - Complexity: O(1).
    public func project(_ p: Point) -> Point {
        switch kind {
        case .identity: p
        case .geographicToWebMercator: GeometryEngine.geographicToWebMercator(p)
        case .webMercatorToGeographic: GeometryEngine.webMercatorToGeographic(p)
        case .webMercatorToGeographicDecimal: GeometryEngine.webMercatorToGeographicDecimal(p)
        }
    }
}
