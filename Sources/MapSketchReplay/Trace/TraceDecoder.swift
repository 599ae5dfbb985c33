public import MapSketchGeometry
import MapSketch
public import MapSketchReaders

/// Reads traces from JSON Lines text.
///
/// ```swift
/// let trace = try TraceDecoder.decode(text, file: "tap.trace.jsonl")
/// ```
public enum TraceDecoder {
    /// The longest trace line read (a line may carry a large geometry).
    package static let maximumLineLength = 256 << 20

    /// Decodes a whole trace: the header line, then one event per line. Blank lines are skipped;
    /// lines end at LF, CR or CR LF (a file edited on Windows reads as it does on Unix).
    ///
    /// - Throws: ``TraceError`` naming file:line:column and what was expected, for a syntax error,
    ///   a missing or mistyped member, an unknown member or event type, a non-finite or negative
    ///   time, a time earlier than the previous line's, or a line after the `end` line.
    /// - Complexity: O(n) in the size of the text.
    public static func decode(_ text: String, file: String) throws(TraceError) -> Trace {
        try decode(LineReader(InputBuffer(bytes: Array(text.utf8)), file: file), file: file)
    }

    /// Decodes a trace streamed from `source` (a file, a pipe), one line at a time: memory holds
    /// the trace's events, not its text.
    /// - Throws: ``TraceError`` as ``decode(_:file:)``, also for a line that is not UTF-8, a
    ///   line longer than ``maximumLineLength``, or a source that cannot be read.
    /// - Complexity: O(n) in the size of the input.
    public static func decode(source: any ByteSource, file: String) throws(TraceError) -> Trace {
        try decode(LineReader(InputBuffer(source: source, limit: maximumLineLength), file: file), file: file)
    }

    private static func decode(_ lines: LineReader, file: String) throws(TraceError) -> Trace {
        var lines = lines
        var state = LineState()
        do {
            while try lines.next({ line, number in try state.decode(line, number: number, file: file) }) != nil {}
        } catch let e as TraceError {
            throw e
        } catch let e as ReaderError {
            throw TraceError(e, file: file)
        } catch {
            throw TraceError(file: file, line: lines.lineNumber, column: 1, message: InputExcerpt.message("\(error)"))
        }
        guard let header = state.header else {
            throw TraceError(
                file: file, line: 1, column: 1,
                message: "expected a header line ({\"type\":\"header\",…}), found an empty file")
        }
        return Trace(header: header, events: state.events, end: state.end?.t)
    }

    /// The trace read so far: the header, then the events in time order, then its `end` line.
    private struct LineState {
        var header: TraceHeader?
        var events: [TraceEntry] = []
        var lastT = 0.0
        /// The `end` line's time and line number, once read: nothing may follow it.
        var end: (t: Double, line: Int)?

        /// Decodes line `number`.
        mutating func decode(_ line: UnsafeBufferPointer<UInt8>, number: Int, file: String) throws(TraceError) {
            if line.allSatisfy({ $0 == ASCII.space || $0 == ASCII.tab }) { return }
            guard let text = String(validating: line, as: UTF8.self) else {
                throw TraceError(
                    file: file, line: number, column: ByteScan.validUTF8Prefix(line) + 1,
                    message: "expected UTF-8 text (UTF-16 and other encodings are not read)")
            }
            do {
                try JSONParser.decode(text) { value in
                    if header == nil {
                        var h = try TraceDecoder.decodeHeader(value)
                        // Where each layer file is named, for the messages about it.
                        for i in h.layers.indices where h.layers[i].source != nil {
                            let at = JSONParser.location(of: [.key("layers"), .index(i), .key("source")], in: text)
                            h.layers[i].source?.line = number
                            h.layers[i].source?.column = at?.column ?? 1
                        }
                        header = h
                        return
                    }
                    if let end {
                        throw JSONError("expected the \"end\" line (line \(end.line)) to be the trace's last, found another line after it")
                    }
                    let version = header?.version ?? Trace.formatVersion
                    let endT = try TraceDecoder.decodeEnd(value, version: version)
                    let entry = endT == nil ? try decodeEvent(value, line: number, version: version) : nil
                    let t = endT ?? entry?.t ?? lastT
                    if t < lastT {
                        throw JSONError(
                            "expected a time ≥ \(JSONWriter.format(lastT)) (the previous line's), found \(JSONWriter.format(t))",
                            path: [.key("t")])
                    }
                    lastT = t
                    if let entry { events.append(entry) } else { end = (t, number) }
                }
            } catch let e as JSONError {
                throw TraceError(e, file: file, line: number)
            } catch {
                throw TraceError(file: file, line: number, column: 1, message: InputExcerpt.message("\(error)"))
            }
        }
    }

    // MARK: Header

