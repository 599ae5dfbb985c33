import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReplay
import Testing
@testable import MapSketchReaders

@Suite struct TraceFormatTests {
    static let header = #"{"t":0,"type":"header","format":"mapsketch-trace","version":1,"screen":{"width":400,"height":300},"viewport":{"center":{"x":10,"y":20},"resolution":2},"spatialReference":{"wkid":102100},"sketch":{"geometryType":"polyline"}}"#

    @Test func decodesHeaderAndEvents() throws {
        let text = Self.header + "\n" + #"{"t":0.1,"type":"touch","phase":"began","id":0,"x":100,"y":50}"# + "\n"
            + #"{"t":0.2,"type":"undo"}"# + "\n\n"
            + #"{"t":0.3,"type":"insertVertex","part":0,"index":1,"x":5,"y":6}"# + "\n"
        let trace = try TraceDecoder.decode(text, file: "a.trace.jsonl")
        #expect(trace.header.screen == ScreenSize(width: 400, height: 300))
        #expect(trace.header.viewport.center == Point(10, 20))
        #expect(trace.header.viewport.resolution == 2)
        #expect(trace.header.sketch?.geometryType == .polyline)
        #expect(trace.header.thresholds == .default)
        #expect(trace.events.count == 3)
        #expect(trace.events[0].event == .touch(phase: .began, id: 0, location: ScreenPoint(x: 100, y: 50)))
        #expect(trace.events[1].event == .call(.undo))
        #expect(trace.events[2].event == .call(.insertVertex(part: 0, index: 1, point: Point(5, 6))))
        #expect(trace.events[2].line == 5)
    }

    @Test func roundTripsThroughTheEncoder() throws {
        var h = TraceHeader()
        h.name = "rt"
        h.sketch = TraceSketchSetup(geometryType: .polygon, geometry: .polygon(Polygon(rings: [[Point(0, 0), Point(0, 10), Point(10, 10)]])))
        h.options.levelsOfUndo = 3
        h.options.showMagnifierOnTapAndHold = true
        h.thresholds.slop = 12
        h.gpsFilter.minimumDistance = 5
        h.layers = [
            TraceGraphicsLayer(
                name: "pois", renderer: .classBreaks(field: "n", minValue: 0, breaks: [TraceClassBreak(maxValue: 10, symbol: .simpleMarker(SimpleMarkerSymbol()))], defaultSymbol: nil),
                graphics: [TraceGraphic(geometry: .point(Point(1, 2)), attributes: [("NAME", .string("A")), ("n", .integer(3)), ("d", .date(1000))], calloutTitle: "${NAME}")])
        ]
        let trace = Trace(header: h, events: [
            TraceEntry(t: 0, .touch(phase: .began, id: 1, location: ScreenPoint(x: 1.5, y: 2))),
            TraceEntry(t: 1, .gps(GPSFix(time: 100, latitude: 10, longitude: 20, elevation: 5, hdop: 1.2, segment: 1))),
            TraceEntry(t: 2, .call(.zoom(factor: 2, anchorX: 3, anchorY: 4))),
            TraceEntry(t: 3, .call(.setGeometry(.polygon(Polygon(rings: [[Point(0, 0), Point(0, 1), Point(1, 1)]]))))),
            TraceEntry(t: 4, .call(.removeGraphic(layer: "pois", index: 0))),
        ])
        let text = TraceEncoder.encode(trace)
        let back = try TraceDecoder.decode(text, file: "rt")
        #expect(back.header == trace.header)
        #expect(back.events.map(\.event) == trace.events.map(\.event))
        #expect(TraceEncoder.encode(back) == text)
    }

