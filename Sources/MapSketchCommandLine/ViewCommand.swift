import ArgumentParser
import Foundation
import MapSketchReplay
import MapSketchGolden

struct ViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Write a self-contained HTML page that steps through a trace's events.",
        discussion: """
            A slider and the arrow keys step through the events. Each step shows the map as `mapsketch render --step N` \
            draws it (viewport, layers, sketch, selection, mid-vertices, snap target and guide), the fingers down with \
            the vertex hit-test tolerance around them, the event and the log entries it produced; at the end, where the \
            trace has a golden beside it, expected against actual. No network, no external script or font.
            """)

    @OptionGroup var input: TraceInput

    @Option(name: .shortAndLong, help: "The HTML page to write.")
    var output: String

    @Option(help: "The most map frames the page holds; a longer trace keeps every k-th step's map.")
    var maxFrames: Int = 2000

    func validate() throws {
        try NumericOption.check(maxFrames, "max-frames", 1...1_000_000, unit: "frames")
    }

    @MainActor
    mutating func run() async throws {
        let trace = try input.load()
        let url = input.url
        let base = url.lastPathComponent.hasSuffix(GoldenCorpus.traceSuffix)
            ? String(url.lastPathComponent.dropLast(GoldenCorpus.traceSuffix.count)) : url.deletingPathExtension().lastPathComponent
        let golden = url.lastPathComponent.hasSuffix(GoldenCorpus.traceSuffix) ? GoldenCase(name: base, trace: url) : nil
        var page = StepViewerPage()
        page.maximumFrames = maxFrames
        let file = input.file
        let html: String
        do {
            html = try page.html(trace: trace, name: base, golden: golden)
        } catch {
            throw CLI.fail("\(file):\(error.description)")
        }
        try CLI.write(html, to: output)
        print("\(output): \(trace.events.count) events of \(file), step by step")
    }
}
