/// A geometry with attributes, as an Esri JSON feature or a GeoJSON Feature carries it.
///
/// - ``attributes`` are Esri `attributes` / GeoJSON `properties`, in their original order.
/// - ``id`` is the GeoJSON Feature `id` (a string or a number). Esri JSON features have no id
///   member; use ``withID(fromAttributes:)`` and ``withIDInAttributes(_:)`` to move it between the
///   two (the rule `@esri/arcgis-to-geojson-utils` uses).
/// - A nil ``geometry`` is a feature without geometry (`"geometry": null`).
package struct Feature: Hashable, Sendable {
    /// The geometry and its spatial reference, or nil.
    public var geometry: SpatialGeometry?
    /// The attributes (properties), in order. Nil when the source had none or `null`.
    public var attributes: JSONObject?
    /// The feature id (GeoJSON), a string or a number; nil when absent.
    public var id: JSONValue?

    /// Creates a feature.
    public init(geometry: SpatialGeometry?, attributes: JSONObject? = nil, id: JSONValue? = nil) {
        self.geometry = geometry
        self.attributes = attributes
        self.id = id
    }

    /// The default id fields of Esri services, tried in order.
    public static let defaultIDFields = ["OBJECTID", "FID"]

    /// This feature with ``id`` set from the first of `fields` whose attribute is a string or a
    /// number (`arcgis-to-geojson-utils`' `getId`); unchanged when none is.
    /// - Complexity: O(k) lookups for k fields.
    public func withID(fromAttributes fields: [String] = Feature.defaultIDFields) -> Feature {
        guard let attributes else { return self }
        for f in fields {
            switch attributes[f] {
            case .string?, .integer?, .number?:
                var copy = self
                copy.id = attributes[f]
                return copy
            default: continue
            }
        }
        return self
    }

    /// This feature with its ``id`` copied into `attributes[field]` (replacing any value there),
    /// as converting a GeoJSON Feature to an Esri feature does; unchanged when ``id`` is nil.
    public func withIDInAttributes(_ field: String = "OBJECTID") -> Feature {
        guard let id else { return self }
        var copy = self
        var a = attributes ?? JSONObject()
        a[field] = id
        copy.attributes = a
        return copy
    }
}

/// The text formats a geometry can be read from and written to: one front door over the codecs.
///
/// ```swift
/// let text = #"{"type":"Point","coordinates":[1,2]}"#
/// let format = GeometryFormat.detect(text)        // .geoJSON
/// let g = try format.decode(text)
/// try GeometryFormat.esriJSON.encode(g)           // {"x":1,"y":2,"spatialReference":{"wkid":4326}}
/// try GeometryFormat.wkt.encode(g)                // POINT (1 2)
/// ```
public enum GeometryFormat: String, Hashable, Sendable, CaseIterable {
    /// Esri JSON (``EsriJSON``).
    case esriJSON
    /// GeoJSON, RFC 7946 (``GeoJSON``).
    case geoJSON
    /// OGC well-known text (``WKT``). WKT carries no spatial reference: decoding gives none, and
    /// encoding drops it.
    case wkt

    /// Decodes one geometry in this format.
    /// - Throws: ``JSONError`` for the JSON formats, ``WKTError`` for WKT (line:column and what
    ///   was expected, plus the field path for JSON).
    /// - Complexity: O(n) for n bytes.
    public func decode(_ text: String) throws -> SpatialGeometry {
        switch self {
        case .esriJSON: try EsriJSON.decode(text)
        case .geoJSON: try GeoJSON.decode(text)
        case .wkt: SpatialGeometry(try WKT.decode(text))
        }
    }

    /// Decodes one geometry of a JSON format from a parsed value.
    /// - Throws: ``JSONError`` with the field path (no line:column: a value has no position);
    ///   for ``wkt``, which is not JSON, an error saying so.
    /// - Complexity: O(v) for v vertices.
    package func decode(_ value: JSONValue) throws -> SpatialGeometry {
        switch self {
        case .esriJSON: try EsriJSON.decode(value)
        case .geoJSON: try GeoJSON.decode(value)
        case .wkt: throw JSONError("expected WKT text, found JSON")
        }
    }

    /// Encodes one geometry in this format (compact, deterministic): Esri JSON with its spatial
    /// reference, WKT without one, GeoJSON in WGS 84 longitude/latitude, projected from the
    /// geometry's spatial reference (``GeoJSON/encode(_:options:)-(SpatialGeometry,_)``).
    /// - Throws: for GeoJSON only, ``GeoJSONOutputError`` when the geometry has no spatial
    ///   reference or one that cannot be projected to WGS 84.
    /// - Complexity: O(v) for v vertices.
    public func encode(_ g: SpatialGeometry) throws(GeoJSONOutputError) -> String {
        switch self {
        case .esriJSON: EsriJSON.encode(g)
        case .geoJSON: try GeoJSON.encode(g)
        case .wkt: WKT.encode(g.geometry)
        }
    }

    /// Decodes JSON Lines (or, for WKT, one geometry per line): one geometry per non-blank line,
    /// in order. Lines are split as JSON Lines are (`JSONParser.forEachLine`): a
    /// leading byte-order mark and `\r\n` line ends are accepted.
    /// - Throws: the first line's error (``JSONError`` or ``WKTError``) with its line number in
    ///   the whole text and its column in that line.
    /// - Complexity: O(n) for n bytes.
    package func decodeLines(_ text: String) throws -> [SpatialGeometry] {
        var out: [SpatialGeometry] = []
        var text = text
        try text.withUTF8 { buf in
            try JSONParser.forEachLine(in: buf) { lineNo, slice in
                guard !slice.allSatisfy(isJSONSpace) else { return }
                do {
                    out.append(try decode(String(decoding: slice, as: UTF8.self)))
                } catch var e as JSONError {
                    e.line = lineNo
                    throw e
                } catch var e as WKTError {
                    e.line = lineNo
                    throw e
                }
            }
        }
        return out
    }

    /// Guesses the format of `text`: text not starting with `{` or `[` (after white space) is WKT;
    /// a JSON object (or an array's first object) with a `"type"` key is GeoJSON; one with `x`,
    /// `points`, `paths`, `rings`, `xmin`, `geometry`, `geometries` or `features` is Esri JSON;
    /// JSON that does not parse is GeoJSON when it mentions `"type"`, else Esri JSON (so that
    /// decoding it reports the syntax error in the likelier format).
    /// - Complexity: O(n) for n bytes.
    public static func detect(_ text: String) -> GeometryFormat {
        guard let first = text.utf8.first(where: { !isJSONSpace($0) && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        else { return .wkt }
        if let v = try? JSONParser.parse(text, options: JSONParser.Options(allowTrailingCommas: true)),
            let format = detect(v)
        {
            return format
        }
        return text.contains("\"type\"") ? .geoJSON : .esriJSON
    }

    /// The JSON format of a parsed value: GeoJSON when the object (or an array's first object)
    /// has a `"type"` key; Esri JSON when it has `x`, `points`, `paths`, `rings`, `xmin`,
    /// `geometry`, `geometries` or `features`; nil when it tells neither.
    /// - Complexity: O(1) expected.
    package static func detect(_ value: JSONValue) -> GeometryFormat? {
        guard let o = value.objectValue ?? value[0]?.objectValue else { return nil }
        if o.contains("type") { return .geoJSON }
        if EsriJSON.geometryKind(of: o) != nil || o.contains("geometry") || o.contains("features") || o.contains("geometries") {
            return .esriJSON
        }
        return nil
    }
}
