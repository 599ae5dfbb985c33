import Foundation

/// The tests a wall-clock comparison makes. Both are rank tests: timing noise has long tails (a
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
