public import Foundation
public import MapSketchGeometry

/// A layer backed by an ArcGIS REST map service: it loads the service description
/// (`MapServer?f=json`) in the background when it joins a map (or on ``load()``), then posts
/// did-load or failed-to-load to the layer, the map's event stream and the map's layer delegate.
///
/// Adding the layer never blocks. ``Layer/isLoaded`` turns true only after a valid response.
@MainActor
public class MapServiceLayer: Layer {
    /// The service URL (`…/MapServer`), or a `file://` URL of a saved description.
    public let url: URL
    /// The token for a secured service, sent as `token=`.
    public var token: String?
    /// Seconds to wait for the service (default 30). URLSession on Linux may round sub-second
    /// values down, so use whole seconds.
    public var timeout: Double
    /// The service description, once loaded.
    public internal(set) var serviceInfo: MapServiceInfo?
    /// Whether a load is under way.
    public private(set) var isLoading = false

    init(url: URL, token: String?, timeout: Double) {
        self.url = url
        self.token = token
        self.timeout = timeout
        super.init(loaded: false)
    }

    override func didMove(to mapView: MapView) {
        if !isLoaded && !isLoading { load() }
    }

    /// Starts loading the service description (no-op while a load is under way).
    public func load() {
        guard !isLoading else { return }
        isLoading = true
        let (url, token, timeout) = (self.url, self.token, self.timeout)
        Task { @MainActor in
            let result = await ServiceFetcher.fetchServiceInfo(url, token: token, timeout: timeout)
            self.isLoading = false
            switch result {
            case .success(let info):
                self.serviceInfo = info
                self.spatialReference = info.spatialReference
                self.fullEnvelope = info.fullExtent
                self.finishLoading()
            case .failure(let e):
                self.failLoading(e)
            }
        }
    }

    /// Fetches the description again after loading; a failure (service gone, credentials
    /// expired) lands on the layer view's ``LayerViewState/error`` and the map's event stream,
    /// a success clears it.
    /// - Returns: the error, or nil on success.
    @discardableResult
    public func refresh() async -> LayerError? {
        switch await ServiceFetcher.fetchServiceInfo(url, token: token, timeout: timeout) {
        case .success(let info):
            serviceInfo = info
            view.error = nil
            return nil
        case .failure(let e):
            if let map = mapView { map.report(e, for: self) } else { view.error = e }
            return e
        }
    }
}

/// A tiled map service layer: pre-rendered tiles in the service's tiling scheme.
///
/// It is displayed only in a map of its own spatial reference; otherwise it still loads but
/// ``Layer/notDisplayedReason`` (and the view's `error`) say
/// ``LayerError/spatialReferenceMismatch(layer:map:)``. Headless drawing lists the tiles that
/// cover the viewport (``visibleTiles``).
@MainActor
public final class TiledMapServiceLayer: MapServiceLayer {
    /// Creates a tiled layer for a service URL (`…/MapServer`) or a `file://` description.
    public override init(url: URL, token: String? = nil, timeout: Double = 30) {
        super.init(url: url, token: token, timeout: timeout)
    }

    override func checkSpatialReference(in map: MapView) {
        if serviceInfo?.tileInfo == nil {
            notDisplayedReason = .invalidResponse("the service has no tileInfo: it is not a tiled service")
        } else if let mine = spatialReference, let theirs = map.spatialReference, mine != theirs {
            notDisplayedReason = .spatialReferenceMismatch(layer: mine, map: theirs)
        } else {
            notDisplayedReason = nil
        }
        if let r = notDisplayedReason { view.error = r }
    }

    /// The level of detail the map's viewport draws at (closest resolution), if loaded.
    package func currentLevel(in map: MapView) -> LevelOfDetail? {
        serviceInfo?.tileInfo?.level(closestTo: map.viewport.resolution)
    }

    /// The tiles (level, row, column) covering the map's viewport, row by row; empty when the
    /// layer is not loaded, not displayed or hidden.
    package func tiles(for map: MapView) -> [TileKey] {
        guard isDrawn, let info = serviceInfo, let t = info.tileInfo, let lod = t.level(closestTo: map.viewport.resolution) else {
            return []
        }
        return t.tiles(covering: map.visibleEnvelope, lod: lod, limit: info.fullExtent)
    }