    private func error(_ lines: [String]) -> String {
        do {
            _ = try TraceDecoder.decode(lines.joined(separator: "\n"), file: "bad.trace.jsonl")
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func reportsSyntaxErrorsWithFileLineAndColumn() {
        #expect(error([Self.header, #"{"t":0.1,"type":"touch",}"#]).hasPrefix("bad.trace.jsonl:2:25: "))
    }

    @Test func reportsABadEnumValueAtItsMember() {
        let e = error([Self.header, #"{"t":0.1,"type":"touch","phase":"down","x":1,"y":2}"#])
        #expect(e == #"bad.trace.jsonl:2:33: phase: expected one of "began", "moved", "ended", "cancelled", found "down""#)
    }

    @Test func reportsMissingMembersUnknownMembersAndTypes() {
        #expect(error([Self.header, #"{"t":0.1,"type":"touch","phase":"began","x":1}"#]) == #"bad.trace.jsonl:2:1: missing member "y": expected a number"#)
        #expect(error([Self.header, #"{"t":0.1,"type":"undo","bogus":1}"#]) == #"bad.trace.jsonl:2:32: bogus: unknown member "bogus""#)
        #expect(error([Self.header, #"{"t":0.1,"type":"fly"}"#]).hasPrefix(#"bad.trace.jsonl:2:17: type: expected one of "touch", "gps""#))
    }

    @Test func rejectsTimeGoingBackwards() {
        let e = error([Self.header, #"{"t":0.5,"type":"undo"}"#, #"{"t":0.4,"type":"redo"}"#])
        #expect(e == "bad.trace.jsonl:3:6: t: expected a time ≥ 0.5 (the previous line's), found 0.4")
    }

    @Test func rejectsAWrongVersionAndAMissingHeader() {
        #expect(error([#"{"t":0,"type":"header","version":6}"#]) == "bad.trace.jsonl:1:34: version: expected format version 1, 2, 3, 4 or 5, found 6")
        #expect(error([#"{"t":0,"type":"header","version":0}"#]) == "bad.trace.jsonl:1:34: version: expected format version 1, 2, 3, 4 or 5, found 0")
        #expect(error([#"{"t":0,"type":"undo"}"#]).hasPrefix("bad.trace.jsonl:1:15: type: expected the first line to be the header"))
        #expect(error([""]) == #"bad.trace.jsonl:1:1: expected a header line ({"type":"header",…}), found an empty file"#)
    }

    @Test func rotationOptionNeedsVersionTwo() throws {
        let v2 = #"{"t":0,"type":"header","version":2,"options":{"allowRotationByPinching":true}}"#
        let trace = try TraceDecoder.decode(v2, file: "r.trace.jsonl")
        #expect(trace.header.version == 2 && trace.header.options.allowRotationByPinching)
        #expect(try TraceDecoder.decode(#"{"t":0,"type":"header","version":1}"#, file: "a").header.options.allowRotationByPinching == false, "off by default")
        #expect(
            error([#"{"t":0,"type":"header","version":1,"options":{"allowRotationByPinching":false}}"#])
                == #"bad.trace.jsonl:1:73: options.allowRotationByPinching: expected no "allowRotationByPinching" in a version 1 trace: the option needs "version":2"#)
        #expect(
            error([#"{"t":0,"type":"header","version":2,"options":{"allowRotationByPinching":1}}"#])
                == "bad.trace.jsonl:1:73: options.allowRotationByPinching: expected true or false, found a number")
    }

    @MainActor
    @Test func refusesFilesThatAreNotUTF8() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bin-\(UUID().uuidString).trace.jsonl")
        try Data([0x7B, 0xFF, 0xFE, 0x7D]).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        // Located at the first byte that is not UTF-8.
        let message = "expected UTF-8 text (UTF-16 and other encodings are not read)"
        #expect(throws: TraceError(file: "x.trace.jsonl", line: 1, column: 2, message: message)) {
            try Replayer.load(url, displayName: "x.trace.jsonl")
        }
    }

    @Test func requiresTheHeaderTimeToBeZero() {
        #expect(error([#"{"type":"header","version":1}"#]) == #"bad.trace.jsonl:1:1: missing member "t": expected a number"#)
        #expect(error([#"{"t":1,"type":"header","version":1}"#]) == "bad.trace.jsonl:1:6: t: expected 0 (the header is at time 0), found 1")
    }

    @Test func rejectsASketchGeometryOfAnotherType() {
        let h = #"{"t":0,"type":"header","version":1,"sketch":{"geometryType":"polygon","geometry":{"paths":[[[0,0],[1,1]]]}}}"#
        #expect(error([h]).contains("sketch.geometry: expected a polygon geometry (the sketch's type), found a polyline"))
    }
}
