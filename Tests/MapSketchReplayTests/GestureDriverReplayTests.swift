import MapSketch
import MapSketchGeometry
import MapSketchReplay
import Testing

/// The live gesture driver and the trace script share one implementation of every gesture's
/// touches and clock: driving a map live gives what replaying the scripted trace gives.
@MainActor
@Suite struct GestureDriverReplayTests {
    /// What a map and its sketch did: every map event, every sketch event in words, and the
    /// map's clock when each hold began.
    @MainActor final class Observed {
        var map: [MapEvent] = []
        var sketch: [String] = []
        var holdTimes: [Double] = []
        var observations: [SketchObservation] = []

        init(_ session: ReplaySession) {
            let map = session.mapView
            map.addEventObserver { [unowned self] e in
                self.map.append(e)
                if case .gesture(.holdBegan) = e { holdTimes.append(map.gestureRecognizer.time ?? .nan) }
            }
            guard let s = session.sketch else { return }
            observations.append(s.onGeometryChanged { [unowned self] in sketch.append("geometry \($0)") })
            observations.append(s.onSelectionChanged { [unowned self] in sketch.append("selection \($0)") })
            observations.append(s.onMagnifier { [unowned self] in sketch.append("magnifier \($0)") })
        }
    }

    static var header: TraceHeader {
        var h = TraceHeader()
        h.sketch = TraceSketchSetup(geometryType: .polygon)
        h.options.allowRotationByPinching = true
        h.options.showMagnifierOnTapAndHold = true
        return h
    }

    /// The same gestures, once as a script (the trace) and once as a driver (live).
    static func gestures(
        tap: (ScreenPoint) -> Void, doubleTap: (ScreenPoint) -> Void, holdDrag: (ScreenPoint, ScreenPoint) -> Void,
        drag: (ScreenPoint, ScreenPoint) -> Void, pinch: (ScreenPoint, Double, Double, Double) -> Void, hold: (ScreenPoint) -> Void
    ) {
        func p(_ x: Double, _ y: Double) -> ScreenPoint { ScreenPoint(x: x, y: y) }
        tap(p(100, 100))
        tap(p(300, 100))
        tap(p(300, 300))
        holdDrag(p(300, 300), p(250, 320))  // the selected vertex, dragged
        doubleTap(p(100, 300))  // a vertex, then it is selected
        drag(p(380, 380), p(340, 350))  // the map pans
        pinch(p(200, 200), 80, 160, 25)  // zooms in and turns
        hold(p(30, 30))
        tap(p(60, 200))  // a vertex on the turned map
    }

    @Test func theDriversGesturesGiveTheEventsOfTheScriptedTraceReplayed() throws {
        // Scripted, then replayed.
        var script = TraceScript(header: Self.header)
        Self.gestures(
            tap: { script.tap($0.x, $0.y) }, doubleTap: { script.doubleTap($0.x, $0.y) },
            holdDrag: { script.holdDrag(from: ($0.x, $0.y), to: ($1.x, $1.y)) },
            drag: { script.drag(from: ($0.x, $0.y), to: ($1.x, $1.y)) },
            pinch: { script.pinch(center: ($0.x, $0.y), from: $1, to: $2, rotation: $3) },
            hold: { script.hold($0.x, $0.y) })
        let replayed = try ReplaySession(trace: script.trace, name: "scripted")
        let fromTrace = Observed(replayed)
        replayed.run()

        // Driven live on a map set up from the same header, from the script's starting time.
        let live = try ReplaySession(trace: Trace(header: Self.header), name: "live")
        let driven = Observed(live)
        var fingers = GestureDriver(map: live.mapView, time: TraceScript(header: Self.header).now)
        Self.gestures(
            tap: { fingers.tap(at: $0) }, doubleTap: { fingers.doubleTap(at: $0) },
            holdDrag: { fingers.holdDrag(from: $0, to: $1) }, drag: { fingers.drag(from: $0, to: $1) },
            pinch: { fingers.pinch(center: $0, from: $1, to: $2, rotation: $3) }, hold: { fingers.hold(at: $0) })

        #expect(driven.map.count > 30, "every gesture reached the map")
        #expect(driven.map == fromTrace.map, "the same map events in the same order")
        #expect(driven.sketch == fromTrace.sketch, "the same sketch events in the same order")
        #expect(live.sketch?.geometry == replayed.sketch?.geometry)
        #expect(live.mapView.viewport == replayed.mapView.viewport)
        #expect(abs(live.mapView.viewport.rotation - 25) < 1e-9)
        #expect(try #require(live.sketch).vertices.vertexCount == 5)
        // Both holds (the drag's and the still one) began at their touch-down plus the hold
        // duration; the trace's times are the script's rounded to the millisecond.
        #expect(driven.holdTimes.count == 2 && fromTrace.holdTimes.count == 2)
        for (a, b) in zip(driven.holdTimes, fromTrace.holdTimes) { #expect(abs(a - b) < 1e-9) }
        #expect(abs(fingers.now - script.now) < 1e-9, "the two clocks end together")
    }

    @Test func theScriptWritesTheTouchesOfTheModelsGestures() {
        var script = TraceScript(header: TraceHeader())
        script.now = 2
        let pinch = TouchSequence.pinch(center: ScreenPoint(x: 200, y: 200), from: 100, to: 150, rotation: -40, steps: 3)
        script.pinch(center: (200, 200), from: 100, to: 150, rotation: -40, steps: 3)
        let written = script.trace.events.map { e -> TouchEvent? in
            guard case .touch(let phase, let id, let location) = e.event else { return nil }
            return TouchEvent(time: e.t, id: id, phase: phase, location: location)
        }
        #expect(written.count == pinch.touches.count)
        for (w, t) in zip(written, pinch.touches(startingAt: 2)) {
            #expect(w?.id == t.id && w?.phase == t.phase && w?.location == t.location)
            #expect(abs((w?.time ?? .nan) - t.time) < 0.0005, "times rounded to the millisecond")
        }
        #expect(abs(script.now - (2 + pinch.duration + script.pause)) < 1e-12)
    }
}
