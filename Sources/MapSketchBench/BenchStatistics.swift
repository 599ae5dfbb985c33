import Foundation

/// The tests a wall-clock comparison makes, on the logarithms of the runs' figures (a slowdown is
/// a ratio, and timing noise is closer to multiplicative than additive).
///
/// - Paired runs of two builds (`--against`): run `i` of one build was made beside run `i` of the
///   other, alternately, so a load that comes and goes hits both; the test is Student's paired t
///   test on the per-run differences of the logarithms.
/// - A report against a baseline measured at another time: Welch's t test on the logarithms of
///   the two sides' runs.
///
/// Both are one-sided: is the new build slower? Across the figures of one comparison the false
/// discovery rate is controlled with the Benjamini–Hochberg procedure.
///
/// Sources: W. S. Gosset ("Student"), "The probable error of a mean", Biometrika 6 (1908);
/// B. L. Welch, "The generalization of 'Student's' problem when several different population
/// variances are involved", Biometrika 34 (1947); Y. Benjamini and Y. Hochberg, "Controlling the
/// false discovery rate", Journal of the Royal Statistical Society B 57 (1995); the incomplete
/// beta function by its continued fraction, as in Press et al., Numerical Recipes, 3rd ed., §6.4.
enum BenchStatistics {
    /// P(the new runs are not slower) under the paired t test: one-sided p-value of a positive mean
    /// of `logRatios` (log new − log old, run by run). 1 with fewer than two pairs.
    static func pairedSlower(logRatios d: [Double]) -> Double {
        let n = d.count
        guard n >= 2 else { return 1 }
        let mean = d.reduce(0, +) / Double(n)
        let variance = d.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)
        return tUpper(mean, standardError: (variance / Double(n)).squareRoot(), degreesOfFreedom: Double(n - 1))
    }

    /// The one-sided p-value of Welch's t test that the logarithms of `new` exceed those of `old`.
    /// 1 with fewer than two values on a side.
    static func welchSlower(old: [Double], new: [Double]) -> Double {
        let a = old.map { log($0) }
        let b = new.map { log($0) }
        guard a.count >= 2, b.count >= 2 else { return 1 }
        let (ma, va) = meanAndVariance(a)
        let (mb, vb) = meanAndVariance(b)
        let sa = va / Double(a.count)
        let sb = vb / Double(b.count)
        let se = (sa + sb).squareRoot()
        let df: Double
        if sa + sb > 0 {
            df = (sa + sb) * (sa + sb) / (sa * sa / Double(a.count - 1) + sb * sb / Double(b.count - 1))
        } else {
            df = Double(a.count + b.count - 2)
        }
        return tUpper(mb - ma, standardError: se, degreesOfFreedom: df)
    }

    /// P(T ≥ difference / standardError) for Student's t with `degreesOfFreedom`; with no spread
    /// at all, 0 for a positive difference and 1 otherwise.
    static func tUpper(_ difference: Double, standardError: Double, degreesOfFreedom nu: Double) -> Double {
        guard standardError > 0 else { return difference > 0 ? 0 : 1 }
        let t = difference / standardError
        guard t.isFinite else { return t > 0 ? 0 : 1 }
        let tail = 0.5 * incompleteBeta(nu / (nu + t * t), a: nu / 2, b: 0.5)
        return t > 0 ? tail : 1 - tail
    }

    /// Which of `pValues` are discoveries at false discovery rate `q` (Benjamini–Hochberg): the
    /// k smallest, for the largest k with p₍ₖ₎ ≤ k·q/m.
    static func discoveries(_ pValues: [Double], q: Double) -> [Bool] {
        let m = pValues.count
        guard m > 0 else { return [] }
        let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
        var cutoff = -1
        for (rank, i) in order.enumerated() where pValues[i] <= Double(rank + 1) * q / Double(m) { cutoff = rank }
        var out = Array(repeating: false, count: m)
        if cutoff >= 0 { for rank in 0...cutoff { out[order[rank]] = true } }
        return out
    }

    private static func meanAndVariance(_ x: [Double]) -> (Double, Double) {
        let mean = x.reduce(0, +) / Double(x.count)
        return (mean, x.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(x.count - 1))
    }

    /// The regularized incomplete beta function Iₓ(a, b).
    static func incompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logs: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let front = exp(logs + a * log(x) + b * log(1 - x))
        // The continued fraction converges quickly for x < (a + 1) / (a + b + 2); use the
        // symmetry I_x(a, b) = 1 − I_{1−x}(b, a) otherwise.
        if x < (a + 1) / (a + b + 2) { return front * betaFraction(x, a: a, b: b) / a }
        return 1 - front * betaFraction(1 - x, a: b, b: a) / b
    }

    /// The continued fraction of the incomplete beta function (modified Lentz's method).
    private static func betaFraction(_ x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...300 {
            let m = Double(m)
            let m2 = 2 * m
            var aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-15 { break }
        }
        return h
    }
}
