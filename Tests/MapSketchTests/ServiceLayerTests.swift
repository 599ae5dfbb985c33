import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// A World_Street_Map-style description (Web Mercator, 256 px tiles, four levels).
let tiledDescription = """
    {"currentVersion":10.81,"mapName":"Layers","spatialReference":{"wkid":102100,"latestWkid":3857},
     "singleFusedMapCache":true,
     "tileInfo":{"rows":256,"cols":256,"dpi":96,"format":"JPEG",
       "origin":{"x":-20037508.342787,"y":20037508.342787},
       "spatialReference":{"wkid":102100,"latestWkid":3857},
       "lods":[{"level":0,"resolution":156543.03392800014,"scale":591657527.591555},
               {"level":1,"resolution":78271.51696399994,"scale":295828763.795777},
               {"level":2,"resolution":39135.75848200009,"scale":147914381.897889},
               {"level":3,"resolution":19567.87924099992,"scale":73957190.948944}]},
     "initialExtent":{"xmin":-20037507.0671618,"ymin":-8000000,"xmax":20037507.0671618,"ymax":8000000},
     "fullExtent":{"xmin":-20037507.0671618,"ymin":-19971868.8804086,"xmax":20037507.0671618,"ymax":19971868.8804086,
                   "spatialReference":{"wkid":102100,"latestWkid":3857}}}
    """

/// A dynamic service in WGS 84 (no tileInfo).
let dynamicDescription = """
    {"mapName":"USA","spatialReference":{"wkid":4326},"singleFusedMapCache":false,
     "fullExtent":{"xmin":-125,"ymin":24,"xmax":-66,"ymax":50,"spatialReference":{"wkid":4326}}}
    """

@MainActor
final class LayerDelegateRecorder: MapLayerDelegate {
    var loaded: [String] = []
    var failed: [(String, LayerError)] = []
    func mapView(_ mapView: MapView, didLoad layer: Layer) { loaded.append(layer.name ?? "?") }
    func mapView(_ mapView: MapView, failedToLoad layer: Layer, error: LayerError) { failed.append((layer.name ?? "?", error)) }
}

@MainActor
@Suite struct ServiceLayerTests {
    func makeMap(_ sr: SpatialReference? = nil, size: Double = 512, center: Point = Point(0, 0), resolution: Double = 78271.51696399994) -> MapView {
        MapView(screenSize: ScreenSize(width: size, height: size), viewport: Viewport(center: center, resolution: resolution), spatialReference: sr)
    }

