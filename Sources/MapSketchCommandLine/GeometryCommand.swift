public import ArgumentParser
import Foundation
import MapSketchGeometry
import MapSketchReplay
public import MapSketchGeometryTool
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension GeometryTool.Operation: ExpressibleByArgument {}

/// `mapsketch geometry OP [FILE]`: simplify, normalize, project, validate or convert geometry.
struct GeometryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geometry",
        abstract: "Simplify, normalize, project, validate or convert geometry (Esri JSON, GeoJSON or WKT).",
        discussion: """
            Reads geometries (Esri JSON, GeoJSON or WKT), each starting on a new line and free to span \
            lines — one geometry, or JSON Lines of many — from FILE or standard input as a stream, and \
            writes one result per geometry, in the same order, as each is made. validate prints \
            {"valid":…} per geometry, each issue with its rule, part, vertex and message (segments that cross, touch or \
            overlap: both segments, segment k running from vertex k to k + 1, and where they meet), and exits 1 when any \
            is invalid. Input errors exit 2 as \
            FILE:LINE:COLUMN: what was expected; reading stops at the first byte no geometry can hold.
            """
    )

    @Argument(help: "The operation.")
    var operation: GeometryTool.Operation

    @Argument(help: "The input file; '-' or nothing reads standard input.")
    var file: String?

    @Option(name: .customLong("in"), help: "The input format (default: detected from the text).")
    var inputFormat: FormatName?

    @Option(help: "The output format (default: the input's). GeoJSON is always written in WGS 84 longitude/latitude.")
    var format: FormatName?

    @Option(help: "The WKID of input that states no spatial reference (WKT, Esri JSON without one). GeoJSON is WGS 84 by definition: any other --sr is an error.")
    var sr: Int?

    @Option(help: "For project: the target WKID (4326, 3857 or 102100).")
    var to: Int?

    @Option(name: .shortAndLong, help: "Write to this file (atomically) instead of standard output.")
    var output: String?

    func run() throws {
        let name = file ?? "-"
        let display = name == "-" ? "<stdin>" : name
        let input: Int32
        if name == "-" {
            input = STDIN_FILENO
        } else {
            if let why = InputFile.problem(at: name) {
                throw CLI.fail(InputError(file: name, line: 1, column: 1, message: "cannot read the file: \(why)").description)
            }
            input = open(name, O_RDONLY)
            guard input >= 0 else {
                throw CLI.fail(InputError(file: name, line: 1, column: 1, message: "cannot read the file: \(String(cString: strerror(errno)))").description)
            }
        }
        defer { if input != STDIN_FILENO { close(input) } }
        let tool = GeometryTool(
            operation: operation, inputFormat: inputFormat?.format, outputFormat: format?.format,
            assumedSpatialReference: sr.map { SpatialReference(wkid: $0) },
            targetSpatialReference: to.map { SpatialReference(wkid: $0) })
        // Results go out as they are made, in blocks (GeometryTool.run(descriptor:file:emit:)):
        // to standard output, or with -o to a temporary file beside the destination that is
        // renamed into place at the end, so a failed run leaves no partial file and memory never
        // holds the whole output.
        var file: AtomicFileWriter?
        let code: Int32
        do {
            code = try tool.run(descriptor: input, file: display) { bytes in
                guard let output else {
                    guard let base = bytes.baseAddress else { return }
                    FileHandle.standardOutput.write(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none))
                    return
                }
                if file == nil { file = try AtomicFileWriter(URL(fileURLWithPath: output)) }
                try file?.write(bytes)
            }
            if let output {
                // An input without a result (none is possible: empty input is an error) still makes the file.
                if file == nil { file = try AtomicFileWriter(URL(fileURLWithPath: output)) }
                try file?.commit()
            }
        } catch let e as GeometryToolError {
            throw CLI.fail(e.description)
        } catch let e as GeometryTool.ReadError {
            throw CLI.fail(e.description)
        } catch let e as OutputError {
            throw CLI.fail(e.description)
        }
        if code != 0 { throw ExitCode(code) }
    }
}
