import Foundation
import MapSketchTestSupport
import Testing

/// Hostile and unusual input through the built `mapsketch`: each test is a reproducer that once
/// crashed the tool, grew its memory without bound, or was accepted or rejected wrongly.
extension CLITests {
    /// A trace whose sketch lands 10^40 points off screen (resolution 10^-30).
    static let hugeScreenCoordinateTrace = """
        {"t":0,"type":"header","format":"mapsketch-trace","version":1,"name":"huge","screen":{"width":400,"height":400},\
        "viewport":{"center":{"x":0,"y":0},"resolution":1e-30},"spatialReference":{"wkid":102100,"latestWkid":3857},\
        "sketch":{"geometryType":"polyline","geometry":{"paths":[[[1e10,0],[2e10,5]]]}}}

        """

    @Test func screenCoordinatesBeyond1e36RenderInsteadOfTrapping() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("huge.trace.jsonl")
        try Self.hugeScreenCoordinateTrace.write(to: trace, atomically: false, encoding: .utf8)
        let svg = dir.appendingPathComponent("huge.svg")
        let replay = try run(["replay", trace.path, "--svg", svg.path])
        #expect(replay.code == 0, "\(replay.err)")
        let text = try String(contentsOf: svg, encoding: .utf8)
        #expect(text.contains("M9999999999999999094860208812374492184576 200 L"), "every digit, no exponent")
        let render = try run(["render", trace.path, "--svg", svg.path])
        #expect(render.code == 0, "\(render.err)")
    }

    @Test func checkGoesOnAfterAMismatchWithHugeCoordinates() throws {
        // The first trace's golden mismatches (so check draws the diff SVG of its huge
        // coordinates); the second has no golden. Both are reported; exit 1, not a crash.
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.hugeScreenCoordinateTrace.write(to: dir.appendingPathComponent("a-huge.trace.jsonl"), atomically: false, encoding: .utf8)
        try #"{"trace":"a-huge","sketch":{"geometry":{"paths":[[[1,2],[3,4]]]}}}"#
            .write(to: dir.appendingPathComponent("a-huge.expected.json"), atomically: false, encoding: .utf8)
        try FileManager.default.copyItem(
            at: Fixtures.url("Traces/interaction/polyline-taps-append.trace.jsonl"), to: dir.appendingPathComponent("b-next.trace.jsonl"))
        let r = try run(["check", dir.path])
        #expect(r.code == 1, "\(r.err)")
        #expect(r.out.contains("FAIL a-huge"))
        #expect(r.out.contains("wrote a-huge.actual.json and a-huge.diff.svg"))
        #expect(r.out.contains("FAIL b-next"))
        #expect(r.out.contains("2 traces in"))
        #expect(r.out.contains("0 passed, 2 failed"))
    }
}
