import Foundation
import MapSketch
import MapSketchGeometry

/// Turns the trace's descriptions of renderers and graphics into the map model's values.
enum TraceModelBridge {
    /// The map renderer for a trace renderer.
    /// - Throws: the model's ``RendererError`` for an invalid unique-value renderer.
    static func renderer(_ r: TraceRenderer) throws -> Renderer {
        switch r {
        case .simple(let s): return .simple(s)
        case .classBreaks(let field, let minValue, let breaks, let d):
            return .classBreaks(
                ClassBreaksRenderer(
                    field: field, minValue: minValue, breaks: breaks.map { ClassBreak(maxValue: $0.maxValue, symbol: $0.symbol) },
                    defaultSymbol: d))
        case .uniqueValue(let fields, let delimiter, let values, let d):
            return .uniqueValue(
                try UniqueValueRenderer(
                    fields: fields, fieldDelimiter: delimiter, uniqueValues: values.map { UniqueValue(value: $0.value, symbol: $0.symbol) },
                    defaultSymbol: d))
        }
    }

    /// The map graphic for a trace graphic, its geometry (in the map's spatial reference unless
    /// the graphic names another) projected into the spatial reference its layer takes graphics
    /// in (`layerSpatialReference`; nil: the map's).
    /// - Throws: the geometry engine's error when the projection is not supported.
    static func graphic(
        _ g: TraceGraphic, mapSpatialReference: SpatialReference?, layerSpatialReference: SpatialReference? = nil
    ) throws -> Graphic {
        var attributes: [String: AttributeValue] = [:]
        for (k, v) in g.attributes {
            switch v {
            case .string(let s): attributes[k] = .string(s)
            case .integer(let i): attributes[k] = .integer(i)
            case .double(let d): attributes[k] = .double(d)
            case .bool(let b): attributes[k] = .bool(b)
            case .date(let ms): attributes[k] = .date(Date(timeIntervalSince1970: ms / 1000))
            case .null: attributes[k] = .null
            }
        }
        var template: InfoTemplate?
        if g.calloutTitle != nil || g.calloutDetail != nil {
            template = .callout(CalloutTemplate(title: g.calloutTitle ?? "", detail: g.calloutDetail ?? ""))
        }
        var geometry = g.geometry
        if let from = g.spatialReference ?? mapSpatialReference, let to = layerSpatialReference ?? mapSpatialReference, from != to {
            geometry = try GeometryEngine.project(geometry, from: from, to: to)
        }
        return Graphic(geometry: geometry, symbol: g.symbol, attributes: attributes, infoTemplate: template)
    }
}
