/// The phase of a raw touch, as in UIKit.
public enum TouchPhase: String, Hashable, Sendable, Codable {
    /// The finger touched down.
    case began
    /// The finger moved.
    case moved
    /// The finger lifted.
    case ended
    /// The system took the touch away (the finger's gesture is cancelled).
    case cancelled
}

/// One raw touch sample: its time in seconds on the virtual clock, the finger's id, phase and
/// position in points.
public struct TouchEvent: Hashable, Sendable, Codable {
    /// Seconds on the virtual clock (non-decreasing within a stream).
    public var time: Double
    /// The finger's id, stable from began to ended or cancelled.
    public var id: Int
    /// Began, moved, ended or cancelled.
    public var phase: TouchPhase
    /// Where the finger is, in screen points.
    public var location: ScreenPoint

    /// A touch sample at `location`.
    public init(time: Double, id: Int, phase: TouchPhase, location: ScreenPoint) {
        self.time = time
        self.id = id
        self.phase = phase
        self.location = location
    }

    /// A touch sample at (x, y) points.
    package init(time: Double, id: Int = 0, phase: TouchPhase, x: Double, y: Double) {
        self.init(time: time, id: id, phase: phase, location: ScreenPoint(x: x, y: y))
    }
}
