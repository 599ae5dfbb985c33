import Foundation
import MapSketchGeometry
import Testing

/// The FeatureCollection reader's byte-level paths (points straight from the bytes, attribute
/// keys and strings found by their bytes) against the value-tree reader: every odd way of writing
/// a point or a property reads as the tree reader reads it.
@Suite struct GeoJSONBytePathTests {
    static func features(_ text: String) throws -> [Feature] {
        guard case .featureCollection(let features) = try GeoJSON.decodeDocument(text) else {
            Issue.record("not a collection")
            return []
        }
        return features
    }

    static func collection(_ features: [String]) -> String {
        #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"
    }

    @Test func oddlyWrittenPointsReadAsTheTreeReaderReadsThem() throws {
        let text = Self.collection([
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1.5,-2.25]},"properties":{"a":1}}"#,
            #"{"geometry":{"coordinates":[3,4],"type":"Point"},"type":"Feature","properties":{"a":2}}"#,
            #"{"type":"Feature","geometry":{ "type" : "Point" ,"coordinates": [ 5 , 6 , 7 ] },"properties":null}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[5,6,7,8]},"properties":{}}"#,
            "{\"type\":\"Feature\",\"geometry\":{\n\"type\":\"Point\",\n\"coordinates\":[\n1e3,\n-0.0]\n},\"properties\":{\"a\":3}}",
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[]},"properties":{"a":4}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2],"bbox":[1,2,1,2]},"properties":{"a":5}}"#,
            #"{"type":"Feature","geometry":{"type":"Po\u0069nt","coordinates":[9,10]},"properties":{"a":6}}"#,
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]},"properties":{"a":7}}"#,
            #"{"type":"Feature","geometry":null,"properties":{"a":8}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[123456789012345678901234,1.7976931348623157e308]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[4.9e-324,2.2250738585072011e-308]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[9007199254740993,-9223372036854775808]}}"#,
            #"{"t\u0079pe":"Feature","geometry":{"type":"Point","coordinates":[0.1,0.2]},"properties":{"a":9}}"#,
        ])
        let columns = try GeoJSON.decodeColumns(text)
        FeatureColumnsTests.expectSameRows(columns, try Self.features(text), "points")
        #expect(columns.geometry[2] == .point(Point(x: 5, y: 6, z: 7)))
        #expect(columns.geometry[4] == .point(Point(1000, -0.0)))
        guard case .point(let p?) = columns.geometry[4] else {
            Issue.record("not a point")
            return
        }
        #expect(p.y.sign == .minus)
    }

    @Test func propertiesReadByTheirBytesAsTheTreeReaderReadsThem() throws {
        var rows: [String] = []
        for i in 0..<5000 {
            // Keys in changing orders, repeated and escaped; strings escaped, non-ASCII, long,
            // more distinct ones than the byte table holds; a string field that turns mixed.
            let name = i % 7 == 0 ? #"caf\u00e9 \#(i % 3)"# : i % 5 == 0 ? "Zürich \(i % 4)" : "name \(i % 5000)"
            let long = String(repeating: "long value ", count: 3) + "\(i % 11)"
            let mixed = i == 4000 ? "12" : #""m\#(i % 2)""#
            let keys = [
                #""name":"\#(name)""#, #""long":"\#(long)""#, #""n":\#(i)"#, #""mixed":\#(mixed)"#,
                i % 9 == 0 ? #""n\u0061me":"escaped key""# : #""x":\#(Double(i) / 8)"#,
                i % 13 == 0 ? #""dup":"a","dup":"b""# : #""dup":"c""#,
            ]
            let ordered = i % 3 == 0 ? keys.reversed() : keys
            rows.append(
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(i),\#(-i)]},"properties":{"#
                    + ordered.joined(separator: ",") + "}}")
        }
        let text = Self.collection(rows)
        let columns = try GeoJSON.decodeColumns(text)
        FeatureColumnsTests.expectSameRows(columns, try Self.features(text), "properties")
        #expect(columns.field(named: "name")?.kind == .string)
        #expect(columns.field(named: "mixed")?.kind == .boxed)
        #expect(columns.field(named: "dup")?.kind == .string)
    }

    @Test func badPointsSayWhereAsBefore() throws {
        let cases: [(String, String)] = [
            (#"{"type":"Point","coordinates":[1,"a"]}"#, #"1:103: features[0].geometry.coordinates[1]: expected a number, found a string"#),
            (#"{"type":"Point","coordinates":[1]}"#, #"1:100: features[0].geometry.coordinates: expected a position [x, y] or [x, y, z], found 1 numbers"#),
            (#"{"type":"Point","coordinates":[1,2,3,4,5]}"#, #"1:100: features[0].geometry.coordinates: expected a position with at most 4 numbers, found 5"#),
            (#"{"type":"Point","coordinates":[1,01]}"#, #"1:103: leading zeros are not allowed in numbers"#),
            (#"{"type":"Point","coordinates":[1,2e999]}"#, #"1:103: number 2e999 is out of range for a 64-bit float"#),
            (#"{"type":"Point","coordinates":[1,2]"#, #"1:106: expected ',' or '}' after object member, found ']'"#),
        ]
        for (geometry, expected) in cases {
            let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":"# + geometry + "}]}"
            #expect(throws: JSONError.self) { try GeoJSON.decodeColumns(text) }
            do {
                _ = try GeoJSON.decodeColumns(text)
            } catch let e as JSONError {
                #expect(e.description == expected, "\(geometry)")
            }
        }
    }
}
