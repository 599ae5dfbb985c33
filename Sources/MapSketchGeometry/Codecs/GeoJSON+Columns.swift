// A GeoJSON FeatureCollection read straight into columns.

extension GeoJSON {
    /// Reads a FeatureCollection into columns: a geometry column and a typed column per property
    /// name (see ``FeatureColumns`` and ``FieldColumn``), streaming: points go from the bytes
    /// straight into the geometry column, other geometries through a value tree one feature at a
    /// time, and properties straight into their columns (a string seen before in its field found
    /// by its bytes). A point feature whose properties are numbers and strings seen before
    /// costs no allocation.
    ///
    /// Geometries are read as ``decode(_:options:)`` reads them (rings oriented the Esri way,
    /// MultiPolygons as one polygon, `options` applying); a feature whose geometry is null gets the
    /// empty point. A property that is null is null in its column; a feature without a property
    /// lacks it there. A feature's `id`, `bbox` and foreign members are not read. The spatial
    /// reference is WGS 84 unless the collection has a legacy `crs` member.
    ///
    /// ```swift
    /// let columns = try GeoJSON.decodeColumns(#"{"type":"FeatureCollection","features":[
    ///     {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"ID":7}}]}"#)
    /// columns.field(named: "ID")?.integers   // [7]
    /// ```
    /// - Throws: ``JSONError`` with line:column and the path of what is wrong, e.g.
    ///   `3:41: features[1].geometry.coordinates[0]: expected a number, found a string`.
    /// - Complexity: O(n) for n bytes; memory holds the columns, not the document.
    public static func decodeColumns(_ text: String, options: DecodingOptions = DecodingOptions()) throws
        -> FeatureColumns
    {
        var text = text
        return try text.withUTF8 { try decodeColumns(UnsafeRawBufferPointer($0), options: options) }
    }

    /// Reads a FeatureCollection from UTF-8 bytes (see ``decodeColumns(_:options:)-(String,_)``).
    /// - Throws: ``JSONError`` with line:column and the path of what is wrong.
    /// - Complexity: O(n) for n bytes.
    public static func decodeColumns(_ bytes: UnsafeRawBufferPointer, options: DecodingOptions = DecodingOptions())
        throws -> FeatureColumns
    {
        var out: FeatureColumns?
        try decodeColumns(bytes, options: options, batchSize: .max) { columns, _ in out = columns }
        return out ?? FeatureColumns(geometry: GeometryColumn(), spatialReference: .wgs84)
    }

    /// Reads a FeatureCollection from UTF-8 bytes a batch of features at a time: `body` gets the
    /// columns of each `batchSize` features in document order (the last batch may be smaller),
    /// and how many bytes of the document have been read, none of which is needed again. Memory
    /// holds one batch's columns. Features, geometries and properties are read as
    /// ``decodeColumns(_:options:)-(String,_)`` reads them.
    ///
    /// A legacy `crs` member must come before the features once a batch has been given out;
    /// the document's `type` and `features` members are checked at its end, after the batches.
    /// - Throws: ``JSONError`` with line:column and the path of what is wrong, or what `body`
    ///   throws.
    /// - Complexity: O(n) for n bytes.
    public static func decodeColumns(
        _ bytes: UnsafeRawBufferPointer, options: DecodingOptions = DecodingOptions(), batchSize: Int,
        _ body: (FeatureColumns, _ bytesRead: Int) throws -> Void
    ) throws {
        try decodeColumns(bytes, options: options, batchSize: batchSize, body, afterFeature: nil)
    }

