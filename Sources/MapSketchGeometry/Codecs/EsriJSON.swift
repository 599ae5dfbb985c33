/// The Esri JSON geometry format of the ArcGIS REST API, read and written.
///
/// Geometries:
/// - point `{"x", "y", "z"?, "m"?}`; `{"x": null}` or `"x": "NaN"` is the empty point.
/// - multipoint `{"points": [[x, y, …], …]}`, polyline `{"paths": …}`, polygon `{"rings": …}`,
///   envelope `{"xmin", "ymin", "xmax", "ymax"}` (z/m bounds are not kept).
/// - `hasZ`/`hasM` say what the third and fourth numbers of a vertex are: `[x, y, z, m]` with
///   both, `[x, y, m]` with `hasM` only. With no flags, a third number is z and a fourth m.
///   A `null` z or m is absent. A vertex shorter than its flags require is an error.
/// - `spatialReference` with `wkid`, `latestWkid` or `wkt`.
/// - Rings: the closing vertex (last equal to first in x and y) is dropped on read and always
///   added on write. **Orientation is kept as given** on read: Esri JSON's own convention is
///   exterior rings clockwise and holes counter-clockwise, and a file that breaks it is not
///   silently "repaired" (the engine's `simplify` does that on request).
/// - Coordinates must be finite numbers; `"NaN"` is accepted only as the empty point.
///
/// Feature sets: `{"features": [{"geometry": …, "attributes": {…}}, …]}` with the set's
/// `spatialReference`, `geometryType`, `hasZ`, `hasM` applying to every feature; other top-level
/// members (`fields`, `objectIdFieldName`, …) are kept in ``FeatureSet/metadata`` in order.
///
/// Leniency: ``CodecDecodingOptions/allowTrailingCommas`` accepts `[1,2,]`-style commas, which some
/// hand-written files have (GDAL's `esrizpoint.json` test file does on purpose); it is off by
/// default, and the error then says `trailing comma before '}' is not allowed` with line:column.
///
/// ```swift
/// let g = try EsriJSON.decode(#"{"paths": [[[0,0],[10,0]]], "spatialReference": {"wkid": 4326}}"#)
/// EsriJSON.encode(g)   // {"paths":[[[0,0],[10,0]]],"spatialReference":{"wkid":4326}}
/// ```
public enum EsriJSON {
    /// Options for reading (shared with ``GeoJSON``).
    public typealias DecodingOptions = CodecDecodingOptions

    /// A set of features: the ArcGIS REST query response (`FeatureSet`).
    package struct FeatureSet: Hashable, Sendable {
        /// The features, in order.
        public var features: [Feature]
        /// The set's spatial reference (each feature's geometry carries it too).
        public var spatialReference: SpatialReference?
        /// The set's `geometryType`, when given.
        public var geometryType: GeometryType?
        /// The set's `hasZ`.
        public var hasZ: Bool
        /// The set's `hasM`.
        public var hasM: Bool
        /// Every other top-level member (`fields`, `displayFieldName`, …), in order.
        public var metadata: JSONObject

        /// Creates a feature set.
        public init(
            features: [Feature], spatialReference: SpatialReference? = nil, geometryType: GeometryType? = nil,
            hasZ: Bool = false, hasM: Bool = false, metadata: JSONObject = JSONObject()
        ) {
            self.features = features
            self.spatialReference = spatialReference
            self.geometryType = geometryType
            self.hasZ = hasZ
            self.hasM = hasM
            self.metadata = metadata
        }
    }

    // MARK: - Reading

    /// Decodes one geometry from text: a geometry object, or a feature object (its geometry).
    /// - Throws: ``JSONError`` with line:column, the field path and what was expected.
    /// - Complexity: O(n) for n bytes.
    public static func decode(_ text: String, options: DecodingOptions = DecodingOptions()) throws -> SpatialGeometry {
        try JSONParser.decode(text, options: options.parser) { try decode($0, options: options) }
    }

    /// Decodes one geometry from a parsed value, as ``decode(_:options:)`` does from text.
    /// - Throws: ``JSONError`` with the field path (no line:column: a value has no position).
    /// - Complexity: O(v) for v vertices.
    package static func decode(_ value: JSONValue, options: DecodingOptions = DecodingOptions()) throws -> SpatialGeometry {
        let obj = try value.decodeObject()
        if geometryKind(of: obj) == nil, obj.contains("geometry") {
            guard let g = try obj.decode("geometry", { try decodeFeatureGeometry($0, nil, options) }) else {
                throw JSONError("the feature has no geometry", path: [.key("geometry")])
            }
            return g
        }
        if geometryKind(of: obj) == nil, obj.contains("features") {
            throw JSONError("expected one geometry, found a feature set (decode it with EsriJSON.decodeFeatureSet)")
        }
        if geometryKind(of: obj) == nil, obj.contains("geometries") {
            throw JSONError("expected one geometry, found a geometry list (decode it with EsriJSON.decodeGeometries)")
        }
        return try decodeGeometry(value, options: options)
    }

