import Foundation
@_spi(MapSketchInternal) @testable import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// A sketch finds the graphics layers its snap settings name once and keeps them until something
/// they depend on changes (see `SnapLayerCache`, `MapSnapLink`): every such change between two
/// snaps must be seen by the second, and what the queries kept must not outlive what it is for.
@Suite @MainActor struct SnapLayerCacheTests {
    /// A map at 1 map unit per point with a polyline sketch named "sketch" snapping (10 pt) to the
    /// layers `names` names, vertices and edges.
    static func map(snappingTo names: [String]) throws -> (MapView, SketchLayer) {
        let map = MapView(screenSize: ScreenSize(width: 800, height: 800), viewport: Viewport(center: Point(0, 0), resolution: 1))
        let sketch = try SketchLayer(geometryType: .polyline)
        try map.addLayer(sketch, named: "sketch")
        sketch.snapSettings = SnapSettings(isEnabled: true, layers: names.map { SnapLayerSource(name: $0) })
        return (map, sketch)
    }

    /// A graphics layer holding a point graphic at each of `points`.
    static func layer(_ points: [Point]) throws -> (GraphicsLayer, [GraphicID]) {
        let layer = GraphicsLayer()
        let ids = try layer.add(contentsOf: points.map { Graphic(geometry: .point($0)) })
        return (layer, ids)
    }

    @Test func aLayerRemovedRenamedOrReplacedBetweenSnapsIsSeen() throws {
        let (map, sketch) = try Self.map(snappingTo: ["g"])
        let (a, aIDs) = try Self.layer([Point(0, 0)])
        try map.addLayer(a, named: "g")
        #expect(sketch.snapTarget(for: Point(1, 1), context: .free)?.source == .layer(name: "g", graphic: aIDs[0]))
        // Removed: nothing to snap to.
        try map.removeLayer(named: "g")
        #expect(sketch.snapTarget(for: Point(1, 1), context: .free) == nil)
        // Another layer under the name: its graphics, not the old layer's.
        let (b, bIDs) = try Self.layer([Point(50, 50), Point(60, 60)])
        try map.addLayer(b, named: "g")
        #expect(sketch.snapTarget(for: Point(1, 1), context: .free) == nil)
        #expect(sketch.snapTarget(for: Point(59, 58), context: .free)?.source == .layer(name: "g", graphic: bIDs[1]))
        // The old layer back under another name ("renamed"): found by the new name only.
        try map.addLayer(a, named: "h")
        #expect(sketch.snapTarget(for: Point(1, 1), context: .free) == nil)
        sketch.snapSettings.layers = [SnapLayerSource(name: "h")]
        #expect(sketch.snapTarget(for: Point(1, 1), context: .free)?.source == .layer(name: "h", graphic: aIDs[0]))
        // "g" replaced by a layer that is no graphics layer: nothing.
        sketch.snapSettings.layers = [SnapLayerSource(name: "g")]
        try map.removeLayer(named: "g")
        try map.addLayer(SketchLayer(geometryType: .point), named: "g")
        #expect(sketch.snapTarget(for: Point(59, 58), context: .free) == nil)
    }

    @Test func aLayerAddedAfterASnapIsFound() throws {
        let (map, sketch) = try Self.map(snappingTo: ["later", "g"])
        let (g, gIDs) = try Self.layer([Point(0, 0)])
        try map.addLayer(g, named: "g")
        #expect(sketch.snapTarget(for: Point(3, 0), context: .free)?.source == .layer(name: "g", graphic: gIDs[0]))
        // A layer under the first name, with a vertex as near: it comes first in the settings, so
        // it wins the tie.
        let (later, laterIDs) = try Self.layer([Point(6, 0)])
        try map.addLayer(later, named: "later")
        #expect(sketch.snapTarget(for: Point(3, 0), context: .free)?.source == .layer(name: "later", graphic: laterIDs[0]))
    }