    /// The tiles covering the viewport of the layer's map (see ``tiles(for:)``).
    public var visibleTiles: [TileKey] { mapView.map(tiles(for:)) ?? [] }

    /// Draws each visible tile as an outlined rectangle labelled level/row/column.
    package override func drawSVG(into canvas: inout SVGCanvas, map: MapView) {
        guard let t = serviceInfo?.tileInfo else { return }
        for key in tiles(for: map) {
            guard let e = t.envelope(of: key) else { continue }
            let (a, b) = canvas.rect(covering: e, in: map, style: SVGStyle(fill: Color(red: 238, green: 238, blue: 238), stroke: .gray, strokeWidth: 0.5))
            canvas.text(key.description, at: ScreenPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2), fontSize: 10, fontFamily: "monospace", color: .gray)
        }
    }
}

/// The parameters of a dynamic layer's map image for the current viewport, as an ArcGIS REST
/// `export` request: the server draws the map in the map's spatial reference (that is how a
/// dynamic layer reprojects).
public struct MapImageRequest: Hashable, Sendable {
    /// The visible envelope in the map's spatial reference.
    public var bbox: Envelope
    /// The map's spatial reference (bboxSR and imageSR).
    public var spatialReference: SpatialReference?
    /// The image width in pixels.
    public var width: Int
    /// The image height in pixels.
    public var height: Int
    /// The export URL.
    public var url: String
}

/// A dynamic map service layer: the service draws a map image for each viewport, in any
/// spatial reference (the map's), so it is displayed whatever its own spatial reference.
@MainActor
public final class DynamicMapServiceLayer: MapServiceLayer {
    /// Creates a dynamic layer for a service URL (`…/MapServer`) or a `file://` description.
    public override init(url: URL, token: String? = nil, timeout: Double = 30) {
        super.init(url: url, token: token, timeout: timeout)
    }

    /// The export request for the map's viewport, or nil until loaded.
    public func imageRequest(for map: MapView) -> MapImageRequest? {
        guard isLoaded else { return nil }
        let e = map.visibleEnvelope
        let w = Int(map.screenSize.width.rounded()), h = Int(map.screenSize.height.rounded())
        let sr = map.spatialReference ?? spatialReference
        let wkid = sr?.latestWkid ?? sr?.wkid
        var s = url.absoluteString + "/export?bbox=" + [e.xmin, e.ymin, e.xmax, e.ymax].map { SVGNumber.format($0, decimals: 6) }.joined(separator: ",")
        if let wkid { s += "&bboxSR=\(wkid)&imageSR=\(wkid)" }
        s += "&size=\(w),\(h)&format=png&transparent=true&f=image"
        if let token { s += "&token=" + (token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") }
        return MapImageRequest(bbox: e, spatialReference: sr, width: w, height: h, url: s)
    }

    /// The service's full extent in the map's spatial reference (reprojected when they differ).
    package func fullExtent(in map: MapView) -> Envelope? {
        guard let e = fullEnvelope else { return nil }
        guard let from = spatialReference, let to = map.spatialReference, from != to else { return e }
        return (try? GeometryEngine.project(.envelope(e), from: from, to: to))?.envelope
    }

    /// Draws the map image's place: the service's full extent (reprojected) as a light rectangle.
    package override func drawSVG(into canvas: inout SVGCanvas, map: MapView) {
        guard let e = fullExtent(in: map) else { return }
        canvas.rect(covering: e, in: map, style: SVGStyle(fill: Color(red: 221, green: 238, blue: 255), stroke: .gray, strokeWidth: 0.5))
    }
}

extension SVGCanvas {
    /// Draws the screen rectangle of map envelope `e` (unrotated map) and returns its top-left
    /// and bottom-right corners.
    @discardableResult
    @MainActor fileprivate mutating func rect(covering e: Envelope, in map: MapView, style: SVGStyle) -> (ScreenPoint, ScreenPoint) {
        let a = map.toScreen(Point(e.xmin, e.ymax)), b = map.toScreen(Point(e.xmax, e.ymin))
        rect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y, style: style)
        return (a, b)
    }
}
