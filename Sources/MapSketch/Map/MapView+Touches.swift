public import MapSketchGeometry

/// What a gesture is doing to the viewport.
public enum MapNavigation: Hashable, Sendable {
    /// Not navigating.
    case idle
    /// A one-finger pan is under way.
    case panning
    /// A pinch (zoom, pan and, when allowed, rotation) is under way.
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
    /// A one-finger drag starts at `screen` (the finger went past the slop before a hold fired):
    /// return true to take it, so the map does not pan and the drag's moves and end come to
    /// ``mapView(_:didDragTo:mapPoint:)`` and ``mapView(_:didEndDragAt:mapPoint:cancelled:)``;
    /// false (the default) lets the map pan. Asked once per drag, never for the pan a pinch hands
    /// over to its remaining finger.
    func mapView(_ mapView: MapView, shouldBeginDragAt screen: ScreenPoint, mapPoint: Point) -> Bool
    /// The finger of a drag the delegate took is at `screen`.
    func mapView(_ mapView: MapView, didDragTo screen: ScreenPoint, mapPoint: Point)
    /// The drag the delegate took ended where the finger last was: it lifted, or (`cancelled`) the
    /// touch was cancelled or a second finger came down.
    func mapView(_ mapView: MapView, didEndDragAt screen: ScreenPoint, mapPoint: Point, cancelled: Bool)
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
    public func mapView(_ mapView: MapView, shouldBeginDragAt screen: ScreenPoint, mapPoint: Point) -> Bool { false }
    public func mapView(_ mapView: MapView, didDragTo screen: ScreenPoint, mapPoint: Point) {}
    public func mapView(_ mapView: MapView, didEndDragAt screen: ScreenPoint, mapPoint: Point, cancelled: Bool) {}
}

/// Who a one-finger drag belongs to, decided at its first step.
enum OneFingerDrag: Equatable {
    /// No drag yet: the next pan step asks the touch delegate.
    case undecided
    /// The map pans (the delegate declined, or the pan continues a pinch).
    case map
    /// The delegate took it; the finger was last at `last`.
    case delegate(last: ScreenPoint)
}

// Touch delivery: a raw touch goes to the map's `GestureRecognizer` (GestureRecognizer.swift),
// which turns touches into gestures on the virtual clock; `dispatch` then applies each gesture:
// pans and pinches move the viewport here, taps and holds go to the touch delegate (and a tap may
// show a callout). How a gesture moves the viewport is decided in this file: every step of a pan
// or pinch is applied to the viewport the gesture began on (its `NavigationAnchor`), never to the
// previous step's, so the map point under the fingers stays under them exactly and the final
// viewport depends only on where the fingers started and ended.

/// Where a pan or a pinch pinned the map: the viewport and screen point every later step of the
/// gesture is measured from.
struct NavigationAnchor {
    /// Which gesture: a pan, or the pinch that began with its focal point at `start`.
    enum Kind: Equatable {
        case pan
        case pinch(start: ScreenPoint)
    }

    var kind: Kind
    /// The viewport the steps are applied to.
    var viewport: Viewport
    /// The screen point whose map point on ``viewport`` the steps carry along.
    var point: ScreenPoint
    /// The gesture's scale and rotation at the anchor (1 and 0 when the gesture began).
    var scale: Double = 1
    var rotation: Double = 0
    /// Whether the map turns with the fingers (``MapView/allowRotationByPinching`` when it began).
    var rotates: Bool
    /// The last step applied: its screen point, scale and rotation, and the viewport it gave.
    var lastPoint: ScreenPoint
    var lastScale: Double = 1
    var lastRotation: Double = 0
    var applied: Viewport

    init(_ kind: Kind, viewport: Viewport, point: ScreenPoint, rotates: Bool) {
        self.kind = kind
        self.viewport = viewport
        self.point = point
        self.rotates = rotates
        lastPoint = point
        applied = viewport
    }
}

extension MapView {
    /// Feeds one raw touch: recognises gestures and dispatches them.
    public func handle(_ touch: TouchEvent) {
        handlingPhase = touch.phase
        defer { handlingPhase = nil }
        for g in measure(.gestureRecognition, { gestureRecognizer.process(touch) }) { dispatch(g) }
        if !gestureRecognizer.isTouching {
            navigation = .idle
            navigationAnchor = nil
            oneFingerDrag = .undecided
        }
    }

    /// Lets virtual time pass to `time`: dispatches the timers due by then (a pending hold, see
    /// ``nextDeadline``). A host that wants each timer at its own time advances to
    /// ``nextDeadline`` whenever it comes before the next touch; without this, a hold fires only
    /// when the next touch arrives.
    public func advanceTime(to time: Double) {
        for g in gestureRecognizer.advance(to: time) { dispatch(g) }
    }

    /// Lets virtual time pass to `time`, firing each timer due by then at its own time, in order
    /// (``advanceTime(to:)`` to each ``nextDeadline`` up to `time`, one due exactly at `time`
    /// included), as a device's run loop would: a hold reaches the touch delegate at its
    /// touch-down plus the hold duration, before anything later. A host calls it before each
    /// touch with the touch's time (``GestureDriver`` and the trace replay do).
    /// - Parameter willFire: hears each timer's due time just before it fires.
    package func fireTimers(through time: Double, willFire: (Double) -> Void = { _ in }) {
        while let due = nextDeadline, due <= time {
            willFire(due)
            advanceTime(to: due)
        }
    }

