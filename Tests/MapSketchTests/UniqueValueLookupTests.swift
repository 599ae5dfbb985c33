@testable import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The unique-value intern table (strings of up to 16 UTF-8 bytes packed into two words, longer
/// ones hashed) against a `Dictionary` reference, on seeded random strings and their near misses.
@Suite struct UniqueValueLookupTests {
    /// A random string of `length` scalars drawn from ASCII, Latin-1, CJK and emoji (1–4 bytes).
    func randomString(_ length: Int, _ rng: inout SeededRandom) -> String {
        let pools: [ClosedRange<UInt32>] = [0x20...0x7E, 0xC0...0xFF, 0x4E00...0x4FFF, 0x1F600...0x1F64F, 0...0x1F]
        var s = ""
        for _ in 0..<length {
            let pool = pools[rng.int(in: 0...(rng.int(in: 0...3) == 0 ? 4 : 0))]
            s.unicodeScalars.append(Unicode.Scalar(UInt32(rng.int(in: Int(pool.lowerBound)...Int(pool.upperBound))))!)
        }
        return s
    }

    /// Strings that differ from `s` in one byte, in length only, or by a trailing NUL.
    func nearMisses(_ s: String) -> [String] {
        var out: [String] = [s + "\0", s + "a", String(s.dropLast()), String(s.dropFirst()), "\0" + s]
        let bytes = Array(s.utf8)
        for i in bytes.indices where bytes[i] < 0x80 {
            var b = bytes
            b[i] ^= 0x01
            out.append(String(decoding: b, as: UTF8.self))
        }
        return out
    }

    @Test func internTableMatchesADictionary() {
        var rng = SeededRandom(seed: 71)
        for trial in 0..<40 {
            var table = _InternTable()
            var reference: [String: Int32] = [:]
            let count = rng.int(in: 1...(trial % 4 == 0 ? 300 : 40))
            var inserted: [String] = []
            for id in 0..<count {
                let s = randomString(rng.int(in: 0...24), &rng)
                table.insert(s, id: Int32(id))
                if reference[s] == nil { reference[s] = Int32(id) }  // the first id wins
                inserted.append(s)
            }
            for s in inserted {
                #expect(table.lookup(s) == reference[s], "inserted \(s.debugDescription)")
                #expect(table.lookup(.string(s)) == reference[s])
                for miss in nearMisses(s) {
                    #expect(table.lookup(miss) == reference[miss] ?? -1, "near miss \(miss.debugDescription) of \(s.debugDescription)")
                }
            }
            for _ in 0..<100 {
                let s = randomString(rng.int(in: 0...24), &rng)
                #expect(table.lookup(s) == reference[s] ?? -1, "random \(s.debugDescription)")
            }
        }
    }

    @Test func packedKeysDetermineTheBytes() {
        // Every length from 0 to 17 bytes: strings equal in all but one byte, or only in length,
        // pack differently; equal strings built differently pack the same.
        for n in 0...17 {
            let bytes = (0..<n).map { UInt8(0x41 + $0) }
            let s = String(decoding: bytes, as: UTF8.self)
            let k = _InternTable.shortKey(s)
            #expect((k != nil) == (n <= 16), "length \(n)")
            guard let k else { continue }
            #expect(k.length == Int32(n))
            // The same text as a large (heap) string: `String(repeating:count:)` and appends.
            var built = String()
            built.reserveCapacity(64)
            built.append(s)
            #expect(_InternTable.shortKey(built) == k, "length \(n) built with spare capacity")
            for i in 0..<n {
                var other = bytes
                other[i] ^= 0x20
                #expect(_InternTable.shortKey(String(decoding: other, as: UTF8.self)) != k, "length \(n), byte \(i)")
            }
            #expect(_InternTable.shortKey(s + "\0") != k, "length \(n) + NUL")
        }
    }

    @Test func threeFieldsMatchTheJoinedValue() throws {
        var rng = SeededRandom(seed: 72)
        let a = (0..<12).map { _ in randomString(rng.int(in: 1...20), &rng).replacingOccurrences(of: "|", with: "") }
        let b = ["1", "2", "3.5", "true"]
        let c = (0..<5).map { _ in randomString(rng.int(in: 0...6), &rng).replacingOccurrences(of: "|", with: "") }
        var values: [String] = []
        for x in a { for y in b { for z in c where rng.int(in: 0...2) > 0 { values.append("\(x)|\(y)|\(z)") } } }
        let r = try UniqueValueRenderer(
            fields: ["A", "B", "C"], fieldDelimiter: "|",
            uniqueValues: values.map { UniqueValue(value: $0, symbol: .simpleMarker(SimpleMarkerSymbol())) })
        let index = Dictionary(values.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for x in a + ["zz"] {
            for y: AttributeValue in [.string("1"), .integer(2), .double(3.5), .bool(true), .string("4")] {
                for z in c + ["zz"] {
                    let key = "\(x)|\(y.displayString)|\(z)"
                    #expect(r.valueIndex(.string(x), y, .string(z)) == index[key] ?? -1, "\(key.debugDescription)")
                }
            }
        }
    }
}
