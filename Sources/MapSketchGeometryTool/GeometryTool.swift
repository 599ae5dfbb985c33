public import MapSketchGeometry

/// The `mapsketch geometry OP` tool: reads geometries as a stream of bytes, applies an
/// operation to each, and writes one result per input, in order, as it goes.
///
/// Input is a sequence of geometries — Esri JSON, GeoJSON or WKT — each starting on a new line
/// and free to span lines (a pretty-printed JSON object, multi-line WKT); JSON Lines is the
/// one-per-line case. Windows line ends and a UTF-8 byte-order mark read as Unix text does.
/// Memory holds the geometry being read and its result, not the input: a JSON Lines file of any
/// size streams through, and reading stops at the first byte no geometry can hold there (a NUL
/// byte stops `/dev/zero` at 1:1), reporting file:line:column.
public struct GeometryTool: Sendable {
    /// The operations of `mapsketch geometry`.
    public enum Operation: String, Sendable, CaseIterable {
        /// Make the geometry simple (valid) with `GeometryEngine.simplify(_:spatialReference:)`:
        /// a polygon becomes exactly its odd-even region; multipoints and polylines snap to the
        /// xy tolerance of their spatial reference (0.001 without one).
        case simplify
        /// Split at the antimeridian and bring into −180…180 (needs a spatial reference).
        case normalize
        /// Project into the target spatial reference (`--to`; the input needs a spatial reference).
        case project
        /// Write `{"valid":…}` with the rule, part and vertex of each issue (for segments that
        /// meet, both segments and where); exit 1 when any geometry is invalid.
        case validate
        /// Write the geometry unchanged, in the output format.
        case convert
    }

    /// What the tool produced: the output text and the process exit code (0 ok, 1 a geometry
    /// failed validation).
    public struct Result: Sendable, Equatable {
        /// One result per input geometry, each on its own line.
        public var output: String
        /// 0, or 1 when `validate` found an invalid geometry.
        public var exitCode: Int32

        /// Creates a result.
        public init(output: String, exitCode: Int32) {
            self.output = output
            self.exitCode = exitCode
        }
    }

    /// What the tool does to each geometry.
    public var operation: Operation
    /// The input format; nil detects it per geometry.
    public var inputFormat: GeometryFormat?
    /// The output format; nil writes each geometry in the format it was read in.
    public var outputFormat: GeometryFormat?
    /// The spatial reference of input that does not state one (`--sr`). Input that states its
    /// own — Esri JSON with a `spatialReference`, and GeoJSON, which is WGS 84 by definition — must
    /// agree with it: a contradiction is an error.
    public var assumedSpatialReference: SpatialReference?
    /// The target of `project` (`--to`).
    public var targetSpatialReference: SpatialReference?

    /// The size of the chunks ``run(file:read:write:)`` reads.
    public static let chunkSize = 1 << 16

    /// Geometries of at least this many bytes that the flat reader takes are read without a JSON
    /// tree (see ``convertFlat(_:file:write:)`` and ``applyFlat(_:file:write:)``); tests lower it to 0.
    var flatThreshold = 1 << 20

    /// Creates a tool; without formats it detects the input's and writes each result in it.
    public init(
        operation: Operation, inputFormat: GeometryFormat? = nil, outputFormat: GeometryFormat? = nil,
        assumedSpatialReference: SpatialReference? = nil, targetSpatialReference: SpatialReference? = nil
    ) {
        self.operation = operation
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.assumedSpatialReference = assumedSpatialReference
        self.targetSpatialReference = targetSpatialReference
    }

