public import ArgumentParser
import Foundation
import MapSketch
import MapSketchGeometry
public import MapSketchReplay
public import MapSketchGolden

// Options shared by the subcommands, each declared once (as swift-argument-parser's `math`
// example shares its `Options` with `@OptionGroup`).

/// A trace to replay: the argument and how it is read.
struct TraceInput: ParsableArguments {
    @Argument(help: "The trace (.trace.jsonl).")
    var trace: String

    /// The trace file.
    var url: URL { URL(fileURLWithPath: trace) }

    /// The trace file as messages name it.
    var file: String { CLI.display(url) }

    /// Reads the trace, or exits 2 naming file:line:column; a getevent log given as a trace is
    /// told to be imported first.
    @MainActor
    func load() throws(ExitCode) -> Trace {
        do {
            return try Replayer.load(url, displayName: file)
        } catch {
            if let head = try? FileHandle(forReadingFrom: url).read(upToCount: 4096), GeteventImport.looksLikeGetevent(head) {
                throw CLI.fail(
                    "\(file) is an Android getevent log, not a trace: import it first with `mapsketch import getevent \(file) -o NAME.trace.jsonl` (see `mapsketch help import getevent`)")
            }
            throw CLI.fail(error.description)
        }
    }
}

/// Where the traces' layer files (a header layer's `source`) may be: each trace's own folder tree,
/// and with `--layer-root` also that folder's tree.
struct LayerRootOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Also allow layer files (a header layer's \"source\") under this folder; by default they must be in the trace's own folder tree.",
            valueName: "folder"))
    var layerRoot: String?

    /// The folder, or nil.
    var url: URL? { layerRoot.map { URL(fileURLWithPath: $0, isDirectory: true) } }
}

/// What a replaying command writes of the map: the sketch geometry in a format on standard output,
/// and an SVG of the map at the end.
struct MapOutputOptions: ParsableArguments {
    @Option(help: "The geometry format printed on standard output (GeoJSON is always WGS 84 longitude/latitude).")
    var format: FormatName = .esrijson

    @Option(help: ArgumentHelp("Write an SVG of the map at the end to this file.", valueName: "file"))
    var svg: String?

    @Option(
        help: ArgumentHelp(
            "How the SVG draws the sketch (default: track for gps, sketch for replay).",
            discussion: "sketch: as it is edited, with vertices and mid-vertices; track: direction arrows and a color per part, no editing handles.",
            valueName: "style"))
    var style: SketchSVGStyle?

    /// Writes the SVG of the session's map, when asked for, in --style (else `defaultStyle`).
    @MainActor
    func writeSVG(of session: ReplaySession, defaultStyle: SketchSVGStyle = .sketch) throws(ExitCode) {
        if let svg { try CLI.write(session.svg(style: style ?? defaultStyle), to: svg) }
    }

    /// Prints the output's geometry in the chosen format (GeoJSON in WGS 84 longitude/latitude),
    /// a warning on stderr for heights or measures only some vertices have (left out), or exits
    /// 2 saying why it cannot be written.
    func print(_ output: ReplayOutput) throws(ExitCode) {
        do {
            if let text = try output.geometryText(format.format) { Swift.print(text) }
        } catch {
            throw CLI.fail(error.description)
        }
        for w in output.geometryWarnings { CLI.printError("warning: \(w)") }
    }

    /// Prints the geometry a vertex store holds in the chosen format, streaming it to standard
    /// output as it is written (no copy of a million-vertex geometry or of its text).
    func print(_ vertices: VertexStore, spatialReference: SpatialReference?) throws(ExitCode) {
        do {
            try GeometryStreamWriter.write(vertices, spatialReference: spatialReference, format: format.format) { bytes in
                try FileHandle.standardOutput.write(contentsOf: Data(bytes))
            }
        } catch let e as GeoJSONOutputError {
            throw CLI.fail(e.description)
        } catch {
            throw CLI.fail("<stdout>: cannot write: \(error.localizedDescription)")
        }
    }
}

