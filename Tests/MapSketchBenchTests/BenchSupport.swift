import Foundation
@testable import MapSketchBench
import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchGolden

/// The corpus and helpers the bench tests share.
@MainActor
enum BenchFixtures {
    nonisolated static let corpus: [GoldenCase] = (try? GoldenCorpus.cases(under: Fixtures.url("Traces"))) ?? []

    static func load(_ name: String) throws -> (GoldenCase, Trace, String) {
        let c = try #require(corpus.first { $0.name == name }, "no corpus trace \(name)")
        let text = try String(contentsOf: c.trace, encoding: .utf8)
        return (c, try Replayer.load(c.trace), text)
    }

    static func measure(_ name: String, runs: Int = 2, warmup: Int = 0, timing: BenchTiming = .automatic) throws -> BenchTraceResult {
        let (_, trace, text) = try load(name)
        return try BenchRunner(options: BenchOptions(warmup: warmup, runs: runs, timing: timing)).measure(trace, name: name, file: name, text: text)
    }

    static let clock = BenchClock(source: "cycle counter", resolution: 10)
    static let build = BenchBuild(version: "test", configuration: "release")

    /// A report of one trace `name` of `events` events with one kind (`undo`) whose runs have the
    /// given p50s (and the same p90, p99, max and mean), and the given totals; counters as given.
    static func report(
        instructions: UInt64, allocations: UInt64, p50s: [Double], totals: [Double], name: String = "t", kind: BenchKind = .undo,
        pairID: String? = nil, events: Int = 10
    ) -> BenchReport {
        let runs = p50s.map {
            BenchKindResult.Run(
                count: 10, p50: $0, p90: $0, p99: $0, max: $0, mean: $0, allocations: allocations, bytes: allocations * 16, instructions: instructions)
        }
        let trace = BenchTraceResult(
            name: name, events: events, totalNanoseconds: totals, setupNanoseconds: totals.map { _ in 1 },
            allocations: totals.map { _ in allocations * 10 }, bytes: totals.map { _ in allocations * 160 },
            instructions: totals.map { _ in instructions * 10 },
            attributed: totals.map { BenchAttributedRun(nanoseconds: $0 * 0.9, allocations: allocations * 9, bytes: allocations * 150, instructions: instructions * 9) },
            kinds: [BenchKindResult(kind: kind, runs: runs)])
        return BenchReport(
            warmup: 1, runs: p50s.count, counters: BenchCounters(allocations: true, instructions: true), clock: clock, build: build,
            traces: [trace], pairID: pairID)
    }

    /// Two reports of `figures` traces of one kind each, every run at 100 ns.
    static func noisy(figures: Int, runs: Int) -> (BenchReport, BenchReport) {
        var a = report(instructions: 1, allocations: 1, p50s: Array(repeating: 100, count: runs), totals: Array(repeating: 1, count: runs))
        a.traces = (0..<figures).map {
            report(instructions: 1, allocations: 1, p50s: Array(repeating: 100, count: runs), totals: Array(repeating: 1, count: runs), name: "t\($0)")
                .traces[0]
        }
        return (a, a)
    }
}