    /// Runs the tool over a stream: `read` fills the buffer it is given with the next bytes of
    /// the input and returns how many (0 at the end), and `write` receives each geometry's
    /// result as soon as it is made, then `"\n"` (two calls, so a large result is not copied).
    /// `file` names the input in messages.
    ///
    /// ```swift
    /// let status = try GeometryTool(operation: .convert, outputFormat: .wkt).run(
    ///     file: "<stdin>", read: { read(0, $0.baseAddress, $0.count) }, write: { print($0, terminator: "") })
    /// ```
    /// - Returns: the exit code: 0, or 1 when `validate` found an invalid geometry.
    /// - Throws: ``GeometryToolError`` for unreadable input, a missing spatial reference or a
    ///   geometry the operation refuses (naming the file, line and column and what was
    ///   expected) — results of the geometries before it have been written; whatever `read` or
    ///   `write` throws.
    /// - Complexity: O(n) in the input size plus the cost of the operation per geometry; memory
    ///   O(size of the largest geometry and its result).
    public func run(
        file: String, read: (UnsafeMutableRawBufferPointer) throws -> Int, write: (String) throws -> Void
    ) throws -> Int32 {
        var splitter = GeometryTextSplitter()
        var failed = false
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 1)
        defer { chunk.deallocate() }
        func handleReady() throws {
            var ready = splitter.takeReady()
            for i in ready.indices {
                // The piece here holds the only reference to its text, so dropping it frees it.
                var piece = ready[i]
                ready[i].text = []
                let (line, column) = (piece.line, piece.column)
                if operation == .convert, piece.stop == nil, piece.text.count >= flatThreshold,
                    try convertFlat(&piece, file: file, write: write)
                {
                    continue
                }
                if operation != .convert, piece.stop == nil, piece.text.count >= flatThreshold,
                    let ok = try applyFlat(&piece, file: file, write: write)
                {
                    failed = failed || !ok
                    continue
                }
                // The text is dropped once decoded: memory holds the geometry, then its result.
                let (g, format) = try decode(&piece, file: file)
                let (out, ok) = try apply(g, format: format, file: file, line: line, column: column)
                failed = failed || !ok
                try write(out)
                try write("\n")
            }
        }
        while true {
            let n = try read(chunk)
            guard n > 0 else { break }
            splitter.push(UnsafeRawBufferPointer(rebasing: chunk[0..<min(n, chunk.count)]))
            try handleReady()
        }
        splitter.finish()
        try handleReady()
        guard splitter.handedOver else {
            throw GeometryToolError(file: file, line: 1, column: 1, message: "expected a geometry (Esri JSON, GeoJSON or WKT), found empty input")
        }
        return failed ? 1 : 0
    }

    /// Runs the tool over `text` read from `file` (a name used in error messages), collecting
    /// the output.
    /// - Throws: ``GeometryToolError`` as ``run(file:read:write:)``.
    /// - Complexity: as ``run(file:read:write:)``, plus the output held in memory.
    public func run(_ text: String, file: String) throws(GeometryToolError) -> Result {
        let bytes = Array(text.utf8)
        var offset = 0
        var output = ""
        do {
            let code = try run(
                file: file,
                read: { buffer in
                    let n = min(buffer.count, bytes.count - offset)
                    bytes.withUnsafeBytes { src in
                        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[offset..<(offset + n)]))
                    }
                    offset += n
                    return n
                },
                write: { output += $0 })
            return Result(output: output, exitCode: code)
        } catch let e as GeometryToolError {
            throw e
        } catch {
            throw GeometryToolError(file: file, line: 1, column: 1, message: "\(error)")
        }
    }

    /// `convert` of a big two-dimensional multipoint or polyline in GeoJSON or Esri JSON: one pass
    /// checks the text and sizes its parts, a second writes each coordinate straight from the text
    /// to the output a chunk at a time — no JSON tree, no `Point` per vertex, no output string.
    /// The bytes are those of the general path; anything else (another shape, a z or m, an
    /// error, GeoJSON output needing a projection) returns false before writing, for the general
    /// path to handle and report.
    /// - Throws: ``GeometryToolError`` when `--sr` contradicts the input's own; what `write` throws.
    /// - Complexity: O(n) in the text; memory the text (which the splitter holds anyway) and one
    ///   output chunk.
    func convertFlat(_ piece: inout GeometryTextSplitter.Piece, file: String, write: (String) throws -> Void) throws -> Bool {
        guard inputFormat != .wkt, piece.text.first == UInt8(ascii: "{"),
            let flat = piece.text.withUnsafeBufferPointer({ FlatLineGeometry.decode($0, format: inputFormat) })
        else { return false }
        let out = outputFormat ?? flat.format
        let sr = try spatialReference(
            of: SpatialGeometry(.point(nil), spatialReference: flat.spatialReference), format: flat.format, file: file,
            line: piece.line, column: piece.column)
        if out == .geoJSON, !GeoJSON.isLongitudeLatitude(sr) { return false }
        _ = try piece.text.withUnsafeBufferPointer { text in
            try flat.write(text, as: out, spatialReference: sr) { bytes in try write(String(decoding: bytes, as: UTF8.self)) }
        }
        piece.text = []
        try write("\n")
        return true
    }

    /// A big two-dimensional multipoint or polyline in GeoJSON or Esri JSON for an operation
    /// other than `convert`, without the JSON tree or a ``Point`` per vertex of the general path:
    /// `validate` reads the text once more and keeps nothing per vertex; `simplify`, `normalize`
    /// and `project` read the coordinates into flat storage (16 bytes a vertex), drop the text,
    /// apply the operation there and write the result a chunk at a time. Output, errors and
    /// their order are those of the general path (the same checks, then the engine's rules over
    /// flat coordinates); nil, with the piece untouched, for anything the flat reader does not
    /// take (another shape, a z or m, any reading error), which the general path then reads and
    /// reports.
    /// - Returns: nil, or whether the geometry passed (`validate`); the result and `"\n"` have
    ///   been written.
    /// - Throws: ``GeometryToolError`` as the general path; what `write` throws.
    /// - Complexity: O(n) in the text (expected, for a multipoint's `simplify`); memory the text
    ///   and 16 bytes a vertex while reading, then 16 bytes a vertex (32 for `normalize` of a
    ///   polyline, up to about 42 for `simplify` of a multipoint) and one output chunk.
    func applyFlat(_ piece: inout GeometryTextSplitter.Piece, file: String, write: (String) throws -> Void) throws -> Bool? {
        guard operation != .convert, inputFormat != .wkt, piece.text.first == UInt8(ascii: "{"),
            let flat = piece.text.withUnsafeBufferPointer({ FlatLineGeometry.decode($0, format: inputFormat) })
        else { return nil }
        let (line, column) = (piece.line, piece.column)
        func fail(_ message: String) -> GeometryToolError { GeometryToolError(file: file, line: line, column: column, message: message) }
        let sr = try spatialReference(
            of: SpatialGeometry(.point(nil), spatialReference: flat.spatialReference), format: flat.format, file: file, line: line,
            column: column)
        if operation == .validate {
            let issues = piece.text.withUnsafeBufferPointer { flat.validate(in: $0) }
            piece.text = []
            try write(Self.validationText(issues))
            try write("\n")
            return issues.isEmpty
        }
        let out = outputFormat ?? flat.format
        // The checks `apply` makes before touching a vertex, in its order.
        let resultSR: SpatialReference?
        switch operation {
        case .normalize:
            guard let sr else { throw Self.missingSpatialReference("in the input or --sr", file: file, line: line, column: column) }
            resultSR = sr
        case .project:
            guard sr != nil else { throw Self.missingSpatialReference("in the input or --sr", file: file, line: line, column: column) }
            guard let to = targetSpatialReference else { throw Self.missingSpatialReference("--to", file: file, line: line, column: column) }
            if out == .geoJSON, !to.isWGS84 { throw Self.geoJSONCannotHold(to, file: file, line: line, column: column) }
            resultSR = to
        default:
            resultSR = sr
        }
        var coordinates = piece.text.withUnsafeBufferPointer { FlatCoordinates(flat, in: $0) }
        piece.text = []
        do {
            switch operation {
            case .simplify: coordinates.simplify(tolerance: sr?.xyTolerance ?? SpatialReference.defaultXYTolerance)
            case .normalize: if let sr { try coordinates.normalizeCentralMeridian(spatialReference: sr) }
            case .project: if let sr, let resultSR { try coordinates.project(from: sr, to: resultSR) }
            case .convert, .validate: break
            }
        } catch {
            throw fail("\(error)")
        }
        if out == .geoJSON {
            do {
                try coordinates.inWGS84(from: resultSR)
            } catch {
                throw Self.geoJSONError(error, file: file, line: line, column: column)
            }
        }
        try coordinates.write(as: out, spatialReference: resultSR) { bytes in try write(String(decoding: bytes, as: UTF8.self)) }
        try write("\n")
        return true
    }

    /// Decodes one piece of input: JSON (Esri JSON or GeoJSON, detected from its keys unless
    /// given) or WKT, with finite coordinates.
    func decode(_ piece: inout GeometryTextSplitter.Piece, file: String) throws(GeometryToolError) -> (SpatialGeometry, GeometryFormat) {
        let isJSON = piece.text.first == UInt8(ascii: "{") || piece.text.first == UInt8(ascii: "[")
        let g: SpatialGeometry
        let format: GeometryFormat
        do {
            (g, format) = try piece.text.withUnsafeBufferPointer { buf in
                if let given = inputFormat, given == .wkt || !isJSON {
                    return given == .wkt
                        ? (SpatialGeometry(try WKT.decode(utf8: buf)), .wkt)
                        : (try JSONParser.decode(buf) { try Self.decodeOne($0, as: given) }, given)
                }
                if !isJSON { return (SpatialGeometry(try WKT.decode(utf8: buf)), .wkt) }
                var detected = GeometryFormat.esriJSON
                let g = try JSONParser.decode(buf) { value in
                    detected = inputFormat ?? GeometryFormat.detect(value) ?? .esriJSON
                    return try Self.decodeOne(value, as: detected)
                }
                return (g, detected)
            }
        } catch {
            throw Self.locate(error, file: file, line: piece.line, column: piece.column)
        }
        piece.text = []
        if let stop = piece.stop {
            // The codecs read what the splitter could not: report where it stopped.
            throw GeometryToolError(file: file, line: stop.line, column: stop.column, message: stop.message)
        }
        // x and y must be finite; a NaN z or m is a vertex without one (WKT writes a missing z
        // as NaN), an infinite one is refused.
        for (i, part) in g.geometry.parts.enumerated() {
            for (k, p) in part.enumerated()
            where !(p.x.isFinite && p.y.isFinite) || p.z?.isInfinite == true || p.m?.isInfinite == true {
                throw GeometryToolError(
                    file: file, line: piece.line, column: piece.column,
                    message: "part \(i) vertex \(k): expected finite coordinates, found \(p)")
            }
        }
        return (g, format)
    }

    /// Decodes one geometry of a JSON format. A GeoJSON FeatureCollection or GeometryCollection
    /// (which the codec refuses with advice for library callers) is refused in the tool's own
    /// words: what to give it instead.
    /// - Throws: `JSONError` (located by the caller's `JSONParser`).
    static func decodeOne(_ value: JSONValue, as format: GeometryFormat) throws -> SpatialGeometry {
        if format == .geoJSON, let type = value["type"]?.stringValue {
            let members: (key: String, noun: String, jq: String)? =
                switch type {
                case "FeatureCollection": ("features", "feature", ".features[].geometry")
                case "GeometryCollection": ("geometries", "geometry", ".geometries[]")
                default: nil
                }
            if let members {
                let n = value[members.key]?.arrayValue?.count ?? 0
                let counted = "\(n) \(n == 1 ? members.noun : members.noun == "geometry" ? "geometries" : members.noun + "s")"
                throw JSONError(
                    "expected one geometry or Feature, found a \(type) of \(counted): give one geometry per line (GeoJSON Lines), e.g. `jq -c '\(members.jq)' FILE | mapsketch geometry …`"
                )
            }
        }
        return try format.decode(value)
    }
}
