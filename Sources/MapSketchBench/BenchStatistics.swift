import Foundation

/// The tests a wall-clock comparison makes. A figure's tests are rank tests: timing noise has long tails (a
/// run that an interrupt or a page fault hits can be several times slower than the rest), and a
/// rank test gives a slow outlier one rank, where a mean-based test lets it swamp a consistent
/// shift or fake one.
///
/// - Paired runs of two builds (`--against`): run `i` of one build was made beside run `i` of the
///   other, alternately, so a load that comes and goes hits both; the test is the Wilcoxon
///   signed-rank test on the per-run logarithms of new / old.
/// - A report against a baseline measured at another time: the Mann–Whitney U test on the two
///   sides' runs.
///
/// Both are one-sided (is the new build slower?) and exact for the run counts a bench makes (the
/// null distribution counted over every arrangement, ties taking their mid-rank); beyond that a
/// normal approximation. Across the figures of one comparison the false discovery rate is
/// controlled with the Benjamini–Hochberg procedure.
///
/// A rank test's smallest p-value depends only on the number of runs: 2⁻ⁿ for n pairs, 1 / C(n+m,
/// n) for n and m unpaired runs (``smallestPValue(runs:paired:)``), so with too few runs no figure
/// can pass the false discovery rate of many figures; the comparison says so.
///
/// A kind across the traces that run it is judged with the sign test; unpaired, also over the
/// processes with Welch's t, whose samples are medians over many traces (``welchShift(old:new:lowerLevel:upperLevel:)``).
///
/// Sources: F. Wilcoxon, "Individual comparisons by ranking methods", Biometrics Bulletin 1 (1945);
/// H. B. Mann and D. R. Whitney, "On a test of whether one of two random variables is
/// stochastically larger than the other", Annals of Mathematical Statistics 18 (1947);
/// Y. Benjamini and Y. Hochberg, "Controlling the false discovery rate", Journal of the Royal
/// Statistical Society B 57 (1995).
enum BenchStatistics {
    /// The largest sample counted exactly; larger ones use the normal approximation.
    static let exactLimit = 60

    /// The one-sided p-value of the Wilcoxon signed-rank test that the differences `d` (log new −
    /// log old, run by run) lean positive. Zero differences carry no sign and are left out; 1
    /// when none is left.
    static func signedRankSlower(_ d: [Double]) -> Double {
        let nonzero = d.filter { $0 != 0 && $0.isFinite }
        let n = nonzero.count
        guard n > 0 else { return 1 }
        // Twice the mid-ranks of |d|, as integers.
        let ranks = twiceMidRanks(nonzero.map { abs($0) })
        let observed = zip(nonzero, ranks).reduce(0) { $0 + ($1.0 > 0 ? $1.1 : 0) }
        if n <= exactLimit {
            // count[s]: the sign assignments whose positive ranks sum to s (in doubled ranks).
            let total = ranks.reduce(0, +)
            var count = [Double](repeating: 0, count: total + 1)
            count[0] = 1
            var reach = 0
            for r in ranks {
                reach += r
                for s in stride(from: reach, through: r, by: -1) { count[s] += count[s - r] }
            }
            let all = count.reduce(0, +)
            return count[observed...].reduce(0, +) / all
        }
        let mean = Double(ranks.reduce(0, +)) / 2
        let variance = ranks.reduce(0.0) { $0 + Double($1) * Double($1) } / 4
        return normalUpper((Double(observed) - 0.5 - mean) / variance.squareRoot())
    }

    /// The null distributions of the rank-sum test without ties, by sample sizes: they depend on
    /// the sizes only, so a comparison of many figures counts each once.
    typealias RankSumCache = [Int: [Double]]

    /// The one-sided p-value of the Mann–Whitney U test that `new` is stochastically larger than
    /// `old`.
    static func mannWhitneySlower(old: [Double], new: [Double], cache: inout RankSumCache) -> Double {
        let n = new.count
        let m = old.count
        guard n > 0, m > 0 else { return 1 }
        let ranks = twiceMidRanks(new + old)
        // Twice the rank sum of `new`, less its smallest value n(n+1): twice U.
        let observed = ranks.prefix(n).reduce(0, +) - n * (n + 1)
        if n + m <= exactLimit {
            let atLeast = observed + n * (n + 1)
            guard Set(ranks).count == ranks.count else { return exactRankSumUpper(ranks, choose: n, atLeast: atLeast) }
            let key = n * 1_000 + m
            let distribution = cache[key] ?? rankSumDistribution((1...(n + m)).map { 2 * $0 }, choose: n)
            cache[key] = distribution
            return upper(distribution, atLeast)
        }
        let meanU = Double(n * m) / 2
        let sd = (Double(n * m * (n + m + 1)) / 12).squareRoot()
        return normalUpper((Double(observed) / 2 - 0.5 - meanU) / sd)
    }