    /// Decodes a geometry object.
    ///
    /// - Parameters:
    ///   - value: the parsed geometry object.
    ///   - spatialReference: used when the object has no `spatialReference` of its own.
    ///   - geometryType: the feature set's type: `{}` becomes an empty geometry of this type. A
    ///     geometry whose keys say otherwise keeps its own type (the keys are authoritative; some
    ///     services and test files mix types under one `geometryType`).
    ///   - hasZ: the default for the object's own `hasZ`.
    ///   - hasM: the default for the object's own `hasM`.
    ///   - options: reading options (``CodecDecodingOptions/dropDegenerateRings`` applies here).
    /// - Throws: ``JSONError`` with the field path; a value has no text position, so no
    ///   line:column (``decode(_:options:)`` adds it when it reads text).
    /// - Complexity: O(v) for v vertices.
    package static func decodeGeometry(
        _ value: JSONValue, spatialReference: SpatialReference? = nil, geometryType: GeometryType? = nil,
        hasZ: Bool = false, hasM: Bool = false, options: DecodingOptions = DecodingOptions()
    ) throws -> SpatialGeometry {
        let obj = try value.decodeObject()
        let sr = try obj.decodeIfPresent("spatialReference", decodeSpatialReference) ?? spatialReference
        let hz = try obj.decodeIfPresent("hasZ") { try $0.decodeBool() } ?? hasZ
        let hm = try obj.decodeIfPresent("hasM") { try $0.decodeBool() } ?? hasM
        guard let kind = geometryKind(of: obj) ?? (obj.isEmpty ? geometryType : nil) else {
            if obj.contains("curvePaths") || obj.contains("curveRings") {
                throw JSONError("curved geometries (curvePaths, curveRings) are not supported")
            }
            throw JSONError(
                "expected an Esri JSON geometry: an object with \"x\", \"points\", \"paths\", \"rings\" or \"xmin\"")
        }
        let layout = VertexLayout(hasZ: hz, hasM: hm)
        let g: Geometry
        switch kind {
        case .point: g = .point(obj.contains("x") ? try decodePoint(obj) : nil)
        case .multipoint:
            let pts = try obj.decodeIfPresent("points") { try $0.decodeElements { try layout.vertex($0) } } ?? []
            g = .multipoint(
                Multipoint(
                    points: pts, hasZ: hz || allVertices([pts]) { $0.z != nil },
                    hasM: hm || allVertices([pts]) { $0.m != nil }))
        case .polyline:
            let paths = try obj.decodeIfPresent("paths") { try layout.parts($0) } ?? []
            g = .polyline(
                Polyline(
                    paths: paths, hasZ: hz || allVertices(paths) { $0.z != nil },
                    hasM: hm || allVertices(paths) { $0.m != nil }))
        case .polygon:
            var rings = try obj.decodeIfPresent("rings") { try layout.parts($0) } ?? []
            rings = rings.map(Polygon.open)
            if options.dropDegenerateRings { rings.removeAll { $0.count < 3 } }
            g = .polygon(Polygon(openRings: rings, hasZ: hz, hasM: hm))
        case .envelope:
            func bound(_ k: String) throws -> Double {
                try obj.decode(k) { v in
                    if v.isNull { throw JSONError("empty envelopes (null bounds) are not supported") }
                    return try v.decodeCoordinate()
                }
            }
            g = .envelope(
                Envelope(
                    xmin: try bound("xmin"), ymin: try bound("ymin"), xmax: try bound("xmax"), ymax: try bound("ymax")))
        }
        return SpatialGeometry(g, spatialReference: sr)
    }

    /// Decodes a `spatialReference` object; nil when it has none of `wkid`, `latestWkid`, `wkt`.
    /// - Throws: ``JSONError`` when a member has the wrong type.
    package static func decodeSpatialReference(_ value: JSONValue) throws -> SpatialReference? {
        let o = try value.decodeObject()
        let wkid = try o.decodeIfPresent("wkid") { try $0.decodeInt() }
        let latest = try o.decodeIfPresent("latestWkid") { try $0.decodeInt() }
        let wkt = try o.decodeIfPresent("wkt") { try $0.decodeString() }
        if wkid == nil, latest == nil, wkt == nil { return nil }
        return SpatialReference(wkid: wkid, latestWkid: latest, wkt: wkt)
    }

