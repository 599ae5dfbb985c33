import Foundation
import MapSketchTestSupport
@_spi(MapSketchInternal) @testable import MapSketchReaders
import Testing

/// The reader that reads a track on a second thread gives what reading it directly gives: the
/// same fixes in order, the same counts, and the same error after the same fixes.
@Suite struct GPSPrefetchingReaderTests {
    static let tracks =
        Fixtures.files(under: "Traces/real/gpx", suffix: ".gpx") + Fixtures.files(under: "Traces/real/gpx", suffix: ".gpx.gz")
        + Fixtures.files(under: "Traces/real/nmea", suffix: ".log")

    /// Reads directly: the fixes up to the end or the first error, the error's text, the counts.
    static func direct(_ bytes: [UInt8], _ name: String) throws -> (fixes: [GPSFix], error: String?, summary: [String]) {
        let reader = try GPSFileReader.open(MemoryByteSource(bytes), fileName: name)
        var fixes: [GPSFix] = []
        var failure: String?
        do {
            while let f = try reader.next() { fixes.append(f) }
        } catch {
            failure = "\(error)"
        }
        return (fixes, failure, ["\(reader.segmentCount)", "\(reader.waypoints)", "\(String(describing: reader.nmeaStatistics))"])
    }

    /// Reads on the second thread, `batchSize` fixes a batch, at most `depth` batches ahead.
    static func prefetched(_ bytes: [UInt8], _ name: String, batchSize: Int, depth: Int) throws
        -> (fixes: [GPSFix], error: String?, summary: [String])
    {
        let reader = GPSPrefetchingReader(try GPSFileReader.open(MemoryByteSource(bytes), fileName: name), batchSize: batchSize, depth: depth)
        var fixes: [GPSFix] = []
        var failure: String?
        do {
            while let batch = try reader.next() {
                #expect(!batch.isEmpty && batch.count <= batchSize)
                fixes += batch
            }
        } catch {
            failure = "\(error)"
        }
        let s = try #require(reader.summary)
        return (fixes, failure, ["\(s.segmentCount)", "\(s.waypoints)", "\(String(describing: s.nmeaStatistics))"])
    }

    @Test func everyCorpusTrackReadsAsItDoesDirectly() throws {
        // Under a sanitizer (ThreadSanitizer: 10× slower), every third track, which still takes
        // each of the four batch sizes and queue depths in turn.
        for (i, url) in Self.tracks.enumerated() where SanitizerRuntime.active == nil || i % 3 == 0 {
            let bytes = Array(try Data(contentsOf: url))
            let name = url.lastPathComponent
            let expected = try Self.direct(bytes, name)
            let (batch, depth) = [(1, 1), (3, 2), (4096, 4), (7, 1)][i % 4]
            let got = try Self.prefetched(bytes, name, batchSize: batch, depth: depth)
            #expect(got.fixes == expected.fixes, "\(name)")
            #expect(got.error == expected.error, "\(name)")
            #expect(got.summary == expected.summary, "\(name)")
        }
    }

    /// An error in the middle: every fix before it, then the same located error; a batch boundary
    /// falling on the error or not.
    @Test func anErrorComesAfterEveryFixBeforeIt() throws {
        var gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg>\n"
        for i in 0..<100 { gpx += "<trkpt lat=\"46.\(i)\" lon=\"14.5\"><ele>3\(i)</ele></trkpt>\n" }
        gpx += "<trkpt lat=\"46.5\" lon=\"nope\"></trkpt>\n"
        for i in 0..<10 { gpx += "<trkpt lat=\"47.\(i)\" lon=\"14.5\"></trkpt>\n" }
        gpx += "</trkseg></trk></gpx>\n"
        var nmea = ""
        for i in 0..<50 {
            let body = "GPGGA,1200\(String(format: "%02d", i)).00,4603.000\(i % 10),N,01430.0000,E,1,09,0.9,300.0,M,47.0,M,,"
            nmea += "$\(body)*\(String(format: "%02X", body.utf8.reduce(UInt8(0)) { $0 ^ $1 }))\r\n"
        }
        let bad = "GPGGA,120100.00,4663.0000,N,01430.0000,E,1,09,0.9,300.0,M,47.0,M,,"  // 63 minutes
        nmea += "$\(bad)*\(String(format: "%02X", bad.utf8.reduce(UInt8(0)) { $0 ^ $1 }))\r\n"
        nmea += "$GPGGA,120101.00,4603.0000,N,01430.0000,E,1,09,0.9,300.0,M,47.0,M,,\r\n"
        for (text, name) in [(gpx, "bad.gpx"), (nmea, "bad.nmea")] {
            let bytes = Array(text.utf8)
            let expected = try Self.direct(bytes, name)
            #expect(expected.error != nil, "\(name): the input has an error")
            for (batch, depth) in [(1, 1), (10, 1), (100, 2), (101, 3), (4096, 4)] {
                let got = try Self.prefetched(bytes, name, batchSize: batch, depth: depth)
                #expect(got.fixes == expected.fixes, "\(name) batch \(batch)")
                #expect(got.error == expected.error, "\(name) batch \(batch)")
            }
        }
    }

    /// A consumer that stops early (an output error) cancels the thread; dropping the reader
    /// without reading does too: nothing hangs, and the memory held is the queue's.
    @Test func stoppingEarlyEndsTheThread() throws {
        var gpx = "<gpx><trk><trkseg>\n"
        for i in 0..<20_000 { gpx += "<trkpt lat=\"46.\(i)\" lon=\"14.5\"/>\n" }
        gpx += "</trkseg></trk></gpx>\n"
        let bytes = Array(gpx.utf8)
        let reader = GPSPrefetchingReader(try GPSFileReader.open(MemoryByteSource(bytes), fileName: "a.gpx"), batchSize: 16, depth: 2)
        let first = try #require(try reader.next())
        #expect(first.count == 16)
        reader.cancel()
        #expect(reader.summary == nil, "cancelled before the end: no summary")
        for _ in 0..<10 {
            _ = GPSPrefetchingReader(try GPSFileReader.open(MemoryByteSource(bytes), fileName: "a.gpx"), batchSize: 8, depth: 1)
        }
    }
}
