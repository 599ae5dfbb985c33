public import MapSketchGeometry

/// A map: a screen in points, a viewport, an ordered stack of layers and one touch delegate.
///
/// Layers are drawn bottom (index 0) to top. The first layer added sets the map's spatial reference.
@MainActor
public final class MapView {
    // `@exclusivity(unchecked)`: the properties a hit test reads on every tap skip the run-time
    // exclusivity check (about 100 instructions per access, most of a map hit test's own cost).
    // The model is main-actor isolated and never holds overlapping accesses to them; the
    // compile-time checks still apply. The same holds for `Layer`'s and `GraphicsLayer`'s.
    /// The screen size in points.
    @exclusivity(unchecked) public var screenSize: ScreenSize
    /// What the screen shows.
    @exclusivity(unchecked) public var viewport: Viewport {
        didSet { if snapLinks != nil { updateSnapLinks() } }
    }
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
    /// Turns touches into gestures (read and changed on every touch and clock step).
    @exclusivity(unchecked) package var gestureRecognizer: GestureRecognizer
    /// Whether two fingers turn the map as well as zoom and pan it, as
    /// `AGSMapView.allowRotationByPinching` (default false: a pinch keeps the rotation). A change
    /// applies from the next gesture on.
    public var allowRotationByPinching: Bool = false
    /// Where the pan or pinch under way pinned the map (see MapView+Touches.swift).
    var navigationAnchor: NavigationAnchor?
    /// Who the one-finger drag under way belongs to: the map (a pan) or the touch delegate.
    var oneFingerDrag: OneFingerDrag = .undecided
    /// The phase of the touch whose gestures are being dispatched (nil outside ``handle(_:)``).
    var handlingPhase: TouchPhase?

    /// The layers, bottom to top.
    @exclusivity(unchecked) public internal(set) var layers: [Layer] = []
    /// The first of the snap links of the sketch layers on the map, each linked to the next (see
    /// `MapSnapLink`).
    @exclusivity(unchecked) var snapLinks: MapSnapLink?
    /// Whether the map is being panned or zoomed by a gesture: layers whose view does not
    /// `drawDuringPanning` / `drawDuringZooming` are left out of a render meanwhile.
    public internal(set) var navigation: MapNavigation = .idle
    /// The callout on screen, if any.
    public internal(set) var callout: Callout?
    /// The hit tolerance of a tap that looks for a graphic to show a callout for, in points.
    package var calloutHitTolerance: Double = 10
    /// Receives every map event synchronously, in order (in addition to the observers).
    package var eventHandler: (@MainActor (MapEvent) -> Void)?
    var eventObservers: [(id: Int, handler: @MainActor (MapEvent) -> Void)] = []
    /// Times the model's operations for a measuring tool (`mapsketch bench`); no probe: not
    /// measuring. Given when the map is made and never changed, so an operation reads it without
    /// retaining it: one load and a nil check when there is none.
    package let probe: OperationProbeHandle
    var nextObserverID = 0

    /// Creates a map.
    public convenience init(
        screenSize: ScreenSize, viewport: Viewport, spatialReference: SpatialReference? = nil,
        thresholds: GestureThresholds = .default
    ) {
        self.init(screenSize: screenSize, viewport: viewport, spatialReference: spatialReference, thresholds: thresholds, operationProbe: nil)
    }

    /// Creates a map whose operations `operationProbe` measures.
    package init(
        screenSize: ScreenSize, viewport: Viewport, spatialReference: SpatialReference?, thresholds: GestureThresholds,
        operationProbe: (any OperationProbe)?
    ) {
        self.screenSize = screenSize
        self.viewport = viewport
        self.spatialReference = spatialReference
        self.gestureRecognizer = GestureRecognizer(thresholds: thresholds)
        probe = OperationProbeHandle(operationProbe)
    }

    // MARK: Transforms

    // These read the viewport and the screen size, which change on the main actor; off it, use
    // a `screenTransform` taken here (a value whose conversions are nonisolated).

    /// The map point under a screen point. Off the main actor, ``screenTransform`` converts.
    public func toMap(_ screen: ScreenPoint) -> Point { viewport.toMap(screen, size: screenSize) }
    /// The screen point where a map point is drawn. Off the main actor, ``screenTransform`` converts.
    public func toScreen(_ map: Point) -> ScreenPoint { viewport.toScreen(map, size: screenSize) }
    /// The map envelope on screen.
    public var visibleEnvelope: Envelope { viewport.visibleEnvelope(size: screenSize) }

    /// Pans so the content moves by (dx, dy) points on screen. With ``wrapAround`` on, the
    /// center's x is folded back into the world (see ``normalizeCenter()``).
    public func pan(byScreenDeltaX dx: Double, dy: Double) {
        guard dx.isFinite, dy.isFinite else { return }
        viewport = viewport.moved(from: ScreenPoint(x: 0, y: 0), to: ScreenPoint(x: dx, y: dy), size: screenSize)
        normalizeCenter()
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the map point under `anchor` fixed on screen.
    public func zoom(by factor: Double, anchor: ScreenPoint? = nil) {
        guard factor > 0, factor.isFinite else { return }
        let anchor = anchor ?? ScreenPoint(x: screenSize.width / 2, y: screenSize.height / 2)
        viewport = viewport.moved(from: anchor, to: anchor, scale: factor, size: screenSize)
        normalizeCenter()
    }

    // MARK: Wrap-around

    /// The world's width in map units when ``wrapAround`` is on and the map's spatial reference
    /// wraps (WGS 84: 360°; Web Mercator: 2π · 6378137 m), else nil.
    package var worldWidth: Double? {
        guard wrapAround, let sr = spatialReference else { return nil }
        if sr.isWGS84 { return 360 }
        if sr.isWebMercator { return 2 * Double.pi * 6_378_137 }
        return nil
    }

    /// `x` folded into the primary world [−w/2, w/2) when the map wraps around; else `x`.
    package func normalizeX(_ x: Double) -> Double {
        guard let w = worldWidth, x.isFinite else { return x }
        let half = w / 2
        var r = (x + half).truncatingRemainder(dividingBy: w)
        if r < 0 { r += w }
        return r - half
    }

    /// Folds the viewport's center back into the primary world (no-op unless the map wraps).
    package func normalizeCenter() {
        let x = normalizeX(viewport.center.x)
        if x != viewport.center.x { viewport.center.x = x }
    }

    /// The x shifts (multiples of the world width) of the world copies the screen shows, e.g.
    /// `[-w, 0]` near the antimeridian; `[0]` when the map does not wrap.
    package var visibleWorldShifts: [Double] {
        let c = worldCopies
        return (0..<c.count).map { c.shift($0) }
    }

    /// ``visibleWorldShifts`` without an array: the copies `lo ..< lo + count` of a world
    /// `width` wide (one copy, shift 0, without wrap-around).
    var worldCopies: WorldCopies {
        guard let w = worldWidth else { return WorldCopies(lo: 0, count: 1, width: 0) }
        let e = visibleEnvelope
        let lo = Int(((e.xmin + w / 2) / w).rounded(.down))
        let hi = Int(((e.xmax + w / 2) / w).rounded(.down))
        guard hi - lo < 64 else { return WorldCopies(lo: 0, count: 1, width: 0) }
        return WorldCopies(lo: lo, count: hi - lo + 1, width: w)
    }
}

/// The world copies on screen (see ``MapView/visibleWorldShifts``).
struct WorldCopies {
    var lo: Int
    var count: Int
    var width: Double

    /// The x shift of copy `k` (0 ..< count).
    func shift(_ k: Int) -> Double { Double(lo + k) * width }
}