    /// When the map's next timer is due on the virtual clock: the hold of a finger that has stayed
    /// within the slop since it went down (``GestureRecognizer/nextDeadline``), or nil. The map
    /// has no other timer (a tap is judged at its release's time).
    public var nextDeadline: Double? { gestureRecognizer.nextDeadline }

    /// Dispatches a recognised gesture to the map and its touch delegate.
    ///
    /// A pan puts the map point under its first `from` under each later `to`; a pinch zooms by
    /// its step's scale about the focal point and moves that point with the fingers (turning with
    /// them when ``allowRotationByPinching`` is on). Both are measured from the viewport their
    /// gesture began on, until ``Gesture/panEnded`` or ``Gesture/pinchEnded``: the map point that
    /// was under the fingers' focal point stays under it, whatever path the fingers took.
    ///
    /// A pan's first step asks the touch delegate whether it takes the drag
    /// (``MapTouchDelegate/mapView(_:shouldBeginDragAt:mapPoint:)``); a drag it takes goes to it
    /// and the map stays where it is.
    package func dispatch(_ gesture: Gesture) {
        measure(.gestureDispatch) { act(on: gesture) }
    }

    /// What ``dispatch(_:)`` does, as one measured operation.
    private func act(on gesture: Gesture) {
        emit(.gesture(gesture))
        switch gesture {
        case .pan: navigation = .panning
        case .pinch: navigation = .zooming
        default: navigation = .idle
        }
        switch gesture {
        case .tap(let s):
            if touchDelegate?.mapViewShouldShowCallouts(self) ?? true {
                _ = measure(.callout) { showCallout(forTapAt: s) }
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
            if oneFingerDrag == .undecided {
                let takes = touchDelegate?.mapView(self, shouldBeginDragAt: from, mapPoint: toMap(from)) ?? false
                oneFingerDrag = takes ? .delegate(last: from) : .map
            }
            if case .delegate = oneFingerDrag {
                navigation = .idle
                oneFingerDrag = .delegate(last: to)
                touchDelegate?.mapView(self, didDragTo: to, mapPoint: toMap(to))
            } else if touchDelegate?.mapViewShouldPan(self) ?? true {
                measure(.viewportPan) { panStep(from: from, to: to) }
            } else {
                navigationAnchor = nil  // the map stays; a later step pans from where it is
            }
        case .panEnded:
            navigationAnchor = nil
            if case .delegate(let last) = oneFingerDrag {
                let cancelled = handlingPhase.map { $0 != .ended } ?? false
                touchDelegate?.mapView(self, didEndDragAt: last, mapPoint: toMap(last), cancelled: cancelled)
            }
            oneFingerDrag = .undecided
        case .pinchEnded:
            navigationAnchor = nil
        case .pinch(let step):
            oneFingerDrag = .map  // the pan a pinch hands over to its remaining finger is the map's
            measure(.viewportPinch) { pinchStep(step) }
        }
    }

    /// A pan step: the map point that was under the finger where the pan began is under `to`.
    /// A step that does not continue the last one (another `from`, or the viewport changed in
    /// between) starts a new anchor where the map is now.
    private func panStep(from: ScreenPoint, to: ScreenPoint) {
        var a: NavigationAnchor
        if let old = navigationAnchor, old.kind == .pan, old.lastPoint == from, old.applied == viewport {
            a = old
        } else {
            a = NavigationAnchor(.pan, viewport: viewport, point: from, rotates: false)
        }
        move(&a, to: to, scale: 1, rotation: 0)
    }

    /// A pinch step: zoom by the step's scale about its focal point, pan with the focal point
    /// (and turn by its rotation when allowed), all measured from where the pinch began. When the
    /// viewport changed in the middle of the pinch (a programmatic call), the rest of the pinch
    /// goes on from the new viewport and the last step.
    private func pinchStep(_ step: PinchStep) {
        let kind = NavigationAnchor.Kind.pinch(start: step.startFocalPoint)
        var a: NavigationAnchor
        if let old = navigationAnchor, old.kind == kind {
            a = old
            if old.applied != viewport {
                a.viewport = viewport
                a.point = old.lastPoint
                a.scale = old.lastScale
                a.rotation = old.lastRotation
            }
        } else {
            a = NavigationAnchor(
                kind, viewport: viewport, point: step.startFocalPoint, rotates: allowRotationByPinching)
        }
        move(&a, to: step.focalPoint, scale: step.scale, rotation: step.rotation)
    }

    /// Applies a step measured from the gesture's start to the anchor's viewport and keeps it.
    private func move(_ a: inout NavigationAnchor, to: ScreenPoint, scale: Double, rotation: Double) {
        viewport = a.viewport.moved(
            from: a.point, to: to, scale: scale / a.scale, rotation: a.rotates ? rotation - a.rotation : 0,
            size: screenSize)
        normalizeCenter()
        a.lastPoint = to
        a.lastScale = scale
        a.lastRotation = rotation
        a.applied = viewport
        navigationAnchor = a
    }
}