    /// Decodes a feature set from text: a FeatureSet object (`{"features": […], …}`), a bare array
    /// of features, a single feature, or a single geometry (as one feature without attributes).
    /// - Throws: ``JSONError`` with line:column, the field path and what was expected.
    /// - Complexity: O(n) for n bytes.
    package static func decodeFeatureSet(_ text: String, options: DecodingOptions = DecodingOptions()) throws
        -> FeatureSet
    {
        try JSONParser.decode(text, options: options.parser) { try decodeFeatureSet($0, options: options) }
    }

    /// Decodes a feature set from a parsed value (see ``decodeFeatureSet(_:options:)-(String,_)``).
    /// - Throws: ``JSONError`` with the field path.
    package static func decodeFeatureSet(_ value: JSONValue, options: DecodingOptions = DecodingOptions()) throws
        -> FeatureSet
    {
        if case .array = value {
            return FeatureSet(features: try value.decodeElements { try decodeFeature($0, options: options) })
        }
        let obj = try value.decodeObject()
        guard obj.contains("features") else {
            if geometryKind(of: obj) != nil {
                let g = try decodeGeometry(value, options: options)
                return FeatureSet(
                    features: [Feature(geometry: g)], spatialReference: g.spatialReference,
                    geometryType: g.geometry.type)
            }
            let f = try decodeFeature(value, options: options)
            return FeatureSet(
                features: [f], spatialReference: f.geometry?.spatialReference, geometryType: f.geometry?.geometry.type)
        }
        let sr = try obj.decodeIfPresent("spatialReference", decodeSpatialReference) ?? nil
        let type = try obj.decodeIfPresent("geometryType", decodeGeometryType)
        let hz = try obj.decodeIfPresent("hasZ") { try $0.decodeBool() } ?? false
        let hm = try obj.decodeIfPresent("hasM") { try $0.decodeBool() } ?? false
        let features = try obj.decode("features") { v in
            try v.decodeElements {
                try decodeFeature($0, spatialReference: sr, geometryType: type, hasZ: hz, hasM: hm, options: options)
            }
        }
        var metadata = JSONObject()
        for (k, v) in obj where !["features", "spatialReference", "geometryType", "hasZ", "hasM"].contains(k) {
            metadata[k] = v
        }
        return FeatureSet(
            features: features, spatialReference: sr, geometryType: type, hasZ: hz, hasM: hm, metadata: metadata)
    }

    /// Decodes one feature `{"geometry": …, "attributes": {…}}`; either member may be absent or null.
    /// - Throws: ``JSONError`` with the field path.
    package static func decodeFeature(
        _ value: JSONValue, spatialReference: SpatialReference? = nil, geometryType: GeometryType? = nil,
        hasZ: Bool = false, hasM: Bool = false, options: DecodingOptions = DecodingOptions()
    ) throws -> Feature {
        let obj = try value.decodeObject()
        let g = try obj.decodeIfPresent("geometry") {
            try decodeGeometry(
                $0, spatialReference: spatialReference, geometryType: geometryType, hasZ: hasZ, hasM: hasM,
                options: options)
        }
        let attributes = try obj.decodeIfPresent("attributes") { try $0.decodeObject() }
        return Feature(geometry: g, attributes: attributes)
    }

    /// Decodes a list of geometries: a JSON array of geometry objects, an object with a
    /// `geometries` array (and an optional shared `spatialReference`/`geometryType`, as the
    /// geometry service uses), or one geometry.
    /// - Throws: ``JSONError`` with line:column, the field path and what was expected.
    public static func decodeGeometries(_ text: String, options: DecodingOptions = DecodingOptions()) throws
        -> [SpatialGeometry]
    {
        try JSONParser.decode(text, options: options.parser) { value in
            if case .array = value { return try value.decodeElements { try decodeGeometry($0, options: options) } }
            let obj = try value.decodeObject()
            guard obj.contains("geometries") else { return [try decodeGeometry(value, options: options)] }
            let sr = try obj.decodeIfPresent("spatialReference", decodeSpatialReference) ?? nil
            let type = try obj.decodeIfPresent("geometryType", decodeGeometryType)
            return try obj.decode("geometries") { v in
                try v.decodeElements {
                    try decodeGeometry($0, spatialReference: sr, geometryType: type, options: options)
                }
            }
        }
    }

