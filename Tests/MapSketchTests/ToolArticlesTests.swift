import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

// The examples of the tool articles in Sources/MapSketch/MapSketch.docc (VertexTool.md,
// FreehandTool.md, ShapeTool.md, ReticleTool.md, TransformsAndValidation.md), compiled and run
// here. `articlesShowThisCode` fails when an article and its copy differ: change both together.
// BEGIN VertexTool
@MainActor func vertexToolTapsAndAHoldDrag() throws -> SketchLayer {
    let map = MapView(
        screenSize: ScreenSize(width: 400, height: 400), viewport: Viewport(center: Point(0, 0), resolution: 1))
    let sketch = try SketchLayer(geometryType: .polyline)
    try map.addLayer(sketch, named: "Sketch")
    map.touchDelegate = sketch
    // The vertex tool is the default: each tap appends a vertex and selects it.
    for (k, x) in [100.0, 300.0].enumerated() {
        map.handle(TouchEvent(time: Double(k), phase: .began, x: x, y: 200))
        map.handle(TouchEvent(time: Double(k) + 0.1, phase: .ended, x: x, y: 200))
    }
    // A hold on the selected vertex, then a drag: the vertex follows, the release is one step.
    map.handle(TouchEvent(time: 2, phase: .began, x: 300, y: 200))
    map.advanceTime(to: 2.6)
    map.handle(TouchEvent(time: 2.7, phase: .moved, x: 300, y: 100))
    map.handle(TouchEvent(time: 2.8, phase: .ended, x: 300, y: 100))
    print(WKT.encode(sketch.geometry))  // LINESTRING (-100 0, 100 100)
    return sketch
}
// END VertexTool

// BEGIN FreehandTool
@MainActor func freehandStroke() throws -> SketchLayer {
    let map = MapView(
        screenSize: ScreenSize(width: 400, height: 400), viewport: Viewport(center: Point(0, 0), resolution: 1))
    let sketch = try SketchLayer(geometryType: .polyline)
    try map.addLayer(sketch, named: "Sketch")
    map.touchDelegate = sketch
    try sketch.setTool(.freehand(tolerance: 2))
    // An L drawn with a wobbly finger: along screen y 300, then up along x 300.
    let stroke: [(Double, Double)] = [
        (100, 300), (150, 301), (200, 299), (250, 301), (300, 300), (301, 250), (299, 200), (300, 150),
    ]
    for (k, (x, y)) in stroke.enumerated() {
        map.handle(TouchEvent(time: 0.02 * Double(k), phase: k == 0 ? .began : .moved, x: x, y: y))
    }
    map.handle(TouchEvent(time: 0.2, phase: .ended, x: 300, y: 150))
    // Simplified within 2 pt: the corners are left; one undo step; the new part is selected.
    print(WKT.encode(sketch.geometry))  // LINESTRING (-100 -100, 100 -100, 100 50)
    return sketch
}
// END FreehandTool

// BEGIN ShapeTool
@MainActor func rectangleThenEllipse() throws -> SketchLayer {
    let map = MapView(
        screenSize: ScreenSize(width: 400, height: 400), viewport: Viewport(center: Point(0, 0), resolution: 1))
    let sketch = try SketchLayer(geometryType: .polygon)
    try map.addLayer(sketch, named: "Sketch")
    map.touchDelegate = sketch
    // A drag with the shape tool: its first and last points are opposite corners of the box.
    try sketch.setTool(.shape(.rectangle))
    map.handle(TouchEvent(time: 0, phase: .began, x: 100, y: 100))
    map.handle(TouchEvent(time: 0.05, phase: .moved, x: 200, y: 150))
    map.handle(TouchEvent(time: 0.1, phase: .moved, x: 300, y: 300))
    map.handle(TouchEvent(time: 0.15, phase: .ended, x: 300, y: 300))
    print(WKT.encode(sketch.geometry))  // POLYGON ((-100 100, 100 100, 100 -100, -100 -100, -100 100))
    // One undo step takes it away; a call draws a shape in a box whatever the tool.
    sketch.undo()
    try sketch.drawShape(.ellipse(vertexCount: 4), from: ScreenPoint(x: 100, y: 100), to: ScreenPoint(x: 300, y: 300))
    print(WKT.encode(sketch.geometry))  // POLYGON ((100 0, 0 -100, -100 0, 0 100, 100 0))
    return sketch
}
// END ShapeTool

