import Foundation
@testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// RFC 7946 output: GeoJSON coordinates are WGS 84 longitude/latitude whatever the geometry's
/// spatial reference.
@Suite struct GeoJSONWGS84Tests {
    @Test func webMercatorIsProjectedAndWGS84KeptAsIs() throws {
        let lonLat = Geometry.polyline(Polyline(paths: [[Point(13.45, 52.51), Point(x: -122.35, y: 47.62, z: 56)]]))
        let metres = try GeometryEngine.project(lonLat, from: .wgs84, to: .webMercator)
        let out = try GeoJSON.inWGS84(SpatialGeometry(metres, spatialReference: .webMercator))
        #expect(out.spatialReference == .wgs84)
        for (a, b) in zip(out.geometry.parts[0], lonLat.parts[0]) {
            #expect(abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9)
            #expect(a.z == b.z, "z is kept")
        }
        let same = SpatialGeometry(lonLat, spatialReference: .wgs84)
        #expect(try GeoJSON.inWGS84(same) == same)
        #expect(try GeoJSON.encode(SpatialGeometry(metres, spatialReference: .webMercator)).contains("13.45"))
    }

    /// Longitudes and latitudes written as decimals (a GPS logger's 5–9 places, and whole
    /// degrees), projected to Web Mercator as a sketch stores them, come back out of GeoJSON as
    /// the very same decimals: the inverse's noise in the last digits is not written.
    @Test func decimalDegreesComeBackAsWritten() throws {
        var rng = SeededRandom(seed: 7_919)
        var noisy = 0
        for i in 0..<20_000 {
            let places = i % 10
            func decimal(_ limit: Double) -> (text: String, value: Double) {
                let text = String(format: "%.\(places)f", rng.double(in: -limit...limit))
                return (text, Double(text)!)
            }
            let lon = decimal(180), lat = decimal(85)
            let metres = GeometryEngine.geographicToWebMercator(Point(lon.value, lat.value))
            let plain = GeometryEngine.webMercatorToGeographic(metres)
            if plain.x != lon.value || plain.y != lat.value { noisy += 1 }
            let out = try GeoJSON.inWGS84(SpatialGeometry(.point(metres), spatialReference: .webMercator))
            guard case .point(let p?) = out.geometry else { Issue.record("not a point"); return }
            #expect(p.x == lon.value && p.y == lat.value, "\(lon.text), \(lat.text) came back as \(p.x), \(p.y)")
        }
        // The plain inverse misses many of them (what the rounding is for).
        #expect(noisy > 2_000, "\(noisy)")
    }

    /// Whatever the meters (not made from decimal degrees), the coordinates written differ from
    /// the inverse by at most its last digits, and round to the inverse unless the rounded value
    /// projects back to the same meters bit for bit.
    @Test func anyVertexReadsBackToItself() throws {
        var rng = SeededRandom(seed: 104_729)
        let limit = GeometryEngine.webMercatorRadius * .pi
        var rounded = 0
        for i in 0..<20_000 {
            let metres = i % 4 == 0
                ? Point(rng.double(in: -1...1) * pow(10, Double(rng.int(in: -12...7))), rng.double(in: -1...1) * pow(10, Double(rng.int(in: -12...7))))
                : Point(rng.double(in: -limit...limit), rng.double(in: -limit...limit))
            let plain = GeometryEngine.webMercatorToGeographic(metres)
            let written = GeometryEngine.webMercatorToGeographicDecimal(metres)
            for (w, v, target, forward) in [
                (written.x, plain.x, metres.x, GeometryEngine.webMercatorX(longitude:)),
                (written.y, plain.y, metres.y, GeometryEngine.webMercatorY(latitude:)),
            ] {
                if w == v { continue }
                rounded += 1
                #expect(forward(w) == target, "\(w) does not project back to \(target)")
                #expect(abs(w - v) <= abs(v) * 1e-14, "\(w) is more than rounding away from \(v)")
            }
        }
        #expect(rounded > 0)
        // Zero, non-finite and out-of-range values are written as the inverse gives them.
        for p in [Point(0, 0), Point(-0.0, 0), Point(.infinity, 1), Point(1, .nan), Point(0, 1e300)] {
            let w = GeometryEngine.webMercatorToGeographicDecimal(p)
            let v = GeometryEngine.webMercatorToGeographic(p)
            #expect(w.x.bitPattern == v.x.bitPattern || (w.x.isNaN && v.x.isNaN))
            #expect(w.y.bitPattern == v.y.bitPattern || (w.y.isNaN && v.y.isNaN))
        }
    }