    @Test func settingsChangedBetweenSnapsAreHonoured() throws {
        let (map, sketch) = try Self.map(snappingTo: ["a", "b"])
        let (a, aIDs) = try Self.layer([Point(0, 0)])
        let b = GraphicsLayer()
        let line = try b.add(Graphic(geometry: .polyline(Polyline(paths: [[Point(-20, 4), Point(20, 4)]]))))
        try map.addLayer(a, named: "a")
        try map.addLayer(b, named: "b")
        let q = Point(1, 2)
        #expect(sketch.snapTarget(for: q, context: .free)?.source == .layer(name: "a", graphic: aIDs[0]))
        // The vertices of "a" off: the edge of "b".
        sketch.snapSettings.layers[0].vertices = false
        let edge = try #require(sketch.snapTarget(for: q, context: .free))
        #expect(edge.kind == .edge && edge.source == .layer(name: "b", graphic: line) && edge.point == Point(1, 4))
        // "b"'s edges off too: nothing ("a" has no edges).
        sketch.snapSettings.layers[1].edges = false
        #expect(sketch.snapTarget(for: q, context: .free) == nil)
        // Back on, in the other order, with a tolerance too small for the edge.
        sketch.snapSettings.layers = [SnapLayerSource(name: "b"), SnapLayerSource(name: "a")]
        sketch.snapSettings.tolerance = 1.5
        #expect(sketch.snapTarget(for: q, context: .free) == nil)
        sketch.snapSettings.tolerance = 2.5
        #expect(sketch.snapTarget(for: q, context: .free)?.source == .layer(name: "a", graphic: aIDs[0]))
        // Off, then no layers at all.
        sketch.snapSettings.isEnabled = false
        #expect(sketch.snapTarget(for: q, context: .free) == nil)
        sketch.snapSettings.isEnabled = true
        sketch.snapSettings.layers = []
        #expect(sketch.snapTarget(for: q, context: .free) == nil)
        // A whole new settings value.
        sketch.snapSettings = SnapSettings(isEnabled: true, layers: [SnapLayerSource(name: "b", vertices: true, edges: true)])
        #expect(sketch.snapTarget(for: q, context: .free)?.source == .layer(name: "b", graphic: line))
    }

    @Test func graphicsAddedMovedAndRemovedBetweenSnapsAreSeen() throws {
        let (map, sketch) = try Self.map(snappingTo: ["g"])
        let (g, ids) = try Self.layer([Point(100, 100)])
        try map.addLayer(g, named: "g")
        let q = Point(2, 0)
        #expect(sketch.snapTarget(for: q, context: .free) == nil)
        let added = try g.add(Graphic(geometry: .point(Point(0, 0))))
        #expect(sketch.snapTarget(for: q, context: .free)?.source == .layer(name: "g", graphic: added))
        try g.update(ids[0]) { $0.geometry = .point(Point(3, 0)) }
        let moved = try #require(sketch.snapTarget(for: q, context: .free))
        #expect(moved.source == .layer(name: "g", graphic: ids[0]) && moved.point == Point(3, 0))
        _ = g.remove(ids[0])
        #expect(sketch.snapTarget(for: q, context: .free)?.source == .layer(name: "g", graphic: added))
        g.removeAll()
        #expect(sketch.snapTarget(for: q, context: .free) == nil)
        // Many graphics at once, after the layer emptied (its index rebuilt).
        let many = try g.add(contentsOf: (0..<2000).map { Graphic(geometry: .point(Point(Double($0 % 50) * 3, Double($0 / 50) * 3))) })
        #expect(sketch.snapTarget(for: Point(0.5, 0.5), context: .free)?.source == .layer(name: "g", graphic: many[0]))
    }

    @Test func theViewportsResolutionBetweenSnapsSetsTheReach() throws {
        let (map, sketch) = try Self.map(snappingTo: ["g"])
        let (g, _) = try Self.layer([Point(0, 0)])
        try map.addLayer(g, named: "g")
        let q = Point(8, 0)  // 10 pt reach 10 map units at 1 unit per point
        #expect(sketch.snapTarget(for: q, context: .free) != nil)
        map.zoom(by: 2)  // 0.5 units per point: 5 units
        #expect(sketch.snapTarget(for: q, context: .free) == nil)
        map.viewport.resolution = 4
        #expect(sketch.snapTarget(for: Point(35, 0), context: .free) != nil)
        map.viewport = Viewport(center: Point(0, 0), resolution: 0.1)
        #expect(sketch.snapTarget(for: Point(1.5, 0), context: .free) == nil)
        #expect(sketch.snapTarget(for: Point(0.5, 0), context: .free) != nil)
    }

