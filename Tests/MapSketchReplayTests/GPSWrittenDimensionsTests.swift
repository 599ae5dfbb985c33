import Foundation
import MapSketchGeometry
import MapSketchTestSupport
@_spi(MapSketchInternal) @testable import MapSketchReplay
import Testing
@testable import MapSketchReaders

/// A GPS track is written with one rule in all three formats: 3-D only when every kept fix has
/// an elevation, else 2-D with a warning giving the count; and a part that no format can hold (a
/// line of one fix) is an error, never a one-point `LINESTRING`.
@MainActor
@Suite struct GPSWrittenDimensionsTests {
    /// gpsd's Garmin 48 log: 14 fixes at one place, every other one without an altitude.
    static let garmin48 = "Traces/real/nmea/gpsd/garmin48.log"

    /// The track converted as `mapsketch gps` converts it: its store and its report.
    func convert(_ bytes: [UInt8], name: String, type: GeometryType = .polyline, filter: GPSFilter = TraceHeader.defaultGPSFilter)
        throws -> (VertexStore, GPSReport)
    {
        let conversion = try GPSConversion(name: name, description: name, geometryType: type, filter: filter)
        let reader = try GPSFileReader.open(MemoryByteSource(bytes), fileName: name)
        var counts = GPSReadCounts()
        while let fix = try reader.next() {
            counts.note(fix)
            conversion.add(fix)
        }
        conversion.finish()
        let store = try #require(conversion.session.sketch?.vertices)
        let report = GPSReport(file: name, counts: counts, gps: conversion.report, geometryType: type.rawValue, store: store)
        return (store, report)
    }

