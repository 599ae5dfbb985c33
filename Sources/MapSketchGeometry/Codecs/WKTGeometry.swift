/// A WKT geometry exactly as written: the OGC structure (polygons with their own exterior and
/// holes, linear rings, geometry collections, EMPTY members) that ``Geometry`` flattens.
///
/// ``WKT/decodeTree(_:)`` returns this tree; ``geometry()`` maps it to a ``Geometry``:
///
/// | WKT                      | Geometry                                                        |
/// |--------------------------|-----------------------------------------------------------------|
/// | POINT                    | `.point` (EMPTY → `.point(nil)`)                                 |
/// | MULTIPOINT               | `.multipoint` (EMPTY members carry no vertex and are dropped)    |
/// | LINESTRING, LINEARRING   | `.polyline` with one path (a linear ring keeps its closing vertex)|
/// | MULTILINESTRING          | `.polyline`, one path per member (EMPTY members dropped)         |
/// | POLYGON, MULTIPOLYGON    | `.polygon`, all rings flat and open, each polygon's first ring   |
/// |                          | oriented clockwise and its others counter-clockwise (Esri)       |
/// | GEOMETRYCOLLECTION       | not representable: ``geometry()`` throws                         |
package struct WKTGeometry: Hashable, Sendable {
    /// The shape, with coordinates exactly as written (rings keep their closing vertex).
    public indirect enum Shape: Hashable, Sendable {
        /// POINT; `nil` is POINT EMPTY.
        case point(Point?)
        /// MULTIPOINT: members in order; `nil` is an EMPTY member.
        case multiPoint([Point?])
        /// LINESTRING: vertices as written (`[]` is EMPTY).
        case lineString([Point])
        /// LINEARRING: vertices as written, closing vertex included.
        case linearRing([Point])
        /// MULTILINESTRING: members in order; `[]` is an EMPTY member.
        case multiLineString([[Point]])
        /// POLYGON: rings as written, the exterior first, then the holes; `[]` is POLYGON EMPTY.
        case polygon([[Point]])
        /// MULTIPOLYGON: polygons as in ``polygon(_:)``; `[]` is an EMPTY member.
        case multiPolygon([[[Point]]])
        /// GEOMETRYCOLLECTION: members in order.
        case geometryCollection([WKTGeometry])
    }

    /// The node's shape and coordinates.
    public var shape: Shape
    /// Whether the text declared or carried z values.
    public var hasZ: Bool
    /// Whether the text declared or carried m values.
    public var hasM: Bool

    /// Creates a tree node.
    public init(_ shape: Shape, hasZ: Bool = false, hasM: Bool = false) {
        self.shape = shape
        self.hasZ = hasZ
        self.hasM = hasM
    }

    /// The WKT keyword of this node (`POINT`, `MULTIPOLYGON`, …).
    public var keyword: String {
        switch shape {
        case .point: "POINT"
        case .multiPoint: "MULTIPOINT"
        case .lineString: "LINESTRING"
        case .linearRing: "LINEARRING"
        case .multiLineString: "MULTILINESTRING"
        case .polygon: "POLYGON"
        case .multiPolygon: "MULTIPOLYGON"
        case .geometryCollection: "GEOMETRYCOLLECTION"
        }
    }

    /// This tree as a ``Geometry`` (see the mapping table on ``WKTGeometry``).
    /// - Throws: ``WKTError`` (`unsupported`) for a GEOMETRYCOLLECTION.
    public func geometry() throws -> Geometry {
        switch shape {
        case .point(let p): return .point(p)
        case .multiPoint(let ps): return .multipoint(Multipoint(points: ps.compactMap { $0 }, hasZ: hasZ, hasM: hasM))
        case .lineString(let ps), .linearRing(let ps):
            return .polyline(Polyline(paths: ps.isEmpty ? [] : [ps], hasZ: hasZ, hasM: hasM))
        case .multiLineString(let ls):
            return .polyline(Polyline(paths: ls.filter { !$0.isEmpty }, hasZ: hasZ, hasM: hasM))
        case .polygon(let rings):
            return .polygon(Polygon(rings: WKTGeometry.esriRings(rings), hasZ: hasZ, hasM: hasM))
        case .multiPolygon(let polys):
            return .polygon(Polygon(rings: polys.flatMap(WKTGeometry.esriRings), hasZ: hasZ, hasM: hasM))
        case .geometryCollection:
            throw WKTError(
                line: 1, column: 1, expected: "a geometry representable as Point, Multipoint, Polyline or Polygon",
                found: "GEOMETRYCOLLECTION")
        }
    }

    /// One POLYGON's rings opened and oriented Esri-style: first clockwise, the rest counter-clockwise.
    static func esriRings(_ rings: [[Point]]) -> [[Point]] {
        var out: [[Point]] = []
        for (i, ring) in rings.enumerated() where !ring.isEmpty {
            out.append(Kernel.oriented(Polygon.open(ring), clockwise: i == 0))
        }
        return out
    }

    /// The tree for a ``Geometry``: a polygon's rings are grouped into polygons (each hole into
    /// the smallest exterior containing it) and closed; one polygon is a POLYGON, several a
    /// MULTIPOLYGON; a polyline with one path is a LINESTRING; an envelope is a POLYGON.
    /// - Complexity: O(n) for n vertices, plus the ring grouping: O(h·e·n) at worst for h holes
    ///   and e exteriors, pruned by envelopes.
    public init(_ g: Geometry) {
        switch g {
        case .point(let p):
            self.init(.point(p), hasZ: p?.z != nil, hasM: p?.m != nil)
        case .multipoint(let mp):
            self.init(.multiPoint(mp.points), hasZ: mp.hasZ, hasM: mp.hasM)
        case .polyline(let pl):
            if pl.paths.count == 1 {
                self.init(.lineString(pl.paths[0]), hasZ: pl.hasZ, hasM: pl.hasM)
            } else {
                self.init(.multiLineString(pl.paths), hasZ: pl.hasZ, hasM: pl.hasM)
            }
        case .polygon(let pg):
            let rings = pg.rings.filter { !$0.isEmpty }
            let groups = RingNesting.groupByOrientation(rings)
            let polys = groups.map { grp in ([grp.exterior] + grp.holes).map { Polygon.closed(rings[$0]) } }
            if polys.count == 1 {
                self.init(.polygon(polys[0]), hasZ: pg.hasZ, hasM: pg.hasM)
            } else if polys.isEmpty {
                self.init(.polygon([]), hasZ: pg.hasZ, hasM: pg.hasM)
            } else {
                self.init(.multiPolygon(polys), hasZ: pg.hasZ, hasM: pg.hasM)
            }
        case .envelope:
            self.init(.polygon(g.parts.map(Polygon.closed)))
        }
    }
}
