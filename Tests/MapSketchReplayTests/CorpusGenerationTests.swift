import Foundation
import MapSketchGeometry
import MapSketchReplay
import MapSketchTestSupport
import Testing

/// The corpus made from code (`Corpus.all`, what `mapsketch corpus Traces` writes) is the corpus
/// committed under Traces/.
@Suite struct CorpusGenerationTests {
    static let root = Fixtures.url("Traces")

    /// The traces `TraceBuilder.gpsTrace` makes from GPS tracks: the real GPX and NMEA files and
    /// the GPSTrackGenerator tracks.
    static func isBuiltFromATrack(_ path: String) -> Bool {
        path.hasPrefix("gps/real-") || path.hasPrefix("gps/generated-") || path.hasPrefix("synthetic/generated-gps-")
    }

    @Test func regeneratingGivesTheCommittedTraces() throws {
        var skipped: [String] = []
        let entries = Corpus.all(root: Self.root) { skipped.append($0) }
        #expect(skipped.isEmpty, "\(skipped)")
        // The same set of traces: every committed trace is made, and nothing else.
        let committed = try GoldenCorpus.cases(under: Self.root).map(\.name).filter { !$0.hasPrefix("real/") }
        #expect(entries.map(\.path).sorted() == committed.sorted())
        #expect(Set(entries.map(\.path)).count == entries.count, "two entries write one file")

        var drifted: [String] = []
        for e in entries {
            let text = try Fixtures.string("Traces/\(e.path).trace.jsonl")
            if text == e.text { continue }
            // Only the traces built from GPS tracks may differ, and only in the last bits of the
            // header's viewport center: the projected track's center, which the generator computes
            // with the geometry engine's Web Mercator (atanh∘sin) and the committed files hold as
            // computed with ln∘tan. The goldens replay the committed files and do not depend on it.
            try #require(Self.isBuiltFromATrack(e.path), "\(e.path) differs from the committed trace")
            let made = e.text.split(separator: "\n", omittingEmptySubsequences: false)
            let file = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(made.dropFirst() == file.dropFirst(), "\(e.path): events differ")
            let diffs = GoldenComparison.differences(
                expected: try JSONParser.parse(String(file[0])), actual: try JSONParser.parse(String(made[0])),
                tolerance: .standard)
            #expect(diffs.isEmpty, "\(e.path): \(diffs)")
            drifted.append(e.path)
        }
        // Every trace made from code alone (interaction, programmatic, synthetic, demo, malformed,
        // the filter tracks) and from the getevent recordings is byte-identical.
        #expect(drifted.allSatisfy(Self.isBuiltFromATrack))
        #expect(entries.count - drifted.count >= 140, "\(drifted.count) of \(entries.count) differ")
    }
}
