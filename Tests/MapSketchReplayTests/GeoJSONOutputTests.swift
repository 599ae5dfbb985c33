import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchReaders

/// GeoJSON output of a replay is RFC 7946: WGS 84 longitude/latitude, whatever the map's
/// spatial reference.
@MainActor
@Suite struct GeoJSONOutputTests {
    nonisolated static let gpx =
        Fixtures.files(under: "Traces/real/gpx", suffix: ".gpx")
        + Fixtures.files(under: "Traces/real/gpx", suffix: ".gpx.gz")

    /// Every point of every real GPX file of the corpus, replayed into a Web Mercator sketch with
    /// no filter and written as GeoJSON, comes back within 1e-9° of the GPX's own coordinates.
    @Test(arguments: gpx.map(\.lastPathComponent))
    func gpxRoundTripsThroughGeoJSONWithin1e9Degrees(_ name: String) throws {
        let url = try #require(Self.gpx.first { $0.lastPathComponent == name })
        let track = try GPSFileReader.read(bytes: Array(Data(contentsOf: url)), fileName: name)
        guard !track.fixes.isEmpty else { return }
        let trace = TraceBuilder.gpsTrace(track, name: name, description: name, filter: GPSFilter())
        #expect(trace.header.spatialReference.isWebMercator)
        let out = try Replayer.replay(trace, name: name, file: name).output()
        let text = try #require(try out.geometryText(.geoJSON))
        let g = try GeoJSON.decode(text)
        let points = g.geometry.parts.flatMap { $0 }
        #expect(points.count == track.fixes.count)
        var worst = 0.0
        for (p, f) in zip(points, track.fixes) {
            worst = max(worst, abs(p.x - f.longitude), abs(p.y - f.latitude))
        }
        #expect(worst <= 1e-9, "\(name): \(worst)°")
        // Each track segment with points is one part (a MultiLineString for several).
        let segments = Set(track.fixes.map(\.segment)).count
        #expect(g.geometry.parts.count == segments)
    }

    @Test func esriJSONAndWKTStayInMapCoordinates() throws {
        var h = TraceHeader()
        h.sketch = TraceSketchSetup(
            geometryType: .polyline, geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(1_000_000, 1_000_000)]])))
        let out = try Replayer.replay(Trace(header: h), name: "t", file: "t").output()
        #expect(try out.geometryText(.wkt) == "LINESTRING (0 0, 1000000 1000000)")
        #expect(try out.geometryText(.esriJSON)?.contains("[1000000,1000000]") == true)
        let geo = try #require(try out.geometryText(.geoJSON))
        let p = try #require(try GeoJSON.decode(geo).geometry.parts.first?.last)
        #expect(abs(p.x - 8.983152841195214) < 1e-9 && abs(p.y - 8.946573850543412) < 1e-9)
    }

    @Test func aMapThatCannotBeProjectedToWGS84HasNoGeoJSON() throws {
        var h = TraceHeader()
        h.spatialReference = SpatialReference(wkid: 2056)
        h.sketch = TraceSketchSetup(geometryType: .point, geometry: .point(Point(2_600_000, 1_200_000)))
        let out = try Replayer.replay(Trace(header: h), name: "t", file: "t").output()
        #expect(throws: GeoJSONOutputError.cannotProject(from: SpatialReference(wkid: 2056))) {
            try out.geometryText(.geoJSON)
        }
        #expect(try out.geometryText(.wkt) == "POINT (2600000 1200000)")
    }
}
