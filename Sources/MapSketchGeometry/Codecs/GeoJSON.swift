/// GeoJSON (RFC 7946), read and written.
///
/// - Geometry types: Point, MultiPoint, LineString, MultiLineString (→ ``Polyline``), Polygon,
///   MultiPolygon (→ one ``Polygon`` holding every ring), and Feature, FeatureCollection
///   (properties kept as an ordered ``JSONObject``, `id` kept).
/// - GeometryCollection: read by ``decodeDocument(_:options:)-(String,_)`` as a list of geometries (our model
///   has no collection type); ``decode(_:options:)`` (one geometry) rejects it with an error that
///   says so. Writing a list of geometries produces a GeometryCollection.
/// - Orientation: GeoJSON writes exteriors counter-clockwise and holes clockwise (RFC 7946
///   §3.1.6); our model is Esri (exteriors clockwise, holes counter-clockwise). Reading orients
///   each Polygon's first ring clockwise and the rest counter-clockwise. Writing groups our rings
///   into polygons — each hole goes to the smallest exterior containing it — and emits a Polygon
///   or a MultiPolygon with exteriors counter-clockwise and holes clockwise. Reversal keeps a
///   ring's first vertex first. ``EncodingOptions/ringOrientation`` `.asStored` skips reorienting.
/// - Rings: the closing position is dropped on read and added on write. Degenerate rings (fewer
///   than 3 positions once the closing one is dropped) are kept unless ``CodecDecodingOptions/dropDegenerateRings`` is set.
/// - Positions: `[x, y]` or `[x, y, z]`; a fourth number is read as m (a common extension).
///   GeoJSON has no m: **m values are dropped on write**. Z is kept as the third number.
/// - Empty geometries: `"coordinates": []` (RFC 7946 §3.1). In a Feature an empty geometry is
///   written as `"geometry": null`, as GDAL and `arcgis-to-geojson-utils` do.
/// - Envelopes are written as a Polygon ring starting at (xmax, ymax), counter-clockwise.
/// - Foreign members and `bbox` are ignored on read and not written.
/// - Spatial reference: RFC 7946 coordinates are WGS 84, so decoded geometries get
///   ``SpatialReference/wgs84``; a legacy (2008) `crs` member naming `EPSG:n` or CRS84 is honoured.
///   Output is always RFC 7946, and writes no `crs`: a geometry in WGS 84 is written as it is,
///   one in another spatial reference projected to WGS 84 (Web Mercator; any other is an
///   error), and one **without a spatial reference is an error** — its numbers are never taken
///   for longitudes and latitudes because they fit (Web Mercator meters near the origin do).
///   Coordinates known to be longitudes and latitudes are written with
///   ``encode(wgs84:options:)``, or paired with ``SpatialReference/wgs84``.
///
/// ```swift
/// let g = try GeoJSON.decode(#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#)
/// try GeoJSON.encode(g)  // {"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}
/// try GeoJSON.encode(SpatialGeometry(.point(Point(50, 0)), spatialReference: .webMercator))
/// // {"type":"Point","coordinates":[0.00044915764205976077,0]}
/// ```
public enum GeoJSON {
    /// Options for reading (shared with ``EsriJSON``).
    public typealias DecodingOptions = CodecDecodingOptions

    /// How rings are oriented on write.
    public enum RingOrientation: Hashable, Sendable {
        /// Exteriors counter-clockwise, holes clockwise (RFC 7946 §3.1.6). The default.
        case rfc7946
        /// Rings as stored (Esri: exteriors clockwise), as pyesridump and GDAL without RFC7946=YES write.
        case asStored
    }

    /// Options for writing.
    public struct EncodingOptions: Hashable, Sendable {
        /// How rings are oriented. Default ``RingOrientation/rfc7946``.
        public var ringOrientation: RingOrientation
        /// The JSON layout. Default compact.
        public var style: JSONStyle

        /// Creates options.
        public init(ringOrientation: RingOrientation = .rfc7946, style: JSONStyle = .compact) {
            self.ringOrientation = ringOrientation
            self.style = style
        }
    }

