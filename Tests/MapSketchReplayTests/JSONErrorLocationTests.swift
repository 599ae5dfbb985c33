import MapSketchGeometry
import MapSketchReplay
import Testing
@testable import MapSketchReaders

/// One way to put a line:column on a JSON decoding error (`JSONParser.location`, `locate`,
/// `decode`), shared by the codecs, the trace reader, the GeoJSON Lines reader and the geometry tool.
@Suite struct JSONErrorLocationTests {
    static let text = """
        {"a": 1,
          "b": {"c": [10, 20]},
          "d": []}
        """

    /// The line and column of `path` in ``text``.
    func at(_ path: [JSONPathComponent]) -> [Int]? {
        JSONParser.location(of: path, in: Self.text).map { [$0.line, $0.column] }
    }

    @Test func aPathThatExistsIsTheValuesPosition() {
        #expect(at([]) == [1, 1])
        #expect(at([.key("a")]) == [1, 7])
        #expect(at([.key("b"), .key("c"), .index(1)]) == [2, 19])
    }

    @Test func aPathThatDoesNotExistIsItsDeepestExistingContainer() {
        // A missing member: the object that lacks it.
        #expect(at([.key("b"), .key("x")]) == [2, 8])
        // An index past the end: the array.
        #expect(at([.key("b"), .key("c"), .index(5)]) == [2, 14])
        #expect(at([.key("d"), .index(0)]) == [3, 8])
        // Nothing on the path exists: the root.
        #expect(at([.key("z"), .index(0)]) == [1, 1])
        // No JSON value at all.
        #expect(JSONParser.location(of: [.key("a")], in: "  ") == nil)
    }

    @Test func decodeLocatesTheBodysErrorsAndPassesTheParsersThrough() throws {
        let located = #expect(throws: JSONError.self) {
            try JSONParser.decode(Self.text) { v in
                try v.decodeObject().decode("b") { try $0.decodeObject().decode("c") { try $0.decodeElements { try $0.decodeString() } } }
            }
        }
        #expect(located?.description == "2:15: b.c[0]: expected a string, found a number")
        let missing = #expect(throws: JSONError.self) {
            try JSONParser.decode(Self.text) { v in try v.decodeObject().decode("b") { try $0.decodeObject().require("x") } }
        }
        #expect(missing?.description == "2:8: b: missing required field \"x\"")
        let syntax = #expect(throws: JSONError.self) { try JSONParser.decode("[1,]") { $0 } }
        #expect(syntax?.description == "1:4: trailing comma before ']' is not allowed")
        struct Other: Error, Equatable {}
        #expect(throws: Other()) { try JSONParser.decode("1") { _ in throw Other() } }
        #expect(try JSONParser.decode("[1, 2]") { try $0.decodeElements { try $0.decodeNumber() } } == [1, 2])
    }

    @Test func aTraceErrorNamesTheFileLineAndTheValuesColumn() {
        let header = #"{"t":0,"type":"header","version":1,"sketch":{"geometryType":"polyline"}}"#
        func error(_ lines: String...) -> String? {
            do {
                _ = try TraceDecoder.decode(lines.joined(separator: "\n"), file: "x.trace.jsonl")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(error(header, #"{"t":1,"type":"touch","phase":"began","x":1,"y":"2"}"#) == "x.trace.jsonl:2:49: y: expected a number, found a string")
        #expect(error(#"{"t":0,"type":"header","version":1,"screen":{"width":10}}"#) == "x.trace.jsonl:1:45: screen: missing member \"height\": expected a number")
        #expect(error(header, #"{"t":1,"type":"touch","phase":"began","x":1}"#) == "x.trace.jsonl:2:1: missing member \"y\": expected a number")
        #expect(error(header, #"{"t":1,"type":"undo",}"#) == "x.trace.jsonl:2:22: trailing comma before '}' is not allowed")
    }

    @Test func aGeoJSONLineMissingAMemberPointsAtTheObjectThatLacksIt() {
        let line = #"{"type":"Feature","geometry":{"coordinates":[1,2]}}"#
        #expect(throws: ReaderError(file: "t.geojsonl", line: 1, column: 30, kind: .syntax(expected: "a Point geometry"))) {
            _ = try GeoJSONLinesReader.readAll(bytes: Array(line.utf8), file: "t.geojsonl")
        }
    }
}
