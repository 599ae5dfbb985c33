import Foundation
@testable import MapSketchBench
import MapSketchTestSupport
import Testing

/// The tests wall-clock comparisons make: Student's t on the logarithms (paired or Welch's) and
/// the Benjamini–Hochberg false discovery rate.
@Suite struct BenchStatisticsTests {
    @Test func theSignedRankTestMatchesItsExactDistribution() {
        // Five pairs all positive: only 1 of the 32 sign assignments is as extreme.
        #expect(abs(BenchStatistics.signedRankSlower([0.1, 0.2, 0.3, 0.4, 0.5]) - 1.0 / 32) < 1e-12)
        #expect(BenchStatistics.signedRankSlower([-0.1, -0.2, -0.3, -0.4, -0.5]) == 1)
        // One negative, of the smallest rank: W⁺ = 14 of 15; P(W⁺ ≥ 14) = 2/32.
        #expect(abs(BenchStatistics.signedRankSlower([-0.1, 0.2, 0.3, 0.4, 0.5]) - 2.0 / 32) < 1e-12)
        // Zeros carry no sign; none left: no evidence.
        #expect(BenchStatistics.signedRankSlower([0, 0, 0]) == 1)
        #expect(abs(BenchStatistics.signedRankSlower([0, 0.2, 0.3]) - 1.0 / 4) < 1e-12)
        // Ties share the mean rank: {1, 1} positive and 2 negative: ranks 1.5, 1.5, 3 → W⁺ = 3 of
        // 6; sums ≥ 3: {3}, {1.5,1.5}, {1.5,3}×2, {all} → 5 of 8.
        #expect(abs(BenchStatistics.signedRankSlower([0.1, 0.1, -0.3]) - 5.0 / 8) < 1e-12)
        #expect(BenchStatistics.twiceMidRanks([5, 1, 5, 3]) == [7, 2, 7, 4])
    }

    @Test func theRankSumTestMatchesItsExactDistribution() {
        var cache = BenchStatistics.RankSumCache()
        // All five above all five: 1 / C(10, 5) = 1/252.
        #expect(abs(BenchStatistics.mannWhitneySlower(old: [1, 2, 3, 4, 5], new: [6, 7, 8, 9, 10], cache: &cache) - 1.0 / 252) < 1e-12)
        #expect(BenchStatistics.mannWhitneySlower(old: [6, 7, 8, 9, 10], new: [1, 2, 3, 4, 5], cache: &cache) == 1)
        // Interleaved: no evidence.
        #expect(BenchStatistics.mannWhitneySlower(old: [2, 4, 6, 8, 10], new: [1, 3, 5, 7, 9], cache: &cache) > 0.5)
        // One tie across the samples counts as half a win: P = P(U ≥ 24.5 of 25) with the tie's
        // mid-rank, between the untied 1/252 and 2/252.
        let tied = BenchStatistics.mannWhitneySlower(old: [1, 2, 3, 4, 6], new: [6, 7, 8, 9, 10], cache: &cache)
        #expect(tied > 1.0 / 252 && tied <= 2.0 / 252)
        // Large samples use the normal approximation, which agrees in the tail.
        let x = (0..<40).map { Double($0) + 5 }
        let y = (0..<40).map { Double($0) }
        let p = BenchStatistics.mannWhitneySlower(old: y, new: x, cache: &cache)
        #expect(p > 0.01 && p < 0.05, "\(p)")
    }

    @Test func theSmallestPValueDependsOnTheRunsOnly() {
        #expect(BenchStatistics.smallestPValue(runs: (5, 5), paired: true) == 1.0 / 32)
        #expect(abs(BenchStatistics.smallestPValue(runs: (5, 5), paired: false) - 1.0 / 252) < 1e-15)
        #expect(abs(BenchStatistics.smallestPValue(runs: (20, 20), paired: false) - 1.0 / 137_846_528_820) < 1e-20)
    }