    /// A whole GeoJSON document.
    package enum Document: Hashable, Sendable {
        /// A geometry object; `nil` geometry is not possible here (see ``Feature``).
        case geometry(SpatialGeometry)
        /// A GeometryCollection, as its member geometries.
        case geometryCollection([SpatialGeometry])
        /// A Feature.
        case feature(Feature)
        /// A FeatureCollection.
        case featureCollection([Feature])
    }

    // MARK: - Reading

    /// Decodes one geometry: a geometry object, or a Feature (its geometry).
    /// - Throws: ``JSONError`` with line:column, the field path and what was expected; a
    ///   GeometryCollection, FeatureCollection or a Feature without geometry is an error.
    /// - Complexity: O(n) for n bytes.
    public static func decode(_ text: String, options: DecodingOptions = DecodingOptions()) throws -> SpatialGeometry {
        try JSONParser.decode(text, options: options.parser) { try decode($0, options: options) }
    }

    /// Decodes one geometry from a parsed value, as ``decode(_:options:)`` does from text.
    /// - Throws: ``JSONError`` with the field path (no line:column: a value has no position).
    /// - Complexity: O(v) for v vertices.
    package static func decode(_ value: JSONValue, options: DecodingOptions = DecodingOptions()) throws -> SpatialGeometry {
        switch try decodeDocument(value, options: options) {
        case .geometry(let g): return g
        case .feature(let f):
            guard let g = f.geometry else {
                throw JSONError("the Feature has no geometry", path: [.key("geometry")])
            }
            return g
        case .geometryCollection:
            throw JSONError(
                "expected one geometry, found a GeometryCollection (decode it with GeoJSON.decodeDocument)")
        case .featureCollection:
            throw JSONError(
                "expected one geometry, found a FeatureCollection (decode it with GeoJSON.decodeDocument)")
        }
    }

    /// Decodes any GeoJSON document.
    /// - Throws: ``JSONError`` with line:column, the field path and what was expected.
    /// - Complexity: O(n) for n bytes.
    package static func decodeDocument(_ text: String, options: DecodingOptions = DecodingOptions()) throws -> Document {
        try JSONParser.decode(text, options: options.parser) { try decodeDocument($0, options: options) }
    }

    /// Decodes any GeoJSON document from a parsed value.
    /// - Throws: ``JSONError`` with the field path.
    package static func decodeDocument(_ value: JSONValue, options: DecodingOptions = DecodingOptions()) throws
        -> Document
    {
        let obj = try value.decodeObject()
        let sr = try crs(obj) ?? .wgs84
        let type = try obj.decode("type") { try $0.decodeString() }
        switch type {
        case "Feature": return .feature(try decodeFeature(obj, sr, options))
        case "FeatureCollection":
            return .featureCollection(
                try obj.decode("features") { v in
                    try v.decodeElements { f in
                        let fo = try f.decodeObject()
                        let t = try fo.decode("type") { try $0.decodeString() }
                        guard t == "Feature" else {
                            throw JSONError("expected a Feature, found \(InputExcerpt.jsonString(t))", path: [.key("type")])
                        }
                        return try decodeFeature(fo, sr, options)
                    }
                })
        case "GeometryCollection":
            return .geometryCollection(
                try obj.decode("geometries") { v in
                    try v.decodeElements { g in
                        let go = try g.decodeObject()
                        let t = try go.decode("type") { try $0.decodeString() }
                        if t == "GeometryCollection" {
                            throw JSONError("nested GeometryCollections are not supported", path: [.key("type")])
                        }
                        return SpatialGeometry(try decodeGeometry(go, type: t, options), spatialReference: sr)
                    }
                })
        default:
            return .geometry(SpatialGeometry(try decodeGeometry(obj, type: type, options), spatialReference: sr))
        }
    }

    /// Decodes a geometry object (not a Feature), or nil for JSON `null`.
    /// - Throws: ``JSONError`` with the field path.
    package static func decodeGeometry(_ value: JSONValue, options: DecodingOptions = DecodingOptions()) throws
        -> SpatialGeometry?
    {
        if value.isNull { return nil }
        let obj = try value.decodeObject()
        let type = try obj.decode("type") { try $0.decodeString() }
        return SpatialGeometry(try decodeGeometry(obj, type: type, options), spatialReference: try crs(obj) ?? .wgs84)
    }