    @Test func tiledLayerLoadsOverHTTPInTheBackground() async throws {
        let server = try LocalHTTPServer { _ in .json(tiledDescription, delay: 0.2) }
        defer { server.stop() }
        let map = makeMap()
        let delegate = LayerDelegateRecorder()
        map.layerDelegate = delegate
        var events: [MapEvent] = []
        map.eventHandler = { events.append($0) }
        let layer = TiledMapServiceLayer(url: server.url("/arcgis/rest/services/World_Street_Map/MapServer"))
        var heard = false
        layer.onLoad = { _ in heard = true }
        try map.addLayer(layer, named: "Streets")
        #expect(!layer.isLoaded, "adding never blocks: the answer is 0.2 s away")
        #expect(map.spatialReference == nil)
        let result = await layer.waitUntilLoaded()
        #expect((try? result.get()) != nil)
        #expect(layer.isLoaded && heard)
        #expect(delegate.loaded == ["Streets"])
        #expect(events == [.layerAdded(name: "Streets"), .layerLoaded(name: "Streets")])
        #expect(map.spatialReference == .webMercator, "the first layer sets the map's spatial reference")
        #expect(layer.serviceInfo?.tileInfo?.lods.count == 4)
        #expect(server.requests.first?.path == "/arcgis/rest/services/World_Street_Map/MapServer")
        #expect(server.requests.first?.query["f"] == "json")
        // Level 1 shows the whole world in 512 × 512 points: 2 × 2 tiles (clipped to the full extent).
        #expect(layer.visibleTiles.map(\.description) == ["1/0/0", "1/0/1", "1/1/0", "1/1/1"])
        // Level 2, off centre: rows 1…2, columns 0…1.
        map.screenSize = ScreenSize(width: 256, height: 256)
        map.viewport = Viewport(center: Point(-10_000_000, 5_000_000), resolution: 39135.75848200009)
        #expect(layer.visibleTiles == [
            TileKey(level: 2, row: 1, column: 0), TileKey(level: 2, row: 1, column: 1),
            TileKey(level: 2, row: 2, column: 0), TileKey(level: 2, row: 2, column: 1),
        ])
        #expect(layer.currentLevel(in: map)?.level == 2)
        map.viewport.resolution = 30000  // closer to level 2 (39135.8) than level 3 (19567.9) on a log scale
        #expect(layer.currentLevel(in: map)?.level == 2)
        layer.view.isHidden = true
        #expect(layer.visibleTiles.isEmpty, "a hidden layer draws no tiles")
    }

    @Test func dynamicLayerLoadsFromAFileURLAndReprojects() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mapsketch-\(UUID().uuidString).json")
        try Data(dynamicDescription.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let map = makeMap(.webMercator, size: 200, resolution: 10_000)
        let layer = DynamicMapServiceLayer(url: file, token: "secret")
        try map.addLayer(layer, named: "USA")
        #expect(layer.imageRequest(for: map) == nil, "not loaded yet")
        _ = await layer.waitUntilLoaded()
        #expect(layer.isLoaded && layer.isDrawn, "a dynamic layer in another spatial reference is displayed")
        #expect(layer.spatialReference == .wgs84 && map.spatialReference == .webMercator)
        let e = try #require(layer.fullExtent(in: map))
        #expect(abs(e.xmin - -13_914_936.349159198) < 1e-3 && abs(e.ymax - 6_446_275.841017161) < 1e-3)
        let req = try #require(layer.imageRequest(for: map))
        #expect(req.url == file.absoluteString + "/export?bbox=-1000000,-1000000,1000000,1000000&bboxSR=3857&imageSR=3857&size=200,200&format=png&transparent=true&f=image&token=secret")
        #expect(map.renderSVG().contains("<g id=\"layer-USA\">"))
    }

    @Test func notFoundFailsToLoad() async throws {
        let server = try LocalHTTPServer { _ in .json("<html>Not Found</html>", status: 404) }
        defer { server.stop() }
        let map = makeMap()
        let delegate = LayerDelegateRecorder()
        map.layerDelegate = delegate
        var events: [MapEvent] = []
        map.addEventObserver { events.append($0) }
        let layer = TiledMapServiceLayer(url: server.url("/missing/MapServer"))
        var failure: LayerError?
        layer.onLoadFailure = { _, e in failure = e }
        try map.addLayer(layer, named: "Gone")
        let result = await layer.waitUntilLoaded()
        #expect(throws: LayerError.httpStatus(404)) { try result.get() }
        #expect(!layer.isLoaded && layer.loadError == .httpStatus(404) && failure == .httpStatus(404))
        #expect(delegate.failed.map(\.0) == ["Gone"] && delegate.failed.first?.1 == .httpStatus(404))
        #expect(events.last == .layerFailedToLoad(name: "Gone", error: .httpStatus(404)))
        #expect(!map.renderSVG().contains("layer-Gone"), "a layer that failed to load draws nothing")
    }

    @Test func malformedJSONFailsWithLineAndColumn() async throws {
        let server = try LocalHTTPServer { _ in .json("{\"spatialReference\": {\"wkid\": 4326},\n \"tileInfo\": [1, 2,}") }
        defer { server.stop() }
        let layer = TiledMapServiceLayer(url: server.url("/bad/MapServer"))
        try makeMap().addLayer(layer, named: "Bad")
        let result = await layer.waitUntilLoaded()
        guard case .failure(.invalidResponse(let message)) = result else {
            Issue.record("expected invalidResponse, got \(result)")
            return
        }
        #expect(message.hasPrefix("2:"), "line 2: \(message)")
    }

    @Test func wrongFieldTypeNamesTheField() throws {
        let bad = tiledDescription.replacingOccurrences(of: "\"resolution\":78271.51696399994", with: "\"resolution\":\"fast\"")
        #expect(throws: LayerError.invalidResponse("tileInfo.lods[1].resolution: expected a number, found a string")) {
            try MapServiceInfo.parse(Array(bad.utf8))
        }
        #expect(throws: LayerError.invalidResponse("fullExtent: missing required field \"ymax\"")) {
            try MapServiceInfo.parse(Array(#"{"fullExtent":{"xmin":0,"ymin":0,"xmax":1}}"#.utf8))
        }
    }

    @Test func timeoutFailsToLoad() async throws {
        let server = try LocalHTTPServer { _ in .json(tiledDescription, delay: 20) }
        defer { server.stop() }
        let layer = TiledMapServiceLayer(url: server.url("/slow/MapServer"), timeout: 1)
        let start = ContinuousClock.now
        try makeMap().addLayer(layer, named: "Slow")
        let result = await layer.waitUntilLoaded()
        let elapsed = ContinuousClock.now - start
        // Had the layer waited for the 20 s answer it would have loaded: the timeout error itself
        // shows it gave up first. (No upper bound on `elapsed`: other @MainActor suites can hold
        // the main actor for seconds under parallel testing.)
        #expect(throws: LayerError.timeout(1)) { try result.get() }
        #expect(elapsed >= .seconds(0.9), "waited for the timeout: \(elapsed)")
    }

    @Test func tokensForSecuredServices() async throws {
        let server = try LocalHTTPServer { req in
            switch req.query["token"] {
            case "good": .json(tiledDescription)
            case nil: .json("{}", status: 499)
            default: .json(#"{"error":{"code":498,"message":"Invalid Token","details":[]}}"#)
            }
        }
        defer { server.stop() }
        let map = makeMap()
        let wrong = TiledMapServiceLayer(url: server.url("/secure/MapServer"), token: "bad")
        try map.addLayer(wrong, named: "Wrong")
        let wrongResult = await wrong.waitUntilLoaded()
        #expect(throws: LayerError.unauthorized("498 Invalid Token")) { try wrongResult.get() }
        let none = TiledMapServiceLayer(url: server.url("/secure/MapServer"))
        try map.addLayer(none, named: "None")
        let noneResult = await none.waitUntilLoaded()
        #expect(throws: LayerError.unauthorized("HTTP 499")) { try noneResult.get() }
        let good = TiledMapServiceLayer(url: server.url("/secure/MapServer"), token: "good")
        try map.addLayer(good, named: "Good")
        _ = await good.waitUntilLoaded()
        #expect(good.isLoaded)
        #expect(server.requests.map { $0.query["token"] ?? "-" } == ["bad", "-", "good"])
    }

    @Test func errorsAfterLoadingLandOnTheLayerView() async throws {
        let expired = LockedFlag()
        let server = try LocalHTTPServer { _ in
            expired.value ? .json(#"{"error":{"code":498,"message":"Token Expired"}}"#) : .json(tiledDescription)
        }
        defer { server.stop() }
        let map = makeMap()
        var events: [MapEvent] = []
        map.eventHandler = { events.append($0) }
        let layer = TiledMapServiceLayer(url: server.url("/s/MapServer"), token: "t")
        try map.addLayer(layer, named: "S")
        _ = await layer.waitUntilLoaded()
        #expect(layer.view.error == nil)
        expired.value = true
        let e = await layer.refresh()
        #expect(e == .unauthorized("498 Token Expired"))
        #expect(layer.view.error == .unauthorized("498 Token Expired"))
        #expect(layer.isLoaded, "still loaded: the error is the view's")
        #expect(events.last == .layerError(name: "S", error: .unauthorized("498 Token Expired")))
        expired.value = false
        #expect(await layer.refresh() == nil)
        #expect(layer.view.error == nil)
    }

    @Test func tiledLayerInAnotherSpatialReferenceIsNotDisplayed() async throws {
        let server = try LocalHTTPServer { _ in .json(tiledDescription) }
        defer { server.stop() }
        let map = makeMap(.wgs84, resolution: 0.5)
        let graphics = GraphicsLayer()
        try map.addLayer(graphics, named: "Base")
        let layer = TiledMapServiceLayer(url: server.url("/wm/MapServer"))
        var events: [MapEvent] = []
        map.eventHandler = { events.append($0) }
        try map.addLayer(layer, named: "Tiles")
        _ = await layer.waitUntilLoaded()
        let why = LayerError.spatialReferenceMismatch(layer: .webMercator, map: .wgs84)
        #expect(layer.isLoaded, "it loads")
        #expect(layer.notDisplayedReason == why && layer.view.error == why)
        #expect(!layer.isDrawn && layer.visibleTiles.isEmpty)
        #expect(events.suffix(2) == [.layerLoaded(name: "Tiles"), .layerError(name: "Tiles", error: why)])
        #expect(map.renderSVG().contains("<!-- layer Tiles not displayed: layer spatial reference wkid:102100 differs from the map&apos;s wkid:4326; a tiled layer is not reprojected -->"))
        #expect(map.spatialReference == .wgs84)
    }

    @Test func theLowestLayerWithASpatialReferenceSetsTheMaps() async throws {
        let server = try LocalHTTPServer { _ in .json(tiledDescription) }
        defer { server.stop() }
        let map = makeMap()
        try map.addLayer(GraphicsLayer(), named: "Sketches")  // no spatial reference of its own
        let tiles = TiledMapServiceLayer(url: server.url("/wm/MapServer"))
        try map.addLayer(tiles, named: "Tiles")
        _ = await tiles.waitUntilLoaded()
        #expect(map.spatialReference == .webMercator)
        #expect(tiles.isDrawn)
    }

    @Test func unsupportedSchemeFails() async throws {
        let layer = DynamicMapServiceLayer(url: try #require(URL(string: "ftp://example.com/MapServer")))
        try makeMap().addLayer(layer, named: "FTP")
        let result = await layer.waitUntilLoaded()
        guard case .failure(.network(let m)) = result else {
            Issue.record("expected a network error, got \(result)")
            return
        }
        #expect(m.contains("unsupported URL scheme"))
    }
}

/// A flag shared with the server's threads.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var _value = false
    var value: Bool {
        get { lock.lock(); defer { lock.unlock() }; return _value }
        set { lock.lock(); _value = newValue; lock.unlock() }
    }
}
