// Seeded randomness and the math the generators use, written so that the same seed gives
// bit-identical output on every machine: SplitMix64 integers, IEEE-exact uniform doubles, and
// sin/cos/log from basic IEEE operations only (no platform libm, whose last bit may differ).

/// SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014;
/// Vigna's reference C): a 64-bit seeded generator, identical on every platform.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let u = rng.nextUnit()        // [0, 1)
/// let g = rng.nextGaussian()    // N(0, 1), Box–Muller
/// ```
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    private var state: UInt64

    /// A generator whose sequence is determined by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double uniformly in [0, 1) with 53 random bits.
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// A double uniformly in `range`.
    package mutating func nextDouble(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + nextUnit() * (range.upperBound - range.lowerBound)
    }

    /// An integer uniformly in `range` (Lemire's multiply-shift; bias < 2^-64 · width).
    package mutating func nextInt(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
        if width == 0 { return Int(bitPattern: UInt(next())) }
        let product = next().multipliedFullWidth(by: width)
        return range.lowerBound &+ Int(truncatingIfNeeded: product.high)
    }

    /// A standard normal sample by the Box–Muller transform (G. E. P. Box, M. E. Muller, 1958),
    /// using two uniforms per sample (the second normal is discarded, so the stream position is
    /// simple to reason about).
    package mutating func nextGaussian() -> Double {
        let u1 = 1 - nextUnit()  // (0, 1]
        let u2 = nextUnit()
        return (-2 * DeterministicMath.log(u1)).squareRoot() * DeterministicMath.cos(2 * Double.pi * u2)
    }
}

/// sin, cos and log from IEEE +, −, ×, ÷ only, so results are bit-identical on every platform.
/// Accurate to a few ulps — enough for noise and paths, where determinism matters more.
package enum DeterministicMath {
    // fdlibm's two-part π/2 for Cody–Waite range reduction.
    static let pio2Hi = 1.57079632673412561417e+00
    static let pio2Lo = 6.07710050650619224932e-11
    static let ln2Hi = 6.93147180369123816490e-01
    static let ln2Lo = 1.90821492927058770002e-10

    /// sin and cos of r with |r| ≤ π/4 (Taylor series to r^17 / r^18, error < 1e-17).
    static func kernel(_ r: Double) -> (sin: Double, cos: Double) {
        let z = r * r
        var s = 1.0 / 355_687_428_096_000  // 1/17!
        s = s * -z + 1.0 / 1_307_674_368_000  // 1/15!
        s = s * -z + 1.0 / 6_227_020_800
        s = s * -z + 1.0 / 39_916_800
        s = s * -z + 1.0 / 362_880
        s = s * -z + 1.0 / 5040
        s = s * -z + 1.0 / 120
        s = s * -z + 1.0 / 6
        let sinR = r - r * z * s
        var c = 1.0 / 6_402_373_705_728_000  // 1/18!
        c = c * -z + 1.0 / 20_922_789_888_000
        c = c * -z + 1.0 / 87_178_291_200
        c = c * -z + 1.0 / 479_001_600
        c = c * -z + 1.0 / 3_628_800
        c = c * -z + 1.0 / 40320
        c = c * -z + 1.0 / 720
        c = c * -z + 1.0 / 24
        c = c * -z + 0.5
        let cosR = 1 - z * c
        return (sinR, cosR)
    }

    package static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        let k = (x / (Double.pi / 2)).rounded()
        let r = (x - k * pio2Hi) - k * pio2Lo
        let (s, c) = kernel(r)
        switch Int(k.truncatingRemainder(dividingBy: 4) + 4) % 4 {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    package static func sin(_ x: Double) -> Double { sinCos(x).sin }
    package static func cos(_ x: Double) -> Double { sinCos(x).cos }

    /// Natural logarithm for x > 0: x = m·2^e with m in [√½, √2), log m = 2·atanh((m−1)/(m+1)).
    package static func log(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
        var e = Double(x.exponent)
        var m = x.significand  // [1, 2)
        if m > 1.4142135623730951 {
            m /= 2
            e += 1
        }
        let s = (m - 1) / (m + 1)
        let z = s * s
        var t = 1.0 / 23
        for k in stride(from: 21, through: 3, by: -2) { t = t * z + 1.0 / Double(k) }
        let series = 2 * s + 2 * s * z * t
        return e * ln2Hi + (series + e * ln2Lo)
    }
}