    private static func decodeFeature(_ obj: JSONObject, _ sr: SpatialReference, _ options: DecodingOptions) throws
        -> Feature
    {
        let g = try obj.decode("geometry") { v -> SpatialGeometry? in
            if v.isNull { return nil }
            let go = try v.decodeObject()
            let t = try go.decode("type") { try $0.decodeString() }
            if t == "GeometryCollection" {
                throw JSONError("a GeometryCollection as a Feature's geometry is not supported", path: [.key("type")])
            }
            return SpatialGeometry(try decodeGeometry(go, type: t, options), spatialReference: sr)
        }
        let props = try obj.decodeIfPresent("properties") { try $0.decodeObject() }
        let id = try obj.decodeIfPresent("id") { v -> JSONValue in
            switch v {
            case .string, .integer, .number: return v
            default: throw JSONError("expected a string or a number, found \(v.kindDescription)")
            }
        }
        return Feature(geometry: g, attributes: props, id: id)
    }

    /// The spatial reference named by a legacy `crs` member, if any.
    static func crs(_ obj: JSONObject) throws -> SpatialReference? {
        try obj.decodeIfPresent("crs") { v -> SpatialReference? in
            let c = try v.decodeObject()
            guard try c.decode("type", { try $0.decodeString() }) == "name" else {
                throw JSONError("only named crs members are supported (\"type\": \"name\")", path: [.key("type")])
            }
            let name = try c.decode("properties") { p in try p.decodeObject().decode("name") { try $0.decodeString() } }
            let upper = name.uppercased()
            if upper.hasSuffix("CRS84") || upper.hasSuffix("CRS:84") { return .wgs84 }
            // "EPSG:3857", "urn:ogc:def:crs:EPSG::3857", "urn:ogc:def:crs:EPSG:6.6:3857".
            if upper.contains("EPSG"), let last = upper.split(separator: ":").last, let code = Int(last) {
                return SpatialReference(wkid: code)
            }
            throw JSONError(
                "unrecognised crs name \"\(name)\": expected EPSG:<code> or CRS84",
                path: [.key("properties"), .key("name")])
        } ?? nil
    }

    private static func decodeGeometry(_ obj: JSONObject, type: String, _ options: DecodingOptions) throws -> Geometry {
        func coordinates<T>(_ body: (JSONValue) throws -> T) throws -> T { try obj.decode("coordinates", body) }
        switch type {
        case "Point":
            return .point(try coordinates { v in try v.decodeArray().isEmpty ? nil : try position(v) })
        case "MultiPoint":
            let pts = try coordinates { try $0.decodeElements(position) }
            return .multipoint(Multipoint(points: pts))
        case "LineString":
            let path = try coordinates { try $0.decodeElements(position) }
            return .polyline(Polyline(paths: path.isEmpty ? [] : [path]))
        case "MultiLineString":
            return .polyline(
                Polyline(paths: try coordinates { try $0.decodeElements { try $0.decodeElements(position) } }))
        case "Polygon":
            let rings = try coordinates { try $0.decodeElements { try $0.decodeElements(position) } }
            return .polygon(toEsri([rings], options))
        case "MultiPolygon":
            let polys = try coordinates {
                try $0.decodeElements { try $0.decodeElements { try $0.decodeElements(position) } }
            }
            return .polygon(toEsri(polys, options))
        case "Feature", "FeatureCollection", "GeometryCollection":
            throw JSONError("expected a geometry object, found a \(type)", path: [.key("type")])
        default:
            throw JSONError(
                "unknown geometry type \(InputExcerpt.jsonString(type)): expected Point, MultiPoint, LineString, MultiLineString, Polygon or MultiPolygon",
                path: [.key("type")])
        }
    }

