/// A seeded, platform-independent random generator (SplitMix64, Steele, Lea & Flood 2014).
///
/// The benchmarks must measure the same data on every run and every machine, so they never use
/// `SystemRandomNumberGenerator`. Same algorithm as `MapSketchTestSupport.SeededRandom`, which the
/// benchmark package cannot import (it is not a product of MapSketch).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double uniformly in `[0, 1)`, from the top 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// A double uniformly in `[lower, upper)`.
    public mutating func double(_ lower: Double, _ upper: Double) -> Double {
        lower + unit() * (upper - lower)
    }

    /// An integer uniformly in `0..<bound` (Lemire's multiply-shift; bias below 2^-32 for the
    /// bounds used here, which is irrelevant for benchmark data).
    public mutating func int(below bound: Int) -> Int {
        Int(truncatingIfNeeded: (UInt128(next()) &* UInt128(bound)) >> 64)
    }
}