    @Test func aSketchMovedToAnotherMapSnapsToThatMapsLayers() throws {
        let (first, sketch) = try Self.map(snappingTo: ["g"])
        let (a, aIDs) = try Self.layer([Point(0, 0)])
        try first.addLayer(a, named: "g")
        #expect(sketch.snapTarget(for: Point(1, 0), context: .free)?.source == .layer(name: "g", graphic: aIDs[0]))
        try first.removeLayer(named: "sketch")
        #expect(sketch.snapTarget(for: Point(1, 0), context: .free) == nil)
        let second = MapView(screenSize: ScreenSize(width: 800, height: 800), viewport: Viewport(center: Point(0, 0), resolution: 2))
        let (b, bIDs) = try Self.layer([Point(15, 0)])
        try second.addLayer(b, named: "g")
        try second.addLayer(sketch, named: "sketch")
        // The second map's layer, at its resolution (10 pt = 20 units).
        #expect(sketch.snapTarget(for: Point(1, 0), context: .free)?.source == .layer(name: "g", graphic: bIDs[0]))
        // Changes on the first map reach the sketch no more.
        try first.removeLayer(named: "g")
        first.zoom(by: 100)
        #expect(sketch.snapTarget(for: Point(1, 0), context: .free)?.source == .layer(name: "g", graphic: bIDs[0]))
    }

    @Test func aRemovedLayersStorageIsNotKeptBySnapping() throws {
        let (map, sketch) = try Self.map(snappingTo: ["g"])
        weak var storage: GraphicSlots?
        do {
            let (g, _) = try Self.layer([Point(0, 0)])
            try map.addLayer(g, named: "g")
            #expect(sketch.snapTarget(for: Point(1, 0), context: .free) != nil)
            storage = g.slots
            try map.removeLayer(named: "g")
        }
        #expect(storage == nil)
    }

    @Test func aSketchWhoseMapIsGoneSnapsToNothingAndKeepsNothingOfIt() throws {
        let sketch = try SketchLayer(geometryType: .polyline)
        weak var goneMap: MapView?
        weak var goneLayer: GraphicsLayer?
        weak var goneStorage: GraphicSlots?
        do {
            let map = MapView(screenSize: ScreenSize(width: 800, height: 800), viewport: Viewport(center: Point(0, 0), resolution: 1))
            let (g, _) = try Self.layer([Point(0, 0)])
            try map.addLayer(g, named: "g")
            try map.addLayer(sketch, named: "sketch")
            sketch.snapSettings = SnapSettings(isEnabled: true, layers: [SnapLayerSource(name: "g")])
            #expect(sketch.snapTarget(for: Point(1, 0), context: .free) != nil)
            goneMap = map
            goneLayer = g
            goneStorage = g.slots
        }
        #expect(goneMap == nil && goneLayer == nil)
        #expect(sketch.mapView == nil)
        // The layer's storage lives until the sketch's next query finds the map gone.
        #expect(sketch.snapTarget(for: Point(1, 0), context: .free) == nil)
        #expect(goneStorage == nil)
        // On a new map it snaps again, to that map's layers.
        let map = MapView(screenSize: ScreenSize(width: 800, height: 800), viewport: Viewport(center: Point(0, 0), resolution: 1))
        let (g, ids) = try Self.layer([Point(2, 0)])
        try map.addLayer(g, named: "g")
        try map.addLayer(sketch, named: "sketch")
        #expect(sketch.snapTarget(for: Point(1, 0), context: .free)?.source == .layer(name: "g", graphic: ids[0]))
    }