    /// `[x, y]`, `[x, y, z]` or `[x, y, z, m]`.
    private static func position(_ v: JSONValue) throws -> Point {
        let a = try v.decodeArray()
        guard a.count >= 2 else { throw JSONError("expected a position [x, y] or [x, y, z], found \(a.count) numbers") }
        guard a.count <= 4 else { throw JSONError("expected a position with at most 4 numbers, found \(a.count)") }
        var nums: [Double] = []
        nums.reserveCapacity(a.count)
        for (k, e) in a.enumerated() {
            nums.append(try withJSONPath(.index(k)) { try e.decodeCoordinate() })
        }
        return Point(x: nums[0], y: nums[1], z: a.count > 2 ? nums[2] : nil, m: a.count > 3 ? nums[3] : nil)
    }

    /// GeoJSON polygons (rings closed, RFC orientation or not) → one Esri-convention polygon.
    private static func toEsri(_ polygons: [[[Point]]], _ options: DecodingOptions) -> Polygon {
        var rings: [[Point]] = []
        for poly in polygons {
            for (k, raw) in poly.enumerated() {
                let r = Polygon.open(raw)
                if options.dropDegenerateRings, r.count < 3 {
                    if k == 0 { break }  // no exterior: drop the polygon
                    continue
                }
                // Exterior clockwise, holes counter-clockwise; zero area stays.
                rings.append(Kernel.oriented(r, clockwise: k == 0))
            }
        }
        return Polygon(openRings: rings, hasZ: false, hasM: false)
    }

    // MARK: - Writing

    /// Encodes a geometry as an RFC 7946 GeoJSON geometry object: in WGS 84 longitude/latitude,
    /// projected from its spatial reference when that is another one (``inWGS84(_:)``).
    /// - Throws: ``GeoJSONOutputError/noSpatialReference`` when `g` has no spatial reference
    ///   (use ``encode(wgs84:options:)`` for coordinates known to be longitudes and latitudes);
    ///   ``GeoJSONOutputError/cannotProject(from:)`` when its spatial reference cannot be
    ///   projected to WGS 84.
    /// - Complexity: O(v) for v vertices, plus hole assignment for polygons (see ``jsonValue(wgs84:options:)``).
    public static func encode(_ g: SpatialGeometry, options: EncodingOptions = EncodingOptions()) throws(GeoJSONOutputError) -> String {
        encode(wgs84: try inWGS84(g).geometry, options: options)
    }

    /// Encodes a geometry whose coordinates are WGS 84 longitudes and latitudes, as they are:
    /// the explicit call for a geometry that carries no spatial reference. Nothing is checked or
    /// projected.
    /// - Complexity: O(v) for v vertices, plus hole assignment for polygons (see ``jsonValue(wgs84:options:)``).
    public static func encode(wgs84 g: Geometry, options: EncodingOptions = EncodingOptions()) -> String {
        guard options.style == .compact else {
            return JSONWriter.string(jsonValue(wgs84: g, options: options), style: options.style)
        }
        var o = ByteOutput()
        o.out.reserveCapacity(64 + g.pointCount * 24)
        GeometryEncoder.geoJSON(wgs84: g, orientation: options.ringOrientation, into: &o)
        return String(decoding: o.out, as: UTF8.self)
    }

    /// Encodes a document (geometry, GeometryCollection, Feature or FeatureCollection), each
    /// geometry in WGS 84 as ``encode(_:options:)-(SpatialGeometry,_)`` writes it.
    /// - Throws: ``GeoJSONOutputError`` for the first geometry that cannot be written.
    package static func encode(_ doc: Document, options: EncodingOptions = EncodingOptions()) throws(GeoJSONOutputError) -> String {
        JSONWriter.string(try jsonValue(doc, options: options), style: options.style)
    }

