import Foundation
import MapSketchGeometry
import MapSketchReaders
import MapSketchTestSupport
import Testing

@Suite struct GeoJSONLinesTests {
    static func read(_ text: String, file: String? = "t.geojsonl") throws -> GPSTrack {
        try GeoJSONLinesReader.readAll(bytes: Array(text.utf8), file: file)
    }

    @Test func featuresAndBarePoints() throws {
        let text = """
            {"type":"Feature","geometry":{"type":"Point","coordinates":[14.5,46.05,301.5]},"properties":{"time":"2024-05-01T10:00:00.250Z","accuracy":4.5,"speed":1.25,"hdop":0.9,"bearing":270}}

            {"type":"Point","coordinates":[-0.5,51.5]}
            {"type":"Feature","geometry":{"type":"Point","coordinates":[14.6,46.1,10]},"properties":{"timestamp":1714557600000,"ele":20,"segment":2,"name":"x"}}
            {"type":"Feature","geometry":{"type":"Point","coordinates":[14.7,46.2]},"properties":null}
            """
        let track = try Self.read(text)
        #expect(track.fixes.count == 4)
        let a = track.fixes[0]
        #expect(a.longitude == 14.5 && a.latitude == 46.05 && a.elevation == 301.5)
        #expect(a.time == GPSTime.seconds(year: 2024, month: 5, day: 1, secondsOfDay: 36000.25))
        #expect(a.horizontalAccuracy == 4.5 && a.speed == 1.25 && a.hdop == 0.9 && a.course == 270)
        #expect(a.line == 1)
        #expect(track.fixes[1].time == nil && track.fixes[1].line == 3)
        #expect(track.fixes[2].time == 1_714_557_600, "milliseconds since 1970")
        #expect(track.fixes[2].elevation == 20, "the ele property wins over the third coordinate")
        #expect(track.fixes.map(\.segment) == [0, 0, 2, 0])
        #expect(track.segmentCount == 3)
    }

    @Test func roundTripOfARealGPXTrack() throws {
        let gpx = try GPXReader.readAll(bytes: Array(try Fixtures.data("Traces/real/gpx/gpxpy/korita-zbevnica.gpx")))
        var text = ""
        for f in gpx.fixes {
            var props: JSONObject = ["segment": .integer(Int64(f.segment))]
            if let t = f.time { props["time"] = .string(GPSTime.iso8601(t)) }
            var coords: [JSONValue] = [.number(f.longitude), .number(f.latitude)]
            if let e = f.elevation { coords.append(.number(e)) }
            let feature: JSONValue = [
                "type": "Feature", "geometry": ["type": "Point", "coordinates": .array(coords)], "properties": .object(props),
            ]
            text += JSONWriter.string(feature) + "\n"
        }
        let back = try Self.read(text).fixes
        #expect(back.count == gpx.fixes.count)
        for (a, b) in zip(gpx.fixes, back) {
            #expect(a.latitude == b.latitude && a.longitude == b.longitude && a.elevation == b.elevation)
            #expect(a.time == b.time && a.segment == b.segment)
        }
    }

    @Test func streamingVisitorSeesFixesInOrder() throws {
        let text = (0..<100).map { #"{"type":"Point","coordinates":[\#($0),0]}"# }.joined(separator: "\n")
        var longitudes: [Double] = []
        try GeoJSONLinesReader.forEachFix(bytes: Array(text.utf8)) { longitudes.append($0.longitude) }
        #expect(longitudes == (0..<100).map(Double.init))
    }

    static func failure(_ text: String) -> ReaderError? {
        do {
            _ = try read(text)
            return nil
        } catch let e as ReaderError {
            return e
        } catch {
            return nil
        }
    }

    @Test func errorsNameLineAndColumn() {
        let ok = #"{"type":"Point","coordinates":[0,0]}"#
        #expect(Self.failure(ok + "\n" + #"{"type":"Point","coordinates":[0,91]}"#)
            == ReaderError(file: "t.geojsonl", line: 2, column: 34, kind: .outOfRange(field: "latitude", value: 91)))
        #expect(Self.failure(#"{"type":"Point","coordinates":[0,"x"]}"#)
            == ReaderError(file: "t.geojsonl", line: 1, column: 34, kind: .badNumber(field: "coordinates[1]", found: "\"x\"")))
        #expect(Self.failure(#"{"type":"LineString","coordinates":[[0,0],[1,1]]}"#)?.kind == .syntax(expected: "\"type\": \"Feature\" or \"Point\""))
        #expect(Self.failure(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"time":"noon"}}"#)
            == ReaderError(file: "t.geojsonl", line: 1, column: 88, kind: .badTime(found: "noon")))
        #expect(Self.failure(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"speed":"fast"}}"#)?.kind
            == .badNumber(field: "speed", found: "\"fast\""))
        #expect(Self.failure(#"{"type":"Feature","properties":{}}"#)?.kind == .missing(field: "geometry (a Point)"))
        #expect(Self.failure(#"{"type":"Point","coordinates":[1]}"#)?.column == 31)
        let broken = Self.failure(ok + "\n\n" + #"{"type":"Point","coordinates":[1,2]"#)
        #expect(broken?.line == 3)
        #expect(broken?.file == "t.geojsonl")
    }
}

@Suite struct GPSFileReaderTests {
    @Test func picksTheReaderByContentThenName() throws {
        #expect(GPSFileReader.format(forFileName: "a.GPX.gz") == .gpx)
        #expect(GPSFileReader.format(forFileName: "drive.log") == .nmea)
        #expect(GPSFileReader.format(forFileName: "walk.ndjson") == .geoJSONLines)
        #expect(GPSFileReader.format(forFileName: "notes.txt") == nil)
        let nmea = Array(try Fixtures.data("Traces/real/nmea/gpsd/ublox-8.log"))
        #expect(GPSFileReader.sniff(nmea) == .nmea)
        #expect(try GPSFileReader.read(bytes: nmea, fileName: "ublox-8.log").fixes.count == 72)
        #expect(try GPSFileReader.read(bytes: nmea).fixes.count == 72, "sniffed from '#'")
        let gz = Array(try Fixtures.data("Traces/real/gpx/gpxgo/graphhopper.gpx.gz"))
        #expect(try GPSFileReader.read(bytes: gz).fixes.count == 193)
        #expect(try GPSFileReader.read(bytes: Array("\n {\"type\":\"Point\",\"coordinates\":[1,2]}".utf8)).fixes.count == 1)
        let unknown = ReaderError.Kind.unrecognizedFormat(expected: "a GPX, NMEA 0183 or GeoJSON Lines file", found: "'hello'")
        #expect(throws: ReaderError(file: "x.txt", line: 1, column: 1, kind: unknown)) {
            _ = try GPSFileReader.read(bytes: Array("hello".utf8), fileName: "x.txt")
        }
    }
}
