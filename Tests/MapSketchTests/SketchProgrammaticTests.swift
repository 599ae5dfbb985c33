@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry
import Testing

/// Every programmatic edit through the public API: geometry, selection, events, undo and errors.
@Suite @MainActor struct SketchProgrammaticTests {
    let line = Polyline(paths: [[Point(0, 0), Point(10, 0), Point(20, 0)]])

    @Test func insertVertex() throws {
        let h = try SketchHarness(geometry: .polyline(line))
        try h.sketch.insertVertex(Point(5, 5), part: 0, at: 1)
        #expect(h.parts == [[Point(0, 0), Point(5, 5), Point(10, 0), Point(20, 0)]])
        #expect(h.sketch.selection == .vertex(part: 0, index: 1))
        #expect(h.changes.map(\.reason) == [.edit(.insertVertex)])
        try h.sketch.insertVertex(Point(30, 0), part: 0, at: 4)
        #expect(h.parts[0].last == Point(30, 0))
        #expect(throws: GeometryError.vertexIndexOutOfRange(part: 0, index: 6, count: 5)) {
            try h.sketch.insertVertex(Point(0, 0), part: 0, at: 6)
        }
        #expect(throws: GeometryError.partIndexOutOfRange(part: 1, partCount: 1)) {
            try h.sketch.insertVertex(Point(0, 0), part: 1, at: 0)
        }
        #expect(throws: GeometryError.nonFiniteCoordinate(part: 0, index: 0)) {
            try h.sketch.insertVertex(Point(.nan, 0), part: 0, at: 0)
        }
        #expect(h.changes.count == 2, "failed calls post nothing")
        #expect(h.sketch.undoCount == 2)
    }

    @Test func moveVertex() throws {
        let h = try SketchHarness(geometry: .polyline(line))
        try h.sketch.moveVertex(part: 0, index: 2, to: Point(20, 20))
        #expect(h.parts == [[Point(0, 0), Point(10, 0), Point(20, 20)]])
        #expect(h.sketch.selection == .vertex(part: 0, index: 2))
        #expect(h.changes.map(\.reason) == [.edit(.moveVertex)])
        #expect(throws: GeometryError.vertexIndexOutOfRange(part: 0, index: 3, count: 3)) {
            try h.sketch.moveVertex(part: 0, index: 3, to: Point(0, 0))
        }
        h.sketch.undo()
        #expect(h.parts == [line.paths[0]])
        #expect(h.sketch.selection == .none)
    }

    @Test func removeVertexSelectsTheOneBefore() throws {
        let h = try SketchHarness(geometry: .polyline(line))
        try h.sketch.removeVertex(part: 0, index: 2)
        #expect(h.parts == [[Point(0, 0), Point(10, 0)]])
        #expect(h.sketch.selection == .vertex(part: 0, index: 1))
        try h.sketch.removeVertex(part: 0, index: 0)
        #expect(h.sketch.selection == .vertex(part: 0, index: 0), "the new first vertex")
        try h.sketch.removeVertex(part: 0, index: 0)
        #expect(h.sketch.selection == .none)
        #expect(h.parts == [[]], "the part stays")
        #expect(throws: GeometryError.vertexIndexOutOfRange(part: 0, index: 0, count: 0)) {
            try h.sketch.removeVertex(part: 0, index: 0)
        }
        #expect(h.changes.map(\.reason) == Array(repeating: .edit(.removeVertex), count: 3))
        while h.sketch.canUndo { h.sketch.undo() }
        #expect(h.parts == [line.paths[0]])
    }

    @Test func addAndRemovePart() throws {
        let h = try SketchHarness(geometry: .polyline(line))
        #expect(try h.sketch.addPart() == 1)
        try h.sketch.appendVertex(Point(50, 50))
        try h.sketch.appendVertex(Point(60, 50))
        #expect(h.parts == [line.paths[0], [Point(50, 50), Point(60, 50)]])
        try h.sketch.removePart(0)
        #expect(h.parts == [[Point(50, 50), Point(60, 50)]])
        #expect(h.sketch.selection == .none)
        #expect(throws: GeometryError.partIndexOutOfRange(part: 1, partCount: 1)) { try h.sketch.removePart(1) }
        #expect(h.changes.map(\.reason) == [
            .edit(.addPart), .edit(.insertVertex), .edit(.insertVertex), .edit(.removePart),
        ])
        h.sketch.undo()
        #expect(h.parts == [line.paths[0], [Point(50, 50), Point(60, 50)]])
        #expect(h.sketch.selection == .vertex(part: 1, index: 1))
        let point = try SketchLayer(geometryType: .point)
        #expect(throws: GeometryError.unsupported("a point has a single part")) { try point.addPart() }
    }

    @Test func removeSelectedVertexAndPart() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [line.paths[0], [Point(0, 50), Point(10, 50)]])))
        #expect(throws: SketchError.nothingSelected(operation: .removeSelectedVertex)) {
            try h.sketch.removeSelectedVertex()
        }
        #expect(throws: SketchError.nothingSelected(operation: .removeSelectedPart)) {
            try h.sketch.removeSelectedPart()
        }
        try h.sketch.select(.vertex(part: 0, index: 1))
        try h.sketch.removeSelectedVertex()
        #expect(h.parts == [[Point(0, 0), Point(20, 0)], [Point(0, 50), Point(10, 50)]])
        try h.sketch.select(.midVertex(part: 1, segment: 0))
        #expect(throws: SketchError.nothingSelected(operation: .removeSelectedVertex)) {
            try h.sketch.removeSelectedVertex()
        }
        try h.sketch.removeSelectedPart()
        #expect(h.parts == [[Point(0, 0), Point(20, 0)]])
        #expect(h.changes.map(\.reason) == [.edit(.removeVertex), .edit(.removePart)])
    }

    @Test func selectLastVertexAndSelectValidation() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [line.paths[0], [Point(0, 50), Point(10, 50)], []])))
        h.sketch.selectLastVertex()
        #expect(h.sketch.selection == .vertex(part: 1, index: 1), "the last non-empty part")
        #expect(h.changes.isEmpty)
        #expect(!h.sketch.canUndo, "selection alone is not an undo step")
        #expect(h.selections.map(\.new) == [.vertex(part: 1, index: 1)])
        #expect(throws: SketchError.invalidSelection(.vertex(part: 1, index: 2))) {
            try h.sketch.select(.vertex(part: 1, index: 2))
        }
        #expect(throws: SketchError.invalidSelection(.midVertex(part: 0, segment: 2))) {
            try h.sketch.select(.midVertex(part: 0, segment: 2))
        }
        let ring = try SketchLayer(geometry: .polygon(Polygon(rings: [[Point(0, 0), Point(0, 1), Point(1, 1)]])))
        try ring.select(.midVertex(part: 0, segment: 2))
        #expect(ring.selection == .midVertex(part: 0, segment: 2), "a ring's closing segment")
    }

    @Test func clearIsOneUndoStep() throws {
        let h = try SketchHarness(geometry: .polyline(line))
        h.sketch.clear()
        #expect(h.sketch.geometry == .polyline(Polyline(paths: [])))
        #expect(h.changes.map(\.reason) == [.edit(.replaceGeometry)])
        h.sketch.clear()
        #expect(h.changes.count == 1, "clearing an empty sketch changes nothing")
        h.sketch.undo()
        #expect(h.sketch.geometry == .polyline(line))
    }

    @Test func applyGeometrySameTypeIsOneStepOtherTypeIsAnError() throws {
        let h = try SketchHarness(geometry: .polyline(line))
        try h.sketch.select(.vertex(part: 0, index: 2))
        let other = Polyline(paths: [[Point(1, 1), Point(2, 2)], [Point(3, 3), Point(4, 4)]])
        try h.sketch.applyGeometry(.polyline(other))
        #expect(h.sketch.geometry == .polyline(other))
        #expect(h.sketch.selection == .none)
        #expect(h.sketch.undoCount == 1)
        #expect(throws: SketchError.typeMismatch(expected: .polyline, found: .polygon)) {
            try h.sketch.applyGeometry(.polygon(Polygon(rings: [])))
        }
        h.sketch.undo()
        #expect(h.sketch.geometry == .polyline(line))
        #expect(h.sketch.selection == .vertex(part: 0, index: 2))
        h.sketch.redo()
        #expect(h.sketch.geometry == .polyline(other))
        #expect(h.changes.map(\.reason) == [.edit(.replaceGeometry), .undo, .redo])
    }

    @Test func setGeometryReplacesTheSketchAndClearsHistory() throws {
        let h = try SketchHarness(.polyline)
        h.tap(Point(0, 0))
        h.tap(Point(100, 0))
        h.sketch.undo()
        #expect(h.sketch.canUndo && h.sketch.canRedo)
        let ring = Polygon(rings: [[Point(0, 0), Point(0, 10), Point(10, 10)]])
        try h.sketch.setGeometry(.polygon(ring))
        #expect(h.sketch.geometry == .polygon(ring))
        #expect(h.sketch.geometryType == .polygon)
        #expect(!h.sketch.canUndo && !h.sketch.canRedo)
        #expect(h.sketch.selection == .none)
        #expect(h.changes.last?.reason == .replaced)
        #expect(throws: GeometryError.nonFiniteCoordinate(part: 0, index: 1)) {
            try h.sketch.setGeometry(.polyline(Polyline(paths: [[Point(0, 0), Point(.infinity, 0)]])))
        }
        #expect(h.sketch.geometry == .polygon(ring), "a refused geometry leaves the sketch as it was")
    }

    @Test func undoRedoRestoreGeometryAndSelectionAndNewChangeClearsRedo() throws {
        let h = try SketchHarness(.polygon)
        h.tap(Point(0, 0))
        h.tap(Point(0, 100))
        h.tap(Point(100, 100))
        h.tap(Point(50, 100))  // mid-vertex of segment 1 → selected
        #expect(h.sketch.selection == .midVertex(part: 0, segment: 1))
        h.tap(Point(50, 150))
        let final = h.sketch.geometry
        #expect(h.sketch.undo())
        #expect(h.sketch.selection == .midVertex(part: 0, segment: 1))
        #expect(h.sketch.undo())
        #expect(h.sketch.selection == .vertex(part: 0, index: 1))
        #expect(h.sketch.redo())
        #expect(h.sketch.selection == .vertex(part: 0, index: 2))
        #expect(h.sketch.redo())
        #expect(h.sketch.geometry == final)
        #expect(!h.sketch.redo())
        h.sketch.undo()
        try h.sketch.appendVertex(Point(-5, -5))
        #expect(!h.sketch.canRedo)
        #expect(h.changes.map(\.reason).suffix(6) == [.undo, .undo, .redo, .redo, .undo, .edit(.insertVertex)])
    }

    @Test func levelsOfUndoBoundsHistory() throws {
        let h = try SketchHarness(.polyline)
        h.sketch.levelsOfUndo = 2
        for i in 0..<5 { try h.sketch.appendVertex(Point(Double(i), 0)) }
        #expect(h.sketch.undoCount == 2)
        h.sketch.undo()
        h.sketch.undo()
        #expect(!h.sketch.undo())
        #expect(h.parts == [[Point(0, 0), Point(1, 0), Point(2, 0)]])
    }

    @Test func sketchValidity() throws {
        func valid(_ g: Geometry) throws -> Bool { try SketchLayer(geometry: g).hasEnoughVertices }
        #expect(try valid(.point(Point(0, 0))))
        #expect(try !valid(.point(nil)))
        #expect(try valid(.multipoint(Multipoint(points: [Point(0, 0)]))))
        #expect(try !valid(.multipoint(Multipoint(points: []))))
        #expect(try valid(.polyline(Polyline(paths: [[Point(0, 0), Point(1, 0)]]))))
        #expect(try !valid(.polyline(Polyline(paths: [[Point(0, 0), Point(1, 0)], [Point(5, 5)]]))))
        #expect(try !valid(.polyline(Polyline(paths: []))))
        #expect(try valid(.polygon(Polygon(rings: [[Point(0, 0), Point(0, 1), Point(1, 1)]]))))
        #expect(try !valid(.polygon(Polygon(rings: [[Point(0, 0), Point(0, 1), Point(0, 1)]]))),
            "three vertices but two distinct")
        #expect(try !valid(.polygon(Polygon(rings: [[Point(0, 0), Point(0, 1), Point(1, 1)], [Point(5, 5), Point(6, 6)]]))))
    }

    @Test func aBowTieHasEnoughVerticesButIsNotValid() throws {
        let bowTie = try SketchLayer(geometry: .polygon(Polygon(rings: [[Point(0, 0), Point(100, 100), Point(100, 0), Point(0, 100)]])))
        #expect(bowTie.hasEnoughVertices, "four distinct vertices: enough for a polygon")
        let issues = bowTie.validate()
        #expect(issues.contains { $0.rule == .ringSelfIntersection || $0.rule == .selfIntersection }, "\(issues)")
        #expect(issues == GeometryEngine.validate(bowTie.geometry, mode: .ogc))
        #expect(bowTie.editor.validate(mode: .esriSimple) == GeometryEngine.validate(bowTie.geometry, mode: .esriSimple))
        let square = try SketchLayer(geometry: .polygon(Polygon(rings: [[Point(0, 0), Point(0, 100), Point(100, 100), Point(100, 0)]])))
        #expect(square.hasEnoughVertices && square.validate().isEmpty)
        let short = try SketchLayer(geometry: .polyline(Polyline(paths: [[Point(0, 0)]])))
        #expect(!short.hasEnoughVertices && !short.validate().isEmpty)
    }

    @Test func constructionErrors() {
        #expect(throws: GeometryError.unsupported("an envelope cannot be edited by vertex")) {
            try SketchLayer(geometryType: .envelope)
        }
        #expect(throws: GeometryError.nonFiniteCoordinate(part: 0, index: 0)) {
            try SketchLayer(geometry: .multipoint(Multipoint(points: [Point(.nan, 0)])))
        }
    }
}

