public import MapSketchGeometry

/// Errors of the layer stack.
public enum MapViewError: Error, Hashable, Sendable, CustomStringConvertible {
    case duplicateLayerName(String)
    case layerIndexOutOfRange(index: Int, count: Int)
    case noSuchLayer(String)
    case layerAlreadyInAMap(String)

    public var description: String {
        switch self {
        case .duplicateLayerName(let n): "a layer named \"\(n)\" is already in the map (names must be unique)"
        case .layerIndexOutOfRange(let i, let n): "layer index \(i) out of range 0...\(n)"
        case .noSuchLayer(let n): "no layer named \"\(n)\""
        case .layerAlreadyInAMap(let n): "the layer is already in a map (as \"\(n)\")"
        }
    }
}

/// Hears about layers loading, as `AGSMapViewLayerDelegate` does.
@MainActor
public protocol MapLayerDelegate: AnyObject {
    func mapView(_ mapView: MapView, didLoad layer: Layer)
    func mapView(_ mapView: MapView, failedToLoad layer: Layer, error: LayerError)
}

extension MapLayerDelegate {
    public func mapView(_ mapView: MapView, didLoad layer: Layer) {}
    public func mapView(_ mapView: MapView, failedToLoad layer: Layer, error: LayerError) {}
}

/// A map: a screen in points, a viewport, an ordered stack of layers and one touch delegate.
///
/// Layers are drawn bottom (index 0) to top. The first layer added sets the map's spatial reference.
@MainActor
public final class MapView {
    // `@exclusivity(unchecked)`: the properties a hit test reads on every tap skip the run-time
    // exclusivity check (about 100 instructions per access, most of a map hit test's own cost).
    // The model is main-actor isolated and never holds overlapping accesses to them; the
    // compile-time checks still apply.
    /// The screen size in points.
    @exclusivity(unchecked) public var screenSize: ScreenSize
    /// What the screen shows.
    @exclusivity(unchecked) public var viewport: Viewport
    /// Whether the map wraps around the antimeridian.
    @exclusivity(unchecked) public var wrapAround: Bool = false
    /// The map's spatial reference: set by the first layer added (or at creation).
    @exclusivity(unchecked) public internal(set) var spatialReference: SpatialReference?
    /// The object receiving gestures; setting a new one replaces the previous one.
    public weak var touchDelegate: (any MapTouchDelegate)?
    /// The object hearing about layer loads.
    public weak var layerDelegate: (any MapLayerDelegate)?
    /// Whether a hold shows the magnifier (a `magnifier` event), as `showMagnifierOnTapAndHold`.
    public var showMagnifierOnTapAndHold: Bool = false
    /// Turns touches into gestures.
    public var gestureRecognizer: GestureRecognizer

    /// The layers, bottom to top.
    @exclusivity(unchecked) public private(set) var layers: [Layer] = []
    /// Whether the map is being panned or zoomed by a gesture: layers whose view does not
    /// `drawDuringPanning` / `drawDuringZooming` are left out of a render meanwhile.
    public internal(set) var navigation: MapNavigation = .idle
    /// The callout on screen, if any.
    public internal(set) var callout: Callout?
    /// The hit tolerance of a tap that looks for a graphic to show a callout for, in points.
    public var calloutHitTolerance: Double = 10
    /// Receives every map event synchronously, in order (in addition to the observers).
    public var eventHandler: (@MainActor (MapEvent) -> Void)?
    var eventObservers: [(id: Int, handler: @MainActor (MapEvent) -> Void)] = []
    var nextObserverID = 0

    /// Creates a map.
    public init(
        screenSize: ScreenSize, viewport: Viewport, spatialReference: SpatialReference? = nil,
        thresholds: GestureThresholds = .default
    ) {
        self.screenSize = screenSize
        self.viewport = viewport
        self.spatialReference = spatialReference
        self.gestureRecognizer = GestureRecognizer(thresholds: thresholds)
    }

