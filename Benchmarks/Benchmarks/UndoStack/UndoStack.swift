import Benchmark
import BenchmarkSupport
@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry
import MapSketchReplay

/// A mutable home for state that lives across a benchmark's samples.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Edits per sample (the scaling factor).
let editsPerSample = 1_000

/// A polyline sketch of `n` vertices (a seeded walk) with an empty history.
func editor(vertices n: Int) -> SketchEditor {
    var rng = SplitMix64(seed: 17)
    var x = 0.0
    var y = 0.0
    let path = (0..<n).map { _ in
        x += rng.double(-10, 10)
        y += rng.double(-10, 10)
        return Point(x: x, y: y)
    }
    do {
        return try SketchEditor(geometry: .polyline(Polyline(paths: [path])))
    } catch {
        preconditionFailure("sketch rejected the generated polyline: \(error)")
    }
}

/// `count` seeded vertex inserts into `e` at positions spread over its only part.
func insertEdits(_ e: inout SketchEditor, count: Int) -> [(Point, Int)] {
    var rng = SplitMix64(seed: 23)
    var edits: [(Point, Int)] = []
    for _ in 0..<count {
        let n = e.store.vertexCount
        let edit = (Point(x: rng.double(-1e4, 1e4), y: rng.double(-1e4, 1e4)), rng.int(below: n + 1))
        do { try e.insertVertex(edit.0, part: 0, at: edit.1) } catch { preconditionFailure("\(error)") }
        edits.append(edit)
    }
    return edits
}

let benchmarks: @Sendable () -> Void = {
    // Pushing a vertex-edit record (the value type the history stores; no closure).
    Benchmark(
        "Push.vertexEdit.MapSketch",
        configuration: Suite.configuration(scalingFactor: .kilo, extraMetrics: [Suite.bytesPerRecord])
    ) {
        benchmark, box in
        for i in benchmark.scaledIterations {
            box.value.push(.insertVertex(part: 0, index: i, point: Point(x: Double(i), y: 1), selectionBefore: .none))
        }
        benchmark.measurement(Suite.bytesPerRecord, MemoryLayout<SketchEditRecord>.stride)
        precondition(box.value.canUndo)
        if box.value.undoCount > 1_000_000 { box.value.removeAll() }  // bound memory on long runs
    } setup: {
        Box(SketchUndoStack())
    }

    for size in Suite.sizes {
        // Undo of vertex inserts in an n-vertex polyline sketch: the record pops and the vertex
        // leaves the chunked storage; the selection is restored. Redone after the measurement,
        // so every sample undoes the same history.
        Benchmark(
            "Undo.vertexEdit.\(size.label).MapSketch",
            configuration: Suite.configuration(scalingFactor: .kilo, maxIterations: 300)
        ) { (benchmark: Benchmark, box: Box<SketchEditor>) in
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { precondition(box.value.undo()) }
            benchmark.stopMeasurement()
            precondition(box.value.store.vertexCount == size.n && !box.value.canUndo)
            for _ in benchmark.scaledIterations { precondition(box.value.redo()) }
        } setup: {
            var e = editor(vertices: size.n)
            _ = insertEdits(&e, count: editsPerSample)
            return Box(e)
        }

        // Redo of the same edits (undone before the measurement).
        Benchmark(
            "Redo.vertexEdit.\(size.label).MapSketch",
            configuration: Suite.configuration(scalingFactor: .kilo, maxIterations: 300)
        ) { (benchmark: Benchmark, state: (Box<SketchEditor>, VertexStore)) in
            let (box, final) = state
            for _ in benchmark.scaledIterations { precondition(box.value.undo()) }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { precondition(box.value.redo()) }
            benchmark.stopMeasurement()
            precondition(box.value.store == final && !box.value.canRedo, "redo did not restore the geometry")
        } setup: {
            var e = editor(vertices: size.n)
            _ = insertEdits(&e, count: editsPerSample)
            return (Box(e), e.store)
        }
    }

    // One programmatic edit end to end: insert a vertex in the middle of a 10^6-vertex sketch,
    // record it (then undone outside the measurement, so n stays 10^6).
    Benchmark(
        "InsertVertex.sketch.1M.MapSketch",
        configuration: Suite.configuration(scalingFactor: .kilo, maxIterations: 300)
    ) { (benchmark: Benchmark, box: Box<SketchEditor>) in
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            do {
                try box.value.insertVertex(Point(x: Double(i), y: 0), part: 0, at: 500_000)
            } catch {
                preconditionFailure("\(error)")
            }
        }
        benchmark.stopMeasurement()
        for _ in benchmark.scaledIterations { precondition(box.value.undo()) }
        precondition(box.value.store.vertexCount == 1_000_000)
    } setup: {
        Box(editor(vertices: 1_000_000))
    }
}
