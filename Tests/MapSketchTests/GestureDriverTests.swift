import MapSketch
import MapSketchGeometry
import Testing

/// The live gesture driver: its gestures' touches, the virtual clock it advances, the hold timer
/// firing at its own time, and a pinch that turns the map.
@MainActor
@Suite struct GestureDriverTests {
    /// A 400 × 400 pt map at 1 unit per point centred on (0, 0), recording every gesture with the
    /// time the map's clock says it happened.
    @MainActor final class Recorder {
        let map: MapView
        var gestures: [(gesture: Gesture, time: Double?)] = []

        init(thresholds: GestureThresholds = .default, rotation: Bool = false) {
            map = MapView(
                screenSize: ScreenSize(width: 400, height: 400), viewport: Viewport(center: Point(0, 0), resolution: 1),
                thresholds: thresholds)
            map.allowRotationByPinching = rotation
            map.addEventObserver { [unowned self] e in
                if case .gesture(let g) = e { gestures.append((g, map.gestureRecognizer.time)) }
            }
        }

        var kinds: [String] { gestures.map { Self.kind($0.gesture) } }

        static func kind(_ g: Gesture) -> String {
            switch g {
            case .tap: "tap"
            case .holdBegan: "holdBegan"
            case .holdMoved: "holdMoved"
            case .holdEnded: "holdEnded"
            case .holdCancelled: "holdCancelled"
            case .pan: "pan"
            case .panEnded: "panEnded"
            case .pinch: "pinch"
            case .pinchEnded: "pinchEnded"
            }
        }
    }