    // MARK: Transforms

    /// The map point under a screen point.
    public func toMap(_ screen: ScreenPoint) -> Point { viewport.toMap(screen, size: screenSize) }
    /// The screen point where a map point is drawn.
    public func toScreen(_ map: Point) -> ScreenPoint { viewport.toScreen(map, size: screenSize) }
    /// The map envelope on screen.
    public var visibleEnvelope: Envelope { viewport.visibleEnvelope(size: screenSize) }

    /// Pans so the content moves by (dx, dy) points on screen. With ``wrapAround`` on, the
    /// center's x is folded back into the world (see ``normalizeCenter()``).
    public func pan(byScreenDeltaX dx: Double, dy: Double) {
        let a = viewport.toMap(ScreenPoint(x: 0, y: 0), size: screenSize)
        let b = viewport.toMap(ScreenPoint(x: dx, y: dy), size: screenSize)
        viewport.center = Point(x: viewport.center.x - (b.x - a.x), y: viewport.center.y - (b.y - a.y))
        normalizeCenter()
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the map point under `anchor` fixed on screen.
    public func zoom(by factor: Double, anchor: ScreenPoint? = nil) {
        guard factor > 0, factor.isFinite else { return }
        let anchor = anchor ?? ScreenPoint(x: screenSize.width / 2, y: screenSize.height / 2)
        let before = toMap(anchor)
        viewport.resolution /= factor
        let after = toMap(anchor)
        viewport.center = Point(x: viewport.center.x + before.x - after.x, y: viewport.center.y + before.y - after.y)
        normalizeCenter()
    }

    // MARK: Wrap-around

    /// The world's width in map units when ``wrapAround`` is on and the map's spatial reference
    /// wraps (WGS 84: 360°; Web Mercator: 2π · 6378137 m), else nil.
    public var worldWidth: Double? {
        guard wrapAround, let sr = spatialReference else { return nil }
        if sr.isWGS84 { return 360 }
        if sr.isWebMercator { return 2 * Double.pi * 6_378_137 }
        return nil
    }

    /// `x` folded into the primary world [−w/2, w/2) when the map wraps around; else `x`.
    public func normalizeX(_ x: Double) -> Double {
        guard let w = worldWidth, x.isFinite else { return x }
        let half = w / 2
        var r = (x + half).truncatingRemainder(dividingBy: w)
        if r < 0 { r += w }
        return r - half
    }

    /// Folds the viewport's center back into the primary world (no-op unless the map wraps).
    public func normalizeCenter() {
        let x = normalizeX(viewport.center.x)
        if x != viewport.center.x { viewport.center.x = x }
    }

    /// The x shifts (multiples of the world width) of the world copies the screen shows, e.g.
    /// `[-w, 0]` near the antimeridian; `[0]` when the map does not wrap.
    public var visibleWorldShifts: [Double] {
        let c = worldCopies
        return (0..<c.count).map { c.shift($0) }
    }

    /// ``visibleWorldShifts`` without an array: the copies `lo ..< lo + count` of a world
    /// `width` wide (one copy, shift 0, without wrap-around).
    var worldCopies: _WorldCopies {
        guard let w = worldWidth else { return _WorldCopies(lo: 0, count: 1, width: 0) }
        let e = visibleEnvelope
        let lo = Int(((e.xmin + w / 2) / w).rounded(.down))
        let hi = Int(((e.xmax + w / 2) / w).rounded(.down))
        guard hi - lo < 64 else { return _WorldCopies(lo: 0, count: 1, width: 0) }
        return _WorldCopies(lo: lo, count: hi - lo + 1, width: w)
    }

    // MARK: Layer stack

    /// The layer names, bottom to top.
    public var layerNames: [String] { layers.compactMap(\.name) }

    /// The layer with this name.
    public func layer(named name: String) -> Layer? { layers.first { $0.name == name } }

    /// Adds a layer on top.
    /// - Throws: ``MapViewError/duplicateLayerName(_:)`` when the name is taken.
    public func addLayer(_ layer: Layer, named name: String) throws {
        try insertLayer(layer, named: name, at: layers.count)
    }

    /// Inserts a layer at `index` (0 = bottom).
    public func insertLayer(_ layer: Layer, named name: String, at index: Int) throws {
        guard layer.mapView == nil else { throw MapViewError.layerAlreadyInAMap(layer.name ?? "") }
        guard !layers.contains(where: { $0.name == name }) else { throw MapViewError.duplicateLayerName(name) }
        guard index >= 0, index <= layers.count else {
            throw MapViewError.layerIndexOutOfRange(index: index, count: layers.count)
        }
        layer.name = name
        layer.mapView = self
        layers.insert(layer, at: index)
        if spatialReference == nil, layers.count == 1, let sr = layer.spatialReference {
            spatialReference = sr
        }
        emit(.layerAdded(name: name))
        layer.didMove(to: self)
    }

    /// Removes the layer with this name and returns it.
    @discardableResult
    public func removeLayer(named name: String) throws -> Layer {
        guard let i = layers.firstIndex(where: { $0.name == name }) else { throw MapViewError.noSuchLayer(name) }
        let layer = layers.remove(at: i)
        if let c = callout, c.layerName == name { dismissCallout() }
        layer.mapView = nil
        layer.name = nil
        layer.didLeave(self)
        emit(.layerRemoved(name: name))
        return layer
    }

    // MARK: Touches

    /// Feeds one raw touch: recognises gestures and dispatches them.
    public func handle(_ touch: TouchEvent) {
        for g in gestureRecognizer.process(touch) { dispatch(g) }
        if !gestureRecognizer.isTouching { navigation = .idle }
    }

    /// Lets virtual time pass (fires a pending hold).
    public func advanceTime(to time: Double) {
        for g in gestureRecognizer.advance(to: time) { dispatch(g) }
    }

    /// Dispatches a recognised gesture to the map and its touch delegate.
    public func dispatch(_ gesture: Gesture) {
        emit(.gesture(gesture))
        switch gesture {
        case .pan: navigation = .panning
        case .pinch: navigation = .zooming
        default: navigation = .idle
        }
        switch gesture {
        case .tap(let s):
            if touchDelegate?.mapViewShouldShowCallouts(self) ?? true {
                showCallout(forTapAt: s)
            }
            touchDelegate?.mapView(self, didClickAt: s, mapPoint: toMap(s))
        case .holdBegan(let s):
            touchDelegate?.mapView(self, didTapAndHoldAt: s, mapPoint: toMap(s))
        case .holdMoved(let s):
            touchDelegate?.mapView(self, didMoveTapAndHoldAt: s, mapPoint: toMap(s))
        case .holdEnded(let s):
            touchDelegate?.mapView(self, didEndTapAndHoldAt: s, mapPoint: toMap(s), cancelled: false)
        case .holdCancelled:
            touchDelegate?.mapView(self, didEndTapAndHoldAt: ScreenPoint(x: 0, y: 0), mapPoint: toMap(ScreenPoint(x: 0, y: 0)), cancelled: true)
        case .pan(let from, let to):
            if touchDelegate?.mapViewShouldPan(self) ?? true {
                pan(byScreenDeltaX: to.x - from.x, dy: to.y - from.y)
            }
        case .panEnded:
            break
        case .pinch(let center, let scale):
            zoom(by: scale, anchor: center)
        }
    }
}

/// The world copies on screen (see ``MapView/visibleWorldShifts``).
struct _WorldCopies {
    var lo: Int
    var count: Int
    var width: Double

    /// The x shift of copy `k` (0 ..< count).
    func shift(_ k: Int) -> Double { Double(lo + k) * width }
}
