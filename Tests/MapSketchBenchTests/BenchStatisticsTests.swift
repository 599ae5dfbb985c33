import Foundation
@testable import MapSketchBench
import MapSketchTestSupport
import Testing

/// The tests wall-clock comparisons make: Student's t on the logarithms (paired or Welch's) and
/// the Benjamini–Hochberg false discovery rate.
@Suite struct BenchStatisticsTests {
    @Test func studentsTailMatchesTables() {
        // One-sided upper tail P(T ≥ t): t = 2.132 at 4 degrees of freedom is the 0.05 point,
        // t = 3.747 the 0.01 point; t = 1.833 at 9 degrees the 0.05 point; the t(1) tail is
        // the Cauchy one, 1/2 − atan(t)/π.
        #expect(abs(BenchStatistics.tUpper(2.132, standardError: 1, degreesOfFreedom: 4) - 0.05) < 2e-4)
        #expect(abs(BenchStatistics.tUpper(3.747, standardError: 1, degreesOfFreedom: 4) - 0.01) < 1e-4)
        #expect(abs(BenchStatistics.tUpper(1.833, standardError: 1, degreesOfFreedom: 9) - 0.05) < 2e-4)
        for t in [0.3, 1.0, 2.5, 10.0] {
            #expect(abs(BenchStatistics.tUpper(t, standardError: 1, degreesOfFreedom: 1) - (0.5 - atan(t) / .pi)) < 1e-9, "\(t)")
        }
        #expect(abs(BenchStatistics.tUpper(0, standardError: 1, degreesOfFreedom: 7) - 0.5) < 1e-12)
        #expect(abs(BenchStatistics.tUpper(-2.132, standardError: 1, degreesOfFreedom: 4) - 0.95) < 2e-4)
        // No spread: certain either way.
        #expect(BenchStatistics.tUpper(1, standardError: 0, degreesOfFreedom: 4) == 0)
        #expect(BenchStatistics.tUpper(0, standardError: 0, degreesOfFreedom: 4) == 1)
    }

    @Test func theIncompleteBetaFunctionMatchesClosedForms() {
        // I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 − (1 − x)^b; I_0.5(a, a) = 0.5.
        for x in [0.1, 0.37, 0.5, 0.9] {
            #expect(abs(BenchStatistics.incompleteBeta(x, a: 1, b: 1) - x) < 1e-12)
            #expect(abs(BenchStatistics.incompleteBeta(x, a: 3, b: 1) - pow(x, 3)) < 1e-12)
            #expect(abs(BenchStatistics.incompleteBeta(x, a: 1, b: 4) - (1 - pow(1 - x, 4))) < 1e-12)
        }
        #expect(abs(BenchStatistics.incompleteBeta(0.5, a: 7.5, b: 7.5) - 0.5) < 1e-12)
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

    @Test func underTheNullHypothesisPValuesAreUniform() {
        // Paired runs whose log ratios are pure noise: about 5 % of the p-values fall below 0.05
        // (the test's false-positive rate is what it says, not more).
        var rng = SeededRandom(seed: 11)
        var below = 0
        var welchBelow = 0
        let trials = 4_000
        for _ in 0..<trials {
            let d = (0..<5).map { _ in 0.03 * Self.gaussian(&rng) }
            if BenchStatistics.pairedSlower(logRatios: d) < 0.05 { below += 1 }
            let a = (0..<5).map { _ in 100 * exp(0.03 * Self.gaussian(&rng)) }
            let b = (0..<5).map { _ in 100 * exp(0.03 * Self.gaussian(&rng)) }
            if BenchStatistics.welchSlower(old: a, new: b) < 0.05 { welchBelow += 1 }
        }
        let rate = Double(below) / Double(trials)
        let welch = Double(welchBelow) / Double(trials)
        #expect(rate > 0.035 && rate < 0.065, "paired: \(rate)")
        // Welch's test is slightly conservative at small samples.
        #expect(welch > 0.02 && welch < 0.065, "welch: \(welch)")
    }

    @Test func aConsistentSlowdownIsSignificantAndNoiseIsNot() {
        var rng = SeededRandom(seed: 3)
        // Ten pairs, each about 3× slower: very significant.
        let slow = (0..<10).map { _ in log(3.0) + 0.05 * Self.gaussian(&rng) }
        #expect(BenchStatistics.pairedSlower(logRatios: slow) < 1e-8)
        // Faster: not "slower" at all.
        #expect(BenchStatistics.pairedSlower(logRatios: slow.map { -$0 }) > 0.999)
        // Fewer than two pairs cannot be tested.
        #expect(BenchStatistics.pairedSlower(logRatios: [0.5]) == 1)
        #expect(BenchStatistics.welchSlower(old: [1], new: [2, 3]) == 1)
    }
}
