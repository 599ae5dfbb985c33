public import MapSketchGeometry

/// The `mapsketch geometry OP` tool as a pure function: reads one geometry or JSON Lines of many,
/// applies an operation to each, and writes one result per input, in order.
///
/// Input is one geometry (Esri JSON, GeoJSON or WKT, possibly spread over many lines) or many, one
/// per line. It is read line by line when it has more than one non-blank line and its first
/// non-blank line is a complete geometry on its own; otherwise as a whole.
public struct GeometryTool: Sendable {
    /// The operations of `mapsketch geometry`.
    public enum Operation: String, Sendable, CaseIterable {
        /// Make the geometry simple (valid) with `GeometryEngine.simplify(_:)`.
        case simplify
        /// Split at the antimeridian and bring into −180…180 (needs a spatial reference).
        case normalize
        /// Project into the target spatial reference (`--to`; the input needs a spatial reference).
        case project
        /// Write `{"valid":…}` with the rule, part and vertex of each issue; exit 1 when any
        /// geometry is invalid.
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

    /// Runs the tool over `text` read from `file` (a name used in error messages).
    /// - Throws: ``GeometryToolError`` for unreadable input or a missing spatial reference, naming
    ///   the file, line and column and what was expected.
    /// - Complexity: O(n) in the input size plus the cost of the operation per geometry.
    public func run(_ text: String, file: String) throws(GeometryToolError) -> Result {
        var outputs: [String] = []
        var failed = false
        for item in try items(text, file: file) {
            let (out, ok) = try apply(item.geometry, format: item.format, file: file, line: item.line)
            outputs.append(out)
            failed = failed || !ok
        }
        return Result(output: outputs.map { $0 + "\n" }.joined(), exitCode: failed ? 1 : 0)
    }

    struct Item {
        var geometry: SpatialGeometry
        var format: GeometryFormat
        var line: Int
    }

    func items(_ text: String, file: String) throws(GeometryToolError) -> [Item] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let nonBlank = lines.enumerated().filter { !$0.element.allSatisfy(\.isWhitespace) }
        guard !nonBlank.isEmpty else {
            throw GeometryToolError(file: file, line: 1, column: 1, message: "expected a geometry (Esri JSON, GeoJSON or WKT), found empty input")
        }
        if nonBlank.count > 1, let first = nonBlank.first, (try? decode(String(first.element))) != nil {
            var out: [Item] = []
            for (i, line) in nonBlank {
                do {
                    let (g, f) = try decode(String(line))
                    out.append(Item(geometry: g, format: f, line: i + 1))
                } catch {
                    throw Self.locate(error, file: file, lineOffset: i)
                }
            }
            return out
        }
        do {
            let (g, f) = try decode(text)
            return [Item(geometry: g, format: f, line: 1)]
        } catch {
            throw Self.locate(error, file: file, lineOffset: 0)
        }
    }

    func decode(_ text: String) throws -> (SpatialGeometry, GeometryFormat) {
        let format = inputFormat ?? Self.detect(text)
        let g = try format.decode(text)
        guard g.geometry.isFinite else {
            throw JSONError("expected finite coordinates, found NaN or infinity", line: 1, column: 1)
        }
        return (g, format)
    }

    /// Esri JSON or GeoJSON when the text starts with `{` or `[`, else WKT.
    static func detect(_ text: String) -> GeometryFormat {
        let first = text.first { !$0.isWhitespace && $0 != "\u{FEFF}" }
        return first == "{" || first == "[" ? GeometryFormat.detect(text) : .wkt
    }

    /// The tool's error for a decoding error of the text that starts on line `lineOffset + 1`:
    /// JSON errors come located by the codecs (``JSONParser/decode(_:options:_:)``), WKT errors
    /// by the WKT reader.
    static func locate(_ error: any Error, file: String, lineOffset: Int) -> GeometryToolError {
        switch error {
        case let e as JSONError:
            return GeometryToolError(
                file: file, line: (e.line ?? 1) + lineOffset, column: e.column ?? 1, message: e.pathAndMessage)
        case let e as WKTError:
            return GeometryToolError(
                file: file, line: e.line + lineOffset, column: e.column, message: "expected \(e.expected), found \(e.found)")
        default:
            return GeometryToolError(file: file, line: 1 + lineOffset, column: 1, message: "\(error)")
        }
    }

