import MapSketchReplay
import Testing

@testable import MapSketchBench

/// Snap queries (`snap.query`) as the bench measures them.
@MainActor
struct SnapBenchTests {
    @Test(arguments: ["snapping/hold-drag-snaps-to-edge", "snapping/graphics-layer-vertex-and-edge", "snapping/reticle-place-snaps"])
    func benchCountsSnapQueries(_ name: String) throws {
        let r = try BenchTests.measure(name)
        #expect((r.kind(.snapQuery)?.count ?? 0) > 0, "\(r.kinds.map(\.kind))")
        // Without snapping on, no snap query is made.
        let plain = try BenchTests.measure("tools/reticle-pick-up-pan-place")
        #expect(plain.kind(.snapQuery) == nil)
    }

    @Test func theSnapKindHasItsOrdinalAndCallgrindFunction() {
        #expect(BenchOperation.snapQuery.ordinal == 20 && BenchOperation.snapQuery.rawValue == "snap.query")
        #expect(Callgrind.kind(inFunction: "mapsketch_bench_kind_20") == .snapQuery)
        #expect(BenchOperation(.model(.snapQuery)) == .snapQuery)
    }
}
