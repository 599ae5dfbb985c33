import Foundation
@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry
import Testing

/// The API's edges: each limit is consistent across the calls that share it, and an invalid
/// value is refused where it enters (a precondition, tested in a child process that must trap).
@MainActor
@Suite struct APIEdgeTests {
    /// A map with three markers on map (100, 100) (screen (100, 200)), added in order.
    func stackedMarkers() throws -> (MapView, GraphicsLayer, [GraphicID]) {
        let map = MapView(screenSize: ScreenSize(width: 400, height: 300), viewport: Viewport(center: Point(200, 150), resolution: 1))
        let layer = GraphicsLayer()
        try map.addLayer(layer, named: "g")
        var ids: [GraphicID] = []
        for _ in 0..<3 { ids.append(try layer.add(Graphic(Point(100, 100), symbol: .simpleMarker(SimpleMarkerSymbol(size: 10))))) }
        return (map, layer, ids)
    }

    // MARK: hitTest's maxResults

    @Test func maxResultsIsTheSameLimitForTheMapAndTheLayer() throws {
        let (map, layer, ids) = try stackedMarkers()
        let topmostFirst = Array(ids.reversed())
        for n in [0, 1, 2, 3, 4, Int.max] {
            let expected = Array(topmostFirst.prefix(n))
            #expect(map.hitTest(at: ScreenPoint(x: 100, y: 200), maxResults: n).map(\.graphicID) == expected, "map, maxResults \(n)")
            #expect(layer.hitTest(mapPoint: Point(100, 100), tolerance: 10, resolution: 1, maxResults: n) == expected, "layer, maxResults \(n)")
        }
    }

    // MARK: Viewport

    @Test func viewportMovesThatWouldLeaveItInvalidChangeNothing() {
        let size = ScreenSize(width: 400, height: 400)
        let v = Viewport(center: Point(0, 0), resolution: 1e-300)
        // 1e-300 / 1e100 underflows to 0: the zoom is refused, not turned into a zero resolution.
        #expect(v.moved(from: ScreenPoint(x: 0, y: 0), to: ScreenPoint(x: 0, y: 0), scale: 1e100, size: size) == v)
        let far = Viewport(center: Point(1.7e308, 0), resolution: 1e306)
        // Panning 200 pt at 1e306 units a point would take the center past the largest Double.
        #expect(far.moved(from: ScreenPoint(x: 200, y: 200), to: ScreenPoint(x: 0, y: 200), size: size) == far)
        let map = MapView(screenSize: size, viewport: v)
        map.zoom(by: 1e100)
        #expect(map.viewport == v)
    }

