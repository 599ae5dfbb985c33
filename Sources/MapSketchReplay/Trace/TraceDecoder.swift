import MapSketch
package import MapSketchGeometry

/// Reads traces from JSON Lines text.
///
/// ```swift
/// let trace = try TraceDecoder.decode(text, file: "tap.trace.jsonl")
/// ```
public enum TraceDecoder {
    /// Decodes a whole trace: the header line, then one event per line. Blank lines are skipped.
    ///
    /// - Throws: ``TraceError`` naming file:line:column and what was expected, for a syntax error,
    ///   a missing or mistyped member, an unknown member or event type, a non-finite or negative
    ///   time, or a time earlier than the previous line's.
    /// - Complexity: O(n) in the size of the text.
    public static func decode(_ text: String, file: String) throws(TraceError) -> Trace {
        var header: TraceHeader?
        var events: [TraceEntry] = []
        var lastT = 0.0
        var lineNumber = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            do {
                try JSONParser.decode(String(line)) { value in
                    if header == nil {
                        header = try decodeHeader(value)
                        return
                    }
                    let entry = try decodeEvent(value, line: lineNumber)
                    if entry.t < lastT {
                        throw JSONError(
                            "expected a time ≥ \(JSONWriter.format(lastT)) (the previous line's), found \(JSONWriter.format(entry.t))",
                            path: [.key("t")])
                    }
                    lastT = entry.t
                    events.append(entry)
                }
            } catch let e as JSONError {
                throw TraceError(e, file: file, line: lineNumber)
            } catch {
                throw TraceError(file: file, line: lineNumber, column: 1, message: "\(error)")
            }
        }
        guard let header else {
            throw TraceError(
                file: file, line: 1, column: 1,
                message: "expected a header line ({\"type\":\"header\",…}), found an empty file")
        }
        return Trace(header: header, events: events)
    }

    // MARK: Header

    /// Decodes the header line.
    /// - Throws: ``JSONError`` with the path of the offending member.
    package static func decodeHeader(_ value: JSONValue) throws -> TraceHeader {
        var f = try TraceFields(value, what: "the trace header")
        let type = try f.string("type")
        guard type == "header" else {
            throw JSONError(
                "expected the first line to be the header ({\"type\":\"header\",…}), found "
                    + (type.map { "type \"\($0)\"" } ?? "no type"), path: type == nil ? [] : [.key("type")])
        }
        if let format = try f.string("format"), format != Trace.formatName {
            throw JSONError("expected \"\(Trace.formatName)\", found \"\(format)\"", path: [.key("format")])
        }
        var h = TraceHeader()
        let version = try f.requiredInt("version")
        guard version == Trace.formatVersion else {
            throw JSONError(
                "expected format version \(Trace.formatVersion), found \(version)", path: [.key("version")])
        }
        h.version = version
        let t = try f.requiredDouble("t")
        guard t == 0 else {
            throw JSONError("expected 0 (the header is at time 0), found \(JSONWriter.format(t))", path: [.key("t")])
        }
        h.name = try f.string("name")
        h.description = try f.string("description")
        if let s = try f.nested("screen", decodeScreen) { h.screen = s }
        if let v = try f.nested("viewport", decodeViewport) { h.viewport = v }
        if let sr = try f.nested("spatialReference", decodeSpatialReference) { h.spatialReference = sr }
        h.sketch = try f.nested("sketch", decodeSketch)
        if let t = try f.nested("thresholds", decodeThresholds) { h.thresholds = t }
        if let o = try f.nested("options", decodeOptions) { h.options = o }
        h.layers = try f.nested("layers") { try decodeArray($0, what: "a list of graphics layers", decodeLayer) } ?? []
        if let g = try f.nested("gps", decodeGPS) {
            h.gpsFilter = g.filter
            h.gpsSpatialReference = g.spatialReference
        }
        try f.rejectUnknown()
        return h
    }

    static func decodeScreen(_ v: JSONValue) throws -> ScreenSize {
        var f = try TraceFields(v, what: "the screen size")
        let w = try f.requiredDouble("width")
        let h = try f.requiredDouble("height")
        guard w > 0 else { throw JSONError("expected a positive width in points, found \(JSONWriter.format(w))", path: [.key("width")]) }
        guard h > 0 else { throw JSONError("expected a positive height in points, found \(JSONWriter.format(h))", path: [.key("height")]) }
        try f.rejectUnknown()
        return ScreenSize(width: w, height: h)
    }

    static func decodeViewport(_ v: JSONValue) throws -> Viewport {
        var f = try TraceFields(v, what: "a viewport")
        let center = try f.nested("center", decodePoint) ?? Point(0, 0)
        let r = try f.requiredDouble("resolution")
        guard r > 0 else {
            throw JSONError("expected a positive resolution (map units per point), found \(JSONWriter.format(r))", path: [.key("resolution")])
        }
        let rotation = try f.double("rotation") ?? 0
        try f.rejectUnknown()
        return Viewport(center: center, resolution: r, rotation: rotation)
    }

    static func decodeSpatialReference(_ v: JSONValue) throws -> SpatialReference {
        var f = try TraceFields(v, what: "a spatial reference")
        let wkid = try f.int("wkid")
        let latest = try f.int("latestWkid")
        let wkt = try f.string("wkt")
        try f.rejectUnknown()
        guard wkid != nil || latest != nil || wkt != nil else {
            throw JSONError("expected \"wkid\", \"latestWkid\" or \"wkt\"")
        }
        return SpatialReference(wkid: wkid, latestWkid: latest, wkt: wkt)
    }

    static func decodePoint(_ v: JSONValue) throws -> Point {
        var f = try TraceFields(v, what: "a point {\"x\":…,\"y\":…}")
        let x = try f.requiredDouble("x")
        let y = try f.requiredDouble("y")
        let z = try f.double("z")
        let m = try f.double("m")
        try f.rejectUnknown()
        return Point(x: x, y: y, z: z, m: m)
    }

    static let geometryTypeNames = ["point", "multipoint", "polyline", "polygon"]

    static func decodeSketch(_ v: JSONValue) throws -> TraceSketchSetup {
        var f = try TraceFields(v, what: "the sketch setup")
        guard let typeName = try f.oneOf("geometryType", geometryTypeNames),
            let type = GeometryType(rawValue: typeName)
        else { throw JSONError("missing member \"geometryType\": expected one of point, multipoint, polyline, polygon") }
        let g = try f.nested("geometry", TraceGeometryJSON.decode)
        if let g, g.type != type {
            throw JSONError("expected a \(type) geometry (the sketch's type), found a \(g.type)", path: [.key("geometry")])
        }
        try f.rejectUnknown()
        return TraceSketchSetup(geometryType: type, geometry: g)
    }

    static func decodeThresholds(_ v: JSONValue) throws -> GestureThresholds {
        var f = try TraceFields(v, what: "gesture thresholds")
        var t = GestureThresholds.default
        for (key, path) in [
            ("tapDuration", \GestureThresholds.tapDuration), ("slop", \.slop), ("holdDuration", \.holdDuration),
            ("vertexHitTolerance", \.vertexHitTolerance),
        ] {
            if let d = try f.double(key) {
                guard d >= 0 else { throw JSONError("expected a non-negative number, found \(JSONWriter.format(d))", path: [.key(key)]) }
                t[keyPath: path] = d
            }
        }
        try f.rejectUnknown()
        return t
    }

    static func decodeOptions(_ v: JSONValue) throws -> TraceOptions {
        var f = try TraceFields(v, what: "options")
        var o = TraceOptions()
        o.showMagnifierOnTapAndHold = try f.bool("showMagnifierOnTapAndHold") ?? false
        o.wrapAround = try f.bool("wrapAround") ?? false
        if let n = try f.int("levelsOfUndo") {
            guard n >= 0 else { throw JSONError("expected 0 (unbounded) or more levels, found \(n)", path: [.key("levelsOfUndo")]) }
            o.levelsOfUndo = n == 0 ? nil : n
        }
        o.showVertexNumbers = try f.bool("showVertexNumbers") ?? false
        o.realtime = try f.bool("realtime") ?? false
        if let n = try f.int("svgStep") {
            guard n >= 0 else { throw JSONError("expected an event count ≥ 0, found \(n)", path: [.key("svgStep")]) }
            o.svgStep = n
        }
        try f.rejectUnknown()
        return o
    }

    /// The header's `gps` member: the filter (`minDistance` 0 keeps every fix) and the fixes'
    /// spatial reference.
    static func decodeGPS(_ v: JSONValue) throws -> (filter: GPSFilter, spatialReference: SpatialReference) {
        var f = try TraceFields(v, what: "GPS settings")
        var g = TraceHeader.defaultGPSFilter
        let minDistance = try f.double("minDistance") ?? 0
        g.minimumDistance = minDistance == 0 ? nil : minDistance
        g.maximumAccuracy = try f.double("maxAccuracy")
        g.maximumHDOP = try f.double("maxHDOP")
        g.dropDuplicates = try f.bool("dropDuplicates") ?? true
        g.dropOutOfOrder = try f.bool("dropOutOfOrder") ?? true
        let sr = try f.nested("spatialReference", decodeSpatialReference) ?? .wgs84
        try f.rejectUnknown()
        return (g, sr)
    }

    // MARK: Graphics

    static func decodeLayer(_ v: JSONValue) throws -> TraceGraphicsLayer {
        var f = try TraceFields(v, what: "a graphics layer")
        var l = TraceGraphicsLayer(name: try f.requiredString("name"))
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
            throw JSONError("expected a color \"#rrggbb\" or \"#rrggbbaa\", found \(v.stringValue.map { "\"\($0)\"" } ?? v.kindDescription)")
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

    // MARK: Events

    static let eventTypes = ["touch", "gps"] + TraceCallName.allCases.map(\.rawValue)

    /// Decodes one event line.
    /// - Throws: ``JSONError`` with the path of the offending member.
    package static func decodeEvent(_ value: JSONValue, line: Int = 0) throws -> TraceEntry {
        var f = try TraceFields(value, what: "an event")
        let t = try f.requiredDouble("t")
        guard t >= 0 else { throw JSONError("expected a time ≥ 0 seconds, found \(JSONWriter.format(t))", path: [.key("t")]) }
        guard let type = try f.oneOf("type", eventTypes) else {
            throw JSONError(
                "missing member \"type\": expected touch, gps or an API call (\(TraceCallName.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let event: TraceEvent
        switch type {
        case "touch":
            guard let phaseName = try f.oneOf("phase", ["began", "moved", "ended", "cancelled"]),
                let phase = TouchPhase(rawValue: phaseName)
            else { throw JSONError("missing member \"phase\": expected began, moved, ended or cancelled") }
            let id = try f.int("id") ?? 0
            let x = try f.requiredDouble("x")
            let y = try f.requiredDouble("y")
            event = .touch(phase: phase, id: id, location: ScreenPoint(x: x, y: y))
        case "gps":
            let lat = try f.requiredDouble("lat")
            let lon = try f.requiredDouble("lon")
            guard (-90...90).contains(lat) else { throw JSONError("expected a latitude in -90...90, found \(JSONWriter.format(lat))", path: [.key("lat")]) }
            guard (-180...180).contains(lon) else { throw JSONError("expected a longitude in -180...180, found \(JSONWriter.format(lon))", path: [.key("lon")]) }
            let ele = try f.double("ele")
            let time = try f.double("time")
            let hdop = try f.double("hdop")
            let accuracy = try f.double("accuracy")
            let speed = try f.double("speed")
            let segment = try f.int("segment") ?? 0
            event = .gps(
                GPSFix(
                    time: time, latitude: lat, longitude: lon, elevation: ele, hdop: hdop, horizontalAccuracy: accuracy,
                    speed: speed, segment: segment))
        default:
            guard let name = TraceCallName(rawValue: type) else { throw JSONError("unknown event type \"\(type)\"", path: [.key("type")]) }
            event = .call(try decodeCall(name, &f))
        }
        try f.rejectUnknown()
        return TraceEntry(t: t, event, line: line)
    }

    static func decodeCall(_ name: TraceCallName, _ f: inout TraceFields) throws -> TraceCall {
        func point() throws -> Point {
            let x = try f.requiredDouble("x")
            let y = try f.requiredDouble("y")
            return Point(x: x, y: y, z: try f.double("z"), m: try f.double("m"))
        }
        func geometry() throws -> Geometry {
            guard let g = try f.nested("geometry", TraceGeometryJSON.decode) else {
                throw JSONError("missing member \"geometry\": expected an Esri JSON geometry")
            }
            return g
        }
        switch name {
        case .undo: return .undo
        case .redo: return .redo
        case .insertVertex:
            return .insertVertex(part: try f.requiredInt("part"), index: try f.requiredInt("index"), point: try point())
        case .moveVertex:
            return .moveVertex(part: try f.requiredInt("part"), index: try f.requiredInt("index"), point: try point())
        case .removeVertex: return .removeVertex(part: try f.requiredInt("part"), index: try f.requiredInt("index"))
        case .addPart: return .addPart
        case .removePart: return .removePart(part: try f.requiredInt("part"))
        case .removeSelectedVertex: return .removeSelectedVertex
        case .removeSelectedPart: return .removeSelectedPart
        case .selectVertex: return .selectVertex(part: try f.requiredInt("part"), index: try f.requiredInt("index"))
        case .selectLastVertex: return .selectLastVertex
        case .clearSelection: return .clearSelection
        case .clear: return .clear
        case .applyGeometry: return .applyGeometry(try geometry())
        case .setGeometry: return .setGeometry(try geometry())
        case .addGraphic:
            let layer = try f.requiredString("layer")
            guard let g = try f.nested("graphic", decodeGraphic) else { throw JSONError("missing member \"graphic\": expected a graphic") }
            return .addGraphic(layer: layer, graphic: g)
        case .removeGraphic: return .removeGraphic(layer: try f.requiredString("layer"), index: try f.requiredInt("index"))
        case .removeAllGraphics: return .removeAllGraphics(layer: try f.requiredString("layer"))
        case .addGraphicsLayer:
            guard let l = try f.nested("layer", decodeLayer) else { throw JSONError("missing member \"layer\": expected a graphics layer") }
            return .addGraphicsLayer(l)
        case .removeLayer: return .removeLayer(name: try f.requiredString("name"))
        case .setViewport:
            guard let v = try f.nested("viewport", decodeViewport) else { throw JSONError("missing member \"viewport\": expected a viewport") }
            return .setViewport(v)
        case .pan: return .pan(dx: try f.requiredDouble("dx"), dy: try f.requiredDouble("dy"))
        case .zoom:
            let factor = try f.requiredDouble("factor")
            guard factor > 0 else { throw JSONError("expected a positive zoom factor, found \(JSONWriter.format(factor))", path: [.key("factor")]) }
            let anchor = try f.nested("anchor", decodePoint)
            return .zoom(factor: factor, anchorX: anchor?.x, anchorY: anchor?.y)
        }
    }
}