    @Test func sketchesOnOneMapKeepTheirOwnSources() throws {
        let (map, first) = try Self.map(snappingTo: ["a"])
        let second = try SketchLayer(geometryType: .polygon)
        try map.addLayer(second, named: "second")
        second.snapSettings = SnapSettings(isEnabled: true, layers: [SnapLayerSource(name: "b")])
        let third = try SketchLayer(geometryType: .point)
        try map.addLayer(third, named: "third")
        third.snapSettings = SnapSettings(isEnabled: true, layers: [SnapLayerSource(name: "a")])
        let (a, aIDs) = try Self.layer([Point(0, 0)])
        let (b, bIDs) = try Self.layer([Point(1, 0)])
        try map.addLayer(a, named: "a")
        try map.addLayer(b, named: "b")
        let q = Point(0.5, 0.25)
        #expect(first.snapTarget(for: q, context: .free)?.source == .layer(name: "a", graphic: aIDs[0]))
        #expect(second.snapTarget(for: q, context: .free)?.source == .layer(name: "b", graphic: bIDs[0]))
        #expect(third.snapTarget(for: q, context: .free)?.source == .layer(name: "a", graphic: aIDs[0]))
        // One that joins and leaves and is gone: the map no longer reaches for it.
        weak var gone: SketchLayer?
        do {
            let s = try SketchLayer(geometryType: .polyline)
            try map.addLayer(s, named: "gone")
            try map.removeLayer(named: "gone")
            gone = s
        }
        #expect(gone == nil)
        // The middle one leaves, then the first: the others still follow the map.
        try map.removeLayer(named: "second")
        map.zoom(by: 10)
        #expect(second.snapTarget(for: Point(1, 0.5), context: .free) == nil)
        #expect(first.snapTarget(for: Point(0, 1.5), context: .free) == nil)
        #expect(first.snapTarget(for: Point(0, 0.5), context: .free)?.source == .layer(name: "a", graphic: aIDs[0]))
        try map.removeLayer(named: "sketch")
        map.zoom(by: 0.5)
        #expect(first.snapTarget(for: Point(0, 0.5), context: .free) == nil)
        #expect(third.snapTarget(for: Point(0, 1.5), context: .free)?.source == .layer(name: "a", graphic: aIDs[0]))
        #expect(third.snapTarget(for: Point(0, 2.5), context: .free) == nil)
        // Back on the map: it follows it again.
        try map.addLayer(second, named: "second")
        map.zoom(by: 0.5)
        #expect(second.snapTarget(for: Point(1, 3.5), context: .free)?.source == .layer(name: "b", graphic: bIDs[0]))
        #expect(third.snapTarget(for: Point(0, 3.5), context: .free)?.source == .layer(name: "a", graphic: aIDs[0]))
    }

    /// A probe that counts the snap queries it measured.
    final class CountingProbe: OperationProbe, @unchecked Sendable {
        var snaps = 0
        let wrapsOperations: Bool
        init(wraps: Bool) { wrapsOperations = wraps }
        func wrap(_ operation: ProbedOperation, _ body: () -> Void) {
            if operation == .snapQuery { snaps += 1 }
            body()
        }
        func begin(_ operation: ProbedOperation) -> ProbeMark {
            if operation == .snapQuery { snaps += 1 }
            return ProbeMark(ticks: 0, allocations: 0, bytes: 0, timed: false, outermost: true)
        }
        func end(_ operation: ProbedOperation, _ mark: ProbeMark) {}
    }

    @Test(arguments: [false, true])
    func aMeasuredSnapGivesTheSameTargetAndIsMeasuredOnce(wraps: Bool) throws {
        let probe = CountingProbe(wraps: wraps)
        let map = MapView(
            screenSize: ScreenSize(width: 800, height: 800), viewport: Viewport(center: Point(0, 0), resolution: 1),
            spatialReference: nil, thresholds: .default, operationProbe: probe)
        let sketch = try SketchLayer(geometryType: .polyline)
        try map.addLayer(sketch, named: "sketch")
        sketch.snapSettings = SnapSettings(isEnabled: true, layers: [SnapLayerSource(name: "g")])
        let (g, ids) = try Self.layer([Point(0, 0)])
        try map.addLayer(g, named: "g")
        #expect(sketch.snapTarget(for: Point(1, 0), context: .free)?.source == .layer(name: "g", graphic: ids[0]))
        #expect(sketch.snapTarget(for: Point(100, 0), context: .free) == nil)
        #expect(probe.snaps == 2)
    }
}
