/// The thresholds that tell a tap from a hold from a pan.
///
/// How far a tap reaches a sketch vertex is the sketch's own setting
/// (``SketchSymbology/vertexHitTolerance``), not the map's.
public struct GestureThresholds: Hashable, Sendable, Codable {
    /// Longest down→up time of a tap, in seconds (default 0.3).
    public var tapDuration: Double
    /// How far a finger may move and still tap or hold, in points (default 10).
    public var slop: Double
    /// How long a finger must stay within the slop for a hold, in seconds (default 0.5).
    public var holdDuration: Double

    /// Thresholds, each defaulting to the documented value (see ``validated()`` to check them).
    public init(tapDuration: Double = 0.3, slop: Double = 10, holdDuration: Double = 0.5) {
        self.tapDuration = tapDuration
        self.slop = slop
        self.holdDuration = holdDuration
    }

    /// The documented defaults.
    public static let `default` = GestureThresholds()

    /// These thresholds, checked: every value finite and not negative, the hold duration positive.
    /// - Throws: ``GestureThresholdsError/invalid(field:value:expected:)`` naming the first bad field.
    package func validated() throws -> GestureThresholds {
        let checks: [(Field, Double, Bool, String)] = [
            (.tapDuration, tapDuration, tapDuration >= 0, "a finite number of seconds >= 0"),
            (.slop, slop, slop >= 0, "a finite number of points >= 0"),
            (.holdDuration, holdDuration, holdDuration > 0, "a finite number of seconds > 0"),
        ]
        for (field, value, ok, expected) in checks where !(ok && value.isFinite) {
            throw GestureThresholdsError.invalid(field: field, value: value, expected: expected)
        }
        return self
    }
}

extension GestureThresholds {
    /// The thresholds by name; the raw values are the field names (as a trace header spells them).
    public enum Field: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// ``GestureThresholds/tapDuration``.
        case tapDuration
        /// ``GestureThresholds/slop``.
        case slop
        /// ``GestureThresholds/holdDuration``.
        case holdDuration

        /// The raw value, e.g. `holdDuration`.
        public var description: String { rawValue }
    }
}

/// A gesture threshold out of range.
public enum GestureThresholdsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `field` holds `value`; `expected` says what it should be.
    case invalid(field: GestureThresholds.Field, value: Double, expected: String)

    /// Names the field, its value and what was expected.
    public var description: String {
        switch self {
        case .invalid(let f, let v, let e): "gesture threshold \(f) is \(v); expected \(e)"
        }
    }
}

/// A gesture recognised from raw touches.
public enum Gesture: Hashable, Sendable {
    /// Down and up within the tap duration and the slop.
    case tap(ScreenPoint)
    /// The finger stayed within the slop for the hold duration.
    case holdBegan(ScreenPoint)
    /// The held finger moved.
    case holdMoved(ScreenPoint)
    /// The held finger lifted.
    case holdEnded(ScreenPoint)
    /// The hold was cancelled (touch cancelled or a second finger came down).
    case holdCancelled
    /// One finger moved from `from` to `to`: past the slop before the hold fired, or on after
    /// the other finger of a pinch lifted. The map point under `from` moves to `to`.
    case pan(from: ScreenPoint, to: ScreenPoint)
    /// The pan ended.
    case panEnded
    /// Two fingers moved: where they are, measured from where the pinch began. The map zooms
    /// about their focal point and pans with it (and turns with them when
    /// ``MapView/allowRotationByPinching`` is on).
    case pinch(PinchStep)
    /// The pinch ended: one of its fingers lifted (a finger still down goes on as a pan).
    case pinchEnded
}
