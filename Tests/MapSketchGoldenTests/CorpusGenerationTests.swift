import Foundation
import MapSketchGeometry
import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchGolden

/// The corpus made from code (`Corpus.all`, what `mapsketch corpus Traces` writes) is the corpus
/// committed under Traces/.
@Suite struct CorpusGenerationTests {
    static let root = Fixtures.url("Traces")

    @Test func regeneratingGivesTheCommittedTraces() throws {
        var skipped: [String] = []
        let entries = Corpus.all(root: Self.root) { skipped.append($0) }
        #expect(skipped.isEmpty, "\(skipped)")
        // The same set of traces: every committed trace is made, and nothing else.
        let committed = try GoldenCorpus.cases(under: Self.root).map(\.name).filter { !$0.hasPrefix("real/") }
        #expect(entries.map(\.path).sorted() == committed.sorted())
        #expect(Set(entries.map(\.path)).count == entries.count, "two entries write one file")

        // Every trace, made from code or from the real recordings and tracks, byte for byte.
        for e in entries {
            let text = try Fixtures.string("Traces/\(e.path).trace.jsonl")
            #expect(text == e.text, "\(e.path) differs from the committed trace: regenerate with mapsketch corpus Traces")
        }
    }
}
