import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchReaders

/// What `mapsketch gps` says about a track: counts per reason, what was done with fixes without
/// time, the validity of the result, and why there is nothing when there is nothing.
@MainActor
@Suite struct GPSReportTests {
    /// `$body*hh` with the right checksum.
    static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let hex = String(sum, radix: 16, uppercase: true)
        return "$\(body)*\(hex.count == 1 ? "0" + hex : hex)"
    }

    func report(
        _ bytes: [UInt8], format: GPSFormat, type: GeometryType = .polyline,
        filter: GPSFilter = TraceHeader.defaultGPSFilter
    ) throws -> GPSReport {
        let (track, nmea) = try GPSFileReader.readWithStatistics(bytes: bytes, format: format, file: "t")
        let trace = TraceBuilder.gpsTrace(track, name: "t", description: "t", geometryType: type, filter: filter)
        let out = try Replayer.replay(trace, name: "t", file: "t").output()
        return GPSReport(file: "t", counts: GPSReadCounts(track, nmea: nmea), output: out)
    }

    @Test func nmeaSkipsAreCountedByReason() throws {
        var lines: [String] = []
        for (i, lon) in ["01131.000", "01131.010", "01131.020"].enumerated() {
            let t = "12351\(i)"
            var gga = Self.sentence("GPGGA,\(t),4807.038,N,\(lon),E,1,08,0.9,545.4,M,46.9,M,,")
            if i == 1 { gga = String(gga.dropLast(2)) + "00" }  // a bad checksum: the epoch keeps only RMC, without altitude
            lines += [gga, Self.sentence("GPRMC,\(t),A,4807.038,N,\(lon),E,022.4,084.4,230394,003.1,W")]
        }
        lines += [Self.sentence("GPGSV,1,1,00"), "# a comment"]
        let r = try report(Array((lines.joined(separator: "\n") + "\n").utf8), format: .nmea)
        let text = r.lines.joined(separator: "\n")
        #expect(r.lines[0] == "t: 3 fixes, 1 segment, 0 waypoints")
        #expect(
            text.contains(
                "skipped: 1 with a bad checksum, 1 of types not used (GSV, proprietary, …), 1 line without a sentence"))
        #expect(text.contains("elevation: 1 of 3 fixes read have none"))
        #expect(r.warnings.contains("1 of 3 kept fixes has no elevation: the track is written 2-D (with heights only when every kept fix has one)"))
        #expect(text.contains("filters: 3 appended, none dropped"))
        #expect(text.contains("result: polyline, 1 part, 3 vertices"))
        #expect(r.noUsableFix == nil)
    }

    @Test func fixesWithoutTimeAreReportedWithWhatWasDoneWithThem() throws {
        let bytes = try Array(Fixtures.data("Traces/real/gpx/gpxpy/cerknicko-without-times.gpx"))
        let r = try report(bytes, format: .gpx)
        let time = try #require(r.lines.first { $0.hasPrefix("  time: ") })
        #expect(
            time.hasPrefix(
                "  time: 291 fixes without a time: kept in file order, each placed 1 s after the previous fix on the replay clock"
            ))
    }

    @Test func aSelfIntersectingPolygonIsAWarning() throws {
        let bytes = try Array(Fixtures.data("Traces/real/gpx/gpxgo/visnjan.gpx"))
        let polygon = try report(bytes, format: .gpx, type: .polygon)
        #expect(polygon.lines.last?.hasSuffix(", not valid") == true)
        #expect(polygon.warnings.contains { $0.hasPrefix("the polygon is not valid: selfIntersection") })
        let line = try report(bytes, format: .gpx)
        #expect(line.warnings.isEmpty)
        #expect(line.lines.last?.hasSuffix(", valid") == true)
    }

    @Test func noUsableFixSaysWhy() throws {
        let junk = try report(Array("junk\n\(Self.sentence("GPGGA,123519,,,,,0,00,,,M,,M,,"))\n".utf8), format: .nmea)
        #expect(
            junk.noUsableFix
                == "no usable fix: no NMEA sentence gave a position (1 reporting no fix, 1 line without a sentence)")
        let bad = try report(
            Array(
                (String(Self.sentence("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,").dropLast(2))
                    + "00\n").utf8), format: .nmea)
        #expect(bad.noUsableFix == "no usable fix: no NMEA sentence gave a position (1 sentence with a bad checksum)")
        let waypoints = try report(Array(#"<gpx version="1.1"><wpt lat="46" lon="14"/></gpx>"#.utf8), format: .gpx)
        #expect(
            waypoints.noUsableFix
                == "no usable fix: the file holds no track or route point (1 waypoint, which never become vertices)")
        // Every fix dropped by the filters.
        let twice =
            #"<gpx version="1.1"><trk><trkseg><trkpt lat="46" lon="14"/><trkpt lat="46.000001" lon="14"/></trkseg></trk></gpx>"#
        var far = GPSFilter()
        far.maximumHDOP = nil
        far.minimumDistance = 1000
        let r = try report(Array(twice.utf8), format: .gpx, filter: far)
        #expect(r.noUsableFix == nil, "the first fix is kept")
        #expect(r.lines.contains("  filters: 1 appended; dropped: 1 tooClose"))
    }

    @Test func theTrackStyleDrawsArrowsAndAColorPerPartWithoutHandles() throws {
        let track = try GPSFileReader.read(
            bytes: Array(Fixtures.data("Traces/real/gpx/gpxpy/korita-zbevnica.gpx")), fileName: "k.gpx")
        let trace = TraceBuilder.gpsTrace(track, name: "k", description: "k")
        let session = try Replayer.replay(trace, name: "k", file: "k")
        let parts = session.sketch?.geometry.parts.count ?? 0
        #expect(parts >= 2)
        let svg = session.svg(style: .track)
        #expect(!svg.contains("sketch-vertices") && !svg.contains("sketch-mid-vertices"), "no editing handles")
        #expect(svg.contains("<g id=\"track\">"))
        for color in TrackDrawingColors.first(parts) {
            #expect(svg.contains("stroke=\"\(color)\" stroke-width=\"3\""), "\(color)")
        }
        let arrows = svg.components(separatedBy: "<path d=\"M").count - 1 - parts
        #expect(arrows > 10, "direction arrows along the track: \(arrows)")
        #expect(svg.contains("<circle") && svg.contains("<rect"), "start and end markers")
        // The sketch style is unchanged by a track render.
        #expect(session.svg(style: .sketch) == session.svg())
        #expect(session.svg().contains("sketch-vertices"))
    }
}

/// The track palette's first colors, as the SVG writes them.
enum TrackDrawingColors {
    static func first(_ n: Int) -> [String] {
        Array(
            ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"].prefix(min(n, 8)))
    }
}
