import ArgumentParser
import Foundation
import MapSketchGeometry
import MapSketchReplay

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a trace and print its final geometry.",
        discussion: "The replay runs on a virtual clock (byte-identical output every run) unless --realtime is given.")

    @OptionGroup var input: TraceInput

    @OptionGroup var map: MapOutputOptions

    @OptionGroup var layerRoot: LayerRootOption

    @Option(help: "Write the event log to this file (JSON Lines).")
    var events: String?

    @Option(help: "Write the whole output document (the golden file's content) to this file.")
    var output: String?

    @Flag(help: "Sleep between events to keep the trace's pace (also on when the trace's options.realtime is true).")
    var realtime = false

    @Option(help: "Keep the trace's pace sped up by this factor (2 = twice as fast); implies --realtime (default: 1).")
    var speed: Double?

    @Flag(help: "Exit 1 when the model refuses a call the trace does not declare in expect.refusedCalls.")
    var strict = false

    func validate() throws {
        if let speed { try NumericOption.check(speed, "speed", 0.001...1_000_000, unit: "a pace multiplier") }
    }

    @MainActor
    mutating func run() async throws {
        var t = try input.load()
        t.files?.layerRoot = layerRoot.url
        let file = input.file
        let session: ReplaySession
        if realtime || speed != nil || t.header.options.realtime {
            session = try CLI.input { () throws(TraceError) in try Replayer.replay(t, name: file, file: file, upTo: 0, extensions: CLI.extensions) }
            await session.runPaced(speed: speed ?? 1)
        } else {
            session = try CLI.input { () throws(TraceError) in try Replayer.replay(t, name: file, file: file, extensions: CLI.extensions) }
        }
        let out = session.output()
        try map.writeSVG(of: session)
        if let events {
            let lines = (out.document["log"]?.arrayValue ?? []).map { JSONWriter.string($0) + "\n" }.joined()
            try CLI.write(lines, to: events)
        }
        if let output { try CLI.write(out.json, to: output) }
        if out.geometry != nil {
            try map.print(out)
        } else {
            CLI.printError("mapsketch: \(file) has no sketch; no geometry to print")
        }
        try CLI.reportRefusals(session.refusals, file: file, strict: strict)
    }
}

struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Render the map of a trace as SVG, at the end or after N events.",
        discussion: """
            The picture shows the map's viewport as the trace left it. When the sketch and the graphics lie off \
            screen there (a trace that panned or zoomed away), render says so; --fit frames them instead.
            """)

    @OptionGroup var input: TraceInput

    @Option(help: "The SVG file to write.")
    var svg: String

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Render after this many events (0 to the trace's event count) instead of at the end.", valueName: "n"))
    var step: Int?

    @Flag(help: "Pan and zoom the map so the sketch and the graphics fill the picture.")
    var fit = false

    @Option(
        help: ArgumentHelp(
            "How the SVG draws the sketch.",
            discussion: "sketch: as it is edited, with vertices and mid-vertices; track: direction arrows and a color per part, no editing handles.",
            valueName: "style"))
    var style: SketchSVGStyle = .sketch

    func validate() throws {
        if let step, step < 0 { throw ValidationError("--step must be 0 or more (at most the trace's event count), found \(step)") }
    }

    @MainActor
    mutating func run() async throws {
        let t = try input.load()
        let file = input.file
        if let step, step > t.events.count {
            throw CLI.fail(
                "--step must be from 0 to \(t.events.count) (\(file) has \(t.events.count) event\(t.events.count == 1 ? "" : "s")), found \(step)")
        }
        let n = step
        let session = try CLI.input { () throws(TraceError) in try Replayer.replay(t, name: file, file: file, upTo: n, extensions: CLI.extensions) }
        if fit {
            if !session.frameContent() { CLI.printError("mapsketch: nothing to frame: the map has no sketch vertex and no graphic") }
        } else if session.framing == .offScreen {
            CLI.printError(
                "warning: \(svg) shows none of the sketch and the graphics: after \(session.position) events the map's viewport has them off screen (the trace panned or zoomed away); --fit frames them")
        }
        try CLI.write(session.svg(style: style), to: svg)
        print("\(svg): the map after \(session.position) of \(t.events.count) events\(fit ? ", framed on the sketch and graphics" : "")")
    }
}
