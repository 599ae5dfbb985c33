@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry
import Testing

@Suite struct UndoStackTests {
    @Test func recordsAreCompactValues() {
        #expect(MemoryLayout<SketchEditRecord>.stride <= 64)
        #expect(_isPOD(SketchEditRecord.self), "no references: pushing copies bytes only")
    }

    @Test func vertexRecordsKeepTheirPointsZAndMInline() {
        let p = Point(x: 1, y: 2, z: 3, m: 4)
        let r = SketchEditRecord.insertVertex(part: 2, index: 7, point: p, selectionBefore: .midVertex(part: 1, segment: 5))
        #expect(r.kind == .insertVertex)
        #expect(r.part == 2)
        #expect(r.index == 7)
        #expect(r.point == p)
        #expect(r.selectionBefore == .midVertex(part: 1, segment: 5))
        #expect(!r.isHeavy)
        let flat = SketchEditRecord.removeVertex(part: 0, index: 0, point: Point(5, 6), selectionBefore: .none)
        #expect(flat.point == Point(5, 6))
        #expect(flat.point.z == nil)
    }

    @Test func undoRedoCursorAndNewChangeClearsRedo() {
        var s = SketchUndoStack()
        #expect(!s.canUndo && !s.canRedo)
        for i in 0..<3 { s.push(.addPart(part: i, selectionBefore: .none)) }
        #expect(s.undoCount == 3)
        #expect(s.popUndo()?.part == 2)
        #expect(s.popUndo()?.part == 1)
        #expect(s.canRedo && s.redoCount == 2)
        #expect(s.popRedo()?.part == 1)
        s.push(.addPart(part: 9, selectionBefore: .none))
        #expect(!s.canRedo, "a new change clears redo")
        #expect(s.undoCount == 3)
        #expect(s.popUndo()?.part == 9)
        #expect(s.popUndo()?.part == 1)
        #expect(s.popUndo()?.part == 0)
        #expect(s.popUndo() == nil)
    }

    @Test func levelsBoundDropsTheOldestSteps() {
        var s = SketchUndoStack(levelsOfUndo: 5)
        for i in 0..<1000 { s.push(.addPart(part: i, selectionBefore: .none)) }
        #expect(s.undoCount == 5)
        var seen: [Int] = []
        while let r = s.popUndo() { seen.append(r.part) }
        #expect(seen == [999, 998, 997, 996, 995])
        #expect(s.redoCount == 5)
        s.levelsOfUndo = 0
        for i in 0..<100 { s.push(.addPart(part: i, selectionBefore: .none)) }
        #expect(s.undoCount == 100, "0 keeps every step")
        s.levelsOfUndo = 3
        #expect(s.undoCount == 3, "lowering the bound drops the oldest at once")
    }

    /// Fixed: lowering the bound while steps waited to be redone let later redos make more steps
    /// undoable than the bound (5 undoable, 10 to redo, bound lowered to 6, two redos: 7).
    @Test func redoAfterLoweringTheBoundKeepsTheBound() {
        var s = SketchUndoStack(levelsOfUndo: 20)
        for i in 0..<15 { s.push(.addPart(part: i, selectionBefore: .none)) }
        for _ in 0..<10 { _ = s.popUndo() }
        s.levelsOfUndo = 6
        #expect(s.undoCount == 5 && s.redoCount == 10)
        #expect(s.popRedo()?.part == 5)
        #expect(s.popRedo()?.part == 6)
        #expect(s.undoCount == 6, "the oldest step fell off")
        #expect(s.redoCount == 8)
        var seen: [Int] = []
        while let r = s.popUndo() { seen.append(r.part) }
        #expect(seen == [6, 5, 4, 3, 2, 1])
    }

    @Test func movesWithZKeepBothEnds() {
        var s = SketchUndoStack()
        let a = Point(x: 0, y: 0, z: 10)
        let b = Point(x: 5, y: 5, z: 20, m: 1)
        s.pushMove(part: 0, index: 3, from: a, to: b, selectionBefore: .vertex(part: 0, index: 3))
        s.pushMove(part: 0, index: 4, from: Point(1, 1), to: Point(2, 2), selectionBefore: .none)
        let flat = s.popUndo()
        #expect(flat?.isHeavy == false)
        if let flat { #expect(s.moveEnds(of: flat) == (Point(1, 1), Point(2, 2))) }
        let heavy = s.popUndo()
        #expect(heavy?.isHeavy == true)
        if let heavy { #expect(s.moveEnds(of: heavy) == (a, b)) }
    }
}
