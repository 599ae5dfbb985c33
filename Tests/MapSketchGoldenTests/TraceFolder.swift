import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReplay
@testable import MapSketchGolden

/// A folder of traces written in code, removed at the end of a test.
struct TraceFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("sub"), withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` as `name.trace.jsonl` and returns its case.
    @discardableResult
    func trace(_ name: String, _ text: String) throws -> GoldenCase {
        let u = url.appendingPathComponent(name + ".trace.jsonl")
        try FileManager.default.createDirectory(at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: u)
        return GoldenCase(name: name, trace: u)
    }

    /// A polyline sketch set to `points` by one call (line 2), then `calls` more.
    @discardableResult
    func lineTrace(
        _ name: String, _ points: [(Double, Double)], expect: TraceExpectation = TraceExpectation(),
        calls: [TraceCall] = []
    ) throws -> GoldenCase {
        var h = TraceHeader()
        h.sketch = TraceSketchSetup(geometryType: .polyline)
        h.expect = expect
        var s = TraceScript(header: h)
        s.call(.setGeometry(.polyline(Polyline(paths: [points.map { Point($0.0, $0.1) }]))))
        for c in calls { s.call(c) }
        return try trace(name, TraceEncoder.encode(s.trace))
    }

    func exists(_ u: URL) -> Bool { FileManager.default.fileExists(atPath: u.path) }
}
