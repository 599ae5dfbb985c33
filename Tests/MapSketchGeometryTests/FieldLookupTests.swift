import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// FieldLookup gives every key the column it got when first seen (columns numbered in first-seen
/// order), however rows order, add or drop their keys — against a plain dictionary.
@Suite struct FieldLookupTests {
    @Test func columnsMatchAFirstSeenDictionaryForShuffledRows() {
        var r = SeededRandom(seed: 21)
        var lookup = FieldLookup()
        var reference: [String: Int] = [:]
        let names = ["OBJECTID", "NAME", "STATE", "DENSITY", "a longer field name than sixteen bytes", "K"]
        for _ in 0..<2_000 {
            // Mostly the same keys in another order; sometimes one more or one fewer.
            var keys = Array(names.prefix(3 + r.int(in: 0...1) * r.int(in: 0...3)))
            if r.int(in: 0...9) == 0 { keys.remove(at: r.int(in: 0...(keys.count - 1))) }
            keys.shuffle(using: &r)
            for (position, key) in keys.enumerated() {
                let want = reference[key] ?? reference.count
                reference[key] = want
                #expect(lookup.column(key, at: position) == want, "\(key) at \(position) in \(keys)")
            }
        }
        #expect(lookup.count == reference.count)
    }
}