    /// P(the doubled rank sum of `choose` of `ranks`, drawn at random, is at least `atLeast`).
    private static func exactRankSumUpper(_ ranks: [Int], choose k: Int, atLeast: Int) -> Double {
        upper(rankSumDistribution(ranks, choose: k), atLeast)
    }

    /// The number of ways each doubled rank sum arises from `choose` of `ranks`.
    private static func rankSumDistribution(_ ranks: [Int], choose k: Int) -> [Double] {
        let total = ranks.reduce(0, +)
        // ways[j * width + s]: the subsets of j of the ranks seen so far whose doubled ranks sum
        // to s (one flat array: a bench compares hundreds of figures).
        let width = total + 1
        var ways = [Double](repeating: 0, count: (k + 1) * width)
        ways[0] = 1
        var reach = 0
        ways.withUnsafeMutableBufferPointer { w in
            for r in ranks {
                reach += r
                for j in stride(from: k, through: 1, by: -1) {
                    let row = j * width
                    let below = (j - 1) * width
                    var s = reach
                    while s >= r {
                        w[row + s] += w[below + s - r]
                        s -= 1
                    }
                }
            }
        }
        return Array(ways[(k * width)...])
    }

    /// P(value ≥ `atLeast`) for a distribution given as counts by value.
    private static func upper(_ counts: [Double], _ atLeast: Int) -> Double {
        let all = counts.reduce(0, +)
        guard all > 0 else { return 1 }
        if atLeast <= 0 { return 1 }
        if atLeast >= counts.count { return 0 }
        return counts[atLeast...].reduce(0, +) / all
    }