    @Test func benjaminiHochbergMatchesTheWorkedExample() {
        // Benjamini and Hochberg (1995), §3.2: 15 p-values at q = 0.05 reject the 4 smallest.
        let p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000]
        let found = BenchStatistics.discoveries(p.reversed(), q: 0.05)
        #expect(found.filter { $0 }.count == 4)
        #expect(Array(found.reversed().prefix(4)) == [true, true, true, true])
        #expect(BenchStatistics.discoveries([], q: 0.05) == [])
        // A single p-value is a discovery exactly when p ≤ q.
        #expect(BenchStatistics.discoveries([0.049], q: 0.05) == [true])
        #expect(BenchStatistics.discoveries([0.051], q: 0.05) == [false])
    }

    /// Gaussian noise from the project's seeded generator (Box–Muller).
    static func gaussian(_ rng: inout SeededRandom) -> Double {
        let u1 = max(Double(rng.next() >> 11) / Double(1 << 53), 1e-300)
        let u2 = Double(rng.next() >> 11) / Double(1 << 53)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }

    @Test func underTheNullHypothesisTheFalsePositiveRateIsAtMostTheLevel() {
        // Runs whose log ratios are pure noise, with heavy-tailed outliers: about 5 % of the
        // p-values fall below 0.05, never noticeably more.
        var rng = SeededRandom(seed: 11)
        var paired = 0
        var unpaired = 0
        var cache = BenchStatistics.RankSumCache()
        let trials = 2_000
        func noise() -> Double {
            let g = 0.03 * Self.gaussian(&rng)
            return rng.next() % 20 == 0 ? g + 1.5 : g  // one run in 20 hit by something slow
        }
        for _ in 0..<trials {
            if BenchStatistics.signedRankSlower((0..<10).map { _ in noise() - noise() }) < 0.05 { paired += 1 }
            let a = (0..<10).map { _ in 100 * exp(noise()) }
            let b = (0..<10).map { _ in 100 * exp(noise()) }
            if BenchStatistics.mannWhitneySlower(old: a, new: b, cache: &cache) < 0.05 { unpaired += 1 }
        }
        #expect(Double(paired) / Double(trials) < 0.065, "paired: \(paired)")
        #expect(Double(unpaired) / Double(trials) < 0.065, "unpaired: \(unpaired)")
        #expect(paired > 40 && unpaired > 40, "nor is the test dead")
    }

    @Test func aConsistentSlowdownIsSignificantAndAnOutlierIsNot() {
        var rng = SeededRandom(seed: 3)
        // Twenty pairs, each about 15 % slower: significant far below 1/1,000 / 20 figures.
        let slow = (0..<20).map { _ in log(1.15) + 0.03 * Self.gaussian(&rng) }
        #expect(BenchStatistics.signedRankSlower(slow) < 1e-5)
        // Faster: not "slower" at all.
        #expect(BenchStatistics.signedRankSlower(slow.map { -$0 }) > 0.999)
        // One pair hit by a huge slowdown among noise: one rank, no significance.
        var outlier = (0..<20).map { _ in 0.03 * Self.gaussian(&rng) }
        outlier[7] = 3
        #expect(BenchStatistics.signedRankSlower(outlier) > 0.01)
        // A consistent shift with one huge slow outlier on the old side stays significant: the
        // outlier costs one rank (P(W⁺ ≥ 190 of 210) = 3.5e-4), where it would swamp a mean.
        var shifted = slow
        shifted[3] = -2.5
        #expect(BenchStatistics.signedRankSlower(shifted) < 1e-3)
    }

    @Test func studentsTAndWelchsTestMatchReferenceValues() {
        // Reference values from SciPy 1.x (scipy.stats.t, ttest_ind(equal_var=False)).
        #expect(abs(BenchStatistics.studentUpper(2.0, df: 8) - 0.040258118978631) < 1e-10)
        #expect(abs(BenchStatistics.studentUpper(0.7, df: 3.3) - 0.265044039661629) < 1e-10)
        #expect(abs(BenchStatistics.studentUpper(-1.2, df: 12.5) - 0.873805396243875) < 1e-10)
        #expect(abs(BenchStatistics.studentUpper(30, df: 2) - 0.000554631340980) < 1e-12)
        #expect(abs(BenchStatistics.studentQuantile(upper: 0.05, df: 8) - 1.859548037530898) < 1e-8)
        #expect(abs(BenchStatistics.studentQuantile(upper: 0.025, df: 4.6) - 2.639291609747002) < 1e-8)
        #expect(abs(BenchStatistics.studentQuantile(upper: 0.95, df: 8) + 1.859548037530898) < 1e-8)
        #expect(BenchStatistics.studentQuantile(upper: 0.5, df: 3) == 0)
        #expect(BenchStatistics.studentQuantile(upper: 0, df: 3) == .infinity)
        // Welch: five old values near 0, six new near 0.145.
        let w = BenchStatistics.welchShift(
            old: [0.01, -0.02, 0.005, 0, 0.012], new: [0.15, 0.13, 0.16, 0.12, 0.17, 0.14], lowerLevel: 0.05, upperLevel: 0.025)
        #expect(abs(w.pValue - 7.470395404210773e-08) < 1e-12)
        #expect(abs(w.estimate.lower - 0.126028700577747) < 1e-9)
        #expect(abs(w.estimate.upper - 0.165307551151190) < 1e-9)
        // The other way round: no evidence of "slower".
        #expect(BenchStatistics.welchShift(old: [0.15, 0.13, 0.16], new: [0.01, -0.02, 0.005], lowerLevel: 0.05, upperLevel: 0.05).pValue > 0.99)
        // No spread: the estimate is exact; one value a side: nothing to say.
        let flat = BenchStatistics.welchShift(old: [1, 1, 1], new: [2, 2, 2], lowerLevel: 0.05, upperLevel: 0.05)
        #expect(flat.pValue == 0 && flat.estimate.lower == 1 && flat.estimate.upper == 1)
        let one = BenchStatistics.welchShift(old: [1], new: [2, 2], lowerLevel: 0.05, upperLevel: 0.05)
        #expect(one.pValue == 1 && one.estimate.lower == -.infinity)
    }

    @Test func theSignTestAndItsMedianIntervalMatchTheBinomial() {
        // Ten of ten positive: 2⁻¹⁰; eight of ten: (C(10,8) + C(10,9) + C(10,10)) / 2¹⁰ = 56/1024.
        #expect(abs(BenchStatistics.signTestSlower(Array(repeating: 0.1, count: 10)) - 1.0 / 1024) < 1e-15)
        let eight = [0.3, 0.1, -0.2, 0.5, 0.2, -0.1, 0.4, 0.6, 0.7, 0.8]
        #expect(abs(BenchStatistics.signTestSlower(eight) - 56.0 / 1024) < 1e-15)
        // Zeros carry no sign; none left is no evidence.
        #expect(BenchStatistics.signTestSlower([0, 0, 0]) == 1)
        #expect(BenchStatistics.signTestSlower([0, 0.1]) == 0.5)
        #expect(BenchStatistics.binomialCounts(4) == [1, 4, 6, 4, 1])
        // The interval: order statistics. For n = 10 at one-sided 0.011 (P(T ≥ 9) = 11/1024 ≈ 0.0107):
        // the lower bound is the 2nd smallest, the upper the 9th.
        let sorted = eight.sorted()
        let e = BenchStatistics.medianShift(sorted, lowerLevel: 0.011, upperLevel: 0.011)
        #expect(e.value == (sorted[4] + sorted[5]) / 2)
        #expect(e.lower == sorted[1] && e.upper == sorted[8])
        // A single value cannot be bounded at 5 %.
        #expect(BenchStatistics.medianShift([0.2], lowerLevel: 0.025, upperLevel: 0.025).lower == -.infinity)
    }
}