    func written(_ store: VertexStore, _ format: GeometryFormat) throws -> String {
        var bytes: [UInt8] = []
        try GeometryStreamWriter.write(store, spatialReference: .webMercator, format: format, newline: false) { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Every written vertex read back, and whether it has a z.
    func heights(_ text: String, _ format: GeometryFormat) throws -> [Bool] {
        let g: Geometry
        switch format {
        case .wkt: g = try WKT.decode(text)
        case .geoJSON: g = try GeoJSON.decode(text).geometry
        case .esriJSON: g = try EsriJSON.decode(text).geometry
        }
        return g.parts.flatMap { $0 }.map { $0.z != nil }
    }

    /// The issue's track: WKT dropped z for the whole track, GeoJSON mixed 2-D and 3-D
    /// positions, Esri JSON wrote `null` heights. Now all three are 2-D, and the report says
    /// how many kept fixes had no elevation.
    @Test func someElevationsGiveA2DTrackInEveryFormat() throws {
        let (store, report) = try convert(Array(try Data(contentsOf: Fixtures.url(Self.garmin48))), name: "garmin48.log")
        #expect(store.parts.flatMap { $0 }.filter { $0.z != nil }.count == 7, "the store keeps the heights it was given")
        for format in GeometryFormat.allCases {
            let text = try written(store, format)
            let z = try heights(text, format)
            #expect(z.count == 14 && z.allSatisfy { !$0 }, "\(format): \(text.prefix(120))")
            #expect(!text.contains("null") && !text.contains("hasZ") && !text.hasPrefix("LINESTRING Z"), "\(format)")
        }
        #expect(
            report.warnings.contains(
                "7 of 14 kept fixes have no elevation: the track is written 2-D (with heights only when every kept fix has one)"),
            "\(report.warnings)")
        // A replay of the same sketch writes the same text.
        let replayed = ReplayOutput(document: .null, geometry: SpatialGeometry(store.geometry, spatialReference: .webMercator))
        for format in GeometryFormat.allCases {
            #expect(try replayed.geometryText(format) == written(store, format), "\(format)")
        }
        #expect(replayed.geometryWarnings == ["7 of 14 vertices have no z: the geometry is written without z, which is written only when every vertex has one"])
    }

    /// Three fixes with an elevation and one without, which the HDOP filter drops: every kept
    /// fix has a height, so every format is 3-D, and nothing is said.
    @Test func everyKeptFixWithAnElevationGivesA3DTrack() throws {
        func point(_ lat: Double, _ ele: Double?, hdop: Double) -> String {
            "<trkpt lat=\"\(lat)\" lon=\"8.5\">\(ele.map { "<ele>\($0)</ele>" } ?? "")<hdop>\(hdop)</hdop></trkpt>"
        }
        let gpx = """
            <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            \(point(47.0, 410, hdop: 1))\(point(47.001, nil, hdop: 9))\(point(47.002, 412.5, hdop: 1))\(point(47.003, 415, hdop: 1))
            </trkseg></trk></gpx>
            """
        var filter = TraceHeader.defaultGPSFilter
        filter.maximumHDOP = 2
        let (store, report) = try convert(Array(gpx.utf8), name: "t.gpx", filter: filter)
        for format in GeometryFormat.allCases {
            let text = try written(store, format)
            let z = try heights(text, format)
            #expect(z.count == 3 && z.allSatisfy { $0 }, "\(format): \(text)")
        }
        #expect(try written(store, .wkt).hasPrefix("LINESTRING Z ("))
        #expect(!report.warnings.contains { $0.contains("elevation") }, "\(report.warnings)")
        #expect(report.lines.contains("  elevation: 1 of 4 fixes read have none"))
        // Without the filter the fix without a height is kept: 2-D, and the warning.
        let (all, allReport) = try convert(Array(gpx.utf8), name: "t.gpx")
        #expect(try written(all, .wkt).hasPrefix("LINESTRING ("))
        #expect(allReport.warnings.contains { $0.hasPrefix("1 of 4 kept fixes has no elevation") })
    }

    /// `gps --min-distance 1` on the Garmin log keeps one fix: a line of one vertex has no text
    /// in any format (WKT and GeoJSON need two positions), so it is an error saying why — and
    /// so is a ring of fewer than three. A multipoint of one fix is fine.
    @Test func aLineOfOneFixCannotBeWritten() throws {
        let bytes = Array(try Data(contentsOf: Fixtures.url(Self.garmin48)))
        var filter = TraceHeader.defaultGPSFilter
        filter.minimumDistance = 1
        let (_, line) = try convert(bytes, name: "garmin48.log", filter: filter)
        #expect(
            line.cannotWrite
                == "the polyline cannot be written: its part 0 has only 1 vertex, and a line needs at least 2 (the filters dropped 13 fixes); keep more fixes, or write them as points with --type multipoint")
        #expect(line.noUsableFix == nil)
        let (_, ring) = try convert(bytes, name: "garmin48.log", type: .polygon, filter: filter)
        #expect(ring.cannotWrite?.hasPrefix("the polygon cannot be written: its ring 0 has only 1 vertex, and a ring needs at least 3") == true)
        let (_, points) = try convert(bytes, name: "garmin48.log", type: .multipoint, filter: filter)
        #expect(points.cannotWrite == nil)
        // Fourteen fixes at one place make a line of fourteen vertices: written (a warning says
        // it is not valid), not refused.
        let (_, whole) = try convert(bytes, name: "garmin48.log")
        #expect(whole.cannotWrite == nil)
        #expect(GPSReport.cannotWrite(.polyline, partSizes: [5, 1, 3, 1], dropped: 0)
            == "the polyline cannot be written: its part 1 (and 1 more) has only 1 vertex, and a line needs at least 2; keep more fixes, or write them as points with --type multipoint")
        #expect(GPSReport.cannotWrite(.polygon, partSizes: [5, 3], dropped: 0) == nil)
        #expect(GPSReport.cannotWrite(.polygon, partSizes: [5, 2], dropped: 0)?.contains("its ring 1 has only 2 vertices") == true)
    }
}
