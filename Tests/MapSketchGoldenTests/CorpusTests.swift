import Foundation
import MapSketchGeometry
import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchGolden

/// Replays every trace under Traces/ and compares it with its golden files.
///
/// Goldens are recorded only on request: `MAPSKETCH_RECORD=1 swift test --filter CorpusTests`
/// (or `mapsketch check --update`). A mismatch writes NAME.actual.json and NAME.diff.svg beside
/// the golden and fails with the diff.
@MainActor
@Suite struct CorpusTests {
    nonisolated static let root = Fixtures.url("Traces")
    nonisolated static let cases: [GoldenCase] = (try? GoldenCorpus.cases(under: root))?.filter { !$0.name.hasPrefix("real/") } ?? []

    @Test(arguments: cases.map(\.name))
    func traceMatchesItsGolden(_ name: String) throws {
        let c = try #require(Self.cases.first { $0.name == name })
        let status = GoldenRunner(record: .requested()).check(c, rendering: Replayer.rendering(for: c))
        if case .failed(let report) = status { Issue.record("\(report)") }
    }

    @Test func corpusCoversEveryCategory() {
        var counts: [String: Int] = [:]
        for c in Self.cases { counts[String(c.name.split(separator: "/").first ?? ""), default: 0] += 1 }
        #expect(Self.cases.count >= 60)
        #expect(counts["interaction", default: 0] >= 20)
        #expect(counts["programmatic", default: 0] >= 15)
        #expect(counts["tools", default: 0] >= 20)
        #expect(counts["gps", default: 0] >= 10)
        #expect(counts["touch", default: 0] >= 1)
        #expect(counts["synthetic", default: 0] >= 3)
        #expect(counts["malformed", default: 0] >= 10)
        #expect(counts["demo", default: 0] == 1)
    }

    @Test func everyRealTrackAndRecordingHasATrace() throws {
        let names = Set(Self.cases.map(\.name))
        let gpx = Fixtures.files(under: "Traces/real/gpx", suffix: ".gpx") + Fixtures.files(under: "Traces/real/gpx", suffix: ".gpx.gz")
        let nmea = Fixtures.files(under: "Traces/real/nmea", suffix: ".log")
        #expect(!gpx.isEmpty && !nmea.isEmpty)
        #expect(names.filter { $0.hasPrefix("gps/real-gpx-") }.count == gpx.count)
        #expect(names.filter { $0.hasPrefix("gps/real-nmea-") }.count == nmea.count)
    }

    @Test func everyMalformedTraceFailsWithFileLineColumn() throws {
        for c in Self.cases where c.name.hasPrefix("malformed/") {
            let doc = try JSONParser.parse(Replayer.rendering(for: c).json)
            let error = try #require(doc["error"]?.stringValue, "\(c.name) should fail")
            let file = c.trace.lastPathComponent
            #expect(error.hasPrefix(file + ":"), "\(error)")
            let parts = error.dropFirst(file.count + 1).split(separator: ":", maxSplits: 2)
            #expect(parts.count == 3 && Int(parts[0]) != nil && Int(parts[1]) != nil, "\(error)")
        }
    }

    @Test func replayIsByteIdenticalAcrossRuns() throws {
        for name in ["demo/demo", "synthetic/random-gestures-seed4", "gps/real-gpx-gpxpy-korita-zbevnica"] {
            let c = try #require(Self.cases.first { $0.name == name })
            let a = Replayer.rendering(for: c)
            let b = Replayer.rendering(for: c)
            #expect(a.json == b.json)
            #expect(a.svg == b.svg)
        }
    }

    @Test func eachTraceLineValidatesAgainstTheSchemaShape() throws {
        // The schema's top-level shape: every member the decoder accepts is declared in it.
        let schema = try JSONParser.parse(Fixtures.string("Traces/trace.schema.json"))
        let events = try #require(schema["$defs"]?["event"]?["oneOf"]?.arrayValue)
        let declared = Set(events.compactMap { $0["properties"]?["type"]?["const"]?.stringValue })
        #expect(declared == Set(["touch", "gps", "end"] + TraceCallName.allCases.map(\.rawValue)))
        let headerProps = try #require(schema["$defs"]?["header"]?["properties"]?.objectValue)
        for key in ["screen", "viewport", "spatialReference", "sketch", "thresholds", "options", "layers", "gps"] {
            #expect(headerProps.contains(key), "schema header lacks \(key)")
        }
    }
}
