public import MapSketchGeometry

/// What a layer's view shows: the headless form of `AGSLayerView`.
public struct LayerViewState: Hashable, Sendable {
    /// Whether the layer is left out of drawing and hit tests.
    public var isHidden: Bool = false
    /// 0 (transparent) … 1 (opaque).
    public var opacity: Double = 1
    /// Whether the layer is drawn while a gesture pans the map.
    public var drawDuringPanning: Bool = false
    /// Whether the layer is drawn while a gesture zooms the map.
    public var drawDuringZooming: Bool = false
    /// The latest error met after loading (service gone, credentials expired), if any.
    public var error: LayerError?

    /// A visible, opaque view that is not drawn during gestures and has no error.
    package init() {}
}

/// Why a layer failed to load or stopped working.
public enum LayerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The service could not be reached or answered with an HTTP error.
    case network(String)
    /// The service answered with an HTTP status other than 200.
    case httpStatus(Int)
    /// The service description was not valid JSON or lacked a field.
    case invalidResponse(String)
    /// The service rejected the token (or needs one).
    case unauthorized(String)
    /// No answer within the timeout, in seconds.
    case timeout(Double)
    /// A tiled layer whose spatial reference differs from the map's is not displayed.
    case spatialReferenceMismatch(layer: SpatialReference?, map: SpatialReference?)

    public var description: String {
        switch self {
        case .network(let s): "network error: \(s)"
        case .httpStatus(let c): "HTTP status \(c)"
        case .invalidResponse(let s): "invalid service response: \(s)"
        case .unauthorized(let s): "unauthorized: \(s)"
        case .timeout(let t): "no response within \(t) s"
        case .spatialReferenceMismatch(let l, let m):
            "layer spatial reference \(l.map { "\($0)" } ?? "unknown") differs from the map's \(m.map { "\($0)" } ?? "unknown"); a tiled layer is not reprojected"
        }
    }
}

/// A map layer. Subclasses: graphics layers, the sketch layer, tiled and dynamic service layers.
@MainActor
public class Layer {
    // `@exclusivity(unchecked)` on the properties a hit test reads: why it is safe, on `MapView`.
    /// The name given when the layer was added to a map (unique within that map).
    @exclusivity(unchecked) public internal(set) var name: String?
    /// The map holding this layer, if any.
    public internal(set) weak var mapView: MapView?
    /// The spatial reference of the layer's content, once known.
    public internal(set) var spatialReference: SpatialReference?
    /// The extent of the layer's content, once known.
    public internal(set) var fullEnvelope: Envelope?
    /// True once the layer is fully initialized (for service layers: after a valid response).
    @exclusivity(unchecked) public internal(set) var isLoaded: Bool
    /// The error that stopped the layer from loading, if it failed.
    public internal(set) var loadError: LayerError?
    /// The layer view's state.
    @exclusivity(unchecked) public var view = LayerViewState()
    /// Why the layer is not displayed although it loaded (a tiled layer in another spatial
    /// reference than the map's), or nil when it is displayed.
    @exclusivity(unchecked) package internal(set) var notDisplayedReason: LayerError?
    /// Called on the main actor when the layer finishes loading (the `LayerDidLoad` notification).
    public var onLoad: (@MainActor (Layer) -> Void)?
    /// Called on the main actor when the layer fails to load (the `LayerFailedToLoad` notification).
    public var onLoadFailure: (@MainActor (Layer, LayerError) -> Void)?
    private var loadWaiters: [CheckedContinuation<Result<Void, LayerError>, Never>] = []

    init(loaded: Bool, spatialReference: SpatialReference? = nil) {
        self.isLoaded = loaded
        self.spatialReference = spatialReference
    }

    /// Called by the map after the layer joins it. Service layers start loading here.
    func didMove(to mapView: MapView) {}

    /// Called by the map after the layer left it.
    func didLeave(_ mapView: MapView) {}

    /// Called by the map, for a layer with a snap link (see `MapSnapLink`), when its resolution
    /// changed to `resolution`. The base layer does nothing.
    func snapResolutionDidChange(_ resolution: Double) {}

    /// Called by the map, for a layer with a snap link, when a layer joined or left it. The base
    /// layer does nothing.
    func snapLayersDidChange() {}

    /// Applies the spatial reference rule once loaded: graphics and dynamic layers reproject, so
    /// the base does nothing; tiled layers override and set ``notDisplayedReason``.
    func checkSpatialReference(in map: MapView) {}

    /// Whether the layer draws: loaded, not hidden, and displayable in the map's spatial reference.
    package var isDrawn: Bool { isLoaded && !view.isHidden && notDisplayedReason == nil }

    /// Waits until the layer has loaded or failed to load (returns at once if it already has).
    /// - Returns: success, or the load error.
    public func waitUntilLoaded() async -> Result<Void, LayerError> {
        if isLoaded { return .success(()) }
        if let loadError { return .failure(loadError) }
        return await withCheckedContinuation { loadWaiters.append($0) }
    }

    /// Marks the layer loaded and posts did-load to the layer, the map's event stream and its
    /// layer delegate.
    func finishLoading() {
        isLoaded = true
        loadError = nil
        onLoad?(self)
        mapView?.layerDidLoad(self)
        resumeWaiters(.success(()))
    }

    /// Marks the load failed and posts failed-to-load to the layer, the map's event stream and
    /// its layer delegate.
    func failLoading(_ error: LayerError) {
        isLoaded = false
        loadError = error
        onLoadFailure?(self, error)
        mapView?.layerFailedToLoad(self, error: error)
        resumeWaiters(.failure(error))
    }

    private func resumeWaiters(_ r: Result<Void, LayerError>) {
        let w = loadWaiters
        loadWaiters.removeAll()
        for c in w { c.resume(returning: r) }
    }

    // MARK: What the map asks of its layers

    /// The graphics under map point `q` within `tolerance` points at `resolution` map units per
    /// point, topmost first: what the map's hit test asks each drawn layer. The base layer holds
    /// no graphics; a graphics layer answers (when its hit testing is on).
    func graphicHits(at q: Point, tolerance: Double, resolution: Double) -> [GraphicID] { [] }

    /// The callout content a tap on graphic `id` at `screen` (map point `mapPoint`) shows, when
    /// it has an info template and the layer shows callouts (a graphics layer with callouts on);
    /// nil for the base layer.
    func calloutContent(for id: GraphicID, screen: ScreenPoint, mapPoint: Point) -> CalloutContent? { nil }

    /// Graphic `id` of a hit test's result (``HitTestResult/graphic``); nil for the base layer.
    func hitGraphic(_ id: GraphicID) -> Graphic? { nil }

    /// The symbol graphic `id` of a hit test's result is drawn with
    /// (``HitTestResult/resolvedSymbol``); nil for the base layer.
    func hitSymbol(_ id: GraphicID) -> Symbol? { nil }

    /// Draws the layer's content into `canvas` (screen coordinates of `map`). The map calls this
    /// bottom to top for every drawn layer, inside a group carrying the layer's opacity.
    /// Subclasses override it; the base layer draws nothing.
    package func drawSVG(into canvas: inout SVGCanvas, map: MapView) {}
}
