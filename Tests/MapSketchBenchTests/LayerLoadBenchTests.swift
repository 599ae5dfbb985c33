import Foundation
import MapSketchReplay
import MapSketchTestSupport
import Testing

@testable import MapSketchBench

/// Loading a header layer from its file (`layer.load`) as the bench measures it.
@MainActor
struct LayerLoadBenchTests {
    @Test func loadingALayerFileIsItsOwnKindInsideSetup() throws {
        let r = try BenchFixtures.measure("snapping/layer-file-parcels", runs: 2)
        #expect(r.kind(.layerLoad)?.runs.map(\.count) == [1, 1], "\(r.kinds.map(\.kind))")
        #expect(r.kind(.setup) != nil)
        // A trace without layer files loads none.
        #expect(try BenchFixtures.measure("snapping/graphics-layer-vertex-and-edge").kind(.layerLoad) == nil)
        #expect(BenchKind.layerLoad.name == "layer.load")
        #expect(BenchKind(named: "layer.load") == .layerLoad && BenchKind.builtIn.last == .layerLoad)
        #expect(BenchRecorder.slot(.layerLoad) == BenchKind.layerLoad.order)
        #expect(Callgrind.kind(inFunction: "mapsketch_bench_kind_\(BenchKind.layerLoad.order)"[...]) == .layerLoad)
    }

    @Test func workersAndTheCallgrindServerAreToldWhereLayerFilesMayBe() throws {
        let setup = BenchWorker.Setup(warmup: 1, timing: .automatic, measureOperations: true, traces: ["a b.trace.jsonl"], layerRoot: "/data/layers")
        #expect(BenchWorker.Setup(arguments: setup.arguments) == setup)
        let plain = BenchWorker.Setup(warmup: 1, timing: .automatic, measureOperations: true, traces: ["t.trace.jsonl"])
        #expect(!plain.arguments.contains { $0.hasPrefix("--layer-root") }, "the arguments of a bench without layer roots are as before")
        #expect(BenchWorker.Setup(arguments: plain.arguments) == plain)
        // The callgrind server's length line: the count alone, unless the trace names layer files.
        #expect(CallgrindServer.lengthLine(12, files: nil) == "12\n")
        let files = TraceFiles(trace: URL(fileURLWithPath: "/x/t.trace.jsonl"), layerRoot: URL(fileURLWithPath: "/data"))
        #expect(CallgrindServer.lengthLine(12, files: files) == "12\t/x/t.trace.jsonl\t/data\n")
        let text = try String(contentsOf: Fixtures.url("Traces/snapping/layer-file-parcels.trace.jsonl"), encoding: .utf8)
        #expect(BenchSession.namesLayerFiles(text))
        #expect(!BenchSession.namesLayerFiles(try String(contentsOf: Fixtures.url("Traces/demo/demo.trace.jsonl"), encoding: .utf8)))
    }
}