    @Test func roundingToSignificantDigits() {
        #expect(GeometryEngine.rounded(46.43498100000001, significantDigits: 15) == 46.434981)
        #expect(GeometryEngine.rounded((-0.0000123).nextDown, significantDigits: 15) == -0.0000123)
        #expect(GeometryEngine.rounded(179.99999999999997, significantDigits: 15) == 180)
        #expect(GeometryEngine.rounded(1e-9, significantDigits: 15) == nil, "10^23 is not a double")
        #expect(GeometryEngine.rounded(0, significantDigits: 15) == nil)
        #expect(GeometryEngine.rounded(.infinity, significantDigits: 15) == nil)
    }

    @Test func whatCannotBeLongitudeLatitudeIsAnError() {
        #expect(throws: GeoJSONOutputError.cannotProject(from: SpatialReference(wkid: 2056))) {
            try GeoJSON.inWGS84(
                SpatialGeometry(.point(Point(2_600_000, 1_200_000)), spatialReference: SpatialReference(wkid: 2056)))
        }
        #expect(throws: GeoJSONOutputError.noSpatialReference) {
            try GeoJSON.inWGS84(SpatialGeometry(.point(Point(1_498_048, 6_893_118))))
        }
    }

    /// The fidelity issue: a geometry without a spatial reference whose numbers fit −180…180,
    /// −90…90 was written as if they were degrees — `replay --format wkt` output in Web
    /// Mercator meters, converted to GeoJSON, gave `[[50,0]]`, and a geometry paired with Web
    /// Mercator by `GeoJSON.encode` was written in meters. GeoJSON is written only from WGS 84
    /// or projected to it; without a spatial reference it is an error, whatever the numbers;
    /// coordinates known to be degrees are said so explicitly.
    @Test func geoJSONIsWrittenOnlyFromWGS84OrProjectedToIt() throws {
        let fifty = Geometry.polyline(Polyline(paths: [[Point(50, 0), Point(0, 0)]]))
        // No spatial reference: an error in every writer, however small the numbers.
        #expect(throws: GeoJSONOutputError.noSpatialReference) { try GeoJSON.encode(SpatialGeometry(fifty)) }
        #expect(throws: GeoJSONOutputError.noSpatialReference) { try GeoJSON.inWGS84(SpatialGeometry(.point(Point(13.45, 52.51)))) }
        #expect(throws: GeoJSONOutputError.noSpatialReference) { try GeometryFormat.geoJSON.encode(SpatialGeometry(fifty)) }
        #expect(throws: GeoJSONOutputError.noSpatialReference) {
            try GeoJSON.encode(.featureCollection([Feature(geometry: SpatialGeometry(fifty), attributes: nil, id: nil)]))
        }
        #expect(throws: GeoJSONOutputError.noSpatialReference) { try GeoJSON.encode(.geometryCollection([SpatialGeometry(fifty)])) }
        // Web Mercator is projected, in every writer: 50 m east of the origin is 0.000449…°.
        let mercator = SpatialGeometry(fifty, spatialReference: .webMercator)
        let expected = #"{"type":"LineString","coordinates":[[0.00044915764205976077,0],[0,0]]}"#
        #expect(try GeoJSON.encode(mercator) == expected)
        #expect(try GeometryFormat.geoJSON.encode(mercator) == expected)
        #expect(try GeoJSON.encode(.geometry(mercator)) == expected)
        #expect(try GeoJSON.encode(.feature(Feature(geometry: mercator, attributes: nil, id: nil))).contains("[[0.00044915764205976077,0],[0,0]]"))
        // WGS 84 is written as it is; so is a geometry said to be WGS 84.
        #expect(try GeoJSON.encode(SpatialGeometry(fifty, spatialReference: .wgs84)) == #"{"type":"LineString","coordinates":[[50,0],[0,0]]}"#)
        #expect(GeoJSON.encode(wgs84: fifty) == #"{"type":"LineString","coordinates":[[50,0],[0,0]]}"#)
    }
}