    @Test func decodingAViewportRefusesWhatItsInitializerRefuses() throws {
        func decode(_ json: String) throws -> Viewport {
            try JSONDecoder().decode(Viewport.self, from: Data(json.utf8))
        }
        let ok = #"{"center":{"x":1,"y":2},"resolution":2,"rotation":30}"#
        #expect(try decode(ok) == Viewport(center: Point(1, 2), resolution: 2, rotation: 30))
        for r in ["0", "-2"] {
            #expect(throws: DecodingError.self, "resolution \(r)") {
                try decode(#"{"center":{"x":1,"y":2},"resolution":"# + r + #","rotation":0}"#)
            }
        }
        #expect(Viewport.isValidResolution(1e-300))
        for r: Double in [0, -2, .nan, .infinity, -.infinity] { #expect(!Viewport.isValidResolution(r), "\(r)") }
        #expect(!Viewport.isValidCenter(Point(.nan, 0)))
        #expect(!Viewport.isValidCenter(Point(0, .infinity)))
    }

    // MARK: insertVertex on a sketch without parts

    @Test func insertingVertexZeroOfPartZeroCreatesThePartAsAppendingDoes() throws {
        for type in [GeometryType.polyline, .polygon, .multipoint] {
            let inserted = try SketchLayer(geometryType: type)
            let appended = try SketchLayer(geometryType: type)
            try inserted.insertVertex(Point(3, 4), part: 0, at: 0)
            try appended.appendVertex(Point(3, 4))
            #expect(inserted.geometry == appended.geometry, "\(type)")
            #expect(inserted.selection == .vertex(part: 0, index: 0))
            #expect(inserted.undoCount == 1)
            // Undo takes the part away with its vertex, as it does after an append.
            #expect(inserted.undo())
            #expect(appended.undo())
            #expect(inserted.geometry == appended.geometry, "\(type) after undo")
            #expect(inserted.geometry.isEmpty)
            #expect(inserted.redo())
            #expect(inserted.geometry == (try SketchLayer(geometryType: type).geometry(after: Point(3, 4))))
            // Only (0, 0) creates the part: anything else is still out of range.
            let empty = try SketchLayer(geometryType: type)
            #expect(throws: GeometryError.vertexIndexOutOfRange(part: 0, index: 1, count: 0)) {
                try empty.insertVertex(Point(3, 4), part: 0, at: 1)
            }
            #expect(throws: GeometryError.partIndexOutOfRange(part: 1, partCount: 0)) {
                try empty.insertVertex(Point(3, 4), part: 1, at: 0)
            }
            #expect(empty.geometry.isEmpty)
        }
    }

    @Test func aRefusedFirstVertexCreatesNoPart() throws {
        let sketch = try SketchLayer(geometryType: .polygon)
        #expect(throws: GeometryError.nonFiniteCoordinate(part: 0, index: 0)) {
            try sketch.insertVertex(Point(.nan, 0), part: 0, at: 0)
        }
        #expect(sketch.geometry.isEmpty)
        #expect(sketch.undoCount == 0)
        try sketch.insertVertex(Point(1, 1), part: 0, at: 0)
        #expect(sketch.geometry == .polygon(Polygon(rings: [[Point(1, 1)]])))
    }

    // MARK: Preconditions (child processes that must trap)

    // Exit tests need Swift Testing 6.2; the package builds with 6.1.
    #if compiler(>=6.2)
    @Test func validValuesDoNotTrap() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run {
                var v = Viewport(center: Point(0, 0), resolution: 1e-300, rotation: -720)
                v.resolution = 5
                let map = MapView(screenSize: ScreenSize(width: 100, height: 100), viewport: v)
                _ = map.hitTest(at: ScreenPoint(x: 1, y: 1), maxResults: 0)
                _ = GraphicsLayer().hitTest(mapPoint: Point(0, 0), tolerance: 1, resolution: 1, maxResults: 0)
                _ = SketchUndoStack(levelsOfUndo: 0)
                let sketch = try? SketchLayer(geometryType: .polyline)
                sketch?.levelsOfUndo = 0
            }
        }
    }

    @Test func aNegativeMaxResultsTraps() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let map = MapView(screenSize: ScreenSize(width: 100, height: 100), viewport: Viewport(center: Point(0, 0), resolution: 1))
                _ = map.hitTest(at: ScreenPoint(x: 1, y: 1), maxResults: -1)
            }
        }
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                _ = GraphicsLayer().hitTest(mapPoint: Point(0, 0), tolerance: 1, resolution: 1, maxResults: -1)
            }
        }
    }

    @Test func aZeroResolutionTraps() async {
        await #expect(processExitsWith: .failure) { _ = Viewport(center: Point(0, 0), resolution: 0) }
    }

    @Test func aNegativeResolutionTraps() async {
        await #expect(processExitsWith: .failure) { _ = Viewport(center: Point(0, 0), resolution: -2) }
    }

    @Test func aNonFiniteResolutionTraps() async {
        await #expect(processExitsWith: .failure) { _ = Viewport(center: Point(0, 0), resolution: .nan) }
        await #expect(processExitsWith: .failure) { _ = Viewport(center: Point(0, 0), resolution: .infinity) }
    }

    @Test func aNonFiniteCenterOrRotationTraps() async {
        await #expect(processExitsWith: .failure) { _ = Viewport(center: Point(.nan, 0), resolution: 1) }
        await #expect(processExitsWith: .failure) { _ = Viewport(center: Point(0, -.infinity), resolution: 1) }
        await #expect(processExitsWith: .failure) { _ = Viewport(center: Point(0, 0), resolution: 1, rotation: .infinity) }
    }

    @Test func settingAnInvalidViewportMemberTraps() async {
        await #expect(processExitsWith: .failure) {
            var v = Viewport(center: Point(0, 0), resolution: 1)
            v.resolution = 0
        }
        await #expect(processExitsWith: .failure) {
            var v = Viewport(center: Point(0, 0), resolution: 1)
            v.center.x = .nan
        }
    }

    @Test func aNegativeLevelsOfUndoTraps() async {
        await #expect(processExitsWith: .failure) { _ = SketchUndoStack(levelsOfUndo: -1) }
        await #expect(processExitsWith: .failure) {
            var stack = SketchUndoStack()
            stack.levelsOfUndo = -1
        }
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let sketch = try? SketchLayer(geometryType: .polyline)
                sketch?.levelsOfUndo = -1
            }
        }
    }
    #endif
}

extension SketchLayer {
    /// The geometry of this (empty) sketch after appending `p`: what an insert that created the
    /// first part must give.
    fileprivate func geometry(after p: Point) throws -> Geometry {
        try appendVertex(p)
        return geometry
    }
}
