// BEGIN trace-benchmark
import Benchmark
import MapSketchBench
import MapSketchGolden
import MapSketchReplay

/// Registers one benchmark per trace under `folder` (a path from the package's root), each
/// replaying its trace with `extensions` installed: package-benchmark's own metrics measure the
/// whole call, and each kind named in `kinds` (built-in, or `user.<name>`) adds the median latency
/// of its operations, in nanoseconds, as a custom metric of that name.
func traceBenchmarks(in folder: String, kinds: [String], extensions: ReplayExtensions = .none) throws {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal] + kinds.map { .custom($0) }
    for trace in try TraceSelection(paths: [folder]).cases() {
        Benchmark("Trace.\(trace.name)", configuration: .init(metrics: metrics, maxDuration: .seconds(1))) {
            (benchmark: Benchmark) async in
            let runs = benchmark.scaledIterations.count
            // One BenchReport of `runs` measured replays (fresh model state each).
            let report = await MainActor.run {
                BenchRunner(options: BenchOptions(warmup: 1, runs: runs), extensions: extensions).run([trace])
            }
            for kind in report.traces.first?.kinds ?? [] where kinds.contains(kind.kind.name) {
                benchmark.measurement(.custom(kind.kind.name), Int(kind.p50.rounded()))
            }
        }
    }
}
// END trace-benchmark
