public import Benchmark

/// Settings every suite shares, so that all figures are comparable and CI stays short.
public enum Suite {
    /// The metrics every benchmark reports: wall clock (p50 is the headline figure), throughput,
    /// malloc calls (the CI gate) and peak resident memory.
    public static var metrics: [BenchmarkMetric] { [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident] }

    /// The malloc-count tolerance package-benchmark applies when its own `thresholds check` or
    /// `baseline check` is run by hand: 64 calls either way at p90 (the sampling thread's noise).
    /// CI uses `check-thresholds.sh`, which also allows 10 % for large counts. Wall clock has
    /// no threshold: this machine is shared and its timings are noisy.
    public static var mallocGate: [BenchmarkMetric: BenchmarkThresholds] {
        [.mallocCountTotal: .init(absolute: [.p90: 64])]
    }

    /// Bytes of spatial index per graphic (`SpatialIndex.memoryFootprint / n`), reported by index builds.
    public static var indexBytesPerGraphic: BenchmarkMetric { .custom("indexBytesPerGraphic", polarity: .prefersSmaller, useScalingFactor: false) }
    /// Bytes one undo record takes in the history (`MemoryLayout<SketchEditRecord>.stride`).
    public static var bytesPerRecord: BenchmarkMetric { .custom("bytesPerRecord", polarity: .prefersSmaller, useScalingFactor: false) }

    /// The default configuration: a short warm-up, at most `maxSeconds` or `maxIterations`
    /// samples; `extraMetrics` adds custom ones (a custom metric is shown only when listed).
    public static func configuration(
        scalingFactor: BenchmarkScalingFactor = .one,
        maxSeconds: Int = 1,
        maxIterations: Int = 1_000,
        warmupIterations: Int = 2,
        extraMetrics: [BenchmarkMetric] = []
    ) -> Benchmark.Configuration {
        .init(
            metrics: metrics + extraMetrics,
            timeUnits: .automatic,
            warmupIterations: warmupIterations,
            scalingFactor: scalingFactor,
            maxDuration: .seconds(maxSeconds),
            maxIterations: maxIterations,
            thresholds: mallocGate
        )
    }

    /// Runs `body` on the main actor with only `body` measured, handing it the benchmark's
    /// iterations.
    ///
    /// MapSketch's layers and map view are main-actor isolated, so their benchmarks hop to the
    /// main actor once per sample (an async benchmark starts a task on a global queue, which
    /// hops to the main thread), and between two samples the hop's threads run and the cache is
    /// refilled. A GEOS peer measured on the runner's own thread would skip that: each side of a
    /// side-by-side ratio (the hit tests and snaps) is measured through here, so both run under
    /// the same conditions.
    public static func onMainActor(
        _ benchmark: Benchmark, _ body: @escaping @MainActor @Sendable (Range<Int>) -> Void
    ) async {
        let handle = UncheckedSendable(benchmark)
        await MainActor.run {
            let iterations = handle.value.scaledIterations
            handle.value.startMeasurement()
            body(iterations)
            handle.value.stopMeasurement()
        }
    }

    /// The input sizes that show complexity: n and its short label.
    public static let sizes: [(n: Int, label: String)] = [(1_000, "1k"), (100_000, "100k"), (1_000_000, "1M")]

    /// The largest size, run only for the cheapest data (points) where memory allows.
    public static let huge: (n: Int, label: String) = (10_000_000, "10M")
}

/// Carries a value the compiler cannot prove `Sendable` into a main-actor hop.
///
/// Used for the ``Benchmark`` handle: MapSketch's layers and map view are main-actor isolated, so
/// their benchmarks hop to the main actor once per sample and start and stop the measurement
/// there, keeping the hop out of the figures. The handle is only touched on that one actor.
public struct UncheckedSendable<Value>: @unchecked Sendable {
    /// The wrapped value.
    public let value: Value
    /// Wraps `value`.
    public init(_ value: Value) { self.value = value }
}
