import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Real FeatureSets read into columns load into a graphics layer with every value as the tree
/// reader read it, typed as the `fields` list says, and renderers resolve from those columns as
/// from the graphics' dictionaries.
@MainActor
@Suite struct FeatureColumnsLoadTests {
    nonisolated static let sets = [
        "us-ca-carson-0", "us-ca-tuolumne-0", "us-fl-polk-0", "us-mi-kent-0", "us-mo-columbia-0", "us-ms-madison-0",
    ]

    /// The attribute value a column of `kind` holds for the tree reader's JSON value.
    static func expected(_ json: JSONValue?, _ kind: AttributeColumn.Kind) -> AttributeValue? {
        guard let json else { return nil }
        switch (kind, json) {
        case (.date, .integer(let ms)): return .date(Date(timeIntervalSince1970: Double(ms) / 1000))
        case (.date, .number(let ms)): return .date(Date(timeIntervalSince1970: ms / 1000))
        case (.double, .integer(let i)): return .double(Double(i))
        default: return AttributeValue(json: json)
        }
    }

    @Test(arguments: sets)
    func realSetsLoadWithEveryValue(name: String) throws {
        let text = try Fixtures.string("Tests/MapSketchGeometryTests/Fixtures/pyesridump/\(name).json")
        let tree = try EsriJSON.decodeFeatureSet(text)
        let batch = GraphicColumns(try EsriJSON.decodeColumns(text))
        let layer = GraphicsLayer(spatialReference: tree.spatialReference)
        let ids = Array(try layer.add(columns: batch))
        let kinds = Dictionary(uniqueKeysWithValues: layer.attributeColumns.map { ($0.name, $0.kind) })
        var problems: [String] = []
        for (row, feature) in tree.features.enumerated() {
            guard let g = layer.graphic(ids[row]) else {
                problems.append("row \(row) missing")
                continue
            }
            if g.geometry != (feature.geometry?.geometry ?? .point(nil)) { problems.append("row \(row): geometry") }
            let names = Set(kinds.keys)
            for field in names {
                let want = Self.expected(feature.attributes?[field], kinds[field] ?? .empty)
                if g.attributes[field] != want {
                    problems.append(
                        "row \(row) \(field): \(String(describing: g.attributes[field])) vs \(String(describing: want))"
                    )
                }
            }
        }
        #expect(problems.isEmpty, "\(name): \(problems.prefix(3))")
        if name == "us-ms-madison-0" { #expect(kinds["EDITDATE"] == .date) }
        // A unique value renderer on the first string field, resolved from the columns.
        guard let field = layer.attributeColumns.first(where: { $0.kind == .string }) else { return }
        let values = Set(ids.compactMap { layer.graphic($0)?.attributes[field.name]?.displayString }).sorted()
        let symbols = values.indices.map { Symbol.simpleMarker(SimpleMarkerSymbol(size: Double(4 + $0))) }
        let renderer = Renderer.uniqueValue(
            UniqueValueRenderer(
                field: field.name,
                uniqueValues: zip(values, symbols).prefix(3).map { UniqueValue(value: $0, symbol: $1) },
                defaultSymbol: .text(TextSymbol(text: "?"))))
        layer.renderer = renderer
        for id in ids {
            #expect(layer.resolvedSymbol(id) == layer.graphic(id).flatMap { renderer.symbol(for: $0.attributes) })
        }
    }

    @Test func geoJSONPropertiesLoadAsAttributes() throws {
        let text = #"""
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"name":"a","n":1,"tags":["x",1],"flag":true}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[3,4]},"properties":{"name":null,"n":2.5,"extra":{"k":null}}}]}
            """#
        let layer = GraphicsLayer()
        let ids = Array(try layer.add(columns: GraphicColumns(try GeoJSON.decodeColumns(text))))
        #expect(
            layer.graphic(ids[0])?.attributes == [
                "name": "a", "n": .double(1), "tags": .string(#"["x",1]"#), "flag": true,
            ])
        #expect(
            layer.graphic(ids[1])?.attributes == ["name": .null, "n": .double(2.5), "extra": .string(#"{"k":null}"#)])
    }
}