@Suite @MainActor struct SketchFinishTests {
    @Test func finishedGeometrySimplifiesABowTie() throws {
        let h = try SketchHarness(.polygon)
        for p in [Point(0, 0), Point(100, 100), Point(100, 0), Point(0, 100)] { h.tap(p) }
        #expect(h.sketch.hasEnoughVertices)
        let done = try h.sketch.finishedGeometry()
        #expect(done == GeometryEngine.simplify(h.sketch.geometry))
        guard case .polygon(let pg) = done else {
            Issue.record("expected a polygon")
            return
        }
        #expect(pg.rings.count == 2, "the bow tie splits into two triangles at (50, 50)")
        #expect(pg.rings.allSatisfy { $0.contains(Point(50, 50)) })
        #expect(h.sketch.geometry.pointCount == 4, "the sketch itself is unchanged")
    }

    /// The repair snaps to the map's xy tolerance: 1 mm, which in a WGS 84 map is about 9e-9°,
    /// not 0.001°.
    @Test func finishedGeometrySnapsToTheMapsTolerance() throws {
        let map = MapView(
            screenSize: ScreenSize(width: 400, height: 400), viewport: Viewport(center: Point(10, 10), resolution: 0.0001),
            spatialReference: .wgs84)
        let sketch = try SketchLayer(geometryType: .polyline)
        try map.addLayer(sketch, named: "Sketch")
        for p in [Point(10, 10), Point(10.000001, 10), Point(10.000001, 10.000000001), Point(10.01, 10)] { try sketch.appendVertex(p) }
        #expect(try sketch.finishedGeometry() == .polyline(Polyline(paths: [[Point(10, 10), Point(10.000001, 10), Point(10.01, 10)]])),
                "11 cm apart stays, 0.1 mm apart merges")
    }

    @Test func finishedGeometryNormalizesWhenTheMapWrapsAround() throws {
        let map = MapView(
            screenSize: ScreenSize(width: 400, height: 400), viewport: Viewport(center: Point(175, 0), resolution: 0.1),
            spatialReference: .wgs84)
        map.wrapAround = true
        let sketch = try SketchLayer(geometryType: .polyline)
        try map.addLayer(sketch, named: "Sketch")
        try sketch.appendVertex(Point(170, 0))
        try sketch.appendVertex(Point(190, 10))
        #expect(try sketch.finishedGeometry() == .polyline(Polyline(paths: [[Point(170, 0), Point(180, 5)], [Point(-180, 5), Point(-170, 10)]])))
        map.wrapAround = false
        #expect(try sketch.finishedGeometry() == sketch.geometry)
    }
}