    /// The GeoJSON value of a document, each geometry in WGS 84 (``inWGS84(_:)``).
    /// - Throws: ``GeoJSONOutputError`` for the first geometry that cannot be written.
    package static func jsonValue(_ doc: Document, options: EncodingOptions = EncodingOptions()) throws(GeoJSONOutputError) -> JSONValue {
        switch doc {
        case .geometry(let g): return jsonValue(wgs84: try inWGS84(g).geometry, options: options)
        case .geometryCollection(let gs):
            var members: [JSONValue] = []
            for g in gs { members.append(jsonValue(wgs84: try inWGS84(g).geometry, options: options)) }
            return ["type": "GeometryCollection", "geometries": .array(members)]
        case .feature(let f): return try jsonValue(f, options: options)
        case .featureCollection(let fs):
            var features: [JSONValue] = []
            for f in fs { features.append(try jsonValue(f, options: options)) }
            return ["type": "FeatureCollection", "features": .array(features)]
        }
    }

    /// The GeoJSON Feature object: `type`, `geometry` (in WGS 84, ``inWGS84(_:)``; null when
    /// nil or empty), `properties` (null when nil), then `id` when set.
    /// - Throws: ``GeoJSONOutputError`` when the geometry cannot be written.
    package static func jsonValue(_ f: Feature, options: EncodingOptions = EncodingOptions()) throws(GeoJSONOutputError) -> JSONValue {
        var o: JSONObject = ["type": "Feature"]
        if let g = f.geometry, !g.geometry.isEmpty {
            o["geometry"] = jsonValue(wgs84: try inWGS84(g).geometry, options: options)
        } else {
            o["geometry"] = .null
        }
        o["properties"] = f.attributes.map(JSONValue.object) ?? .null
        if let id = f.id { o["id"] = id }
        return .object(o)
    }

    /// The GeoJSON geometry object for a geometry whose coordinates are WGS 84 longitudes and
    /// latitudes, as they are (see ``encode(wgs84:options:)``). A polyline with one path is a
    /// LineString, with several a MultiLineString; a polygon is a Polygon when its rings form one
    /// exterior with its holes, else a MultiPolygon.
    /// - Complexity: O(v) for v vertices, plus the hole assignment of polygons (each hole is tested
    ///   against the exteriors whose envelope holds its first vertex).
    package static func jsonValue(wgs84 g: Geometry, options: EncodingOptions = EncodingOptions()) -> JSONValue {
        switch g {
        case .point(let p):
            return ["type": "Point", "coordinates": p.map(position) ?? .array([])]
        case .multipoint(let mp):
            return ["type": "MultiPoint", "coordinates": .array(mp.points.map(position))]
        case .polyline(let pl):
            if pl.paths.count == 1 {
                return ["type": "LineString", "coordinates": .array(pl.paths[0].map(position))]
            }
            if pl.paths.isEmpty { return ["type": "LineString", "coordinates": .array([])] }
            return ["type": "MultiLineString", "coordinates": .array(pl.paths.map { .array($0.map(position)) })]
        case .polygon(let pg):
            return polygonValue(pg.rings, options)
        case .envelope(let e):
            let ring = [Point(e.xmax, e.ymax), Point(e.xmin, e.ymax), Point(e.xmin, e.ymin), Point(e.xmax, e.ymin)]
            return ["type": "Polygon", "coordinates": .array([ringValue(ring)])]
        }
    }

    private static func polygonValue(_ rings: [[Point]], _ options: EncodingOptions) -> JSONValue {
        if rings.isEmpty { return ["type": "Polygon", "coordinates": .array([])] }
        let groups = groupRings(rings)
        let polys: [JSONValue] = groups.map { group in
            .array(
                group.enumerated().map { k, idx in
                    // RFC 7946: exterior counter-clockwise, holes clockwise.
                    let r = options.ringOrientation == .rfc7946 ? Kernel.oriented(rings[idx], clockwise: k > 0) : rings[idx]
                    return ringValue(r)
                })
        }
        if polys.count == 1 { return ["type": "Polygon", "coordinates": polys[0]] }
        return ["type": "MultiPolygon", "coordinates": .array(polys)]
    }

    private static func ringValue(_ r: [Point]) -> JSONValue { .array(Polygon.withClosingVertex(r).map(position)) }

    private static func position(_ p: Point) -> JSONValue {
        if let z = p.z { return [.number(p.x), .number(p.y), .number(z)] }
        return [.number(p.x), .number(p.y)]
    }
}