    @Test func holdFiresAtTouchDownPlusTheHoldDurationOnTheVirtualClock() {
        for holdDuration in [0.5, 0.35] {
            let r = Recorder(thresholds: GestureThresholds(holdDuration: holdDuration))
            var fingers = GestureDriver(map: r.map, time: 2)
            fingers.hold(at: ScreenPoint(x: 100, y: 100), duration: 0.8)
            #expect(r.kinds == ["holdBegan", "holdEnded"])
            #expect(r.gestures.first?.time == 2 + holdDuration, "the hold fires at its own time, not at the release")
            #expect(r.gestures.last?.time == 2 + 0.8, "the release's own time")
            #expect(abs(fingers.now - (2 + 0.8 + fingers.pause)) < 1e-12, "the clock moves past the gesture and the pause")

            // A hold then a drag: the hold fires before the first move (at 0.7 s), at its own time.
            r.gestures.removeAll()
            let start = fingers.now
            fingers.holdDrag(from: ScreenPoint(x: 100, y: 100), to: ScreenPoint(x: 200, y: 150), steps: 4)
            #expect(r.kinds == ["holdBegan"] + Array(repeating: "holdMoved", count: 4) + ["holdEnded"])
            #expect(r.gestures[0].time == start + holdDuration)
            #expect(r.gestures[1].time == start + 0.7)
            if case .holdEnded(let p) = r.gestures.last?.gesture { #expect(p == ScreenPoint(x: 200, y: 150)) }
        }
    }

    @Test func aHoldShorterThanTheThresholdIsATapOrNothing() {
        let r = Recorder()
        var fingers = GestureDriver(map: r.map)
        #expect(fingers.now == 0, "a map that has seen no touch starts the clock at 0")
        fingers.tap(at: ScreenPoint(x: 10, y: 10))
        fingers.hold(at: ScreenPoint(x: 10, y: 10), duration: 0.4)  // too long for a tap, too short for a hold
        #expect(r.kinds == ["tap"])
        // A second driver on the same map goes on from the map's clock.
        let next = GestureDriver(map: r.map)
        #expect(next.now == r.map.gestureRecognizer.time)
        #expect(next.now > 0.08 + 0.4)
    }

    @Test func tapAndDoubleTapOnASketch() throws {
        let r = Recorder()
        let sketch = try SketchLayer(geometryType: .polyline)
        try r.map.addLayer(sketch, named: "Sketch")
        r.map.touchDelegate = sketch
        var fingers = GestureDriver(map: r.map)
        fingers.tap(at: ScreenPoint(x: 100, y: 200))
        // The map has no double tap: the first tap adds a vertex, the second hits and selects it.
        fingers.doubleTap(at: ScreenPoint(x: 300, y: 200))
        #expect(r.kinds == ["tap", "tap", "tap"])
        #expect(sketch.geometry == .polyline(Polyline(paths: [[Point(-100, 0), Point(100, 0)]])))
        #expect(sketch.selection == .vertex(part: 0, index: 1))
        #expect(sketch.undoCount == 2)
    }

    @Test func dragPansTheMapUnderTheFinger() {
        let r = Recorder()
        var fingers = GestureDriver(map: r.map)
        let under = r.map.toMap(ScreenPoint(x: 100, y: 100))
        fingers.drag(from: ScreenPoint(x: 100, y: 100), to: ScreenPoint(x: 160, y: 220))
        #expect(r.kinds.first == "pan" && r.kinds.last == "panEnded")
        #expect(r.map.toMap(ScreenPoint(x: 160, y: 220)) == under, "the map point stays under the finger")
    }

    @Test func pinchWithRotationZoomsAndTurnsTheMapAboutTheFingers() throws {
        let center = ScreenPoint(x: 200, y: 200)
        for allowed in [true, false] {
            let r = Recorder(rotation: allowed)
            r.map.viewport = Viewport(center: Point(1000, 2000), resolution: 2)
            var fingers = GestureDriver(map: r.map)
            let under = r.map.toMap(center)
            fingers.pinch(center: center, from: 100, to: 200, rotation: 30)
            // Finger 0 lifts first: the pinch ends and finger 1, lifting 0.01 s later, ends a pan.
            #expect(r.kinds == Array(repeating: "pinch", count: 10) + ["pinchEnded", "panEnded"], "\(r.kinds)")
            let steps = r.gestures.compactMap { g -> PinchStep? in if case .pinch(let s) = g.gesture { s } else { nil } }
            let last = try #require(steps.last)
            #expect(abs(last.scale - 2) < 1e-12 && abs(last.rotation - 30) < 1e-9, "\(last)")
            #expect(abs(r.map.viewport.resolution - 1) < 1e-12, "twice the finger distance: half the resolution")
            #expect(abs(r.map.viewport.rotation - (allowed ? 30 : 0)) < 1e-9, "\(r.map.viewport)")
            let now = r.map.toMap(center)
            #expect(abs(now.x - under.x) < 1e-9 && abs(now.y - under.y) < 1e-9, "the map point under the focal point stays")
        }
    }

    @Test func pinchFingersTurnCounterClockwiseAsTheScreenShowsIt() {
        let s = TouchSequence.pinch(center: ScreenPoint(x: 200, y: 200), from: 100, to: 100, rotation: 90, steps: 1)
        let ended = s.touches.filter { $0.phase == .ended }
        #expect(ended.map(\.id) == [0, 1])
        // Finger 0 started on the left; a quarter turn counter-clockwise puts it below the centre
        // (y grows downwards), finger 1 above.
        #expect(abs(ended[0].location.x - 200) < 1e-12 && ended[0].location.y == 250)
        #expect(abs(ended[1].location.x - 200) < 1e-12 && ended[1].location.y == 150)
        #expect(s.touches.first?.location == ScreenPoint(x: 150, y: 200))
        #expect(s.duration == s.touches.last?.time)
    }

    func close(_ a: [Double], _ b: [Double]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-12 } }

    @Test func sequencesKeepTheirShapeWhereverTheyStart() {
        let tap = TouchSequence.tap(at: ScreenPoint(x: 5, y: 6), duration: 0.08, jitter: 2)
        #expect(tap.touches.map(\.phase) == [.began, .moved, .ended])
        #expect(tap.touches.last?.location == ScreenPoint(x: 7, y: 4))
        #expect(close(tap.touches(startingAt: 3).map(\.time), [3, 3.04, 3.08]))
        let double = TouchSequence.doubleTap(at: ScreenPoint(x: 5, y: 6), interval: 0.2)
        #expect(double.touches.map(\.time) == [0, 0.08, 0.2, 0.2 + 0.08])
        #expect(double.duration == 0.2 + 0.08)
        let drag = TouchSequence.drag(from: ScreenPoint(x: 0, y: 0), to: ScreenPoint(x: 60, y: 0), steps: 3, duration: 0.3)
        #expect(close(drag.touches.map(\.location.x), [0, 20, 40, 60, 60]))
        #expect(close(drag.touches.map(\.time), [0, 0.1, 0.2, 0.3, 0.32]))
        #expect(drag.duration == 0.3 + 0.02)
    }
}
