import MapSketch
import MapSketchGeometry

// The header's graphics layers and the `addGraphic` and `addGraphicsLayer` calls: layers,
// graphics, attributes, symbols and renderers.
extension TraceDecoder {
    /// Decodes a graphics layer; `header` says whether it is one of the header's, the only ones
    /// whose features may come from a file (`source`).
    static func decodeLayer(_ v: JSONValue, header: Bool) throws -> TraceGraphicsLayer {
        var f = try TraceFields(v, what: "a graphics layer")
        var l = TraceGraphicsLayer(name: try f.requiredString("name"))
        if let path = try f.string("source") {
            guard header else {
                throw JSONError(
                    "a layer file (\"source\") is read only for the header's layers; add the layer in the header",
                    path: [.key("source")])
            }
            guard !path.isEmpty, let s = TraceLayerSource(path: path) else {
                throw JSONError(
                    "expected a layer file ending \(TraceLayerSource.Format.extensionList), found \"\(InputExcerpt.excerpt(path))\"",
                    path: [.key("source")])
            }
            l.source = s
        }
        l.renderer = try f.nested("renderer", decodeRenderer)
        l.calloutsEnabled = try f.bool("callouts") ?? true
        l.hitTestable = try f.bool("hitTest") ?? true
        l.graphics = try f.nested("graphics") { try decodeArray($0, what: "a list of graphics", decodeGraphic) } ?? []
        try f.rejectUnknown()
        return l
    }

    static func decodeGraphic(_ v: JSONValue) throws -> TraceGraphic {
        var f = try TraceFields(v, what: "a graphic")
        guard let g = try f.nested("geometry", TraceGeometryJSON.decode) else {
            throw JSONError("missing member \"geometry\": expected an Esri JSON geometry")
        }
        var graphic = TraceGraphic(geometry: g)
        graphic.spatialReference = try f.nested("spatialReference", decodeSpatialReference)
        graphic.symbol = try f.nested("symbol", decodeSymbol)
        if let a = try f.nested("attributes", decodeAttributes) { graphic.attributes = a }
        if let c = try f.nested("callout", { v -> (String?, String?) in
            var cf = try TraceFields(v, what: "a callout template {\"title\":…,\"detail\":…}")
            let r = (try cf.string("title"), try cf.string("detail"))
            try cf.rejectUnknown()
            return r
        }) {
            graphic.calloutTitle = c.0
            graphic.calloutDetail = c.1
        }
        try f.rejectUnknown()
        return graphic
    }

    static func decodeAttributes(_ v: JSONValue) throws -> [(key: String, value: TraceAttribute)] {
        guard let o = v.objectValue else { throw JSONError("expected attributes (an object), found \(v.kindDescription)") }
        var out: [(key: String, value: TraceAttribute)] = []
        for (k, value) in zip(o.keys, o.values) {
            let a: TraceAttribute
            switch value {
            case .null: a = .null
            case .bool(let b): a = .bool(b)
            case .integer(let i):
                guard let n = Int(exactly: i) else { throw JSONError("integer out of range", path: [.key(k)]) }
                a = .integer(n)
            case .number(let d): a = .double(d)
            case .string(let s): a = .string(s)
            case .object(let d):
                guard d.count == 1, let ms = d["date"]?.doubleValue else {
                    throw JSONError("expected a string, number, boolean, null or {\"date\": ms}", path: [.key(k)])
                }
                a = .date(ms)
            case .array:
                throw JSONError("expected a string, number, boolean, null or {\"date\": ms}, found an array", path: [.key(k)])
            }
            out.append((k, a))
        }
        return out
    }

