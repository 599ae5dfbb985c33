import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Two-finger gestures keep the content under the fingers: a pinch zooms about the fingers'
/// focal point and pans with it, measured from where the fingers started, so the final viewport
/// depends only on where they started and ended. The hand-computed cases use a 400 × 400 pt
/// screen, centre (1000, 2000), resolution 2: screen (x, y) is map (1000 + 2(x − 200), 2000 + 2(200 − y)).
@MainActor
@Suite struct PinchNavigationTests {
    static let size = ScreenSize(width: 400, height: 400)
    static let start = Viewport(center: Point(1000, 2000), resolution: 2)

    func makeMap(rotation: Bool = false) -> MapView {
        let map = MapView(screenSize: Self.size, viewport: Self.start, spatialReference: .webMercator)
        map.allowRotationByPinching = rotation
        return map
    }

    /// Feeds touches one at a time, 10 ms apart.
    final class Fingers {
        let map: MapView
        var t = 0.0
        init(_ map: MapView) { self.map = map }

        @MainActor func touch(_ phase: TouchPhase, _ id: Int, _ x: Double, _ y: Double) {
            t += 0.01
            map.handle(TouchEvent(time: t, id: id, phase: phase, x: x, y: y))
        }
    }

    func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
        abs(a.x - b.x) <= tolerance * max(1, abs(b.x)) && abs(a.y - b.y) <= tolerance * max(1, abs(b.y))
    }

    // MARK: Hand-computed cases

    @Test func stillFingerKeepsItsMapPoint() {
        let map = makeMap()
        let f = Fingers(map)
        f.touch(.began, 0, 150, 200)
        f.touch(.began, 1, 250, 200)
        #expect(map.toMap(ScreenPoint(x: 150, y: 200)) == Point(900, 2000))
        for x in stride(from: 260.0, through: 350, by: 10) {
            f.touch(.moved, 1, x, 200)
            let under = map.toMap(ScreenPoint(x: 150, y: 200))
            #expect(close(under, Point(900, 2000)), "finger 0 left map x 900 at step x=\(x): \(under)")
        }
        #expect(map.viewport.resolution == 1)
        #expect(map.viewport.center == Point(950, 2000))
        f.touch(.ended, 1, 350, 200)
        f.touch(.ended, 0, 150, 200)
        #expect(map.viewport.center == Point(950, 2000) && map.viewport.resolution == 1, "lifting moves nothing")
        #expect(map.toMap(ScreenPoint(x: 150, y: 200)) == Point(900, 2000))
    }

    @Test func symmetricSpreadKeepsTheCentreExactly() {
        let map = makeMap()
        let f = Fingers(map)
        f.touch(.began, 0, 150, 200)
        f.touch(.began, 1, 250, 200)
        // One finger after the other, as people (and the recordings) do: the midpoint wanders
        // off the centre between the two halves of each step.
        for d in stride(from: 60.0, through: 100, by: 10) {
            f.touch(.moved, 0, 200 - d, 200)
            f.touch(.moved, 1, 200 + d, 200)
        }
        #expect(map.viewport.center == Point(1000, 2000))
        #expect(map.viewport.resolution == 1)
        f.touch(.ended, 0, 100, 200)
        f.touch(.ended, 1, 300, 200)
        #expect(map.viewport.center == Point(1000, 2000))
    }

    @Test func twoFingerDragPansByTheMovementTimesTheResolution() {
        let map = makeMap()
        let f = Fingers(map)
        f.touch(.began, 0, 150, 200)
        f.touch(.began, 1, 250, 200)
        for k in 1...6 {
            let dx = 5.0 * Double(k), dy = -4.0 * Double(k)
            f.touch(.moved, 0, 150 + dx, 200 + dy)
            f.touch(.moved, 1, 250 + dx, 200 + dy)
        }
        // Both fingers moved (+30, −24) pt: the content follows, so the centre moves the other
        // way by 30 × 2 in x and, the map's y being up, by 24 × 2 down.
        #expect(map.viewport.resolution == 2, "no spread, no zoom")
        #expect(map.viewport.center == Point(940, 1952))
        #expect(map.toMap(ScreenPoint(x: 180, y: 176)) == Point(900, 2000), "finger 0's map point came along")
        f.touch(.ended, 0, 180, 176)
        f.touch(.ended, 1, 280, 176)
    }

    @Test func liftingAFingerMidPinchHandsOverToAPanWithoutAJump() {
        let map = makeMap()
        let f = Fingers(map)
        f.touch(.began, 0, 150, 200)
        f.touch(.began, 1, 250, 200)
        f.touch(.moved, 0, 140, 190)
        f.touch(.moved, 1, 290, 230)
        let before = map.viewport
        let held = ScreenPoint(x: 140, y: 190)
        let under = map.toMap(held)
        f.touch(.ended, 1, 290, 230)
        #expect(map.viewport == before, "the lift itself moves nothing")
        #expect(map.navigation == .idle)
        var p = held
        for k in 1...5 {
            p = ScreenPoint(x: 140 + 13 * Double(k), y: 190 - 7 * Double(k))
            f.touch(.moved, 0, p.x, p.y)
            #expect(map.navigation == .panning)
            #expect(close(map.toMap(p), under), "the remaining finger's map point stays under it")
            #expect(map.viewport.resolution == before.resolution)
        }
        f.touch(.ended, 0, p.x, p.y)
        #expect(close(map.toMap(p), under))
        #expect(map.navigation == .idle)
    }

    @Test func liftingOneOfThreeFingersPinchesOnWithTheOthers() {
        var r = GestureRecognizer()
        func touch(_ t: Double, _ id: Int, _ phase: TouchPhase, _ x: Double, _ y: Double) -> [Gesture] {
            r.process(TouchEvent(time: t, id: id, phase: phase, x: x, y: y))
        }
        _ = touch(0, 5, .began, 0, 0)
        _ = touch(0.1, 7, .began, 100, 0)
        _ = touch(0.2, 9, .began, 100, 100)
        _ = touch(0.3, 6, .began, 0, 100)
        // Finger 7 lifts: 5 goes on with the lowest other id down (6), from where they are.
        #expect(touch(0.4, 7, .ended, 100, 0) == [.pinchEnded])
        let g = touch(0.5, 6, .moved, 0, 200)
        #expect(
            g == [
                .pinch(
                    PinchStep(
                        startFocalPoint: ScreenPoint(x: 0, y: 50), focalPoint: ScreenPoint(x: 0, y: 100), scale: 2))
            ])
    }

    // MARK: Rotation

    @Test func rotationTurnsTheMapAboutTheFingersOnlyWhenAllowed() {
        // Finger 1 swings from right of finger 0 to above it: a quarter turn counter-clockwise.
        for allowed in [false, true] {
            let map = makeMap(rotation: allowed)
            #expect(
                MapView(screenSize: Self.size, viewport: Self.start).allowRotationByPinching == false, "off by default")
            let f = Fingers(map)
            f.touch(.began, 0, 150, 200)
            f.touch(.began, 1, 250, 200)
            for k in 1...9 {
                let a = Double(k) * 10 * .pi / 180
                f.touch(.moved, 1, 150 + 100 * cos(a), 200 - 100 * sin(a))
            }
            if allowed {
                #expect(abs(map.viewport.rotation - 90) < 1e-9)
                #expect(abs(map.viewport.resolution - 2) < 1e-12)
                // Both fingers keep their map points (a similarity is fixed by two of them).
                #expect(close(map.toMap(ScreenPoint(x: 150, y: 200)), Point(900, 2000)))
                #expect(close(map.toMap(ScreenPoint(x: 150, y: 100)), Point(1100, 2000)))
            } else {
                #expect(map.viewport.rotation == 0)
                #expect(abs(map.viewport.resolution - 2) < 1e-12)
                // The focal point keeps its map point: (200, 200) → (150, 150) carries (1000, 2000).
                #expect(close(map.toMap(ScreenPoint(x: 150, y: 150)), Point(1000, 2000)))
            }
        }
    }

    @Test func pinchStepMeasuresFocalPointScaleAndCounterClockwiseTurn() throws {
        let a0 = ScreenPoint(x: 100, y: 100), b0 = ScreenPoint(x: 200, y: 100)
        // B goes above A (screen y up is smaller): the line turned 90° counter-clockwise on screen.
        let up = try #require(PinchStep(startA: a0, startB: b0, a: a0, b: ScreenPoint(x: 100, y: 0)))
        #expect(up.startFocalPoint == ScreenPoint(x: 150, y: 100))
        #expect(up.focalPoint == ScreenPoint(x: 100, y: 50))
        #expect(up.scale == 1)
        #expect(abs(up.rotation - 90) < 1e-12)
        let down = try #require(PinchStep(startA: a0, startB: b0, a: a0, b: ScreenPoint(x: 100, y: 300)))
        #expect(abs(down.rotation + 90) < 1e-12 && down.scale == 2)
        let flipped = try #require(PinchStep(startA: a0, startB: b0, a: b0, b: a0))
        #expect(flipped.rotation == 180, "a half turn is +180, never -180")
        #expect(try #require(PinchStep(startA: a0, startB: b0, a: a0, b: b0)).rotation == 0)
        #expect(PinchStep(startA: a0, startB: a0, a: a0, b: b0) == nil, "no start distance")
        #expect(PinchStep(startA: a0, startB: b0, a: a0, b: a0) == nil, "fingers on one spot")
        #expect(PinchStep(startA: a0, startB: b0, a: a0, b: ScreenPoint(x: .nan, y: 0)) == nil)
    }

    @Test func fingersDownOnOneSpotStartThePinchWhereTheyPart() {
        var r = GestureRecognizer()
        _ = r.process(TouchEvent(time: 0, id: 0, phase: .began, x: 100, y: 100))
        _ = r.process(TouchEvent(time: 0.1, id: 1, phase: .began, x: 100, y: 100))
        #expect(r.process(TouchEvent(time: 0.2, id: 1, phase: .moved, x: 120, y: 100)).isEmpty)
        let g = r.process(TouchEvent(time: 0.3, id: 1, phase: .moved, x: 140, y: 100))
        #expect(
            g == [
                .pinch(
                    PinchStep(
                        startFocalPoint: ScreenPoint(x: 110, y: 100), focalPoint: ScreenPoint(x: 120, y: 100), scale: 2)
                )
            ])
        #expect(r.process(TouchEvent(time: 0.4, id: 0, phase: .moved, x: 140, y: 100)).isEmpty, "on one spot: no scale")
        #expect(r.process(TouchEvent(time: 0.5, id: 0, phase: .moved, x: 140, y: 100)).isEmpty, "no move, no step")
    }

    @Test func aLiftAtANewPositionIsTheLastStep() {
        var r = GestureRecognizer()
        _ = r.process(TouchEvent(time: 0, id: 0, phase: .began, x: 100, y: 100))
        _ = r.process(TouchEvent(time: 0.1, id: 1, phase: .began, x: 200, y: 100))
        let g = r.process(TouchEvent(time: 0.2, id: 1, phase: .ended, x: 300, y: 100))
        #expect(
            g == [
                .pinch(
                    PinchStep(
                        startFocalPoint: ScreenPoint(x: 150, y: 100), focalPoint: ScreenPoint(x: 200, y: 100), scale: 2)
                ), .pinchEnded,
            ])
        _ = r.process(TouchEvent(time: 0.3, id: 0, phase: .ended, x: 100, y: 100))
        _ = r.process(TouchEvent(time: 1, id: 0, phase: .began, x: 100, y: 100))
        _ = r.process(TouchEvent(time: 1.1, id: 1, phase: .began, x: 200, y: 100))
        #expect(
            r.process(TouchEvent(time: 1.2, id: 1, phase: .cancelled, x: 300, y: 100)) == [.pinchEnded],
            "a cancel moves nothing")
    }

    // MARK: The map's side

    @Test func viewportChangedMidPinchGoesOnFromTheNewViewport() {
        let map = makeMap()
        let s = ScreenPoint(x: 200, y: 200)
        map.dispatch(.pinch(PinchStep(startFocalPoint: s, focalPoint: s, scale: 2)))
        #expect(map.viewport == Viewport(center: Point(1000, 2000), resolution: 1))
        map.viewport = Viewport(center: Point(0, 0), resolution: 10)
        // The next step doubles the scale again and moves the focal point 10 pt right: applied
        // to the new viewport, not to the one the pinch began on.
        map.dispatch(.pinch(PinchStep(startFocalPoint: s, focalPoint: ScreenPoint(x: 210, y: 200), scale: 4)))
        #expect(map.viewport == Viewport(center: Point(-50, 0), resolution: 5))
        map.dispatch(.pinchEnded)
        // A new pinch with the same start anchors afresh.
        map.dispatch(.pinch(PinchStep(startFocalPoint: s, focalPoint: s, scale: 5)))
        #expect(map.viewport == Viewport(center: Point(-50, 0), resolution: 1))
    }

    @Test func aPanTheDelegateRefusesLeavesTheMapAndTheNextStepGoesOnFromThere() {
        final class Refusing: MapTouchDelegate {
            var refuse = true
            func mapViewShouldPan(_ mapView: MapView) -> Bool { !refuse }
        }
        let map = makeMap()
        let d = Refusing()
        map.touchDelegate = d
        map.dispatch(.pan(from: ScreenPoint(x: 0, y: 0), to: ScreenPoint(x: 10, y: 0)))
        #expect(map.viewport == Self.start)
        d.refuse = false
        map.dispatch(.pan(from: ScreenPoint(x: 10, y: 0), to: ScreenPoint(x: 15, y: 0)))
        #expect(map.viewport.center == Point(990, 2000), "only the 5 pt the map was allowed to follow")
    }

    @Test func viewportMovedIsOneFormulaForPanZoomAndPinch() {
        let v = Self.start
        let moved = v.moved(
            from: ScreenPoint(x: 200, y: 200), to: ScreenPoint(x: 250, y: 200), scale: 2, size: Self.size)
        #expect(moved == Viewport(center: Point(950, 2000), resolution: 1))
        #expect(moved.toMap(ScreenPoint(x: 150, y: 200), size: Self.size) == Point(900, 2000))
        #expect(
            v.moved(from: ScreenPoint(x: 0, y: 0), to: ScreenPoint(x: 10, y: -5), size: Self.size).center
                == Point(980, 1990))
        #expect(
            v.moved(from: ScreenPoint(x: 1, y: 1), to: ScreenPoint(x: 2, y: 2), scale: 0, size: Self.size) == v,
            "a zero scale changes nothing")
        #expect(v.moved(from: ScreenPoint(x: .nan, y: 1), to: ScreenPoint(x: 2, y: 2), size: Self.size) == v)
        let turned = v.moved(
            from: ScreenPoint(x: 200, y: 200), to: ScreenPoint(x: 200, y: 200), rotation: 270, size: Self.size)
        #expect(turned.rotation == -90 && turned.center == v.center, "kept in (−180, 180]")
        #expect(
            turned.moved(from: ScreenPoint(x: 0, y: 0), to: ScreenPoint(x: 0, y: 0), rotation: -90, size: Self.size)
                .rotation == 180)
    }

    // MARK: Path independence

    /// Both fingers wander from their start to their end through `moves` random intermediate
    /// positions each (interleaved in a random order); returns the final viewport.
    func replay(
        from a0: ScreenPoint, _ b0: ScreenPoint, to a1: ScreenPoint, _ b1: ScreenPoint, moves: Int,
        rotation: Bool, rng: inout SeededRandom
    ) -> (final: Viewport, visited: Set<Double>) {
        let map = makeMap(rotation: rotation)
        let f = Fingers(map)
        f.touch(.began, 0, a0.x, a0.y)
        f.touch(.began, 1, b0.x, b0.y)
        var left = [moves, moves]
        var visited: Set<Double> = []
        while left[0] + left[1] > 0 {
            let id = left[0] == 0 ? 1 : left[1] == 0 ? 0 : rng.int(in: 0...1)
            left[id] -= 1
            f.touch(.moved, id, rng.double(in: 20...380), rng.double(in: 20...380))
            visited.insert(map.viewport.resolution)
        }
        f.touch(.moved, 0, a1.x, a1.y)
        f.touch(.moved, 1, b1.x, b1.y)
        let final = map.viewport
        f.touch(.ended, 0, a1.x, a1.y)
        f.touch(.ended, 1, b1.x, b1.y)
        #expect(map.viewport == final, "lifting at the last positions moves nothing")
        return (final, visited)
    }

    func relativelyClose(_ a: Viewport, _ b: Viewport, scale: Double) -> Bool {
        // Centres are compared relative to the distances in play (the screen in map units).
        let span = max(a.resolution, b.resolution) * 400
        return abs(a.center.x - b.center.x) <= 1e-9 * span && abs(a.center.y - b.center.y) <= 1e-9 * span
            && abs(a.resolution - b.resolution) <= 1e-9 * b.resolution && abs(a.rotation - b.rotation) <= 1e-9 * 360
    }

    @Test(arguments: [false, true])
    func finalViewportDependsOnlyOnWhereTheFingersStartedAndEnded(rotation: Bool) {
        var rng = SeededRandom(seed: rotation ? 1717 : 17)
        for trial in 0..<40 {
            let a0 = ScreenPoint(x: rng.double(in: 20...380), y: rng.double(in: 20...380))
            let b0 = ScreenPoint(x: rng.double(in: 20...380), y: rng.double(in: 20...380))
            let a1 = ScreenPoint(x: rng.double(in: 20...380), y: rng.double(in: 20...380))
            let b1 = ScreenPoint(x: rng.double(in: 20...380), y: rng.double(in: 20...380))
            let direct = replay(from: a0, b0, to: a1, b1, moves: 0, rotation: rotation, rng: &rng).final
            for moves in [3, 40, 200] {
                let (wandered, visited) = replay(from: a0, b0, to: a1, b1, moves: moves, rotation: rotation, rng: &rng)
                #expect(visited.count > 1, "the path went through other viewports")
                #expect(
                    relativelyClose(wandered, direct, scale: 1),
                    "trial \(trial), \(moves) moves: \(wandered) vs \(direct)")
            }
            // What the one step means: the focal point's map point moved with it, at the scale.
            let map = makeMap(rotation: rotation)
            let f0 = ScreenPoint(x: (a0.x + b0.x) / 2, y: (a0.y + b0.y) / 2)
            let f1 = ScreenPoint(x: (a1.x + b1.x) / 2, y: (a1.y + b1.y) / 2)
            let m0 = map.toMap(f0)
            map.viewport = direct
            #expect(close(map.toMap(f1), m0, 1e-12))
            #expect(abs(direct.resolution - 2 * a0.distance(to: b0) / a1.distance(to: b1)) <= 1e-12 * direct.resolution)
            if rotation {
                // Both fingers keep their map points.
                let start = makeMap()
                #expect(close(map.toMap(a1), start.toMap(a0), 1e-9))
                #expect(close(map.toMap(b1), start.toMap(b0), 1e-9))
            } else {
                #expect(direct.rotation == 0)
            }
        }
    }
}
