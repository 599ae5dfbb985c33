// An Esri JSON FeatureSet read straight into columns.

extension EsriJSON {
    /// Reads a FeatureSet (`{"features": […], "fields": […], …}`, or a bare array of features)
    /// into columns: a geometry column and a typed column per attribute name (see
    /// ``FeatureColumns`` and ``FieldColumn``), streaming — one feature's geometry is a value tree
    /// at a time; attributes go straight into their columns.
    ///
    /// The set's `spatialReference`, `geometryType`, `hasZ` and `hasM` apply to every geometry,
    /// wherever they stand in the document (members written after `features` are read first, in
    /// a pass that steps over the features without building them). Geometries are read as
    /// ``decodeFeatureSet(_:options:)-(String,_)`` reads them; a feature whose geometry is absent or
    /// null gets the empty point. The `fields` list fixes each listed field's column type:
    /// integer types (`esriFieldTypeOID`, `…Integer`, `…SmallInteger`, `…BigInteger`), doubles
    /// (`…Double`, `…Single`), strings (`…String`, `…GUID`, `…GlobalID`) and dates
    /// (`esriFieldTypeDate`: epoch milliseconds); a listed field no feature has is a column every
    /// row lacks, and a field listed twice takes its first declaration.
    ///
    /// - Throws: ``JSONError`` with line:column and the path of what is wrong.
    /// - Complexity: O(n) for n bytes (members after `features` cost a second, lighter pass over
    ///   it); memory holds the columns, not the document.
    public static func decodeColumns(_ text: String, options: DecodingOptions = DecodingOptions()) throws
        -> FeatureColumns
    {
        var text = text
        return try text.withUTF8 { try decodeColumns(UnsafeRawBufferPointer($0), options: options) }
    }

    /// Reads a FeatureSet from UTF-8 bytes (see ``decodeColumns(_:options:)-(String,_)``).
    /// - Throws: ``JSONError`` with line:column and the path of what is wrong.
    /// - Complexity: O(n) for n bytes.
    public static func decodeColumns(_ bytes: UnsafeRawBufferPointer, options: DecodingOptions = DecodingOptions())
        throws -> FeatureColumns
    {
        var r = FeatureColumnsReader(bytes.bindMemory(to: UInt8.self), options: options.parser)
        var spatialReference: SpatialReference?
        var geometryType: GeometryType?
        var hasZ = false
        var hasM = false
        var features: FeatureColumnsReader.Mark?
        var prefix: [JSONPathComponent] = [.key("features")]
        if r.byte == UInt8(ascii: "[") {
            features = r.mark
            prefix = []
        } else {
            let top = r.mark
            try r.members { r, key in
                switch key {
                case "features":
                    features = r.mark
                    try r.skipValue()
                case "spatialReference":
                    spatialReference = try r.decode([.key(key)]) { try decodeSpatialReference($0) }
                case "geometryType":
                    geometryType = try r.decode([.key(key)]) { try decodeGeometryType($0) }
                case "hasZ":
                    hasZ = try r.decode([.key(key)]) { try $0.decodeBool() }
                case "hasM":
                    hasM = try r.decode([.key(key)]) { try $0.decodeBool() }
                case "fields":
                    let declared = try r.decode([.key(key)]) { try declaredFields($0) }
                    for (name, kind) in declared { r.declare(name, kind) }
                default:
                    try r.skipValue()
                }
            }
            r.p.skipSpace()
            if r.p.i < r.p.p.count {
                throw r.p.error("expected end of input after the JSON value, found \(r.p.foundDescription())")
            }
            guard features != nil else {
                r.restore(top)
                throw r.p.error("expected a \"features\" member: an Esri JSON FeatureSet")
            }
        }
        guard let features else { return r.columns(spatialReference) }
        let end = r.mark
        r.restore(features)
        try r.elements { r, row in
            var g: Geometry?
            try r.members { r, key in
                switch key {
                case "geometry":
                    g = try r.decode(prefix + [.index(row), .key("geometry")]) { v in
                        if v.isNull { return nil }
                        return try decodeGeometry(
                            v, spatialReference: spatialReference, geometryType: geometryType, hasZ: hasZ, hasM: hasM,
                            options: options
                        ).geometry
                    }
                case "attributes":
                    try r.attributes(row: row)
                default:
                    try r.skipValue()
                }
            }
            r.endRow(row, geometry: g)
        }
        if prefix.isEmpty {
            r.p.skipSpace()
            if r.p.i < r.p.p.count {
                throw r.p.error("expected end of input after the JSON value, found \(r.p.foundDescription())")
            }
        } else {
            r.restore(end)
        }
        return r.columns(spatialReference)
    }

    /// The field names and column types an Esri `fields` list declares (fields of other types,
    /// and entries without a name, are left to their values).
    static func declaredFields(_ value: JSONValue) throws -> [(String, FieldColumn.Kind)] {
        try value.decodeElements { f -> (String, FieldColumn.Kind)? in
            let o = try f.decodeObject()
            guard let name = try o.decodeIfPresent("name", { try $0.decodeString() }),
                let type = try o.decodeIfPresent("type", { try $0.decodeString() })
            else { return nil }
            switch type {
            case "esriFieldTypeOID", "esriFieldTypeInteger", "esriFieldTypeSmallInteger", "esriFieldTypeBigInteger":
                return (name, .integer)
            case "esriFieldTypeDouble", "esriFieldTypeSingle": return (name, .double)
            case "esriFieldTypeString", "esriFieldTypeGUID", "esriFieldTypeGlobalID": return (name, .string)
            case "esriFieldTypeDate": return (name, .date)
            default: return nil
            }
        }.compactMap { $0 }
    }
}
