@_spi(MapSketchInternal) import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct SplitMix64Tests {
    @Test func referenceVector() {
        // Vigna's splitmix64.c with seed 1234567 (also java.util.SplittableRandom's mixer).
        var rng = SplitMix64(seed: 1_234_567)
        #expect((0..<5).map { _ in rng.next() } == [
            6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
            4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
        ])
    }

    @Test func matchesTestSupportGenerator() {
        var a = SplitMix64(seed: 99)
        var b = SeededRandom(seed: 99)
        #expect((0..<1000).allSatisfy { _ in a.next() == b.next() })
    }

    @Test func uniformRanges() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<10_000 {
            let u = rng.nextUnit()
            #expect(u >= 0 && u < 1)
            let i = rng.nextInt(in: -3...3)
            #expect((-3...3).contains(i))
        }
    }

    @Test func gaussianMoments() {
        var rng = SplitMix64(seed: 11)
        let n = 200_000
        let xs = (0..<n).map { _ in rng.nextGaussian() }
        let mean = xs.reduce(0, +) / Double(n)
        let sd = (xs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(n - 1)).squareRoot()
        #expect(abs(mean) < 0.01)  // standard error 0.0022
        #expect(abs(sd - 1) < 0.01)
        #expect(Double(xs.filter { abs($0) < 1.96 }.count) / Double(n) > 0.945)
    }

    @Test func gaussianStreamIsPinned() {
        // Bit-exact values (recorded on Linux x86_64): they must be the same on every machine, and
        // would change if a platform libm leaked into Box–Muller.
        var rng = SplitMix64(seed: 2024)
        let values = (0..<3).map { _ in rng.nextGaussian() }
        #expect(values.map { String($0.bitPattern, radix: 16) } == ["3ff24ce115a283ae", "3fe4150653acb942", "bffc875a15d38ecb"])
    }
}
