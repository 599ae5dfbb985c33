import Foundation
public import MapSketchGeometry

extension GraphicColumns {
    /// A batch of graphics from features read into columns (a GeoJSON FeatureCollection or an
    /// Esri JSON FeatureSet, see ``FeatureColumns``): the geometry column as it is, each field as
    /// an ``AttributeColumn`` of the same type, moved rather than copied where the storage agrees.
    ///
    /// Integers, doubles, bools and strings keep their columns; Esri date fields (epoch
    /// milliseconds) become dates; a mixed field becomes a boxed column whose JSON numbers are
    /// `.integer` or `.double` as written, and whose objects and arrays (GeoJSON properties may
    /// nest) become their compact JSON text as `.string`. Null stays null and a missing field
    /// stays missing. The geometries are taken to be in the spatial reference of the layer they
    /// are added to: make the layer with `features.spatialReference`.
    ///
    /// ```swift
    /// let features = try GeoJSON.decodeColumns(contentsOfFile: "parcels.geojson")
    /// let layer = GraphicsLayer(spatialReference: features.spatialReference)
    /// try layer.add(columns: GraphicColumns(features))
    /// ```
    /// - Complexity: O(f) for f fields, plus O(n) per date or mixed field of n rows.
    public init(_ features: FeatureColumns, symbol: Symbol? = nil, infoTemplate: InfoTemplate? = nil) {
        self.init(
            geometry: features.geometry, attributes: features.fields.map(AttributeColumn.init(field:)), symbol: symbol,
            infoTemplate: infoTemplate)
    }
}

extension AttributeColumn {
    /// The attribute column for a feature reader's field column: its storage shared, dates from
    /// epoch milliseconds to the date's own value (as a graphic's `.date` holds it), boxed JSON
    /// values as attribute values.
    init(field f: FieldColumn) {
        self.init(
            f.storage.map(
                dates: { Date(timeIntervalSince1970: $0 / 1000).timeIntervalSinceReferenceDate },
                boxed: AttributeValue.init(json:)))
    }
}

extension AttributeValue {
    /// The attribute value of a JSON value: strings, integers, doubles, bools and null as they
    /// are; an object or an array as its compact JSON text.
    package init(json v: JSONValue) {
        switch v {
        case .string(let s): self = .string(s)
        case .integer(let i): self = .integer(Int(truncatingIfNeeded: i))
        case .number(let d): self = .double(d)
        case .bool(let b): self = .bool(b)
        case .null: self = .null
        case .array, .object: self = .string(JSONWriter.string(v))
        }
    }
}
