import Foundation
import Benchmark
import BenchmarkSupport
@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry
@_spi(MapSketchInternal) import MapSketchReaders
@_spi(MapSketchInternal) import MapSketchReplay

/// Fixes in the long logs (about 28 hours at 1 Hz: the NMEA dates roll over at midnight).
let fixCount = 100_000

/// The filters a field-capture app would turn on: duplicates, out-of-order times, HDOP above 5.
let filter = GPSFilter(maximumHDOP: 5, dropDuplicates: true, dropOutOfOrder: true)

/// Replays every fix `next` yields into a new polyline sketch in Web Mercator the way the replay
/// engine's GPS ingest does (`GPSIngest`): filter, project with the `PointProjection` resolved
/// once for the trace, and `appendVertex` — one undo step per fix, as the traces' goldens require
/// (`Traces/gps/undo-after-fixes`) — and returns the sketch. (Until the replay-performance work of
/// issue 6 the benchmark and the engine called `GeometryEngine.project` per fix, which compares
/// the spatial references every time; the results are bit-identical.)
func replay(_ next: () throws -> GPSFix?) -> SketchEditor {
    do {
        var sketch = try SketchEditor(type: .polyline)
        var stream = GPSFilter.Stream(filter)
        let toMap = try PointProjection(from: .wgs84, to: .webMercator)
        while let fix = try next() {
            guard stream.consider(fix) == nil else { continue }
            try sketch.appendVertex(toMap.project(Point(x: fix.longitude, y: fix.latitude)))
        }
        return sketch
    } catch {
        preconditionFailure("replay failed: \(error)")
    }
}

/// Converts a track as `mapsketch gps` does (prefetching reader, `GPSConversion` with the
/// command's default filter) and returns how many vertices the sketch kept.
@MainActor
func convert(_ bytes: [UInt8], format: GPSFormat) -> Int {
    do {
        let conversion = try GPSConversion(name: "bench", description: "GPS track bench", geometryType: .polyline)
        let reader = GPSPrefetchingReader(try GPSFileReader.open(MemoryByteSource(bytes), format: format))
        while let batch = try reader.next() {
            for fix in batch { conversion.append(fix) }
        }
        conversion.finish()
        return conversion.session.sketch?.vertices.vertexCount ?? 0
    } catch {
        preconditionFailure("GPS conversion failed: \(error)")
    }
}

/// A spatial index over the segments of a sketch's first part (what tapping on the track needs).
/// Each segment's box is its two ends' envelope, built without an intermediate array.
func segmentIndex(_ sketch: SketchEditor) -> SpatialIndex {
    var index = SpatialIndex()
    guard let part = sketch.store.parts.first else { return index }
    let vertices = Array(part)
    index.bulkLoad(count: max(vertices.count - 1, 0)) { i in
        var box = Envelope(vertices[i])
        box.expand(toInclude: vertices[i + 1])
        return box
    }
    return index
}

