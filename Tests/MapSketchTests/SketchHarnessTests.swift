import MapSketch
import MapSketchGeometry

/// A 400 × 400 pt map at resolution 1 centred on (0, 0) (so map x = screen x − 200 and
/// map y = 200 − screen y) with a sketch layer as its touch delegate, recording every event.
@MainActor
final class SketchHarness {
    let map: MapView
    let sketch: SketchLayer
    var t = 0.0
    var changes: [SketchGeometryChange] = []
    var selections: [SketchSelectionChange] = []
    var magnifier: [SketchMagnifierEvent] = []

    convenience init(_ type: GeometryType, resolution: Double = 1) throws {
        try self.init(layer: SketchLayer(geometryType: type), resolution: resolution)
    }

    convenience init(geometry: Geometry, resolution: Double = 1) throws {
        try self.init(layer: SketchLayer(geometry: geometry), resolution: resolution)
    }

    init(layer: SketchLayer, resolution: Double) throws {
        map = MapView(
            screenSize: ScreenSize(width: 400, height: 400),
            viewport: Viewport(center: Point(0, 0), resolution: resolution))
        sketch = layer
        try map.addLayer(sketch, named: "Sketch")
        map.touchDelegate = sketch
        sketch.onGeometryChanged { [unowned self] in self.changes.append($0) }
        sketch.onSelectionChanged { [unowned self] in self.selections.append($0) }
        sketch.onMagnifier { [unowned self] in self.magnifier.append($0) }
    }

    /// A quick tap on the map point `p`.
    func tap(_ p: Point) {
        let s = map.toScreen(p)
        tapScreen(s)
    }

    /// A quick tap at screen point `s`.
    func tapScreen(_ s: ScreenPoint) {
        t += 1
        map.handle(TouchEvent(time: t, id: 1, phase: .began, location: s))
        map.handle(TouchEvent(time: t + 0.1, id: 1, phase: .ended, location: s))
    }

    /// Down on `p`, held past the hold duration, dragged through `path`, then released (or cancelled).
    func holdAndDrag(at p: Point, through path: [Point], cancel: Bool = false) {
        t += 1
        let s = map.toScreen(p)
        map.handle(TouchEvent(time: t, id: 1, phase: .began, location: s))
        t += 0.6
        map.advanceTime(to: t)
        var last = s
        for q in path {
            t += 0.05
            last = map.toScreen(q)
            map.handle(TouchEvent(time: t, id: 1, phase: .moved, location: last))
        }
        t += 0.05
        map.handle(TouchEvent(time: t, id: 1, phase: cancel ? .cancelled : .ended, location: last))
    }

    /// One finger moved from `a` to `b` (screen points) at once, before any hold.
    func pan(from a: ScreenPoint, to b: ScreenPoint) {
        t += 1
        map.handle(TouchEvent(time: t, id: 1, phase: .began, location: a))
        map.handle(TouchEvent(time: t + 0.05, id: 1, phase: .moved, location: b))
        map.handle(TouchEvent(time: t + 0.1, id: 1, phase: .ended, location: b))
    }

    var parts: [[Point]] { sketch.geometry.parts }
}

import Testing

@Suite @MainActor struct SketchHarnessTests {
    @Test func screenAndMapAxesAreAsDocumented() throws {
        let h = try SketchHarness(.polyline)
        #expect(h.map.toScreen(Point(10, 20)) == ScreenPoint(x: 210, y: 180))
        #expect(h.map.toMap(ScreenPoint(x: 0, y: 0)) == Point(-200, 200))
        #expect(h.map.touchDelegate === h.sketch)
    }
}
