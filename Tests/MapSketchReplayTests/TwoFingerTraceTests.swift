import MapSketch
import MapSketchGeometry
import MapSketchReplay
import MapSketchTestSupport
import Testing

/// The trace side of two-finger gestures: the `allowRotationByPinching` option (format version 2)
/// and the log's report of each pinch step.
@MainActor
@Suite struct TwoFingerTraceTests {
    @Test func schemaDeclaresTheOptionAndTheVersions() throws {
        let schema = try JSONParser.parse(Fixtures.string("Traces/trace.schema.json"))
        let header = schema["$defs"]?["header"]
        let versions = header?["properties"]?["version"]?["enum"]?.arrayValue?.compactMap(\.doubleValue)
        #expect(versions == Trace.supportedVersions.map(Double.init))
        #expect(
            header?["properties"]?["options"]?["properties"]?["allowRotationByPinching"]?["type"]?.stringValue
                == "boolean")
        // The rule that ties the option to version 2.
        let rule = header?["allOf"]?.arrayValue?.first
        #expect(
            rule?["if"]?["properties"]?["options"]?["required"]?.arrayValue?.first?.stringValue
                == "allowRotationByPinching")
        #expect(rule?["then"]?["properties"]?["version"]?["minimum"]?.doubleValue == 2)
    }

    @Test func encoderWritesTheOldestVersionThatCarriesTheHeader() throws {
        var h = TraceHeader()
        #expect(h.minimumVersion == 1)
        #expect(
            TraceEncoder.encode(Trace(header: h)).hasPrefix(
                #"{"t":0,"type":"header","format":"mapsketch-trace","version":1,"#))
        h.options.allowRotationByPinching = true
        #expect(h.minimumVersion == 2)
        let text = TraceEncoder.encode(Trace(header: h))
        #expect(text.contains(#""version":2,"#) && text.contains(#""options":{"allowRotationByPinching":true}"#))
        let back = try TraceDecoder.decode(text, file: "rt")
        #expect(back.header.options == h.options && back.header.version == 2)
        #expect(TraceEncoder.encode(back) == text)
        // A version 2 header without the option stays version 2 when written back.
        let plain = try TraceDecoder.decode(#"{"t":0,"type":"header","version":2}"#, file: "p")
        #expect(TraceEncoder.encode(plain).contains(#""version":2,"#))
    }

    func pinchTrace(rotation: Bool) -> Trace {
        var h = TraceHeader()
        h.screen = ScreenSize(width: 400, height: 400)
        h.viewport = Viewport(center: Point(1000, 2000), resolution: 2)
        h.sketch = TraceSketchSetup(geometryType: .polyline)
        h.options.allowRotationByPinching = rotation
        func touch(_ t: Double, _ phase: TouchPhase, _ id: Int, _ x: Double, _ y: Double) -> TraceEntry {
            TraceEntry(t: t, .touch(phase: phase, id: id, location: ScreenPoint(x: x, y: y)))
        }
        return Trace(
            header: h,
            events: [
                touch(0, .began, 0, 150, 200), touch(0.1, .began, 1, 250, 200),
                touch(0.2, .moved, 1, 350, 200), touch(0.3, .moved, 1, 150, 0),
                touch(0.4, .ended, 1, 150, 0), touch(0.5, .ended, 0, 150, 200),
                // A second pinch: its own entry.
                touch(1, .began, 0, 100, 100), touch(1.1, .began, 1, 300, 100),
                touch(1.2, .moved, 0, 150, 100), touch(1.3, .ended, 0, 150, 100), touch(1.4, .ended, 1, 300, 100),
            ])
    }

    func number(_ v: JSONValue?, _ key: String) -> Double? { v?[key]?.doubleValue }

    func rows(_ v: JSONValue?) -> [[Double]] {
        (v?["path"]?.arrayValue ?? []).map { ($0.arrayValue ?? []).compactMap(\.doubleValue) }
    }

    @Test func logReportsEachPinchStepsFocalPointAndScale() throws {
        let s = try Replayer.replay(pinchTrace(rotation: false), name: "p", file: "p")
        let out = s.output().document
        let pinches = out["log"]?.arrayValue?.filter { $0["event"]?.stringValue == "pinch" } ?? []
        #expect(out["counts"]?["pinch"]?.doubleValue == 2, "each pinch is one entry")
        try #require(pinches.count == 2)
        let p = pinches[0]
        #expect(number(p, "t") == 0.2 && number(p, "x") == 200 && number(p, "y") == 200)
        #expect(number(p, "toX") == 150 && number(p, "toY") == 100)
        #expect(number(p, "scale") == 2 && number(p, "steps") == 2 && p["rotation"] == nil)
        #expect(rows(p) == [[0.2, 250, 200, 2], [0.3, 150, 100, 2]], "time, focal point, scale since the start")
        #expect(rows(pinches[1]) == [[1.2, 225, 100, 0.75]])
        // First pinch: map (1000, 2000) from (200, 200) to (150, 100) at resolution 1 → centre
        // (1050, 1900). Second: map (1050, 2000) from (200, 100) to (225, 100) at resolution 4/3.
        let v = s.mapView.viewport
        #expect(abs(v.resolution - 4.0 / 3) < 1e-12)
        #expect(abs(v.center.x - (1050 - 25 * 4.0 / 3)) < 1e-9 && abs(v.center.y - (2000 - 100 * 4.0 / 3)) < 1e-9)
        #expect(v.rotation == 0)
    }

    @Test func logReportsRotationOnlyWhenTheMapTurns() throws {
        let s = try Replayer.replay(pinchTrace(rotation: true), name: "p", file: "p")
        let out = s.output().document
        let p = try #require(out["log"]?.arrayValue?.first { $0["event"]?.stringValue == "pinch" })
        #expect(number(p, "rotation") == 90)
        #expect(rows(p) == [[0.2, 250, 200, 2, 0], [0.3, 150, 100, 2, 90]])
        #expect(number(out["map"]?["viewport"], "rotation") == 90, "the final viewport says how far the map turned")
    }
}
