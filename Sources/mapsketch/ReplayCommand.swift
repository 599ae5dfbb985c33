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

    @Option(help: "Write the event log to this file (JSON Lines).")
    var events: String?

    @Option(help: "Write the whole output document (the golden file's content) to this file.")
    var output: String?

    @Flag(help: "Sleep between events to keep the trace's pace (also on when the trace's options.realtime is true).")
    var realtime = false

    @Option(help: "Pace multiplier with --realtime (2 = twice as fast).")
    var speed: Double = 1

    @Flag(help: "Exit 1 when the model refuses a call the trace does not declare in expect.refusedCalls.")
    var strict = false

    func validate() throws {
        try NumericOption.check(speed, "speed", 0.001...1_000_000, unit: "a pace multiplier")
    }

    @MainActor
    mutating func run() async throws {
        let t = try input.load()
        let file = input.file
        let session: ReplaySession
        if realtime || t.header.options.realtime {
            session = try CLI.input { () throws(TraceError) in try Replayer.replay(t, name: file, file: file, upTo: 0) }
            await session.runPaced(speed: speed)
        } else {
            session = try CLI.input { () throws(TraceError) in try Replayer.replay(t, name: file, file: file) }
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
        commandName: "render", abstract: "Render the map of a trace as SVG, at the end or after N events.")

    @OptionGroup var input: TraceInput

    @Option(help: "The SVG file to write.")
    var svg: String

    @Option(help: ArgumentHelp("Render after this many events instead of at the end.", valueName: "n"))
    var step: Int?

    @Option(
        help: ArgumentHelp(
            "How the SVG draws the sketch.",
            discussion: "sketch: as it is edited, with vertices and mid-vertices; track: direction arrows and a color per part, no editing handles.",
            valueName: "style"))
    var style: SketchSVGStyle = .sketch

    func validate() throws {
        if let step, step < 0 { throw ValidationError("--step must be 0 or more, found \(step)") }
    }

    @MainActor
    mutating func run() async throws {
        let t = try input.load()
        let file = input.file
        let n = step
        let session = try CLI.input { () throws(TraceError) in try Replayer.replay(t, name: file, file: file, upTo: n) }
        try CLI.write(session.svg(style: style), to: svg)
        print("\(svg): the map after \(session.position) of \(t.events.count) events")
    }
}