    /// Twice the mid-ranks of `values` (1-based), in their order: ties share the mean of their
    /// ranks, which doubled is an integer.
    static func twiceMidRanks(_ values: [Double]) -> [Int] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Int](repeating: 0, count: values.count)
        var i = 0
        while i < order.count {
            var j = i
            while j + 1 < order.count && values[order[j + 1]] == values[order[i]] { j += 1 }
            // Ranks i+1 … j+1 share their mean; doubled: i + j + 2.
            for t in i...j { ranks[order[t]] = i + j + 2 }
            i = j + 1
        }
        return ranks
    }

    /// The smallest p-value a one-sided rank test can give with these run counts (no ties):
    /// 2⁻ⁿ for n pairs, 1 / C(n + m, n) unpaired.
    static func smallestPValue(runs: (old: Int, new: Int), paired: Bool) -> Double {
        if paired { return pow(0.5, Double(min(runs.old, runs.new))) }
        var c = 1.0
        let n = runs.new
        let total = runs.old + runs.new
        for i in 0..<n { c = c * Double(total - i) / Double(i + 1) }
        return 1 / c
    }

    // MARK: Estimates and confidence bounds

    /// An estimated shift and its confidence interval, all on the scale of the data (here, the
    /// logarithm of a ratio). A bound the runs cannot give is infinite.
    struct Estimate: Hashable, Sendable {
        var value: Double
        var lower: Double
        var upper: Double
    }

    /// The Hodges–Lehmann estimate of the differences' centre (the median of their Walsh averages,
    /// (dᵢ + dⱼ) / 2 for i ≤ j) with the confidence interval that inverts the signed-rank test:
    /// `lowerLevel` and `upperLevel` are the one-sided error rates of the two bounds.
    static func pairedShift(_ d: [Double], lowerLevel: Double, upperLevel: Double) -> Estimate {
        var walsh: [Double] = []
        walsh.reserveCapacity(d.count * (d.count + 1) / 2)
        for i in d.indices { for j in i..<d.count { walsh.append((d[i] + d[j]) / 2) } }
        walsh.sort()
        let null = signedRankCounts(d.count)
        return estimate(walsh, null: null, lowerLevel: lowerLevel, upperLevel: upperLevel)
    }

    /// The Hodges–Lehmann estimate of how far `new` lies above `old` (the median of every
    /// difference newⱼ − oldᵢ) with the confidence interval that inverts the Mann–Whitney test.
    static func unpairedShift(old: [Double], new: [Double], lowerLevel: Double, upperLevel: Double) -> Estimate {
        var differences: [Double] = []
        differences.reserveCapacity(old.count * new.count)
        for y in new { for x in old { differences.append(y - x) } }
        differences.sort()
        return estimate(differences, null: mannWhitneyCounts(new.count, old.count), lowerLevel: lowerLevel, upperLevel: upperLevel)
    }

    /// The median of `sorted` (N values) and the bounds from a statistic T that counts how many
    /// of them lie above the true shift, whose null counts are `null` (over T = 0…N): the lower
    /// bound is the (N − t + 1)-th smallest value for the smallest t with P(T ≥ t) ≤ the level,
    /// the upper bound the t-th.
    private static func estimate(_ sorted: [Double], null: [Double], lowerLevel: Double, upperLevel: Double) -> Estimate {
        let n = sorted.count
        guard n > 0 else { return Estimate(value: 0, lower: -.infinity, upper: .infinity) }
        let middle = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        let all = null.reduce(0, +)
        // tail[t] = P(T ≥ t).
        var tail = [Double](repeating: 0, count: null.count + 1)
        for t in stride(from: null.count - 1, through: 0, by: -1) { tail[t] = tail[t + 1] + null[t] / all }
        func critical(_ level: Double) -> Int? { (0...null.count).first { tail[$0] <= level } }
        var lower = -Double.infinity
        var upper = Double.infinity
        if let t = critical(lowerLevel), t >= 1, n - t >= 0 { lower = sorted[n - t] }
        if let t = critical(upperLevel), t >= 1, t - 1 < n { upper = sorted[t - 1] }
        return Estimate(value: middle, lower: lower, upper: upper)
    }

    /// Welch's t on two small samples: the estimate of how far the mean of `new` lies above the
    /// mean of `old`, its bounds at the one-sided error levels `lowerLevel` and `upperLevel`, and
    /// the one-sided p-value that `new` lies above. Each side needs two values or more (otherwise
    /// the bounds are infinite and the p-value 1). With no spread on either side the bounds are the
    /// estimate, and the p-value 0 when it is positive.
    ///
    /// A mean-based test, for samples that are themselves medians over many figures (a kind's
    /// figure of one worker process, the median over the kind's runs it made), where a rank test
    /// over a few processes could not reach the false discovery rate at all.
    /// Source: B. L. Welch, "The generalization of 'Student's' problem when several different
    /// population variances are involved", Biometrika 34 (1947).
    static func welchShift(old: [Double], new: [Double], lowerLevel: Double, upperLevel: Double) -> (estimate: Estimate, pValue: Double) {
        func meanAndVariance(_ x: [Double]) -> (mean: Double, variance: Double) {
            let mean = x.reduce(0, +) / Double(x.count)
            return (mean, x.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(x.count - 1))
        }
        guard old.count >= 2, new.count >= 2 else {
            return (Estimate(value: 0, lower: -.infinity, upper: .infinity), 1)
        }
        let a = meanAndVariance(old)
        let b = meanAndVariance(new)
        let difference = b.mean - a.mean
        let va = a.variance / Double(old.count)
        let vb = b.variance / Double(new.count)
        let se = (va + vb).squareRoot()
        guard se > 0 else { return (Estimate(value: difference, lower: difference, upper: difference), difference > 0 ? 0 : 1) }
        // The Welch–Satterthwaite degrees of freedom.
        let df = (va + vb) * (va + vb) / (va * va / Double(old.count - 1) + vb * vb / Double(new.count - 1))
        let estimate = Estimate(
            value: difference, lower: difference - studentQuantile(upper: lowerLevel, df: df) * se,
            upper: difference + studentQuantile(upper: upperLevel, df: df) * se)
        return (estimate, studentUpper(difference / se, df: df))
    }

    /// P(T ≥ t) for Student's t with `df` degrees of freedom.
    static func studentUpper(_ t: Double, df: Double) -> Double {
        let tail = 0.5 * regularizedBeta(df / (df + t * t), a: df / 2, b: 0.5)
        return t >= 0 ? tail : 1 - tail
    }

    /// The t with P(T ≥ t) = `level` (0 < level < 1) for Student's t with `df` degrees of
    /// freedom, to 10⁻¹⁰ (bisection: the tail falls monotonically).
    static func studentQuantile(upper level: Double, df: Double) -> Double {
        if level == 0.5 { return 0 }
        if level > 0.5 { return -studentQuantile(upper: 1 - level, df: df) }
        if !(level > 0) { return .infinity }
        var low = 0.0
        var high = 1.0
        while studentUpper(high, df: df) > level && high < 1e12 { high *= 2 }
        while high - low > 1e-10 * Swift.max(1, high) {
            let middle = (low + high) / 2
            if studentUpper(middle, df: df) > level { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// The regularized incomplete beta function I_x(a, b), by its continued fraction (modified
    /// Lentz), on the side of x where it converges fast.
    static func regularizedBeta(_ x: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x))
        if x < (a + 1) / (a + b + 2) { return front * betaFraction(x, a, b) / a }
        return 1 - front * betaFraction(1 - x, b, a) / b
    }

    private static func betaFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
        let tiny = 1e-300
        func guarded(_ v: Double) -> Double { abs(v) < tiny ? tiny : v }
        var c = 1.0
        var d = 1 / guarded(1 - (a + b) * x / (a + 1))
        var h = d
        for i in 1...400 {
            let m = Double(i)
            let even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 / guarded(1 + even * d)
            c = guarded(1 + even / c)
            h *= d * c
            let odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 / guarded(1 + odd * d)
            c = guarded(1 + odd / c)
            let step = d * c
            h *= step
            if abs(step - 1) < 1e-15 { break }
        }
        return h
    }

    /// The one-sided p-value of the sign test that `d` leans positive: P(at least as many of the
    /// nonzero values positive, each sign a fair coin). 1 when none is nonzero.
    static func signTestSlower(_ d: [Double]) -> Double {
        let signs = d.filter { $0 != 0 }
        guard !signs.isEmpty else { return 1 }
        let counts = binomialCounts(signs.count)
        let positive = signs.filter { $0 > 0 }.count
        return counts[positive...].reduce(0, +) / counts.reduce(0, +)
    }

    /// The median of `sorted` with the confidence interval that inverts the sign test.
    static func medianShift(_ sorted: [Double], lowerLevel: Double, upperLevel: Double) -> Estimate {
        estimate(sorted, null: binomialCounts(sorted.count), lowerLevel: lowerLevel, upperLevel: upperLevel)
    }

    /// The binomial coefficients C(n, k), k = 0…n (the null counts of the sign statistic).
    static func binomialCounts(_ n: Int) -> [Double] {
        var row = [Double](repeating: 0, count: max(n, 0) + 1)
        row[0] = 1
        for i in stride(from: 1, through: max(n, 0), by: 1) {
            for k in stride(from: i, through: 1, by: -1) { row[k] += row[k - 1] }
        }
        return row
    }

    /// The null counts of the signed-rank statistic T⁺ for n untied pairs, over T⁺ = 0…n(n+1)/2.
    static func signedRankCounts(_ n: Int) -> [Double] {
        let total = n * (n + 1) / 2
        var count = [Double](repeating: 0, count: total + 1)
        count[0] = 1
        var reach = 0
        for r in stride(from: 1, through: max(n, 0), by: 1) {
            reach += r
            for s in stride(from: reach, through: r, by: -1) { count[s] += count[s - r] }
        }
        return count
    }

    /// The null counts of the Mann–Whitney statistic U (pairs with new above old) for n new and m
    /// old untied runs, over U = 0…nm.
    static func mannWhitneyCounts(_ n: Int, _ m: Int) -> [Double] {
        // The rank sum R of the new runs is U + n(n+1)/2.
        let rankSums = rankSumDistribution((1...max(n + m, 1)).map { 2 * $0 }, choose: n)
        let offset = n * (n + 1)  // doubled
        return (0...(n * m)).map { u in
            let i = 2 * u + offset
            return i < rankSums.count ? rankSums[i] : 0
        }
    }

    /// P(Z ≥ z) for a standard normal Z.
    static func normalUpper(_ z: Double) -> Double { 0.5 * erfc(z / 2.0.squareRoot()) }

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
}
