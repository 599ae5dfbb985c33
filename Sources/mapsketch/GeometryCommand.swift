public import ArgumentParser
import Foundation
import MapSketchGeometry
public import MapSketchTools

extension GeometryTool.Operation: ExpressibleByArgument {}

/// `mapsketch geometry OP [FILE]`: simplify, normalize, project, validate or convert geometry.
struct GeometryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geometry",
        abstract: "Simplify, normalize, project, validate or convert geometry (Esri JSON, GeoJSON or WKT).",
        discussion: """
            Reads one geometry, or JSON Lines of many (one per line), from FILE or standard input and \
            writes one result per geometry, in the same order. validate prints {"valid":…} per geometry \
            and exits 1 when any is invalid. Input errors exit 2 as FILE:LINE:COLUMN: what was expected.
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
        let text: String
        if name == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            text = String(decoding: try CLI.contents(of: URL(fileURLWithPath: name), file: name), as: UTF8.self)
        }
        let tool = GeometryTool(
            operation: operation, inputFormat: inputFormat?.format, outputFormat: format?.format,
            assumedSpatialReference: sr.map { SpatialReference(wkid: $0) },
            targetSpatialReference: to.map { SpatialReference(wkid: $0) })
        let result: GeometryTool.Result
        do {
            result = try tool.run(text, file: name == "-" ? "<stdin>" : name)
        } catch {
            throw CLI.fail(error.description)
        }
        try CLI.emit(result.output, to: output)
        if result.exitCode != 0 { throw ExitCode(result.exitCode) }
    }
}