    /// Decodes a `geometryType` member.
    /// - Throws: ``JSONError`` naming the five valid names when the name is unknown.
    static func decodeGeometryType(_ v: JSONValue) throws -> GeometryType {
        let s = try v.decodeString()
        guard let t = geometryType(named: s) else {
            throw JSONError(
                "unknown geometryType \"\(s)\": expected esriGeometryPoint, esriGeometryMultipoint, "
                    + "esriGeometryPolyline, esriGeometryPolygon or esriGeometryEnvelope")
        }
        return t
    }

    /// The geometry type for an Esri `geometryType` name (`esriGeometryPolygon`, …; case-insensitive).
    package static func geometryType(named name: String) -> GeometryType? {
        switch name.lowercased() {
        case "esrigeometrypoint": .point
        case "esrigeometrymultipoint": .multipoint
        case "esrigeometrypolyline": .polyline
        case "esrigeometrypolygon": .polygon
        case "esrigeometryenvelope": .envelope
        default: nil
        }
    }

    /// The Esri `geometryType` name of a geometry type.
    package static func name(of type: GeometryType) -> String {
        switch type {
        case .point: "esriGeometryPoint"
        case .multipoint: "esriGeometryMultipoint"
        case .polyline: "esriGeometryPolyline"
        case .polygon: "esriGeometryPolygon"
        case .envelope: "esriGeometryEnvelope"
        }
    }

    private static func decodeFeatureGeometry(_ v: JSONValue, _ sr: SpatialReference?, _ options: DecodingOptions)
        throws -> SpatialGeometry?
    {
        v.isNull ? nil : try decodeGeometry(v, spatialReference: sr, options: options)
    }

    private static func decodePoint(_ obj: JSONObject) throws -> Point? {
        let xv = try obj.require("x")
        if xv.isEmptyMarker { return nil }
        let x = try withJSONPath(.key("x")) { try xv.decodeCoordinate() }
        let y = try obj.decode("y") { try $0.decodeCoordinate() }
        let z = try obj.decodeIfPresent("z") { try $0.decodeOptionalCoordinate() } ?? nil
        let m = try obj.decodeIfPresent("m") { try $0.decodeOptionalCoordinate() } ?? nil
        return Point(x: x, y: y, z: z, m: m)
    }
}

extension EsriJSON {
    /// Which geometry an Esri JSON object is, by its keys.
    static func geometryKind(of o: JSONObject) -> GeometryType? {
        if o.contains("x") { return .point }
        if o.contains("points") { return .multipoint }
        if o.contains("paths") { return .polyline }
        if o.contains("rings") { return .polygon }
        if o.contains("xmin") { return .envelope }
        return nil
    }

    /// How to read the numbers of one vertex.
    struct VertexLayout {
        var hasZ: Bool
        var hasM: Bool

        func vertex(_ v: JSONValue) throws -> Point {
            let a = try v.decodeArray()
            guard a.count >= 2 else {
                throw JSONError("expected a vertex [x, y, …] with at least 2 numbers, found \(a.count)")
            }
            let x = try withJSONPath(.index(0)) { try a[0].decodeCoordinate() }
            let y = try withJSONPath(.index(1)) { try a[1].decodeCoordinate() }
            let need = 2 + (hasZ ? 1 : 0) + (hasM ? 1 : 0)
            if a.count < need {
                let names = ["x", "y"] + (hasZ ? ["z"] : []) + (hasM ? ["m"] : [])
                let why = hasZ && hasM ? "hasZ and hasM are" : (hasZ ? "hasZ is" : "hasM is")
                throw JSONError(
                    "expected \(need) numbers (\(names.joined(separator: ", "))) because \(why) true, found \(a.count)")
            }
            guard a.count <= 4 else {
                throw JSONError("expected at most 4 numbers (x, y, z, m) in a vertex, found \(a.count)")
            }
            var z: Double?
            var m: Double?
            if a.count == 3 {
                let third = try withJSONPath(.index(2)) { try a[2].decodeOptionalCoordinate() }
                if hasM && !hasZ { m = third } else { z = third }
            } else if a.count == 4 {
                z = try withJSONPath(.index(2)) { try a[2].decodeOptionalCoordinate() }
                m = try withJSONPath(.index(3)) { try a[3].decodeOptionalCoordinate() }
            }
            return Point(x: x, y: y, z: z, m: m)
        }

        func parts(_ v: JSONValue) throws -> [[Point]] {
            try v.decodeElements { part in try part.decodeElements { try vertex($0) } }
        }
    }
}