    static func decodeColor(_ v: JSONValue) throws -> Color {
        guard let s = v.stringValue, let c = Color(hex: s) else {
            throw JSONError("expected a color \"#rrggbb\" or \"#rrggbbaa\", found \(v.stringValue.map { "\"\(InputExcerpt.excerpt($0))\"" } ?? v.kindDescription)")
        }
        return c
    }

    static func decodeLineSymbol(_ v: JSONValue) throws -> SimpleLineSymbol {
        var f = try TraceFields(v, what: "a line symbol")
        _ = try f.oneOf("type", ["line"])
        var s = SimpleLineSymbol()
        if let st = try f.oneOf("style", SimpleLineStyle.allCases.map(\.rawValue)), let style = SimpleLineStyle(rawValue: st) {
            s.style = style
        }
        if let c = try f.nested("color", decodeColor) { s.color = c }
        if let w = try f.double("width") { s.width = w }
        try f.rejectUnknown()
        return s
    }

    /// Decodes a symbol: `{"type": "marker" | "picture" | "line" | "fill" | "text" | "composite", …}`.
    static func decodeSymbol(_ v: JSONValue) throws -> Symbol {
        var f = try TraceFields(v, what: "a symbol")
        guard let type = try f.oneOf("type", ["marker", "picture", "line", "fill", "text", "composite"]) else {
            throw JSONError("missing member \"type\": expected marker, picture, line, fill, text or composite")
        }
        switch type {
        case "marker":
            var s = SimpleMarkerSymbol()
            if let st = try f.oneOf("style", SimpleMarkerStyle.allCases.map(\.rawValue)), let style = SimpleMarkerStyle(rawValue: st) {
                s.style = style
            }
            if let c = try f.nested("color", decodeColor) { s.color = c }
            if let d = try f.double("size") { s.size = d }
            s.outline = try f.nested("outline", decodeLineSymbol)
            try f.rejectUnknown()
            return .simpleMarker(s)
        case "picture":
            var s = PictureMarkerSymbol(image: try f.requiredString("image"))
            if let d = try f.double("width") { s.width = d }
            if let d = try f.double("height") { s.height = d }
            try f.rejectUnknown()
            return .pictureMarker(s)
        case "line":
            return .simpleLine(try decodeLineSymbol(v))
        case "fill":
            var s = SimpleFillSymbol()
            if let st = try f.oneOf("style", SimpleFillStyle.allCases.map(\.rawValue)), let style = SimpleFillStyle(rawValue: st) {
                s.style = style
            }
            if let c = try f.nested("color", decodeColor) { s.color = c }
            if f.object.contains("outline") {
                s.outline = try f.nested("outline", decodeLineSymbol)  // null: no outline
            }
            try f.rejectUnknown()
            return .simpleFill(s)
        case "text":
            var s = TextSymbol(text: try f.requiredString("text"))
            if let c = try f.nested("color", decodeColor) { s.color = c }
            if let d = try f.double("fontSize") { s.fontSize = d }
            try f.rejectUnknown()
            return .text(s)
        default:
            let parts = try f.nested("symbols") { try decodeArray($0, what: "a list of symbols", decodeSymbol) } ?? []
            try f.rejectUnknown()
            return .composite(parts)
        }
    }

    /// Decodes a renderer: `simple`, `classBreaks` or `uniqueValue`.
    static func decodeRenderer(_ v: JSONValue) throws -> TraceRenderer {
        var f = try TraceFields(v, what: "a renderer")
        guard let type = try f.oneOf("type", ["simple", "classBreaks", "uniqueValue"]) else {
            throw JSONError("missing member \"type\": expected simple, classBreaks or uniqueValue")
        }
        switch type {
        case "simple":
            guard let s = try f.nested("symbol", decodeSymbol) else { throw JSONError("missing member \"symbol\": expected a symbol") }
            try f.rejectUnknown()
            return .simple(s)
        case "classBreaks":
            let field = try f.requiredString("field")
            let minValue = try f.double("minValue") ?? -Double.infinity
            let breaks: [TraceClassBreak] = try f.nested("breaks") {
                try decodeArray($0, what: "a list of class breaks") { b -> TraceClassBreak in
                    var bf = try TraceFields(b, what: "a class break {\"maxValue\":…,\"symbol\":…}")
                    let maxValue = try bf.requiredDouble("maxValue")
                    guard let s = try bf.nested("symbol", decodeSymbol) else { throw JSONError("missing member \"symbol\": expected a symbol") }
                    try bf.rejectUnknown()
                    return TraceClassBreak(maxValue: maxValue, symbol: s)
                }
            } ?? []
            for i in breaks.indices.dropFirst() where breaks[i].maxValue <= breaks[i - 1].maxValue {
                throw JSONError("expected maxValue greater than the previous break's", path: [.key("breaks"), .index(i), .key("maxValue")])
            }
            let d = try f.nested("defaultSymbol", decodeSymbol)
            try f.rejectUnknown()
            return .classBreaks(field: field, minValue: minValue, breaks: breaks, defaultSymbol: d)
        default:
            let fields: [String] = try f.nested("fields") {
                try decodeArray($0, what: "a list of 1 to 3 field names") { e -> String in
                    guard let s = e.stringValue else { throw JSONError("expected a field name, found \(e.kindDescription)") }
                    return s
                }
            } ?? []
            guard (1...3).contains(fields.count) else {
                throw JSONError("expected 1 to 3 field names, found \(fields.count)", path: [.key("fields")])
            }
            let delimiter = try f.string("delimiter") ?? ","
            let values: [TraceUniqueValue] = try f.nested("values") {
                try decodeArray($0, what: "a list of unique values") { b -> TraceUniqueValue in
                    var bf = try TraceFields(b, what: "a unique value {\"value\":…,\"symbol\":…}")
                    let value = try bf.requiredString("value")
                    guard let s = try bf.nested("symbol", decodeSymbol) else { throw JSONError("missing member \"symbol\": expected a symbol") }
                    try bf.rejectUnknown()
                    return TraceUniqueValue(value: value, symbol: s)
                }
            } ?? []
            let d = try f.nested("defaultSymbol", decodeSymbol)
            try f.rejectUnknown()
            return .uniqueValue(fields: fields, delimiter: delimiter, values: values, defaultSymbol: d)
        }
    }
}
