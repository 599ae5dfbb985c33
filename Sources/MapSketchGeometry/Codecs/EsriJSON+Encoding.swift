// Esri JSON as a JSONValue tree (for documents and the pretty style); the compact text of one
// geometry comes from the format's encoder (GeometryEncoder+EsriJSON.swift).

extension EsriJSON {
    /// Encodes a geometry as Esri JSON text (deterministic; see ``JSONWriter``).
    /// - Complexity: O(v) for v vertices.
    public static func encode(_ g: SpatialGeometry, style: JSONStyle = .compact) -> String {
        guard style == .compact else { return JSONWriter.string(jsonValue(g), style: style) }
        var o = ByteOutput()
        o.out.reserveCapacity(64 + g.geometry.pointCount * 24)
        GeometryEncoder.esriJSON(g, into: &o)
        return String(decoding: o.out, as: UTF8.self)
    }

    /// The Esri JSON object for a geometry: `x`/`y`/`z`/`m`, `points`, `paths`, `rings` (closed)
    /// or `xmin`…, then `hasZ`/`hasM` when true (multipart types), then `spatialReference` when set.
    /// - Complexity: O(v) for v vertices.
    package static func jsonValue(_ g: SpatialGeometry) -> JSONValue {
        var o = JSONObject()
        switch g.geometry {
        case .point(let p):
            if let p {
                o["x"] = .number(p.x)
                o["y"] = .number(p.y)
                if let z = p.z { o["z"] = .number(z) }
                if let m = p.m { o["m"] = .number(m) }
            } else {
                o["x"] = .null
            }
        case .multipoint(let mp):
            let (z, m) = flags(&o, mp.hasZ, mp.hasM, [mp.points])
            o["points"] = .array(mp.points.map { vertex($0, z, m) })
        case .polyline(let pl):
            let (z, m) = flags(&o, pl.hasZ, pl.hasM, pl.paths)
            o["paths"] = .array(pl.paths.map { .array($0.map { vertex($0, z, m) }) })
        case .polygon(let pg):
            let (z, m) = flags(&o, pg.hasZ, pg.hasM, pg.rings)
            o["rings"] = .array(pg.rings.map { .array(Polygon.withClosingVertex($0).map { vertex($0, z, m) }) })
        case .envelope(let e):
            o["xmin"] = .number(e.xmin)
            o["ymin"] = .number(e.ymin)
            o["xmax"] = .number(e.xmax)
            o["ymax"] = .number(e.ymax)
        }
        if let sr = g.spatialReference { o["spatialReference"] = jsonValue(sr) }
        return .object(o)
    }

    /// The Esri JSON object for a spatial reference: `wkid` and `latestWkid`, or `wkt`.
    package static func jsonValue(_ sr: SpatialReference) -> JSONValue {
        var o = JSONObject()
        if let w = sr.wkid { o["wkid"] = .integer(Int64(w)) }
        if let w = sr.latestWkid { o["latestWkid"] = .integer(Int64(w)) }
        if let wkt = sr.wkt { o["wkt"] = .string(wkt) }
        return .object(o)
    }

    /// The Esri JSON object for a feature: `geometry` (omitted when nil) and `attributes`
    /// (omitted when nil). The feature's ``Feature/id`` is not written: Esri features carry ids as
    /// attributes (see ``Feature/withIDInAttributes(_:)``).
    ///
    /// - Parameters:
    ///   - f: the feature.
    ///   - includeSpatialReference: write the geometry's spatial reference (false inside a
    ///     feature set that states it once).
    package static func jsonValue(_ f: Feature, includeSpatialReference: Bool = true) -> JSONValue {
        var o = JSONObject()
        if var g = f.geometry {
            if !includeSpatialReference { g.spatialReference = nil }
            o["geometry"] = jsonValue(g)
        }
        if let a = f.attributes { o["attributes"] = .object(a) }
        return .object(o)
    }

    /// The Esri JSON object for a feature set: its metadata members in order, then `geometryType`,
    /// `spatialReference`, `hasZ`/`hasM` (when true) and `features`. A feature whose spatial
    /// reference equals the set's does not repeat it.
    /// - Complexity: O(v) for v vertices.
    package static func jsonValue(_ fs: FeatureSet) -> JSONValue {
        var o = fs.metadata
        if let t = fs.geometryType { o["geometryType"] = .string(name(of: t)) }
        if let sr = fs.spatialReference { o["spatialReference"] = jsonValue(sr) }
        if fs.hasZ { o["hasZ"] = .bool(true) }
        if fs.hasM { o["hasM"] = .bool(true) }
        o["features"] = .array(
            fs.features.map { f in
                jsonValue(
                    f,
                    includeSpatialReference: f.geometry?.spatialReference != fs.spatialReference
                        || fs.spatialReference == nil)
            })
        return .object(o)
    }

    /// Encodes a feature set as Esri JSON text.
    package static func encode(_ fs: FeatureSet, style: JSONStyle = .compact) -> String {
        JSONWriter.string(jsonValue(fs), style: style)
    }

    /// The `hasZ`/`hasM` flags a geometry is written with: its own, or true when any vertex
    /// carries z/m anyway (so no value is dropped). The tree and the encoder use them.
    static func writtenFlags(_ z: Bool, _ m: Bool, _ parts: [[Point]]) -> (hasZ: Bool, hasM: Bool) {
        (z || parts.contains { $0.contains { $0.z != nil } }, m || parts.contains { $0.contains { $0.m != nil } })
    }

    /// Writes the flags of ``writtenFlags(_:_:_:)`` that are true; returns both.
    private static func flags(_ o: inout JSONObject, _ z: Bool, _ m: Bool, _ parts: [[Point]]) -> (Bool, Bool) {
        let (z, m) = writtenFlags(z, m, parts)
        if z { o["hasZ"] = .bool(true) }
        if m { o["hasM"] = .bool(true) }
        return (z, m)
    }

    /// `[x, y]`, then z (or null) when `hasZ`, then m (or null) when `hasM`.
    private static func vertex(_ p: Point, _ hasZ: Bool, _ hasM: Bool) -> JSONValue {
        var a: [JSONValue] = [.number(p.x), .number(p.y)]
        a.reserveCapacity(4)
        if hasZ { a.append(p.z.map(JSONValue.number) ?? .null) }
        if hasM { a.append(p.m.map(JSONValue.number) ?? .null) }
        return .array(a)
    }
}
