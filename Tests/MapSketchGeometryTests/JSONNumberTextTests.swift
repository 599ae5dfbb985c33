@testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The JSON writer takes a double's shortest round-trip digits from `Double.write(to:)` into a
/// fixed buffer: the same text as `description`, without a string per number.
@Suite struct JSONNumberTextTests {
    @Test func theBufferHoldsWhatDescriptionHolds() {
        var rng = SeededRandom(seed: 2024)
        var values: [Double] = [.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 0.1, 1e21, 1e-7, 123456789012345680]
        for _ in 0..<50_000 {
            values.append(Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF))
            values.append(rng.double(in: -2e7...2e7))
            values.append(Double(rng.int(in: -1_000_000...1_000_000)) / 1000)
        }
        for d in values where d.isFinite {
            var text = ShortestDoubleText()
            d.write(to: &text)
            let got = text.withBytes { String(decoding: $0, as: UTF8.self) }
            #expect(got == d.description)
            #expect(Double(JSONWriter.format(d)) == d, "\(d) round-trips")
        }
    }
}
