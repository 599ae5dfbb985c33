import MapSketchReplay
import Testing

@testable import MapSketchBench

/// Snap queries (`snap.query`) as the bench measures them.
@MainActor
struct SnapBenchTests {
    @Test(arguments: ["snapping/hold-drag-snaps-to-edge", "snapping/graphics-layer-vertex-and-edge", "snapping/reticle-place-snaps"])
    func benchCountsSnapQueries(_ name: String) throws {
        let r = try BenchFixtures.measure(name)
        #expect((r.kind(.snapQuery)?.count ?? 0) > 0, "\(r.kinds.map(\.kind))")
        // Without snapping on, no snap query is made.
        let plain = try BenchFixtures.measure("tools/reticle-pick-up-pan-place")
        #expect(plain.kind(.snapQuery) == nil)
    }

    @Test func theSnapKindHasItsSlotAndCallgrindFunction() {
        #expect(BenchKind.snapQuery.name == "snap.query")
        #expect(Callgrind.kind(inFunction: "mapsketch_bench_kind_\(BenchKind.snapQuery.order)"[...]) == .snapQuery)
        #expect(BenchRecorder.slot(.snapQuery) == BenchKind.snapQuery.order)
    }
}
