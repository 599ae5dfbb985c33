import MapSketch
import MapSketchGeometry
import MapSketchReplay
import Testing

/// The header's `thresholds.vertexHitTolerance` is the sketch's setting: it reaches the sketch
/// layer's symbology, not the map's gesture thresholds.
@MainActor
@Suite struct TraceVertexHitToleranceTests {
    static let header =
        #"{"t":0,"type":"header","format":"mapsketch-trace","version":1,"screen":{"width":400,"height":400},"viewport":{"center":{"x":0,"y":0},"resolution":1},"spatialReference":{"wkid":102100},"sketch":{"geometryType":"polyline"},"thresholds":{"slop":12,"vertexHitTolerance":25}}"#

    @Test func aTracesToleranceReachesTheSketch() throws {
        let trace = try TraceDecoder.decode(Self.header + "\n", file: "tolerance.trace.jsonl")
        #expect(trace.header.vertexHitTolerance == 25)
        #expect(trace.header.thresholds == GestureThresholds(slop: 12))
        let session = try ReplaySession(trace: trace, name: "tolerance")
        #expect(session.sketch?.symbology.vertexHitTolerance == 25)
        #expect(session.mapView.gestureRecognizer.thresholds.slop == 12)
        let reach = try #require(session.sketch?.hitReach(in: session.mapView))
        #expect(reach.vertex == 5.5 + 25, "half the 11 pt vertex marker plus the trace's tolerance")
    }

    @Test func aToleranceAloneIsWrittenBackAndDefaultsStayOut() throws {
        var h = TraceHeader()
        #expect(h.vertexHitTolerance == SketchSymbology.defaultVertexHitTolerance)
        #expect(!TraceEncoder.encode(Trace(header: h)).contains("thresholds"))
        h.vertexHitTolerance = 4
        let text = TraceEncoder.encode(Trace(header: h))
        #expect(text.contains(#""vertexHitTolerance":4"#))
        #expect(try TraceDecoder.decode(text, file: "rt.trace.jsonl").header.vertexHitTolerance == 4)
    }
}
