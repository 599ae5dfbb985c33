import MapSketch
import MapSketchGeometry
import MapSketchReplay
import Testing
@testable import MapSketchReaders

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
        [TraceEntry(t: t, .touch(phase: .began, id: 0, location: ScreenPoint(x: x, y: y))), TraceEntry(t: t + 0.1, .touch(phase: .ended, id: 0, location: ScreenPoint(x: x, y: y)))]
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
            TraceEntry(t: 1, .touch(phase: .began, id: 0, location: ScreenPoint(x: 200, y: 200))),
            TraceEntry(t: 1.6, .touch(phase: .moved, id: 0, location: ScreenPoint(x: 220, y: 200))),
            TraceEntry(t: 1.7, .touch(phase: .moved, id: 0, location: ScreenPoint(x: 240, y: 180))),
            TraceEntry(t: 1.8, .touch(phase: .ended, id: 0, location: ScreenPoint(x: 240, y: 180))),
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

@MainActor
@Suite struct ReplayGPSTests {
    func header(_ type: GeometryType) -> TraceHeader {
        var h = TraceHeader()
        h.spatialReference = .webMercator
        h.viewport = Viewport(center: Point(1_614_132, 5_788_400), resolution: 1)
        h.sketch = TraceSketchSetup(geometryType: type)
        return h
    }

    @Test func fixesAreProjectedAndAppendedSegmentsBecomeParts() throws {
        var s = TraceScript(header: header(.polyline))
        for (i, seg) in [0, 0, 0, 1, 1].enumerated() {
            s.gps(GPSFix(time: 1000 + Double(i), latitude: 46.05 + 0.0001 * Double(i), longitude: 14.5, segment: seg))
        }
        let session = try Replayer.replay(s.trace, name: "g", file: "g")
        let g = try #require(session.sketch?.geometry)
        #expect(g.parts.map(\.count) == [3, 2])
        let expected = try GeometryEngine.project(Point(14.5, 46.05), from: .wgs84, to: .webMercator)
        let first = try #require(g.parts.first?.first)
        #expect(abs(first.x - expected.x) < 1e-6 && abs(first.y - expected.y) < 1e-6)
        let gps = try #require(session.output().document["gps"])
        #expect(gps["appended"] == 5)
        #expect(gps["parts"] == 2)
        // Two 11.1 m steps in each part (the gap between parts is not walked).
        let length = try #require(gps["geodesicLength"]?.doubleValue)
        #expect(abs(length - 3 * 11.12) < 0.1, "\(length)")
        // Every fix is an undoable step, as a person's edit would be.
        #expect(session.sketch?.undoCount == 6)  // five appends + one addPart
    }

    @Test func filtersDropWithReasons() throws {
        var h = header(.polyline)
        h.gpsFilter.minimumDistance = 5
        h.gpsFilter.maximumAccuracy = 10
        var s = TraceScript(header: h)
        s.gps(GPSFix(time: 1, latitude: 46.05, longitude: 14.5, horizontalAccuracy: 3))
        s.gps(GPSFix(time: 2, latitude: 46.05001, longitude: 14.5, horizontalAccuracy: 3))  // 1.1 m: too close
        s.gps(GPSFix(time: 3, latitude: 46.0502, longitude: 14.5, horizontalAccuracy: 50))  // inaccurate
        s.gps(GPSFix(time: 4, latitude: 46.0502, longitude: 14.5, horizontalAccuracy: 3))
        s.gps(GPSFix(time: 3.5, latitude: 46.0504, longitude: 14.5, horizontalAccuracy: 3))  // earlier than the last kept
        let out = try Replayer.replay(s.trace, name: "g", file: "g").output().document
        #expect(out["gps"]?["appended"] == 2)
        #expect(out["gps"]?["dropped"] == ["accuracy": 1, "outOfOrder": 1, "tooClose": 1])
    }

    @Test func pacedReplayGivesTheSameOutput() async throws {
        var s = TraceScript(header: header(.polyline))
        s.pause = 0.01
        for i in 0..<3 { s.gps(GPSFix(time: Double(i), latitude: 46.05 + 0.0001 * Double(i), longitude: 14.5), dt: 0.01) }
        let virtual = try Replayer.replay(s.trace, name: "g", file: "g").output().json
        let paced = try Replayer.replay(s.trace, name: "g", file: "g", upTo: 0)
        let start = ContinuousClock.now
        await paced.runPaced(speed: 1)
        #expect(ContinuousClock.now - start >= .milliseconds(15))  // it did sleep between events
        #expect(paced.output().json == virtual)
    }
}
