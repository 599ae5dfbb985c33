@testable import MapSketch
import MapSketchTestSupport
import Testing

/// The class-breaks lookup's paths (bucket table, SIMD counting, binary search) against a linear
/// scan of the half-open classes, on seeded random break sets: spread, clustered, duplicated, with
/// infinities, with `minValue` above some breaks, and probed on every bound and its neighbours.
@Suite struct ClassBreaksLookupTests {
    let symbol = Symbol.simpleMarker(SimpleMarkerSymbol())

    /// The classes' definition, written the slow obvious way.
    func reference(_ v: Double, minValue: Double, maxes: [Double]) -> Int {
        guard v >= minValue else { return -1 }
        return maxes.sorted().firstIndex { v < $0 } ?? -1
    }

    /// Values that sit on, just beside and between the bounds, and the extremes.
    func probes(_ bounds: [Double], rng: inout SeededRandom) -> [Double] {
        var out: [Double] = [-.infinity, .infinity, .nan, -.greatestFiniteMagnitude, .greatestFiniteMagnitude, 0, -0.0,
                             .leastNonzeroMagnitude, -.leastNonzeroMagnitude]
        for b in bounds where !b.isNaN {
            out += [b, b.nextUp, b.nextDown]
        }
        let finite = bounds.filter(\.isFinite)
        if let lo = finite.min(), let hi = finite.max() {
            let pad = Swift.max(1, (hi - lo) / 4)
            for _ in 0..<200 { out.append(rng.double(in: (lo - pad)...(hi + pad))) }
        }
        return out
    }

    func check(minValue: Double, maxes: [Double], rng: inout SeededRandom) -> ClassBreaksRenderer {
        let r = ClassBreaksRenderer(field: "v", minValue: minValue, breaks: maxes.map { ClassBreak(maxValue: $0, symbol: symbol) })
        for v in probes([minValue] + maxes, rng: &rng) {
            let expected = reference(v, minValue: minValue, maxes: maxes)
            #expect(r.breakIndex(for: v) == expected, "min \(minValue), maxes \(maxes.sorted()), value \(v)")
            #expect(r._countingBreakIndex(for: v) == expected, "counting path: min \(minValue), maxes \(maxes.sorted()), value \(v)")
        }
        return r
    }

    @Test func spreadBreaksUseTheBucketTable() {
        var rng = SeededRandom(seed: 61)
        for n in [1, 2, 3, 5, 16, 17, 40, 200] {
            // Evenly spaced (a density legend) and uniformly random breaks.
            let even = (1...n).map { Double($0) * 100 }
            #expect(check(minValue: 0, maxes: even, rng: &rng).buckets != nil, "\(n) even breaks")
            let random = (0..<n).map { _ in rng.double(in: -1_000...1_000) }
            let r = check(minValue: -.infinity, maxes: random, rng: &rng)
            if n <= 16 { #expect(r.buckets != nil, "\(n) random breaks") }
        }
    }

    @Test func clusteredAndDuplicatedBreaks() {
        var rng = SeededRandom(seed: 62)
        // Three equal bounds share every bucket: the table cannot be built, counting answers.
        #expect(check(minValue: 0, maxes: [5, 5, 5, 10], rng: &rng).buckets == nil)
        // Two equal bounds fit one bucket; so does minValue equal to the first break's max.
        #expect(check(minValue: 0, maxes: [5, 5, 10], rng: &rng).buckets != nil)
        #expect(check(minValue: 5, maxes: [5, 10, 20], rng: &rng).buckets != nil)
        // A log scale: decades crowd the first buckets.
        _ = check(minValue: 0, maxes: (0...9).map { pow10($0) }, rng: &rng)
        _ = check(minValue: 0, maxes: (0...40).map { pow10($0) }, rng: &rng)
        // Tiny and huge spans (scale near overflow), subnormal bounds.
        _ = check(minValue: 0, maxes: [Double.leastNonzeroMagnitude, 2 * .leastNonzeroMagnitude, 1e-300], rng: &rng)
        _ = check(minValue: -.greatestFiniteMagnitude, maxes: [0, .greatestFiniteMagnitude], rng: &rng)
        _ = check(minValue: 1, maxes: [Double(1).nextUp, Double(1).nextUp.nextUp, 2], rng: &rng)
        // Random sets drawn from a few values (many duplicates) and with infinities.
        for trial in 0..<300 {
            let n = rng.int(in: 1...24)
            var maxes = (0..<n).map { _ in Double(rng.int(in: -6...6)) * (trial % 2 == 0 ? 1 : 0.001) }
            if trial % 5 == 0 { maxes[0] = .infinity }
            if trial % 7 == 0 { maxes[n - 1] = -.infinity }
            let minValue = [-Double.infinity, -3, 0, 2, 7][trial % 5]
            _ = check(minValue: minValue, maxes: maxes, rng: &rng)
        }
    }

    @Test func minValueAboveSomeBreaks() {
        var rng = SeededRandom(seed: 63)
        // Breaks below minValue are empty classes: values below minValue match none, values above
        // skip them.
        // One such break: its bound is raised to minValue (two equal bounds fit a bucket).
        let r = check(minValue: 50, maxes: [20, 100, 200], rng: &rng)
        #expect(r.buckets != nil)
        #expect(r.breakIndex(for: 49) == -1)
        #expect(r.breakIndex(for: 50) == 1)
        #expect(r.breakIndex(for: 150) == 2)
        #expect(r.breakIndex(for: 200) == -1)
        // Two: three equal bounds, so the counting path answers.
        let two = check(minValue: 50, maxes: [10, 20, 100, 200], rng: &rng)
        #expect(two.buckets == nil)
        #expect(two.breakIndex(for: 50) == 2)
    }

    @Test func nanBoundsFallBackToCounting() {
        var rng = SeededRandom(seed: 64)
        let r = ClassBreaksRenderer(field: "v", minValue: .nan, breaks: [ClassBreak(maxValue: 1, symbol: symbol)])
        #expect(r.buckets == nil)
        #expect(r.breakIndex(for: 0) == -1, "nothing is >= a NaN minValue")
        _ = check(minValue: 0, maxes: [1, 2, 3], rng: &rng)
    }

    func pow10(_ k: Int) -> Double { (0..<k).reduce(1.0) { acc, _ in acc * 10 } }
}
