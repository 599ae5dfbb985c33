import Benchmark
import Foundation
import BenchmarkSupport
@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry

/// A mutable home for state that lives across a benchmark's samples.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A seeded random walk of `n` vertices.
func walk(_ n: Int, seed: UInt64 = 17, step: Double = 10) -> [Point] {
    var rng = SplitMix64(seed: seed)
    var x = 0.0
    var y = 0.0
    return (0..<n).map { _ in
        x += rng.double(-step, step)
        y += rng.double(-step, step)
        return Point(x: x, y: y)
    }
}

/// A polyline sketch of a 1M-vertex walk with an empty history.
func editor(_ path: [Point]) -> SketchEditor {
    do {
        return try SketchEditor(geometry: .polyline(Polyline(paths: [path])))
    } catch {
        preconditionFailure("sketch rejected the generated polyline: \(error)")
    }
}

/// Moves per rotate-handle drag in `Drag.rotate`: a long gesture.
let movesPerDrag = 1_000

/// The finger's position at move `k` of a drag that turns a quarter turn about (0, 0).
func finger(_ k: Int) -> Point {
    let a = Double(k) / Double(movesPerDrag) * .pi / 2
    return Point(x: 1_000 * cos(a), y: 1_000 * sin(a))
}

let benchmarks: @Sendable () -> Void = {
    let n = 1_000_000
    let degrees = 30.0

    // One programmatic rotation of a 10^6-vertex sketch about a given anchor, recorded as one undo
    // step (undone outside the measurement: the undo record holds the chunked snapshot before,
    // so the undo is O(1) and the next sample rotates the same geometry).
    Benchmark("Rotate.call.1M.MapSketch", configuration: Suite.configuration(maxIterations: 50)) {
        (benchmark: Benchmark, box: Box<SketchEditor>) in
        let t = AffineTransform.rotation(degrees: degrees, about: Point(x: 0, y: 0))
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            let changed: Bool
            do { changed = try box.value.transform(.geometry, by: t) } catch { preconditionFailure("\(error)") }
            precondition(changed)
            benchmark.stopMeasurement()
            precondition(box.value.store.vertexCount == n && box.value.undo())
        }
    } setup: {
        Box(editor(walk(n)))
    }

    // GEOS: GEOSGeom_transformXY on the same 10^6-vertex line string (a copy, then a callback per
    // coordinate), the same rotation.
    Benchmark("Rotate.call.1M.GEOS", configuration: Suite.configuration(maxIterations: 50)) {
        benchmark, line in
        let (s, c) = DeterministicMathProbe.sinCos(degrees: degrees)
        for _ in benchmark.scaledIterations {
            precondition(line.rotatedVertexCount(cos: c, sin: s, aboutX: 0, y: 0) == n)
        }
    } setup: {
        GEOSContext().lineString(walk(n))
    }

    // A whole rotate-handle gesture on the 10^6-vertex sketch: begin, 1,000 finger moves, release.
    // The moves only replace the gesture's transform; the release applies it once. Its time is
    // about one `Rotate.call` (not 1,000 of them): O(n) once per gesture.
    Benchmark("Drag.rotate.1kMoves.1M.MapSketch", configuration: Suite.configuration(maxIterations: 50)) {
        (benchmark: Benchmark, box: Box<SketchEditor>) in
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            do {
                try box.value.beginTransform(.rotate, of: .geometry, at: finger(0), anchor: Point(x: 0, y: 0))
            } catch {
                preconditionFailure("\(error)")
            }
            for k in 1...movesPerDrag { box.value.updateTransform(to: finger(k)) }
            precondition(box.value.endTransform(at: finger(movesPerDrag)))
            benchmark.stopMeasurement()
            precondition(box.value.history.undoCount == 1 && box.value.undo())
        }
    } setup: {
        Box(editor(walk(n)))
    }

    // One finger move of a rotate-handle drag on the 10^6-vertex sketch: O(1), no allocation.
    Benchmark(
        "DragMove.rotate.1M.MapSketch", configuration: Suite.configuration(scalingFactor: .kilo, maxIterations: 300)
    ) { (benchmark: Benchmark, box: Box<SketchEditor>) in
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(box.value.updateTransform(to: finger(i % movesPerDrag + 1))) }
        benchmark.stopMeasurement()
    } setup: {
        var e = editor(walk(n))
        do { try e.beginTransform(.rotate, of: .geometry, at: finger(0), anchor: Point(x: 0, y: 0)) } catch {
            preconditionFailure("\(error)")
        }
        return Box(e)
    }

    // The freehand tool's simplification: Douglas–Peucker of a 100k-point stroke at 2 units.
    Benchmark("Generalize.stroke.100k.MapSketch", configuration: Suite.configuration(maxIterations: 100)) {
        benchmark, stroke in
        for _ in benchmark.scaledIterations { blackHole(GeometryEngine.generalize(stroke, maxDeviation: 2).count) }
    } setup: {
        let stroke = walk(100_000, seed: 5, step: 1)
        let ours = GeometryEngine.generalize(stroke, maxDeviation: 2).count
        let geos = GEOSContext().lineString(stroke).simplifiedVertexCount(tolerance: 2)
        // Same algorithm, same tolerance; GEOS measures to the line (not the segment) and so may
        // keep a few vertices fewer at turn-backs.
        precondition(abs(ours - geos) <= max(8, geos / 50), "generalize kept \(ours) vertices, GEOSSimplify \(geos)")
        return stroke
    }

    // GEOS: GEOSSimplify (Douglas–Peucker) of the same stroke.
    Benchmark("Generalize.stroke.100k.GEOS", configuration: Suite.configuration(maxIterations: 100)) {
        benchmark, line in
        for _ in benchmark.scaledIterations { blackHole(line.simplifiedVertexCount(tolerance: 2)) }
    } setup: {
        GEOSContext().lineString(walk(100_000, seed: 5, step: 1))
    }
}

/// The sine and cosine MapSketch's rotation uses, for the GEOS peer's same rotation.
enum DeterministicMathProbe {
    static func sinCos(degrees: Double) -> (Double, Double) {
        let t = AffineTransform.rotation(degrees: degrees, about: Point(x: 0, y: 0))
        return (t.c, t.a)
    }
}
