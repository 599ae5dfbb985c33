import MapSketch
import MapSketchGeometry
import MapSketchReplay
import Testing
@testable import MapSketchReaders

@Suite struct TraceBuilderTests {
    @Test func gpsTraceKeepsFileOrderWithNonDecreasingTimes() throws {
        let fixes = [
            GPSFix(time: 100, latitude: 46, longitude: 14),
            GPSFix(time: 103, latitude: 46.001, longitude: 14),
            GPSFix(time: 101, latitude: 46.002, longitude: 14),  // earlier: keeps 3 s, stays in file order
            GPSFix(time: nil, latitude: 46.003, longitude: 14, segment: 1),  // no time: 1 s later
        ]
        let trace = TraceBuilder.gpsTrace(GPSTrack(fixes: fixes, segmentCount: 2), name: "t", description: "d")
        #expect(trace.events.map(\.t) == [0, 3, 3, 4])
        guard case .gps(let f) = trace.events[2].event else { Issue.record("expected a fix"); return }
        #expect(f.time == 101)  // the receiver's time is kept for the filters
        guard case .gps(let last) = trace.events[3].event else { Issue.record("expected a fix"); return }
        #expect(last.segment == 1)
        #expect(trace.header.sketch?.geometryType == .polyline)
        // The viewport frames the track: every fix is on screen.
        let size = trace.header.screen
        for e in trace.events {
            guard case .gps(let g) = e.event else { continue }
            let p = try GeometryEngine.project(Point(g.longitude, g.latitude), from: .wgs84, to: .webMercator)
            let s = trace.header.viewport.toScreen(p, size: size)
            #expect((0...size.width).contains(s.x) && (0...size.height).contains(s.y))
        }
        // It round-trips through the text format.
        let back = try TraceDecoder.decode(TraceEncoder.encode(trace), file: "t")
        #expect(back.events.map(\.event) == trace.events.map(\.event))
    }

    @Test func gpsTraceEventsHoldWhatATraceLineCarries() throws {
        let read = GPSFix(
            time: 5, latitude: 46, longitude: 14, elevation: 300, hdop: 0.8, horizontalAccuracy: 3, speed: 1.5, course: 90,
            quality: .dgps, mode: .threeD, segment: 0, line: 12)
        let trace = TraceBuilder.gpsTrace(GPSTrack(fixes: [read], segmentCount: 1), name: "t", description: "d")
        let expected = GPSFix(time: 5, latitude: 46, longitude: 14, elevation: 300, hdop: 0.8, horizontalAccuracy: 3, speed: 1.5)
        #expect(trace.events.map(\.event) == [.gps(expected)])
        let back = try TraceDecoder.decode(TraceEncoder.encode(trace), file: "t")
        #expect(back.header == trace.header)
        #expect(back.events.map(\.event) == trace.events.map(\.event))
    }

    @Test func scriptGesturesFollowTheThresholds() throws {
        var s = TraceScript(header: TraceHeader())
        s.tap(10, 10)
        s.holdDrag(from: (10, 10), to: (50, 50), hold: 0.7, steps: 2)
        let e = s.trace.events
        #expect(e.count == 2 + 4)
        #expect(e[1].t - e[0].t <= GestureThresholds.default.tapDuration)
        // The first move after the hold's touch-down comes after the hold duration.
        #expect(e[3].t - e[2].t >= GestureThresholds.default.holdDuration)
        #expect(e.map(\.t) == e.map(\.t).sorted())
    }
}
