import Foundation
import MapSketchGeometry
import MapSketchTestSupport
@_spi(MapSketchInternal) @testable import MapSketchReplay
import Testing
@testable import MapSketchReaders

/// The streaming conversion behind `mapsketch gps` against the whole-track path it replaced
/// (read the track, build its trace, replay it): the same geometry bytes, GPS report, SVG and
/// saved trace for every real track of the corpus.
@MainActor
@Suite struct GPSConversionTests {
    static let tracks =
        Fixtures.files(under: "Traces/real/gpx", suffix: ".gpx") + Fixtures.files(under: "Traces/real/gpx", suffix: ".gpx.gz")
        + Fixtures.files(under: "Traces/real/nmea", suffix: ".log")

    @Test func streamingGivesWhatReplayingTheWholeTrackGives() throws {
        var compared = 0
        for (i, url) in Self.tracks.enumerated() {
            let bytes = Array(try Data(contentsOf: url))
            let name = url.lastPathComponent
            let track = try GPSFileReader.read(bytes: bytes, fileName: name)
            for (type, filter) in [
                (GeometryType.polyline, TraceHeader.defaultGPSFilter), (.polygon, GPSFilter(minimumDistance: 5, maximumHDOP: 2)),
                (.multipoint, GPSFilter()),
            ] where (type == .polyline || i % 5 == 0) && (SanitizerRuntime.active == nil || i % 4 == 0) {
                // The other types on a sample (replays are slow in debug builds); under a sanitizer,
                // which makes each replay several times slower, every fourth track.
                let trace = TraceBuilder.gpsTrace(track, name: name, description: "GPS track \(name)", geometryType: type, filter: filter)
                let session = try Replayer.replay(trace, name: name, file: name)
                let out = session.output()

                let conversion = try GPSConversion(name: name, description: "GPS track \(name)", geometryType: type, filter: filter)
                let reader = try GPSFileReader.open(MemoryByteSource(bytes), fileName: name)
                let dir = FileManager.default.temporaryDirectory.appendingPathComponent("conv-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: dir) }
                let saved = dir.appendingPathComponent("t.trace.jsonl")
                let saver = try TraceFileWriter(saved)
                while let fix = try reader.next() { try saver.append(conversion.add(fix)) }
                conversion.finish()
                try saver.commit(header: conversion.header)

                #expect(conversion.fixCount == track.fixes.count)
                if track.fixes.count > 0 {
                    #expect(conversion.report == out.document["gps"], "\(name) \(type)")
                }
                let store = try #require(conversion.session.sketch?.vertices)
                // The report from the store (no geometry copy when valid) is the report from the output.
                let counts = GPSReadCounts(track)
                let fromStore = GPSReport(
                    file: name, counts: counts, gps: conversion.report, geometryType: type.rawValue, store: store)
                if track.fixes.count > 0 {
                    #expect(fromStore == GPSReport(file: name, counts: counts, output: out), "\(name) \(type): the report")
                }
                for format in GeometryFormat.allCases {
                    var bytes: [UInt8] = []
                    try GeometryStreamWriter.write(store, spatialReference: .webMercator, format: format) { bytes += $0 }
                    let expected = try out.geometry.map { try out.geometryText(format).map { $0 + "\n" } ?? format.encode($0) }
                    #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(name) \(type) \(format)")
                }
                #expect(conversion.session.svg() == session.svg(), "\(name) \(type): the SVG")
                let same = try String(contentsOf: saved, encoding: .utf8) == TraceEncoder.encode(trace)
                #expect(same, "\(name) \(type): the saved trace")
                #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t.trace.jsonl"], "no temporary file left")
                compared += 1
            }
        }
        // Every track as a polyline and a sample as the other types; under a sanitizer every
        // fourth track (of which every fifth also as the other types).
        let sampled = SanitizerRuntime.active == nil ? Self.tracks.count + 6 : (Self.tracks.count + 3) / 4
        #expect(compared >= sampled, "\(compared) compared")
    }

    /// The store's one-pass proof of validity agrees with `GeometryEngine.validate`, valid or not
    /// (a store holds only finite coordinates, so the cases differ in distinct vertices).
    @Test func theStoreProvesValidityAsValidateDoes() throws {
        func store(_ type: GeometryType, _ parts: [[Point]]) throws -> VertexStore {
            var s = try VertexStore(type: type)
            for part in parts {
                if type != .multipoint { _ = try s.addPart() }
                for p in part { try s.append(p) }
            }
            return s
        }
        let cases: [(GeometryType, [[Point]])] = [
            (.polyline, [[Point(0, 0), Point(1, 1)]]),
            (.polyline, [[Point(0, 0), Point(0, 0)]]),  // no two distinct vertices
            (.polyline, [[Point(0, 0), Point(1, 0)], [Point(2, 2)]]),
            (.multipoint, [[Point(0, 0), Point(0, 0)]]),
            (.polygon, [[Point(0, 0), Point(1, 0), Point(1, 1)]]),
        ]
        for (type, parts) in cases {
            let s = try store(type, parts)
            let proven = GPSReport.provenValid(s)
            let valid = GeometryEngine.validate(s.geometry).isEmpty
            #expect(!proven || valid, "\(type) \(parts): proven valid but validate finds issues")
            if type != .polygon { #expect(proven == valid, "\(type) \(parts)") }
        }
    }

    @Test func theConversionKeepsNoUndoHistoryPerFix() throws {
        let conversion = try GPSConversion(name: "t", description: "t")
        for i in 0..<1000 { conversion.add(GPSFix(time: Double(i), latitude: 46 + Double(i) * 1e-4, longitude: 14)) }
        #expect(conversion.session.sketch?.vertices.vertexCount == 1000)
        #expect(conversion.session.sketch?.undoCount == 1)
        #expect(conversion.session.output().document["log"]?.arrayValue?.isEmpty == true, "nothing logged per fix")
    }
}

/// The conversion's bulk appends and summed length against replaying the same fixes one edit
/// at a time, on seeded random tracks with segments, repeats, a fix that cannot be projected, and
/// every sketch type and filter.
@MainActor
@Suite struct GPSConversionBulkTests {
    static func track(_ rng: inout SeededRandom, count: Int) -> [GPSFix] {
        var fixes: [GPSFix] = []
        var segment = 0
        var lat = rng.double(in: -60...60)
        var lon = rng.double(in: -170...170)
        for i in 0..<count {
            if rng.int(in: 0...400) == 0 { segment += rng.int(in: 1...2) }
            if rng.int(in: 0...20) != 0 {  // else a repeat of the last fix
                lat = min(max(lat + rng.double(in: -1e-3...1e-3), -80), 80)
                lon = min(max(lon + rng.double(in: -1e-3...1e-3), -179), 179)
            }
            var f = GPSFix(
                time: rng.int(in: 0...50) == 0 ? nil : Double(i), latitude: lat, longitude: lon,
                elevation: rng.int(in: 0...3) == 0 ? nil : rng.double(in: 0...500), hdop: rng.double(in: 0.5...3), segment: segment,
                line: i + 1)
            if rng.int(in: 0...3000) == 0 { f.longitude = .nan }  // projects to no point: refused as appendVertex refuses it
            fixes.append(f)
        }
        return fixes
    }

    @Test func bulkAppendsGiveWhatAppendingEachFixGives() throws {
        var rng = SeededRandom(seed: 1212)
        var summedChecked = 0
        // Every geometry type with both filters, four times over; under a sanitizer (each replay
        // several times slower) once.
        let rounds = SanitizerRuntime.active == nil ? 24 : 6
        for round in 0..<rounds {
            let fixes = Self.track(&rng, count: rng.int(in: 1...12_000))
            let type = [GeometryType.polyline, .polygon, .multipoint][round % 3]
            let filter =
                round % 2 == 0 ? TraceHeader.defaultGPSFilter : GPSFilter(minimumDistance: 3, maximumHDOP: 2.5, dropDuplicates: false)
            let trace = TraceBuilder.gpsTrace(
                GPSTrack(fixes: fixes, waypoints: [], segmentCount: (fixes.last?.segment ?? 0) + 1), name: "r", description: "r",
                geometryType: type, filter: filter)
            let session = try Replayer.replay(trace, name: "r", file: "r")
            let conversion = try GPSConversion(name: "r", description: "r", geometryType: type, filter: filter)
            for f in fixes { conversion.add(f) }
            conversion.finish()
            let label = "round \(round) \(type), \(fixes.count) fixes"
            #expect(conversion.session.sketch?.vertices == session.sketch?.vertices, "\(label): the vertices")
            #expect(conversion.session.sketch?.selection == session.sketch?.selection, "\(label): the selection")
            #expect(conversion.report == session.output().document["gps"], "\(label): the GPS report")
            #expect(conversion.session.refusals == session.refusals, "\(label): the refused fixes")
            #expect(conversion.session.svg() == session.svg(), "\(label): the SVG")
            // The summed length has the bits of the length measured on the store (the report rounds it to mm).
            if type == .polyline, let sketch = conversion.session.sketch {
                let summed = try #require(conversion.session.gps.summedGeodesicLength(of: sketch), "\(label)")
                #expect(summed == (try GeometryEngine.geodesicLength(sketch.vertices, spatialReference: .webMercator)), "\(label)")
                summedChecked += 1
            }
        }
        #expect(summedChecked == rounds / 3)
    }

    /// An edit of the sketch from outside between fixes: the summed length is no longer the
    /// sketch's, and the report measures the sketch instead.
    @Test func anOutsideEditVoidsTheSummedLength() throws {
        let conversion = try GPSConversion(name: "t", description: "t")
        for i in 0..<100 { conversion.add(GPSFix(time: Double(i), latitude: 46 + Double(i) * 1e-4, longitude: 14)) }
        let sketch = try #require(conversion.session.sketch)
        #expect(conversion.session.gps.summedGeodesicLength(of: sketch) != nil)
        try sketch.moveVertex(part: 0, index: 50, to: Point(0, 0))
        #expect(conversion.session.gps.summedGeodesicLength(of: sketch) == nil)
        let measured = try GeometryEngine.geodesicLength(sketch.vertices, spatialReference: .webMercator)
        #expect(conversion.report["geodesicLength"] == .number((measured * 1000).rounded() / 1000))
    }
}
