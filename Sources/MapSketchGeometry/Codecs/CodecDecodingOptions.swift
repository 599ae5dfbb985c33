/// Options for reading Esri JSON and GeoJSON (``EsriJSON/DecodingOptions``,
/// ``GeoJSON/DecodingOptions``).
public struct CodecDecodingOptions: Hashable, Sendable {
    /// Accept a comma before `]` or `}`. Default false.
    public var allowTrailingCommas: Bool
    /// Drop polygon rings with fewer than 3 vertices (after the closing vertex is dropped), as
    /// `arcgis-to-geojson-utils` and pyesridump do (in GeoJSON a Polygon whose exterior is dropped is
    /// dropped with its holes). Default false: an unfinished sketch ring is kept as it is.
    public var dropDegenerateRings: Bool
    /// The deepest JSON nesting accepted.
    public var maxDepth: Int

    /// Creates options.
    public init(allowTrailingCommas: Bool = false, dropDegenerateRings: Bool = false, maxDepth: Int = 512) {
        self.allowTrailingCommas = allowTrailingCommas
        self.dropDegenerateRings = dropDegenerateRings
        self.maxDepth = maxDepth
    }

    var parser: JSONParser.Options {
        JSONParser.Options(maxDepth: maxDepth, allowTrailingCommas: allowTrailingCommas)
    }
}