// BEGIN ReticleTool
@MainActor func moveAVertexWithTheReticle() throws -> SketchLayer {
    let map = MapView(
        screenSize: ScreenSize(width: 400, height: 400), viewport: Viewport(center: Point(0, 0), resolution: 1))
    let sketch = try SketchLayer(geometry: .polyline(Polyline(paths: [[Point(-100, 0), Point(100, 0)]])))
    try map.addLayer(sketch, named: "Sketch")
    map.touchDelegate = sketch
    try sketch.setTool(.reticle)
    map.pan(byScreenDeltaX: -100, dy: 0)  // the vertex (100, 0) comes under the screen's centre
    try sketch.reticleSelect()  // selects it
    try sketch.reticlePickUp()
    map.pan(byScreenDeltaX: 0, dy: -50)  // the reticle is over (100, -50) now
    try sketch.reticlePlace()  // the vertex moves there: one undo step
    print(WKT.encode(sketch.geometry))  // LINESTRING (-100 0, 100 -50)
    return sketch
}
// END ReticleTool

// BEGIN TransformsAndValidation
@MainActor func rotateThenRefuseAShrink() throws -> SketchLayer {
    let map = MapView(
        screenSize: ScreenSize(width: 400, height: 400), viewport: Viewport(center: Point(0, 0), resolution: 1))
    let square = Polygon(rings: [[Point(-100, -100), Point(-100, 100), Point(100, 100), Point(100, -100)]])
    let sketch = try SketchLayer(geometry: .polygon(square))
    try map.addLayer(sketch, named: "Sketch")
    sketch.validation = SketchValidation(minimumArea: 30_000)
    try sketch.selectGeometry()
    try sketch.rotateSelection(degrees: 90)  // about the centroid (0, 0); exact: one undo step
    print(WKT.encode(sketch.geometry))  // POLYGON ((100 -100, -100 -100, -100 100, 100 100, 100 -100))
    do {
        try sketch.scaleSelection(x: 0.5, y: 0.5)  // would leave an area of 10,000
    } catch SketchError.editRejected(let rejection) {
        print(rejection.rule)  // minimumArea: nothing changed, no undo step
    }
    sketch.undo()  // the square as it was, bit for bit
    return sketch
}
// END TransformsAndValidation

@MainActor
@Suite struct ToolArticlesTests {
    static let here = URL(fileURLWithPath: #filePath)
    static func article(_ name: String) -> URL {
        here.deletingLastPathComponent()
            .appendingPathComponent("../../Sources/MapSketch/MapSketch.docc/\(name).md").standardizedFileURL
    }

    @Test func theExamplesRunAsTheArticlesSay() throws {
        #expect(WKT.encode(try vertexToolTapsAndAHoldDrag().geometry) == "LINESTRING (-100 0, 100 100)")
        let v = try vertexToolTapsAndAHoldDrag()
        #expect(v.undoCount == 3 && v.selection == .vertex(part: 0, index: 1))

        let f = try freehandStroke()
        #expect(WKT.encode(f.geometry) == "LINESTRING (-100 -100, 100 -100, 100 50)")
        #expect(f.undoCount == 1 && f.selection == .part(0))

        let s = try rectangleThenEllipse()
        #expect(WKT.encode(s.geometry) == "POLYGON ((100 0, 0 -100, -100 0, 0 100, 100 0))")
        #expect(s.undoCount == 1 && s.redoCount == 0)

        let r = try moveAVertexWithTheReticle()
        #expect(WKT.encode(r.geometry) == "LINESTRING (-100 0, 100 -50)")
        #expect(r.undoCount == 1 && r.selection == .vertex(part: 0, index: 1))

        let t = try rotateThenRefuseAShrink()
        let square = Polygon(rings: [[Point(-100, -100), Point(-100, 100), Point(100, 100), Point(100, -100)]])
        #expect(t.geometry == .polygon(square) && t.undoCount == 0 && t.redoCount == 1)
    }

    @Test(arguments: ["VertexTool", "FreehandTool", "ShapeTool", "ReticleTool", "TransformsAndValidation"])
    func articlesShowThisCode(_ name: String) throws {
        let functions = [
            "VertexTool": "func vertexToolTapsAndAHoldDrag", "FreehandTool": "func freehandStroke",
            "ShapeTool": "func rectangleThenEllipse", "ReticleTool": "func moveAVertexWithTheReticle",
            "TransformsAndValidation": "func rotateThenRefuseAShrink",
        ]
        let (shown, imports, tested) = try ArticleSnippet.both(
            article: Self.article(name), containing: functions[name] ?? "?", source: Self.here, marker: name)
        #expect(shown != nil && tested != nil, "the article's example and this file's copy")
        #expect(shown == tested, "\(name).md and this file show different code")
        #expect(imports == ["import MapSketch", "import MapSketchGeometry"])
    }
}