let benchmarks: @Sendable () -> Void = {
    // A trace's BenchReport inside package-benchmark (TraceReport.swift), for the traces under
    // MAPSKETCH_TRACE_BENCH when it is set (not in CI's run):
    // MAPSKETCH_TRACE_BENCH=../Traces/demo swift package benchmark --target Replay --filter 'Trace\..*'
    if let folder = ProcessInfo.processInfo.environment["MAPSKETCH_TRACE_BENCH"] {
        do {
            try traceBenchmarks(in: folder, kinds: ["gesture", "undo", "redo"])
        } catch {
            fatalError("MAPSKETCH_TRACE_BENCH: \(error)")
        }
    }
    // End to end: NMEA bytes → fixes → filter → Web Mercator → polyline sketch (one undo record
    // per vertex, as a live track records).
    Benchmark("ReplayNMEA.100k.MapSketch", configuration: Suite.configuration(maxIterations: 30)) { benchmark, log in
        var reader = NMEAReader(bytes: log)
        let sketch = replay { try reader.next() }
        precondition(sketch.store.vertexCount == fixCount, "NMEA replay kept \(sketch.store.vertexCount) vertices")
        blackHole(sketch)
    } setup: {
        TraceData.nmeaLog(fixCount)
    }

    Benchmark("ReplayGPX.100k.MapSketch", configuration: Suite.configuration(maxIterations: 30)) { benchmark, document in
        do {
            var reader = try GPXReader(bytes: document)
            let sketch = replay { try reader.next() }
            precondition(sketch.store.vertexCount == fixCount, "GPX replay kept \(sketch.store.vertexCount) vertices")
            blackHole(sketch)
        } catch {
            preconditionFailure("GPX reader failed: \(error)")
        }
    } setup: {
        TraceData.gpxDocument(fixCount)
    }

    // A 100k-fix track replayed and indexed: the NMEA replay above, then a spatial index over
    // its segments, checked by finding the segment at the track's middle vertex.
    Benchmark("ReplayAndIndex.100k.MapSketch", configuration: Suite.configuration(maxIterations: 30)) { benchmark, log in
        var reader = NMEAReader(bytes: log)
        let sketch = replay { try reader.next() }
        let index = segmentIndex(sketch)
        precondition(index.count == fixCount - 1)
        let middle = sketch.store.parts[0][fixCount / 2]
        var found = false
        index.search(Envelope(middle)) { _ in
            found = true
            return false
        }
        precondition(found, "the segment index misses the track's middle vertex")
        blackHole(index)
    } setup: {
        TraceData.nmeaLog(fixCount)
    }

    // The index half of ReplayAndIndex alone: the same spatial index over the segments of the
    // same replayed 100k-fix track (replayed in setup), to show which half dominates.
    Benchmark("IndexTrack.100k.MapSketch", configuration: Suite.configuration(maxIterations: 30)) { benchmark, sketch in
        let index = segmentIndex(sketch)
        precondition(index.count == fixCount - 1)
        blackHole(index)
    } setup: {
        var reader = NMEAReader(bytes: TraceData.nmeaLog(fixCount))
        return replay { try reader.next() }
    }

    // What `mapsketch gps` does short of writing the output: the track read and parsed on a
    // thread of its own a few batches ahead (`GPSPrefetchingReader`), each fix through the
    // one-shot conversion (`GPSConversion`: the replay engine's GPS ingest, kept fixes appended
    // in bulk, the geodesic length summed on another thread). Two cores at work; the figure is
    // wall clock for 100k fixes (10 ms is 10 M fixes/s).
    for format in [GPSFormat.nmea, .gpx] {
        Benchmark("GPSConvert.\(format.rawValue).100k.MapSketch", configuration: Suite.configuration(maxIterations: 30)) {
            (benchmark: Benchmark, bytes: [UInt8]) async in
            let handle = UncheckedSendable(benchmark)
            await MainActor.run {
                handle.value.startMeasurement()
                let vertices = convert(bytes, format: format)
                handle.value.stopMeasurement()
                precondition(vertices == fixCount, "GPS conversion (\(format)) kept \(vertices) vertices")
            }
        } setup: {
            format == .nmea ? TraceData.nmeaLog(fixCount) : TraceData.gpxDocument(fixCount)
        }
    }

    // Readers alone: bytes → GPSFix values, one fix per scaled iteration.
    Benchmark(
        "ReadNMEA.100k.MapSketch",
        configuration: Suite.configuration(scalingFactor: .one, maxIterations: 30)
    ) { benchmark, log in
        var reader = NMEAReader(bytes: log)
        var count = 0
        do {
            while let fix = try reader.next() {
                blackHole(fix)
                count += 1
            }
        } catch {
            preconditionFailure("NMEA reader failed: \(error)")
        }
        precondition(count == fixCount, "NMEA reader gave \(count) fixes, expected \(fixCount)")
    } setup: {
        TraceData.nmeaLog(fixCount)
    }

    Benchmark(
        "ReadGPX.100k.MapSketch",
        configuration: Suite.configuration(scalingFactor: .one, maxIterations: 30)
    ) { benchmark, document in
        var count = 0
        do {
            var reader = try GPXReader(bytes: document)
            while let fix = try reader.next() {
                blackHole(fix)
                count += 1
            }
        } catch {
            preconditionFailure("GPX reader failed: \(error)")
        }
        precondition(count == fixCount, "GPX reader gave \(count) fixes, expected \(fixCount)")
    } setup: {
        TraceData.gpxDocument(fixCount)
    }

    // The real logs of the corpus, read whole (small: reported as throughput).
    Benchmark("ReadNMEA.gpsd-corpus.MapSketch", configuration: Suite.configuration(maxIterations: 200)) { benchmark, logs in
        var count = 0
        for log in logs {
            do {
                count += try GPSFileReader.read(bytes: log, format: .nmea).fixes.count
            } catch {
                preconditionFailure("NMEA reader failed on the corpus: \(error)")
            }
        }
        precondition(count > 0)
        blackHole(count)
    } setup: {
        ["ublox-zed-f9p-nmea.log", "sirfstarv-nmea.log", "garmin48.log", "hemi.log", "telit-he910.log"]
            .map { TraceData.bytes("real/nmea/gpsd/\($0)") }
    }
}
