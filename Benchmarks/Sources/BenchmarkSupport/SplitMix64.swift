public import MapSketchGeometry

/// The benchmarks' seeded data comes from the library's ``SplitMix64`` (Steele, Lea & Flood 2014),
/// so it is the same on every run and every machine. These helpers keep the formulas the suites'
/// thresholds were recorded with.
extension SplitMix64 {
    /// A double uniformly in `[0, 1)`, from the top 53 bits.
    public mutating func unit() -> Double { nextUnit() }

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