    /// Decodes the header line.
    /// - Throws: `JSONError` with the path of the offending member.
    package static func decodeHeader(_ value: JSONValue) throws -> TraceHeader {
        var f = try TraceFields(value, what: "the trace header")
        let type = try f.string("type")
        guard type == "header" else {
            throw JSONError(
                "expected the first line to be the header ({\"type\":\"header\",…}), found "
                    + (type.map { "type \"\(InputExcerpt.excerpt($0))\"" } ?? "no type"), path: type == nil ? [] : [.key("type")])
        }
        if let format = try f.string("format"), format != Trace.formatName {
            throw JSONError("expected \"\(Trace.formatName)\", found \"\(InputExcerpt.excerpt(format))\"", path: [.key("format")])
        }
        var h = TraceHeader()
        let version = try f.requiredInt("version")
        guard Trace.supportedVersions.contains(version) else {
            let known = Trace.supportedVersions.map(String.init)
            throw JSONError(
                "expected format version \(known.dropLast().joined(separator: ", ")) or \(known.last ?? ""), found \(version)",
                path: [.key("version")])
        }
        h.version = version
        let t = try f.requiredDouble("t")
        guard t == 0 else {
            throw JSONError("expected 0 (the header is at time 0), found \(JSONWriter.format(t))", path: [.key("t")])
        }
        h.name = try f.string("name")
        h.description = try f.string("description")
        if let e = try f.nested("expect", decodeExpectation) { h.expect = e }
        if let s = try f.nested("screen", decodeScreen) { h.screen = s }
        if let v = try f.nested("viewport", decodeViewport) { h.viewport = v }
        if let sr = try f.nested("spatialReference", decodeSpatialReference) { h.spatialReference = sr }
        h.sketch = try f.nested("sketch", decodeSketch)
        if let t = try f.nested("thresholds", decodeThresholds) { (h.thresholds, h.vertexHitTolerance) = t }
        if let o = try f.nested("options", { try decodeOptions($0, version: version) }) { h.options = o }
        h.layers = try f.nested("layers") { try decodeArray($0, what: "a list of graphics layers") { try decodeLayer($0, header: true) } } ?? []
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
        guard Viewport.isValidResolution(r) else {
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

    /// The gesture thresholds and the sketch's vertex hit tolerance (kept in the same object on disk).
    static func decodeThresholds(_ v: JSONValue) throws -> (GestureThresholds, vertexHitTolerance: Double) {
        var f = try TraceFields(v, what: "gesture thresholds")
        var t = GestureThresholds.default
        var tolerance = SketchSymbology.defaultVertexHitTolerance
        for (key, path) in [
            ("tapDuration", \GestureThresholds.tapDuration), ("slop", \.slop), ("holdDuration", \.holdDuration),
            ("vertexHitTolerance", nil),
        ] as [(String, WritableKeyPath<GestureThresholds, Double>?)] {
            if let d = try f.double(key) {
                guard d >= 0 else { throw JSONError("expected a non-negative number, found \(JSONWriter.format(d))", path: [.key(key)]) }
                if let path { t[keyPath: path] = d } else { tolerance = d }
            }
        }
        try f.rejectUnknown()
        return (t, tolerance)
    }

    /// The header's `options`; members a later format version added are refused in an older one.
    static func decodeOptions(_ v: JSONValue, version: Int) throws -> TraceOptions {
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
        if let rotates = try f.bool("allowRotationByPinching") {
            guard version >= 2 else {
                throw JSONError(
                    "expected no \"allowRotationByPinching\" in a version 1 trace: the option needs \"version\":2",
                    path: [.key("allowRotationByPinching")])
            }
            o.allowRotationByPinching = rotates
        }
        if let v = try f.nested("validation", decodeValidation) {
            guard version >= 3 else {
                throw JSONError(
                    "expected no \"validation\" in a version \(version) trace: the option needs \"version\":3",
                    path: [.key("validation")])
            }
            o.validation = v
        }
        if let s = try f.nested("snapping", decodeSnapping) {
            guard version >= 4 else {
                throw JSONError(
                    "expected no \"snapping\" in a version \(version) trace: the option needs \"version\":4",
                    path: [.key("snapping")])
            }
            o.snapping = s
        }
        try f.rejectUnknown()
        return o
    }

    /// The header's `options.validation`: built-in rules by name.
    static func decodeValidation(_ v: JSONValue) throws -> TraceValidation {
        var f = try TraceFields(v, what: "validation rules")
        var r = TraceValidation()
        r.noSelfIntersection = try f.bool("noSelfIntersection") ?? false
        for (key, path) in [("minimumArea", \TraceValidation.minimumArea), ("minimumLength", \.minimumLength)] {
            if let d = try f.double(key) {
                guard d >= 0 else { throw JSONError("expected a number ≥ 0, found \(JSONWriter.format(d))", path: [.key(key)]) }
                r[keyPath: path] = d
            }
        }
        if let n = try f.int("maximumVertices") {
            guard n >= 0 else { throw JSONError("expected a vertex count ≥ 0, found \(n)", path: [.key("maximumVertices")]) }
            r.maximumVertices = n
        }
        try f.rejectUnknown()
        return r
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
}
