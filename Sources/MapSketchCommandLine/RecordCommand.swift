import ArgumentParser
import Foundation
import MapSketchReplay
import MapSketchGolden

struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Write a self-contained HTML page that records touches on a trace's map and saves them as a trace.",
        discussion: """
            Open the page in a browser, on a laptop or a phone (copy the file over: it needs no network, no server, no \
            external script or font). It shows the map the trace's header describes (screen, viewport, graphics layers, \
            the sketch), captures touches (every finger) and mouse or pen input with their timestamps, draws the touches \
            and a preview of the vertices taps and vertex drags make, and saves the header with the recorded touches as \
            a trace (Save trace: a download). Without a trace, the map is 400 × 400 points with a new polygon sketch. \
            For automation, window.mapsketchTrace() returns the trace text and the map is the element with id `map`.
            """)

    @Argument(help: "The trace whose header sets up the map (its events are not used).")
    var trace: String?

    @Option(name: .shortAndLong, help: "The HTML page to write.")
    var output: String

    @MainActor
    mutating func run() async throws {
        var header = RecorderPage.defaultHeader
        var name = "recorded"
        if let trace {
            let input = try TraceInput.parse([trace])
            header = try input.load().header
            let file = input.url.lastPathComponent
            name = file.hasSuffix(GoldenCorpus.traceSuffix) ? String(file.dropLast(GoldenCorpus.traceSuffix.count)) : input.url.deletingPathExtension().lastPathComponent
            name += "-recorded"
        }
        let html: String
        do {
            html = try RecorderPage.html(header: header, fileName: name + GoldenCorpus.traceSuffix)
        } catch {
            throw CLI.fail("\(trace ?? "the default header"):\(error.description)")
        }
        try CLI.write(html, to: output)
        print("\(output): open it in a browser, record, then Save trace (\(name + GoldenCorpus.traceSuffix))")
    }
}
