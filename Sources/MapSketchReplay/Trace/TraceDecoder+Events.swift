import MapSketch
package import MapSketchGeometry
import MapSketchReaders

// The event lines: touches, GPS fixes and API calls.
extension TraceDecoder {
    static let eventTypes = ["touch", "gps", "end"] + TraceCallName.allCases.map(\.rawValue)

    /// The time of an `end` line (`{"t":…,"type":"end"}`, format version 5), or nil when `value`
    /// is another line. The caller checks that nothing follows it.
    /// - Throws: `JSONError` for a bad time, another member, or a trace of an older version.
    static func decodeEnd(_ value: JSONValue, version: Int) throws -> Double? {
        guard value["type"]?.stringValue == "end" else { return nil }
        var f = try TraceFields(value, what: "an event")
        let t = try time(&f)
        _ = try f.string("type")
        try requireVersion(Trace.endLineVersion, of: "end", what: "a line", in: version)
        try f.rejectUnknown()
        return t
    }

    /// A line's `t`: a number ≥ 0.
    private static func time(_ f: inout TraceFields) throws -> Double {
        let t = try f.requiredDouble("t")
        guard t >= 0 else { throw JSONError("expected a time ≥ 0 seconds, found \(JSONWriter.format(t))", path: [.key("t")]) }
        return t
    }

    /// Refuses a line `type` (`what`: a call, a line) that needs format version `needed` in a
    /// trace of `version`.
    private static func requireVersion(_ needed: Int, of type: String, what: String, in version: Int) throws {
        guard needed <= version else {
            throw JSONError(
                "expected \(what) of format version \(version); \"\(type)\" needs \"version\":\(needed) in the header",
                path: [.key("type")])
        }
    }

    /// Decodes one event line of a trace of format `version` (a call newer than it is refused).
    /// - Throws: `JSONError` with the path of the offending member.
    package static func decodeEvent(_ value: JSONValue, line: Int = 0, version: Int = Trace.formatVersion) throws -> TraceEntry {
        var f = try TraceFields(value, what: "an event")
        let t = try time(&f)
        guard let type = try f.oneOf("type", eventTypes) else {
            throw JSONError(
                "missing member \"type\": expected touch, gps, end or an API call (\(TraceCallName.allCases.map(\.rawValue).joined(separator: ", ")))")
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
            guard let name = TraceCallName(rawValue: type) else { throw JSONError("unknown event type \"\(InputExcerpt.excerpt(type))\"", path: [.key("type")]) }
            try requireVersion(name.minimumVersion, of: type, what: "a call", in: version)
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
            guard let l = try f.nested("layer", { try decodeLayer($0, header: false) }) else { throw JSONError("missing member \"layer\": expected a graphics layer") }
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
        default:
            return try decodeToolCall(name, &f)
        }
    }
}
