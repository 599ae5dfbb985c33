import Foundation
@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry
import Testing

/// What users print reads as words and values, not as Swift's dump of the type
/// (`#1 edit(MapSketch.SketchEditRecord.Kind.insertVertex)`, `MapSketch.AttributeValue.integer(5)`).
@MainActor
@Suite struct DescriptionTests {
    @Test func sketchEventsPrintInWords() throws {
        #expect("\(SketchGeometryChange(reason: .edit(.insertVertex), sequence: 1))" == "#1 insert vertex")
        #expect("\(SketchGeometryChange(reason: .edit(.appendVertices), sequence: 7))" == "#7 append vertices")
        #expect("\(SketchGeometryChange(reason: .dragMoved, sequence: 2))" == "#2 drag moved")
        #expect("\(SketchGeometryChange(reason: .undo, sequence: 3))" == "#3 undo")
        #expect("\(SketchEditRecord.Kind.removePart)" == "remove part")
        let insert = SketchEditRecord.insertVertex(part: 0, index: 2, point: Point(10, 20), selectionBefore: .none)
        #expect("\(insert)" == "insert vertex 2 of part 0 at \(Point(10, 20))")
        let move = SketchEditRecord.moveVertex(part: 1, index: 0, from: Point(0, 0), to: Point(5, 5), selectionBefore: .none)
        #expect("\(move)" == "move vertex 0 of part 1 from \(Point(0, 0)) to \(Point(5, 5))")

        // As a sketch posts them.
        let sketch = try SketchLayer(geometryType: .polyline)
        var printed: [String] = []
        let token = sketch.onGeometryChanged { printed.append("\($0)") }
        try sketch.appendVertex(Point(0, 0))
        try sketch.appendVertices([Point(1, 1), Point(2, 2)])
        sketch.undo()
        sketch.removeObserver(token)
        #expect(printed == ["#1 insert vertex", "#2 append vertices", "#3 undo"])
        for line in printed { #expect(!line.contains("MapSketch.")) }
    }

    @Test func attributeValuesPrintAsSwiftWritesThem() {
        #expect("\(AttributeValue.integer(5))" == "5")
        #expect("\(AttributeValue.double(2.5))" == "2.5")
        #expect("\(AttributeValue.string("Say \"hi\""))" == #""Say \"hi\"""#)
        #expect("\(AttributeValue.bool(true))" == "true")
        #expect("\(AttributeValue.null)" == "null")
        #expect("\(AttributeValue.date(Date(timeIntervalSince1970: 1_315_958_400)))" == "2011-09-14T00:00:00Z")
        // In a dictionary, as `print(graphic.attributes)` shows them.
        let attributes: [String: AttributeValue] = ["POP": 382_578]
        #expect("\(attributes)" == #"["POP": 382578]"#)
        #expect("\(["NAME": AttributeValue.string("Minneapolis")])" == #"["NAME": "Minneapolis"]"#)
    }

    @Test func mapEventsAndGesturesPrintInWords() {
        #expect("\(Gesture.tap(ScreenPoint(x: 120, y: 80)))" == "tap at (120.0, 80.0)")
        #expect("\(MapEvent.gesture(.holdBegan(ScreenPoint(x: 1, y: 2))))" == "hold at (1.0, 2.0)")
        #expect("\(MapEvent.layerAdded(name: "Cities"))" == #"layer "Cities" added"#)
        let step = PinchStep(startFocalPoint: ScreenPoint(x: 0, y: 0), focalPoint: ScreenPoint(x: 0, y: 0), scale: 1.5, rotation: 10)
        #expect("\(Gesture.pinch(step))" == "pinch about (0.0, 0.0), scale 1.5, rotation 10.0°")
        #expect("\(TouchEvent(time: 0.1, id: 0, phase: .began, x: 3, y: 4))" == "finger 0 began at (3.0, 4.0) at 0.1 s")
    }
}
