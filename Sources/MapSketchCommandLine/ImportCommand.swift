import ArgumentParser
import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReplay

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn a device log into a trace.",
        subcommands: [ImportGeteventCommand.self])
}

/// `WxH` in points, as `--screen` and `--axis-max` take it.
struct SizeArgument: ExpressibleByArgument {
    var width: Double
    var height: Double

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w.isFinite, h.isFinite, w >= 1, h >= 1,
            w <= 100_000, h <= 100_000
        else { return nil }
        width = w
        height = h
    }
}


struct ImportGeteventCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "getevent",
        abstract: "Turn an Android `getevent -lt` log into a trace of touches.",
        discussion: """
            Reads multi-touch protocols A and B and single touch. Raw axis units become screen points: with --device, \
            by the device's screen and axis range; with --screen, by the log's `getevent -lp` axis lines (or --axis-max); \
            with neither, raw units are points. Errors name the log's line and column. The trace replays into a new \
            polyline sketch on a map of one unit per point centred at the origin.
            """)

    @Argument(help: "The getevent log.")
    var file: String

    @Option(help: ArgumentHelp("The screen in points, e.g. 320x533.", valueName: "WxH"))
    var screen: SizeArgument?

    @Option(help: ArgumentHelp("The raw axis maxima when the log has no `getevent -lp` lines (with --screen).", valueName: "XxY"))
    var axisMax: SizeArgument?

    @Option(help: ArgumentHelp("A device preset: screen and axis range (galaxy-s, asus-tf201, emulator).", valueName: "name"))
    var device: GeteventImport.Device?

    @Option(help: "The trace's name.")
    var name: String?

    @Option(help: "The trace's description (default: Android getevent recording FILE (N touches)).")
    var description: String?

    @Option(name: .shortAndLong, help: "The trace file to write (default: stdout).")
    var output: String?

    func validate() throws {
        if device != nil, screen != nil || axisMax != nil {
            throw ValidationError("--device sets the screen and the axis range: give either --device or --screen/--axis-max")
        }
        if axisMax != nil, screen == nil { throw ValidationError("--axis-max needs --screen (the size the axes are scaled to)") }
    }

    @MainActor
    mutating func run() async throws {
        let url = URL(fileURLWithPath: file)
        let shown = CLI.display(url)
        let bytes = try CLI.contents(of: url, file: shown)
        let settings = GeteventImport.Settings(
            device: device, screen: screen.map { ScreenSize(width: $0.width, height: $0.height) },
            axisMax: axisMax.map { (x: $0.width, y: $0.height) }, name: name, description: description)
        let trace = try CLI.input { () throws(TraceError) in try GeteventImport.trace(bytes: [UInt8](bytes), file: shown, settings: settings) }
        try CLI.emit(TraceEncoder.encode(trace), to: output)
        if let output {
            CLI.printError("\(output): \(trace.events.count) touch events on a \(JSONWriter.format(trace.header.screen.width)) × \(JSONWriter.format(trace.header.screen.height)) pt screen")
        }
    }
}
