import Foundation
import MapSketch
import MapSketchGeometry
@testable import MapSketchReplay
import MapSketchTestSupport
import Testing

/// Snapping in traces (format version 4): the option and the call round-trip, the version rule,
/// located errors for bad values, the `snapped` log event, and `snap.query` in `mapsketch bench`.
@MainActor
@Suite struct SnappingTraceTests {
    static func decode(_ lines: [String]) throws(TraceError) -> Trace {
        try TraceDecoder.decode(lines.joined(separator: "\n") + "\n", file: "s.trace.jsonl")
    }

    static func error(_ lines: [String]) -> String {
        do {
            _ = try decode(lines)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func theOptionAndTheCallRoundTripAndNeedVersionFour() throws {
        var h = TraceHeader()
        h.sketch = TraceSketchSetup(geometryType: .polyline)
        var s = SnapSettings(isEnabled: true, snapsToSketchEdges: false, tolerance: 12.5)
        s.layers = [SnapLayerSource(name: "parcels", vertices: false), SnapLayerSource(name: "roads")]
        s.guides = GeometryGuides(perpendicular: true, extension: true, angleTolerance: 3, distanceTolerance: 6, parallelSearchRadius: 50)
        h.options.snapping = s
        #expect(h.minimumVersion == 4)
        var off = SnapSettings()
        off.guides.parallel = true
        let trace = Trace(header: h, events: [TraceEntry(t: 1, .call(.setSnapping(off)))])
        let text = TraceEncoder.encode(trace)
        #expect(text.hasPrefix(#"{"t":0,"type":"header","format":"mapsketch-trace","version":4"#))
        let back = try TraceDecoder.decode(text, file: "x.trace.jsonl")
        #expect(back.header.options.snapping == s)
        #expect(back.events.first?.event == .call(.setSnapping(off)))
        #expect(TraceCallName.setSnapping.minimumVersion == 4)
        // Defaults: a present but empty object turns snapping on with every default.
        let d = try Self.decode([#"{"t":0,"type":"header","version":4,"options":{"snapping":{}}}"#])
        #expect(d.header.options.snapping == SnapSettings(isEnabled: true))
    }

    @Test func badValuesAreLocated() {
        let v4 = #"{"t":0,"type":"header","version":4,"sketch":{"geometryType":"polyline"}}"#
        #expect(Self.error([v4, #"{"t":1,"type":"setSnapping","tolerance":-1}"#]) == "s.trace.jsonl:2:41: tolerance: expected a tolerance ≥ 0 points, found -1")
        #expect(Self.error([v4, #"{"t":1,"type":"setSnapping","guides":{"angleTolerance":91}}"#]).hasSuffix("guides.angleTolerance: expected an angle tolerance of 0 to 90 degrees, found 91"))
        #expect(Self.error([v4, #"{"t":1,"type":"setSnapping","guides":{"distanceTolerance":-3}}"#]).hasSuffix("guides.distanceTolerance: expected a distance tolerance ≥ 0 points, found -3"))
        #expect(Self.error([v4, #"{"t":1,"type":"setSnapping","enabled":"yes"}"#]).hasSuffix("enabled: expected true or false, found a string"))
        #expect(Self.error([v4, #"{"t":1,"type":"setSnapping","layers":[{"name":"a","faces":true}]}"#]).hasSuffix(#"layers[0].faces: unknown member "faces""#))
        let v3 = #"{"t":0,"type":"header","version":3,"sketch":{"geometryType":"polyline"}}"#
        #expect(Self.error([v3, #"{"t":1,"type":"setSnapping"}"#]) == #"s.trace.jsonl:2:15: type: expected a call of format version 3; "setSnapping" needs "version":4 in the header"#)
    }

    @Test func eachCommittedSnapIsLogged() throws {
        var h = TraceHeader()
        h.sketch = TraceSketchSetup(geometryType: .polyline, geometry: .polyline(Polyline(paths: [[Point(-100, 0), Point(100, 0)]])))
        h.options.snapping = SnapSettings(isEnabled: true)
        var script = TraceScript(header: h)
        script.tap(150, 193)  // map (−50, 7): 7 from the edge
        let out = try Replayer.replay(script.trace, name: "t", file: "t").output()
        let log = out.document["log"]?.arrayValue ?? []
        let snapped = try #require(log.first { $0["event"]?.stringValue == "snapped" })
        #expect(snapped["target"]?.stringValue == "edge" && snapped["source"]?.stringValue == "sketch")
        #expect(snapped["x"]?.doubleValue == -50 && snapped["y"]?.doubleValue == 0 && snapped["index"]?.doubleValue == 0)
        #expect(out.geometry?.geometry == .polyline(Polyline(paths: [[Point(-100, 0), Point(100, 0), Point(-50, 0)]])))
    }
}
