import MapSketch
import MapSketchGeometry
import MapSketchReplay
import Testing

/// Builds small traces in code and checks what the replay did.
@MainActor
@Suite struct ReplayEngineTests {
    func header(_ type: GeometryType, _ geometry: Geometry? = nil) -> TraceHeader {
        var h = TraceHeader()
        h.screen = ScreenSize(width: 400, height: 400)
        h.viewport = Viewport(center: Point(0, 0), resolution: 1)
        h.sketch = TraceSketchSetup(geometryType: type, geometry: geometry)
        return h
    }

    func tap(_ t: Double, _ x: Double, _ y: Double) -> [TraceEntry] {
        [TraceEntry(t: t, .touch(phase: .began, id: 0, x: x, y: y)), TraceEntry(t: t + 0.1, .touch(phase: .ended, id: 0, x: x, y: y))]
    }

    @Test func tapsAppendVerticesInMapCoordinates() throws {
        let trace = Trace(header: header(.polyline), events: tap(0, 200, 200) + tap(1, 250, 150))
        let s = try Replayer.replay(trace, name: "t", file: "t")
        #expect(s.sketch?.geometry == .polyline(Polyline(paths: [[Point(0, 0), Point(50, 50)]])))
        let out = s.output().document
        #expect(out["sketch"]?["vertices"] == 2)
        #expect(out["sketch"]?["undoDepth"] == 2)
        #expect(out["counts"]?["tap"] == 2)
        let events = out["log"]?.arrayValue?.compactMap { $0["event"]?.stringValue } ?? []
        #expect(events.filter { $0 == "tap" }.count == 2)
        #expect(events.contains("edit"))
    }

    @Test func holdFiresOnTheVirtualClockBeforeTheNextEvent() throws {
        // Select the vertex, hold on it (no touch between 0.0 and 0.6: the clock advance fires the
        // hold), drag, release: one undo step moves the vertex.
        var events = tap(0, 200, 200)
        events += [
            TraceEntry(t: 1, .touch(phase: .began, id: 0, x: 200, y: 200)),
            TraceEntry(t: 1.6, .touch(phase: .moved, id: 0, x: 220, y: 200)),
            TraceEntry(t: 1.7, .touch(phase: .moved, id: 0, x: 240, y: 180)),
            TraceEntry(t: 1.8, .touch(phase: .ended, id: 0, x: 240, y: 180)),
        ]
        var h = header(.polyline, .polyline(Polyline(paths: [[Point(0, 0), Point(100, 0)]])))
        h.options.showMagnifierOnTapAndHold = true
        let s = try Replayer.replay(Trace(header: h, events: events), name: "t", file: "t")
        #expect(s.sketch?.geometry == .polyline(Polyline(paths: [[Point(40, 20), Point(100, 0)]])))
        #expect(s.sketch?.undoCount == 1)
        let names = s.output().document["log"]?.arrayValue?.compactMap { $0["event"]?.stringValue } ?? []
        #expect(names.contains("hold"))
        #expect(names.contains("magnifier"))
    }

    @Test func sameTraceGivesByteIdenticalOutput() throws {
        let trace = Trace(header: header(.polygon), events: tap(0, 100, 100) + tap(1, 300, 100) + tap(2, 200, 300) + [TraceEntry(t: 3, .call(.undo))])
        let a = try Replayer.replay(trace, name: "t", file: "t").output().json
        let b = try Replayer.replay(trace, name: "t", file: "t").output().json
        #expect(a == b)
        #expect(a.contains("\"redoDepth\": 1"))
    }

    @Test func failedCallsAreLoggedAndTheReplayGoesOn() throws {
        let trace = Trace(header: header(.polyline), events: [
            TraceEntry(t: 0, .call(.removeVertex(part: 3, index: 0)), line: 2),
            TraceEntry(t: 1, .call(.addPart), line: 3),
            TraceEntry(t: 2, .call(.insertVertex(part: 0, index: 0, point: Point(1, 2))), line: 4),
        ])
        let out = try Replayer.replay(trace, name: "t", file: "t").output().document
        let errors = out["log"]?.arrayValue?.filter { $0["event"] == "error" } ?? []
        #expect(errors.count == 1)
        #expect(errors.first?["line"] == 2)
        #expect(errors.first?["message"]?.stringValue?.contains("part") == true)
        #expect(out["sketch"]?["vertices"] == 1)
    }
}
