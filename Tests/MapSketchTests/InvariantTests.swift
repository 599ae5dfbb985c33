@_spi(MapSketchInternal) @testable import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The internal invariant checks are on in the test build and hold through mixed workloads: every
/// mutation of a graphics layer's slots and of an undo history runs `_checkInvariants()`, which
/// traps on a broken invariant, so these tests fail by crashing the run.
@MainActor
@Suite struct InvariantTests {
    @Test func checksAreCompiledIntoTheTestBuild() {
        #expect(GraphicSlots.checksInvariants)
        #expect(SketchUndoStack.checksInvariants)
    }

    func geometry(_ r: inout SeededRandom) -> Geometry {
        let c = r.point(in: Envelope(xmin: 0, ymin: 0, xmax: 100, ymax: 100))
        let run = (0..<r.int(in: 2...300)).map { _ in Point(c.x + r.double(in: -5...5), c.y + r.double(in: -5...5)) }
        switch r.int(in: 0...5) {
        case 0: return .point(c)
        case 1: return .polyline(Polyline(paths: [run]))
        case 2: return .polygon(Polygon(rings: [run]))
        case 3: return .polyline(Polyline(paths: [run, run]))
        case 4: return .multipoint(Multipoint(points: run))
        default: return .point(nil)
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func graphicSlotsHoldThroughAddsUpdatesRemovalsRenderersAndCompaction(seed: UInt64) throws {
        var r = SeededRandom(seed: seed)
        let map = MapView(
            screenSize: ScreenSize(width: 100, height: 100), viewport: Viewport(center: Point(0, 0), resolution: 1000),
            spatialReference: .webMercator)
        let layer = GraphicsLayer(spatialReference: .wgs84)
        let symbols: [Symbol] = [
            .simpleMarker(SimpleMarkerSymbol(size: 30)), .simpleLine(SimpleLineSymbol(width: 12)),
            .simpleFill(SimpleFillSymbol()), .text(TextSymbol(text: "a long label")), .composite([]),
        ]
        var ids = try layer.add(
            contentsOf: (0..<300).map { _ in
                Graphic(geometry: geometry(&r), attributes: ["k": .integer(r.int(in: 0...5))])
            })
        try map.addLayer(layer, named: "g")
        layer.renderer = .uniqueValue(
            UniqueValueRenderer(
                field: "k", uniqueValues: symbols.indices.map { UniqueValue(value: "\($0)", symbol: symbols[$0]) }))
        for step in 0..<400 {
            switch r.int(in: 0...9) {
            case 0...3:
                let own: Symbol? = r.int(in: 0...2) == 0 ? .text(TextSymbol(text: "t")) : nil
                ids.append(
                    try layer.add(
                        Graphic(geometry: geometry(&r), symbol: own, attributes: ["k": .integer(r.int(in: 0...6))])))
            case 4...5 where !ids.isEmpty:
                let id = ids.remove(at: r.int(in: 0...(ids.count - 1)))
                #expect(layer.remove(id) != nil)
            case 6...7 where !ids.isEmpty:
                let g = geometry(&r)
                try layer.update(ids[r.int(in: 0...(ids.count - 1))]) { $0.geometry = g }
            case 8:
                layer.dataChanged()
            default:
                layer.renderer = step % 2 == 0 ? nil : .simple(symbols[r.int(in: 0...(symbols.count - 1))])
            }
        }
        // Past the compaction threshold of dead slots, then back under the full-check size.
        ids += try layer.add(contentsOf: (0..<2_000).map { _ in Graphic(geometry: geometry(&r)) })
        for id in ids.prefix(1_500) { layer.remove(id) }
        #expect(layer.count == ids.count - 1_500)
        layer.removeAll()
        #expect(layer.count == 0)
    }

    @Test func undoHistoriesHoldThroughHeavyRecordsLevelsAndRedo() throws {
        var r = SeededRandom(seed: 7)
        var e = try SketchEditor(type: .polyline, levelsOfUndo: 12)
        for step in 0..<3_000 {
            switch r.int(in: 0...11) {
            case 0...3: try e.appendVertex(Point(x: r.double(in: 0...100), y: 0, z: step % 3 == 0 ? 1 : nil))
            case 4 where e.store.partCount > 0 && !e.store.parts[e.store.partCount - 1].isEmpty:
                try e.moveVertex(part: e.store.partCount - 1, index: 0, to: Point(x: 1, y: 2, z: Double(step)))
            case 5: try e.addPart()
            case 6 where e.store.partCount > 1: try e.removePart(0)
            case 7: e.clear()
            case 8...9: e.undo()
            case 10: e.redo()
            default: e.levelsOfUndo = r.int(in: 0...20)
            }
            e.history._checkInvariants()
        }
    }
}

/// The full checks a soak runs between operations (`_checkInvariantsNow()` on a graphics layer and
/// on a sketch layer): a sound model passes, a corrupted one traps (in a child process).
@MainActor
@Suite struct FullInvariantCheckTests {
    /// A layer past the per-mutation full-check size, with removed graphics, and a sketch with
    /// history: both pass the full checks.
    @Test func aSoundLayerAndSketchPassTheFullChecks() throws {
        let layer = GraphicsLayer()
        let ids = try layer.add(contentsOf: (0..<5_000).map { Graphic(geometry: .point(Point(Double($0), 1))) })
        for id in ids.prefix(300) { layer.remove(id) }
        layer._checkInvariantsNow()
        let sketch = try SketchLayer(geometryType: .polygon)
        for k in 0..<40 { try sketch.appendVertex(Point(Double(k), Double(k * k % 7))) }
        sketch.undo()
        try sketch.select(.vertex(part: 0, index: 3))
        sketch._checkInvariantsNow()
    }

    #if compiler(>=6.2)
    /// The control: the same child-process run on a sound model exits normally.
    @Test func aSoundModelExitsNormally() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run {
                let layer = GraphicsLayer()
                _ = try? layer.add(Graphic(geometry: .point(Point(1, 1))))
                layer._checkInvariantsNow()
                let sketch = try? SketchLayer(geometryType: .polyline)
                try? sketch?.appendVertex(Point(0, 0))
                sketch?._checkInvariantsNow()
            }
        }
    }

    @Test func aMiscountedRemovalTraps() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let layer = GraphicsLayer()
                _ = try? layer.add(Graphic(geometry: .point(Point(1, 1))))
                layer.deadCount = 1
                layer._checkInvariantsNow()
            }
        }
    }

    @Test func aSelectionOutsideTheSketchTraps() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let sketch = try? SketchLayer(geometryType: .polyline)
                try? sketch?.appendVertex(Point(0, 0))
                sketch?.editor.selection = .vertex(part: 0, index: 5)
                sketch?._checkInvariantsNow()
            }
        }
    }
    #endif
}
