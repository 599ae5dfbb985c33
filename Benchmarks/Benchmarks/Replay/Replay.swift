import Benchmark
import BenchmarkSupport
import MapSketch
import MapSketchGeometry
import MapSketchReplay

/// Fixes in the long logs (about 28 hours at 1 Hz: the NMEA dates roll over at midnight).
let fixCount = 100_000

let benchmarks: @Sendable () -> Void = {
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
