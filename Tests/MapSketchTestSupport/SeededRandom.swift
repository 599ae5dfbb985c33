public import MapSketchGeometry

/// A seeded, platform-independent random generator (SplitMix64) for property tests and fixtures.
///
/// The same seed gives the same sequence on every machine, unlike `SystemRandomNumberGenerator`.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double uniformly in `range`.
    public mutating func double(in range: ClosedRange<Double>) -> Double {
        let unit = Double(next() >> 11) * 0x1.0p-53
        return range.lowerBound + unit * (range.upperBound - range.lowerBound)
    }

    /// An integer uniformly in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// A point uniformly in `envelope`.
    public mutating func point(in envelope: Envelope) -> Point {
        Point(x: double(in: envelope.xmin...envelope.xmax), y: double(in: envelope.ymin...envelope.ymax))
    }
}