    /// ``decodeColumns(_:options:batchSize:_:)``, also calling `afterFeature` with the bytes read
    /// after each feature.
    static func decodeColumns(
        _ bytes: UnsafeRawBufferPointer, options: DecodingOptions, batchSize: Int,
        _ body: (FeatureColumns, _ bytesRead: Int) throws -> Void, afterFeature: ((Int) -> Void)?
    ) throws {
        precondition(batchSize > 0, "a batch holds at least one feature")
        var r = FeatureColumnsReader(bytes.bindMemory(to: UInt8.self), options: options.parser)
        var type: (name: String, at: FeatureColumnsReader.Mark)?
        var spatialReference = SpatialReference.wgs84
        var sawFeatures = false
        var gaveBatch = false
        let top = r.mark
        try r.members { r, key in
            switch key {
            case "type":
                let at = r.mark
                type = (try r.decode([.key("type")]) { try $0.decodeString() }, at)
            case "crs":
                let at = r.mark
                let sr =
                    try r.decode([.key("crs")]) { v in
                        do {
                            return try crs(JSONObject([("crs", v)]))
                        } catch var e as JSONError {
                            // The path below the crs value itself.
                            if e.path.first == .key("crs") { e.path.removeFirst() }
                            throw e
                        }
                    } ?? .wgs84
                if gaveBatch, sr != spatialReference {
                    r.restore(at)
                    var e = r.p.error("expected the \"crs\" member before \"features\" (features are read as they come)")
                    e.path = [.key("crs")]
                    throw e
                }
                spatialReference = sr
            case "features":
                sawFeatures = true
                var batchStart = r.p.i
                try r.elements { r, index in
                    try r.geoJSONFeature(index: index, options: options)
                    afterFeature?(r.p.i)
                    if r.geometry.count == 1 {
                        // Room for the batch at this feature's bytes per feature (1/32 more): the
                        // columns then grow once, not by doubling.
                        let each = max(r.p.i - batchStart, 1)
                        let rest = (r.p.p.count - r.p.i) / each
                        r.reserve(rows: min(batchSize - 1, rest + rest / 32 + 1))
                    }
                    if r.geometry.count >= batchSize {
                        gaveBatch = true
                        try body(r.takeColumns(spatialReference), r.p.i)
                        batchStart = r.p.i
                    }
                }
            default:
                try r.skipValue()
            }
        }
        r.p.skipSpace()
        if r.p.i < r.p.p.count {
            throw r.p.error("expected end of input after the JSON value, found \(r.p.foundDescription())")
        }
        guard let type else {
            r.restore(top)
            throw r.p.error("expected a \"type\" member: a GeoJSON FeatureCollection")
        }
        guard type.name == "FeatureCollection" else {
            r.restore(type.at)
            var e = r.p.error("expected a FeatureCollection, found \"\(type.name)\"")
            e.path = [.key("type")]
            throw e
        }
        guard sawFeatures else {
            r.restore(top)
            throw r.p.error("expected a \"features\" member: a GeoJSON FeatureCollection")
        }
        if r.geometry.count > 0 || !gaveBatch { try body(r.takeColumns(spatialReference), r.p.i) }
    }
}

extension FeatureColumnsReader {
    /// Reads the GeoJSON Feature at the position into the next row: its geometry as
    /// ``GeoJSON/decode(_:options:)`` reads it (null: the empty point; a point straight from the
    /// bytes), its properties into their fields. `index` is the feature's place in its
    /// collection's `features` (nil: a Feature on its own), for errors.
    mutating func geoJSONFeature(index: Int?, options: GeoJSON.DecodingOptions) throws {
        let row = geometry.count
        var g: Geometry?
        func path(_ key: String) -> [JSONPathComponent] {
            (index.map { [.key("features"), .index($0)] } ?? []) + [.key(key)]
        }
        try rawMembers { r, key in
            if FeatureColumnsReader.bytes(key, are: "geometry") {
                if let point = r.geoJSONPoint() {
                    g = .point(point)
                    return
                }
                g = try r.decode(path("geometry")) { v in
                    if v.isNull { return nil }
                    if case .string("GeometryCollection")? = v["type"] {
                        throw JSONError(
                            "a GeometryCollection as a Feature's geometry is not supported", path: [.key("type")])
                    }
                    return try GeoJSON.decodeGeometry(v, options: options)?.geometry
                }
            } else if FeatureColumnsReader.bytes(key, are: "properties") {
                try r.attributes(row: row)
            } else if FeatureColumnsReader.bytes(key, are: "type") {
                if r.skipQuoted("Feature") { return }
                let at = r.mark
                let t = try r.decode(path("type")) { try $0.decodeString() }
                guard t == "Feature" else {
                    r.restore(at)
                    var e = r.p.error("expected a Feature, found \"\(t)\"")
                    e.path = path("type")
                    throw e
                }
            } else {
                try r.skipValue()
            }
        }
        endRow(row, geometry: g)
    }
}
