/// How close two numbers in a golden comparison must be.
///
/// Two numbers a and b match when |a − b| ≤ ``absolute`` + ``relative`` · max(|a|, |b|).
/// Everything else — object keys, array lengths, strings, booleans, nulls, the kind of each value —
/// must match exactly.
public struct GoldenTolerance: Hashable, Sendable, CustomStringConvertible {
    /// The absolute part (map units, meters, seconds, points: whatever the number measures).
    public var absolute: Double
    /// The relative part.
    public var relative: Double

    /// Creates a tolerance.
    public init(absolute: Double, relative: Double) {
        self.absolute = absolute
        self.relative = relative
    }

    /// The tolerance `check` uses: 1e-9 absolute plus 1e-9 relative, which absorbs last-digit
    /// differences of floating-point libraries and nothing a person could see.
    public static let standard = GoldenTolerance(absolute: 1e-9, relative: 1e-9)

    /// Whether two numbers match.
    @inlinable
    public func matches(_ a: Double, _ b: Double) -> Bool {
        if a == b { return true }
        return abs(a - b) <= absolute + relative * max(abs(a), abs(b))
    }

    public var description: String { "±(\(absolute) + \(relative)·|value|)" }
}
