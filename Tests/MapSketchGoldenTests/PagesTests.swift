import Foundation
import MapSketch
import MapSketchGeometry
@testable import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchGolden

/// The recorder and viewer pages as text (their behaviour in a browser is in
/// PagesInChromiumTests), and the completions command.
@MainActor
@Suite struct PagesTests {
    /// The page's data element, decoded.
    static func data(_ html: String) throws -> JSONValue {
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return try JSONParser.parse(String(html[start.upperBound..<end.lowerBound]))
    }

    @Test func theViewerHoldsEveryStepsFrameAndLogEntries() throws {
        let url = Fixtures.url("Traces/demo/demo.trace.jsonl")
        let trace = try Replayer.load(url)
        let html = try StepViewerPage().html(trace: trace, name: "demo", golden: GoldenCase(name: "demo", trace: url))
        #expect(!html.contains("</script>\n<script src"))
        let d = try Self.data(html)
        let steps = try #require(d["steps"]?.arrayValue)
        let frames = try #require(d["frames"]?.arrayValue)
        #expect(steps.count == trace.events.count + 1)
        for n in [0, 7, trace.events.count] {
            let f = try #require(steps[n]["f"]?.int64Value)
            let session = try Replayer.replay(trace, name: "demo", file: "demo", upTo: n)
            #expect(frames[Int(f)].stringValue == session.svg(), "step \(n)")
        }
        // The log entries, step by step, are the replay's log.
        let entries = steps.flatMap { $0["log"]?.arrayValue ?? [] }.compactMap(\.stringValue)
        let full = try Replayer.replay(trace, name: "demo", file: "demo").output().document["log"]?.arrayValue ?? []
        #expect(entries == full.map { JSONWriter.string($0) })
        #expect(html.contains("The replay matches its golden."))
        // A long trace keeps every k-th frame.
        var small = StepViewerPage()
        small.maximumFrames = 5
        let sampled = try Self.data(small.html(trace: trace, name: "demo"))
        #expect(sampled["every"]?.int64Value == Int64((trace.events.count + 4) / 5))
        #expect((sampled["frames"]?.arrayValue?.count ?? 99) <= 7)
    }

    @Test func theViewerSaysWhenTheGoldenDiffers() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let c = try dir.lineTrace("moved", [(0, 0), (10, 0)])
        _ = GoldenRunner(record: .all).run(c)
        let changed = try dir.lineTrace("moved", [(0, 0), (12, 0)])
        let html = try StepViewerPage().html(trace: Replayer.load(changed.trace), name: "moved", golden: changed)
        #expect(html.contains("The replay differs from its golden."))
        #expect(html.contains("moved.expected.json: "))
        #expect(html.components(separatedBy: "data:image/svg+xml;base64,").count == 4)
    }

    @Test func theRecorderCarriesTheHeaderAndTheMap() throws {
        var h = RecorderPage.defaultHeader
        h.sketch = TraceSketchSetup(geometryType: .polyline, geometry: .polyline(Polyline(paths: [[Point(-100, 0), Point(100, 0)]])))
        let html = try RecorderPage.html(header: h, fileName: "x.trace.jsonl")
        let d = try Self.data(html)
        let header = try TraceDecoder.decode((d["header"]?.stringValue ?? "") + "\n", file: "h")
        #expect(header.header == h)
        #expect(d["vertices"] == [[[100, 200], [300, 200]]])
        #expect(d["svg"]?.stringValue?.hasPrefix("<svg") == true)
        #expect(html.contains("id=\"map\""))
        #expect(html.contains("window.mapsketchTrace"))
    }

    @Test func completionsAndTheHelpListTheNewCommands() throws {
        let help = try MapsketchProcess.run(["--help"])
        for command in ["record", "view", "import", "shrink", "completions"] { #expect(help.out.contains("  \(command) "), "\(command)") }
        for shell in ["bash", "zsh", "fish"] {
            let r = try MapsketchProcess.run(["completions", shell])
            #expect(r.code == 0)
            #expect(r.out.contains("shrink") && r.out.contains("getevent"), "\(shell)")
        }
        #expect(try MapsketchProcess.run(["completions", "tcsh"]).code == 2)
    }
}
