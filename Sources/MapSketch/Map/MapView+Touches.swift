public import MapSketchGeometry

/// What a gesture is doing to the viewport.
public enum MapNavigation: Hashable, Sendable {
    /// Not navigating.
    case idle
    /// A one-finger pan is under way.
    case panning
    /// A pinch zoom is under way.
    case zooming
}

/// Receives the gestures of a map, as `AGSMapViewTouchDelegate` does. One at a time per map.
@MainActor
public protocol MapTouchDelegate: AnyObject {
    /// A tap at `screen` (map point `mapPoint`).
    func mapView(_ mapView: MapView, didClickAt screen: ScreenPoint, mapPoint: Point)
    /// A finger held still for the hold duration.
    func mapView(_ mapView: MapView, didTapAndHoldAt screen: ScreenPoint, mapPoint: Point)
    /// The held finger moved.
    func mapView(_ mapView: MapView, didMoveTapAndHoldAt screen: ScreenPoint, mapPoint: Point)
    /// The held finger lifted (or the hold was cancelled, with `cancelled` true).
    func mapView(_ mapView: MapView, didEndTapAndHoldAt screen: ScreenPoint, mapPoint: Point, cancelled: Bool)
    /// Whether the map should pan for a one-finger move (default true).
    func mapViewShouldPan(_ mapView: MapView) -> Bool
    /// Whether a tap may show a callout for a graphic (default true; a sketching delegate says no).
    func mapViewShouldShowCallouts(_ mapView: MapView) -> Bool
}

extension MapTouchDelegate {
    public func mapView(_ mapView: MapView, didClickAt screen: ScreenPoint, mapPoint: Point) {}
    public func mapView(_ mapView: MapView, didTapAndHoldAt screen: ScreenPoint, mapPoint: Point) {}
    public func mapView(_ mapView: MapView, didMoveTapAndHoldAt screen: ScreenPoint, mapPoint: Point) {}
    public func mapView(
        _ mapView: MapView, didEndTapAndHoldAt screen: ScreenPoint, mapPoint: Point, cancelled: Bool
    ) {}
    public func mapViewShouldPan(_ mapView: MapView) -> Bool { true }
    public func mapViewShouldShowCallouts(_ mapView: MapView) -> Bool { true }
}

// Touch delivery: a raw touch goes to the map's `GestureRecognizer` (GestureRecognizer.swift),
// which turns touches into gestures on the virtual clock; `dispatch` then applies each gesture:
// pans and pinches move the viewport here, taps and holds go to the touch delegate (and a tap may
// show a callout). How a gesture moves the viewport is decided in this file.
extension MapView {
    /// Feeds one raw touch: recognises gestures and dispatches them.
    public func handle(_ touch: TouchEvent) {
        for g in measure(.gestureRecognition, { gestureRecognizer.process(touch) }) { dispatch(g) }
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
            touchDelegate?.mapView(
                self, didEndTapAndHoldAt: ScreenPoint(x: 0, y: 0), mapPoint: toMap(ScreenPoint(x: 0, y: 0)),
                cancelled: true)
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
