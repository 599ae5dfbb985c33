/// The kinds of geometry.
public enum GeometryType: String, Hashable, Sendable, Codable, CaseIterable {
    /// A single point (``Point``).
    case point
    /// A set of points (``Multipoint``).
    case multipoint
    /// Paths (``Polyline``).
    case polyline
    /// Rings (``Polygon``).
    case polygon
    /// An axis-aligned rectangle (``Envelope``).
    case envelope
}

/// A geometry: one enum over the geometry value types.
///
/// A point geometry may be empty (`.point(nil)`), as Esri JSON `{"x": null}` and WKT
/// `POINT EMPTY` are. The spatial reference travels beside the geometry in ``SpatialGeometry``.
public enum Geometry: Hashable, Sendable, Codable {
    /// A point, or the empty point (`nil`).
    case point(Point?)
    /// A set of points.
    case multipoint(Multipoint)
    /// One or more paths.
    case polyline(Polyline)
    /// One or more rings (open, Esri orientation).
    case polygon(Polygon)
    /// An axis-aligned rectangle.
    case envelope(Envelope)

    /// The kind of this geometry.
    public var type: GeometryType {
        switch self {
        case .point: .point
        case .multipoint: .multipoint
        case .polyline: .polyline
        case .polygon: .polygon
        case .envelope: .envelope
        }
    }

    /// Whether the geometry has no vertex.
    public var isEmpty: Bool {
        switch self {
        case .point(let p): p == nil
        case .multipoint(let g): g.isEmpty
        case .polyline(let g): g.isEmpty
        case .polygon(let g): g.isEmpty
        case .envelope: false
        }
    }

    /// The parts as vertex lists: one part for a point or multipoint, paths, rings (open), or the
    /// envelope's four corners clockwise from the lower left.
    public var parts: [[Point]] {
        switch self {
        case .point(let p): p.map { [[$0]] } ?? []
        case .multipoint(let g): g.points.isEmpty ? [] : [g.points]
        case .polyline(let g): g.paths
        case .polygon(let g): g.rings
        case .envelope(let e):
            [[Point(e.xmin, e.ymin), Point(e.xmin, e.ymax), Point(e.xmax, e.ymax), Point(e.xmax, e.ymin)]]
        }
    }

    /// The bounding envelope, or nil when the geometry is empty.
    /// - Complexity: O(n) for n vertices.
    public var envelope: Envelope? {
        switch self {
        case .envelope(let e): return e
        case .point(let p): return p.map(Envelope.init)
        default:
            var result: Envelope?
            for part in parts {
                guard let e = Envelope(points: part) else { continue }
                result = result.map { $0.union(e) } ?? e
            }
            return result
        }
    }

    /// Whether every coordinate is finite.
    public var isFinite: Bool {
        switch self {
        case .envelope(let e): e.xmin.isFinite && e.ymin.isFinite && e.xmax.isFinite && e.ymax.isFinite
        default: parts.allSatisfy { $0.allSatisfy(\.isFinite) }
        }
    }

    /// The number of vertices (an envelope counts its four corners).
    public var pointCount: Int { parts.reduce(0) { $0 + $1.count } }

    /// Returns a geometry of the same type with every vertex transformed (an envelope through its
    /// lower-left and upper-right corners).
    ///
    /// - Throws: what `transform` throws.
    /// - Complexity: O(n) calls of `transform` for n vertices.
    package func mapPoints(_ transform: (Point) throws -> Point) rethrows -> Geometry {
        switch self {
        case .point(let p): return .point(try p.map(transform))
        case .multipoint(let g):
            return .multipoint(Multipoint(points: try g.points.map(transform), hasZ: g.hasZ, hasM: g.hasM))
        case .polyline(let g):
            return .polyline(Polyline(paths: try g.paths.map { try $0.map(transform) }, hasZ: g.hasZ, hasM: g.hasM))
        case .polygon(let g):
            return .polygon(Polygon(rings: try g.rings.map { try $0.map(transform) }, hasZ: g.hasZ, hasM: g.hasM))
        case .envelope(let e):
            let a = try transform(Point(e.xmin, e.ymin))
            let b = try transform(Point(e.xmax, e.ymax))
            return .envelope(
                Envelope(xmin: min(a.x, b.x), ymin: min(a.y, b.y), xmax: max(a.x, b.x), ymax: max(a.y, b.y)))
        }
    }
}

/// A value that can be turned into a ``Geometry``.
public protocol GeometryConvertible {
    /// This value as a geometry.
    var geometry: Geometry { get }
}

extension Geometry: GeometryConvertible { public var geometry: Geometry { self } }
extension Point: GeometryConvertible { public var geometry: Geometry { .point(self) } }
extension Multipoint: GeometryConvertible { public var geometry: Geometry { .multipoint(self) } }
extension Polyline: GeometryConvertible { public var geometry: Geometry { .polyline(self) } }
extension Polygon: GeometryConvertible { public var geometry: Geometry { .polygon(self) } }
extension Envelope: GeometryConvertible { public var geometry: Geometry { .envelope(self) } }

/// A geometry together with the spatial reference its coordinates are in.
public struct SpatialGeometry: Hashable, Sendable, Codable {
    /// The geometry.
    public var geometry: Geometry
    /// The spatial reference of its coordinates, when known.
    public var spatialReference: SpatialReference?

    /// Pairs `geometry` with `spatialReference`.
    public init(_ geometry: Geometry, spatialReference: SpatialReference? = nil) {
        self.geometry = geometry
        self.spatialReference = spatialReference
    }
}

/// Whether there is at least one vertex and every vertex satisfies `pred`: the default of the
/// multipart types' `hasZ` / `hasM` flags ("every vertex carries z"), and the codecs' rule for
/// flags a document leaves out.
func allVertices(_ parts: [[Point]], _ pred: (Point) -> Bool) -> Bool {
    var any = false
    for part in parts {
        for p in part {
            if !pred(p) { return false }
            any = true
        }
    }
    return any
}
