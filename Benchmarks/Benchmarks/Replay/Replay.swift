import Benchmark
import BenchmarkSupport
import MapSketch
import MapSketchGeometry
import MapSketchReplay

/// Fixes in the long logs (about 28 hours at 1 Hz: the NMEA dates roll over at midnight).
let fixCount = 100_000

/// The filters a field-capture app would turn on: duplicates, out-of-order times, HDOP above 5.
let filter = GPSFilter(maximumHDOP: 5, dropDuplicates: true, dropOutOfOrder: true)

/// Replays every fix `next` yields into a new polyline sketch in Web Mercator through the public
/// API a person's edits use (filter, project, `SketchEditor.appendVertex`), and returns it.
func replay(_ next: () throws -> GPSFix?) -> SketchEditor {
    do {
        var sketch = try SketchEditor(type: .polyline)
        var stream = GPSFilter.Stream(filter)
        while let fix = try next() {
            guard stream.consider(fix) == nil else { continue }
            let p = try GeometryEngine.project(
                Point(x: fix.longitude, y: fix.latitude), from: .wgs84, to: .webMercator)
            try sketch.appendVertex(p)
        }
        return sketch
    } catch {
        preconditionFailure("replay failed: \(error)")
    }
}

/// A spatial index over the segments of a sketch's first part (what tapping on the track needs).
func segmentIndex(_ sketch: SketchEditor) -> SpatialIndex {
    var index = SpatialIndex()
    guard let part = sketch.store.parts.first else { return index }
    let vertices = part.array
    index.bulkLoad(count: max(vertices.count - 1, 0)) { i in
        Envelope(points: [vertices[i], vertices[i + 1]])
    }
    return index
}

let benchmarks: @Sendable () -> Void = {
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
                count += try NMEAReader.readAll(bytes: log).track.fixes.count
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