/// The type of the sketch a generated trace or a GPS track draws.
struct SketchTypeOption: ParsableArguments {
    @Option(help: "The type of sketch the fixes or gestures make.")
    var type: TrackSketchType = .polyline
}

/// The format names of the command line.
enum FormatName: String, ExpressibleByArgument, CaseIterable {
    case esrijson, geojson, wkt

    var format: GeometryFormat {
        switch self {
        case .esrijson: .esriJSON
        case .geojson: .geoJSON
        case .wkt: .wkt
        }
    }
}

/// The sketch types a GPS track or a generated trace can become.
enum TrackSketchType: String, ExpressibleByArgument, CaseIterable {
    case polyline, polygon, multipoint

    var geometryType: GeometryType {
        switch self {
        case .polyline: .polyline
        case .polygon: .polygon
        case .multipoint: .multipoint
        }
    }
}

/// Which traces a command works on: files and folders, `--filter`, `--shard` (shared by `check`
/// and `bench`).
struct TraceSelectionOptions: ParsableArguments {
    @Argument(help: "Trace files (*.trace.jsonl) and folders of them (default: Traces).")
    var paths: [String] = []

    @Option(
        name: .customLong("filter"),
        help: ArgumentHelp(
            "Keep only traces whose name matches this glob (repeatable; * and ? also match /).",
            discussion: "A trace's name is its path below the folder given, without .trace.jsonl, e.g. gps/real-gpx-gpxgo-visnjan.",
            valueName: "glob"))
    var filters: [String] = []

    @Option(help: ArgumentHelp("Keep only shard K of N (1-based), e.g. 2/4.", valueName: "K/N"))
    var shard: TraceSelection.Shard?

    /// The selection these options describe (`Traces` when no path is given).
    var selection: TraceSelection {
        TraceSelection(paths: paths.isEmpty ? ["Traces"] : paths, filters: filters, shard: shard)
    }

    /// The selected traces, or exits 2 saying why there are none.
    func cases() throws(ExitCode) -> [GoldenCase] {
        do {
            return try selection.cases()
        } catch {
            throw CLI.fail(error.description)
        }
    }
}

extension TraceSelection.Shard: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

/// The one check of a numeric command-line option: finite and within its range, else a usage
/// error naming the option, the range and what was given (`--width must be a number from 1 to
/// 100000 (points), found nan`).
enum NumericOption {
    /// Throws a usage error unless `value` is finite and in `range` (an upper bound of
    /// `.greatestFiniteMagnitude` means "or more").
    static func check(_ value: Double, _ name: String, _ range: ClosedRange<Double>, unit: String? = nil) throws {
        guard value.isFinite, range.contains(value) else {
            let bounds = range.upperBound == .greatestFiniteMagnitude
                ? "\(JSONWriter.format(range.lowerBound)) or more"
                : "from \(JSONWriter.format(range.lowerBound)) to \(JSONWriter.format(range.upperBound))"
            throw ValidationError("--\(name) must be a number \(bounds)\(unit.map { " (\($0))" } ?? ""), found \(shown(value))")
        }
    }

    /// Throws a usage error unless the integer `value` is in `range`.
    static func check(_ value: Int, _ name: String, _ range: ClosedRange<Int>, unit: String? = nil) throws {
        guard range.contains(value) else {
            throw ValidationError("--\(name) must be from \(range.lowerBound) to \(range.upperBound)\(unit.map { " (\($0))" } ?? ""), found \(value)")
        }
    }

    /// A value as the user typed it, more or less: `nan`, `inf`, `-inf` or the number.
    static func shown(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return JSONWriter.format(value)
    }
}

extension RecordMode: ExpressibleByArgument {}

extension SketchSVGStyle: ExpressibleByArgument {}

extension GeteventImport.Device: ExpressibleByArgument {}

extension ShrinkOutcome: ExpressibleByArgument {}