    /// The input's spatial reference: its own (Esri JSON's `spatialReference`; GeoJSON's WGS 84,
    /// or a legacy `crs`), else `--sr`. An `--sr` that contradicts the input's own is an error —
    /// for GeoJSON, whose coordinates are WGS 84 longitude/latitude by definition (RFC 7946),
    /// any `--sr` but 4326 — never silently ignored.
    func spatialReference(of g: SpatialGeometry, format: GeometryFormat, file: String, line: Int) throws(GeometryToolError) -> SpatialReference? {
        guard let assumed = assumedSpatialReference else { return g.spatialReference }
        guard let own = g.spatialReference else { return assumed }
        guard own == assumed else {
            let message =
                format == .geoJSON
                ? "--sr \(assumed) does not apply to GeoJSON input: GeoJSON coordinates are \(own.isWGS84 ? "WGS 84 longitude/latitude (RFC 7946)" : "in the \(own) its crs member names"); remove --sr, or give the input as Esri JSON or WKT"
                : "--sr \(assumed) contradicts the input's own spatial reference \(own); remove --sr (it is for input that states none)"
            throw GeometryToolError(file: file, line: line, column: 1, message: message)
        }
        return own
    }

    /// `g` in `format`; GeoJSON is written in WGS 84 longitude/latitude (RFC 7946), projected
    /// from `g`'s spatial reference.
    func encode(_ g: SpatialGeometry, as format: GeometryFormat, file: String, line: Int) throws(GeometryToolError) -> String {
        guard format == .geoJSON else { return format.encode(g) }
        do {
            return try GeoJSON.encodeWGS84(g)
        } catch {
            throw GeometryToolError(file: file, line: line, column: 1, message: error.description)
        }
    }

    func apply(_ input: SpatialGeometry, format: GeometryFormat, file: String, line: Int) throws(GeometryToolError) -> (String, Bool) {
        let out = outputFormat ?? format
        let g = SpatialGeometry(input.geometry, spatialReference: try spatialReference(of: input, format: format, file: file, line: line))
        func need(_ what: String) -> GeometryToolError {
            GeometryToolError(file: file, line: line, column: 1, message: "expected a spatial reference (\(what)), found none")
        }
        switch operation {
        case .convert:
            return (try encode(g, as: out, file: file, line: line), true)
        case .simplify:
            return (try encode(SpatialGeometry(GeometryEngine.simplify(g.geometry), spatialReference: g.spatialReference), as: out, file: file, line: line), true)
        case .normalize:
            guard let sr = g.spatialReference else { throw need("in the input or --sr") }
            let n: Geometry
            do {
                n = try GeometryEngine.normalizeCentralMeridian(g.geometry, spatialReference: sr)
            } catch {
                throw GeometryToolError(file: file, line: line, column: 1, message: "\(error)")
            }
            return (try encode(SpatialGeometry(n, spatialReference: sr), as: out, file: file, line: line), true)
        case .project:
            guard let from = g.spatialReference else { throw need("in the input or --sr") }
            guard let to = targetSpatialReference else { throw need("--to") }
            if out == .geoJSON, !to.isWGS84 {
                throw GeometryToolError(
                    file: file, line: line, column: 1,
                    message: "GeoJSON output is WGS 84 longitude/latitude (RFC 7946) and cannot hold coordinates in --to \(to); write --format esrijson or wkt")
            }
            let p: Geometry
            do {
                p = try GeometryEngine.project(g.geometry, from: from, to: to)
            } catch {
                throw GeometryToolError(file: file, line: line, column: 1, message: "\(error)")
            }
            return (try encode(SpatialGeometry(p, spatialReference: to), as: out, file: file, line: line), true)
        case .validate:
            let issues = GeometryEngine.validate(g.geometry)
            var o = JSONObject()
            o["valid"] = .bool(issues.isEmpty)
            if !issues.isEmpty {
                o["issues"] = .array(
                    issues.map { issue in
                        var i = JSONObject()
                        i["rule"] = .string(issue.rule.rawValue)
                        if let part = issue.part { i["part"] = .integer(Int64(part)) }
                        if let vertex = issue.vertex { i["vertex"] = .integer(Int64(vertex)) }
                        i["message"] = .string(issue.description)
                        return .object(i)
                    })
            }
            var text = ""
            JSONWriter.write(.object(o), into: &text)
            return (text, issues.isEmpty)
        }
    }
}
