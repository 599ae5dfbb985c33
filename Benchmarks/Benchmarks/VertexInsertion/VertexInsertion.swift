import Benchmark
import BenchmarkSupport
@_spi(MapSketchInternal) import MapSketchGeometry
import MapSketchReplay

/// A mutable home for a vertex store that lives across a benchmark's samples.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A GPS-like polyline of `n` vertices (a seeded random walk, 1–10 map units a step).
func walk(_ n: Int, seed: UInt64 = 42) -> [Point] {
    var rng = SplitMix64(seed: seed)
    var x = 0.0
    var y = 0.0
    return (0..<n).map { _ in
        x += rng.double(-10, 10)
        y += rng.double(-10, 10)
        return Point(x: x, y: y)
    }
}

let benchmarks: @Sendable () -> Void = {
    for size in Suite.sizes {
        // Insert in the middle of an n-vertex polyline held in chunked storage (a B+tree of
        // fixed-size chunks). Measured: the inserts only; the store is put back to n vertices by
        // removing them after the measurement, so every sample sees the same n.
        Benchmark(
            "InsertMiddle.\(size.label).MapSketch",
            configuration: Suite.configuration(scalingFactor: .kilo, maxIterations: 200)
        ) { (benchmark: Benchmark, box: Box<ChunkedVertices>) in
            let n = box.value.count
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations {
                box.value.insert(Point(x: Double(i), y: -1), at: box.value.count / 2)
            }
            benchmark.stopMeasurement()
            for _ in benchmark.scaledIterations { _ = box.value.remove(at: box.value.count / 2) }
            precondition(box.value.count == n, "insert/remove changed the vertex count")
        } setup: {
            let store = ChunkedVertices(walk(size.n))
            precondition(store.count == size.n)
            return Box(store)
        }

        // Append to the end (a GPS track growing fix by fix), from empty to n vertices.
        Benchmark(
            "Append.\(size.label).MapSketch",
            configuration: Suite.configuration(maxIterations: size.n >= 1_000_000 ? 20 : 200)
        ) { benchmark, points in
            for _ in benchmark.scaledIterations {
                var store = ChunkedVertices()
                for p in points { store.append(p) }
                precondition(store.count == points.count && store.last == points.last)
                blackHole(store)
            }
        } setup: {
            walk(size.n)
        }
    }

    // Appends measured alone, amortised over one sample of 1,000 into a store that keeps growing:
    // the per-vertex cost and malloc count a live GPS track pays.
    Benchmark("AppendAmortised.MapSketch", configuration: Suite.configuration(scalingFactor: .kilo, maxIterations: 1_000)) {
        benchmark, box in
        for i in benchmark.scaledIterations {
            box.value.append(Point(x: Double(i), y: Double(i & 1_023)))
        }
        blackHole(box.value.count)
    } setup: {
        Box(ChunkedVertices(walk(1_000)))
    }

    // The reference the chunked storage is measured against: a contiguous `[Point]` pays an
    // O(n) memmove for every insert in the middle (the ~400 µs the targets quote).
    Benchmark("InsertMiddle.1M.ContiguousArray", configuration: Suite.configuration(maxIterations: 200)) {
        (benchmark: Benchmark, box: Box<[Point]>) in
        let n = box.value.count
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            box.value.insert(Point(x: Double(i), y: -1), at: box.value.count / 2)
        }
        benchmark.stopMeasurement()
        for _ in benchmark.scaledIterations { box.value.remove(at: box.value.count / 2) }
        precondition(box.value.count == n)
    } setup: {
        var points = walk(1_000_000)
        points.reserveCapacity(points.count + 16)
        return Box(points)
    }
}
