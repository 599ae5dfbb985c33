package import MapSketchGeometry

/// The map's screen ↔ map conversion at one moment: its ``Viewport`` and ``ScreenSize``, as a
/// value any thread can use.
///
/// ``MapView/toMap(_:)``, ``MapView/toScreen(_:)`` and ``MapView/visibleEnvelope`` read the map's
/// viewport and screen size, which gestures and code change on the main actor, so they are
/// main-actor isolated. Take ``MapView/screenTransform`` where the map lives and the conversions
/// are pure, `nonisolated` functions of the value: they give what the map's give as long as its
/// viewport and screen size stay as they were.
///
/// ```swift
/// let transform = map.screenTransform                 // on the main actor
/// let labels = await Task.detached {                  // anywhere
///     points.map { transform.toScreen($0) }
/// }.value
/// ```
package struct ScreenTransform: Hashable, Sendable {
    /// What the screen shows.
    public var viewport: Viewport
    /// The screen size in points.
    public var screenSize: ScreenSize

    /// The conversion of a screen of `screenSize` showing `viewport`.
    public init(viewport: Viewport, screenSize: ScreenSize) {
        self.viewport = viewport
        self.screenSize = screenSize
    }

    /// The map point under a screen point (``Viewport/toMap(_:size:)``).
    public func toMap(_ screen: ScreenPoint) -> Point { viewport.toMap(screen, size: screenSize) }
    /// The screen point where a map point is drawn (``Viewport/toScreen(_:size:)``).
    public func toScreen(_ map: Point) -> ScreenPoint { viewport.toScreen(map, size: screenSize) }
    /// The map envelope on screen (``Viewport/visibleEnvelope(size:)``).
    public var visibleEnvelope: Envelope { viewport.visibleEnvelope(size: screenSize) }
}

extension MapView {
    /// The map's conversion between screen and map points as it is now, a `Sendable` value whose
    /// functions are `nonisolated` (see ``ScreenTransform``).
    package var screenTransform: ScreenTransform { ScreenTransform(viewport: viewport, screenSize: screenSize) }
}
