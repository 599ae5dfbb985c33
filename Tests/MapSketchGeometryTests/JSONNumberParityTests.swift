import Foundation
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The JSON parser's numbers from their digits (Clinger's fast path and the Eisel–Lemire step)
/// against the C library's correctly rounded conversion (`Double(String)`, the parser's exact
/// slow path): the same double, bit for bit, for every kind of number text.
@Suite struct JSONNumberParityTests {
    /// The parser's double for `text` (an integer literal as its exact double), or nil when it
    /// refuses the text.
    static func parsed(_ text: String) -> Double? {
        switch try? JSONParser.parse(text) {
        case .number(let d)?: d
        case .integer(let i)?: Double(i)
        default: nil
        }
    }

    static func expectSame(_ texts: [String]) {
        var problems: [String] = []
        for text in texts {
            guard let want = Double(text), want.isFinite else {
                if parsed(text) != nil { problems.append("\(text): parsed, the C library says out of range") }
                continue
            }
            let isInteger = !text.contains(where: { ".eE".contains($0) })
            if isInteger, Int64(text) != nil { continue }  // an exact integer, not a double
            guard let got = parsed(text) else {
                problems.append("\(text): refused")
                continue
            }
            if got.bitPattern != want.bitPattern { problems.append("\(text): \(got) vs \(want)") }
        }
        #expect(problems.isEmpty, "\(problems.count) differ: \(problems.prefix(5))")
    }

    @Test func edgeCasesAreTheCLibrarysDoubles() {
        Self.expectSame([
            "0.0", "-0.0", "-0e5", "0e-400", "1e-400", "-1e-400", "1e309", "4.9e-324", "5e-324", "2.4703282292062327e-324",
            "2.4703282292062328e-324", "2.2250738585072011e-308", "2.2250738585072014e-308", "2.2250738585072012e-308",
            "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "9007199254740993",
            "9007199254740993.0", "9007199254740992.5", "18446744073709551615", "18446744073709551616",
            "-9223372036854775809", "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124", "0.1", "0.30000000000000004", "123456789012345678e-5",
            "3.14159265358979323846264338327950288", "1e22", "1e23", "1e-22", "1e-23", "8.98846567431158e307",
            "0.000000000000000000000000000001234567890123456789", "1234567890123456789012345678901234567890e-30",
            "7.038531e-26", "9.5e-5", "2.9802322387695312e-8", "1448997445238699", "17976931348623157e292",
            "2.2250738585072013e-308", "6.631236846766476e-316", "3.0e-5", "12345.678901234567", "4.35e-5",
        ])
    }

    @Test func randomDoublesInEveryNotationAreTheCLibrarysDoubles() {
        var r = SeededRandom(seed: 20_261_127)
        var texts: [String] = []
        for k in 0..<60_000 {
            // Every exponent, subnormals included: random bit patterns.
            let d = Double(bitPattern: r.next() & ~(UInt64(0x7FF) << 52) | UInt64.random(in: 0..<0x7FF, using: &r) << 52)
            switch k % 4 {
            case 0: texts.append("\(d)")  // shortest round trip
            case 1: texts.append(String(format: "%.17g", d))
            case 2: texts.append(String(format: "%.\(Int.random(in: 1...25, using: &r))e", d))
            default: texts.append(String(format: "%.\(Int.random(in: 0...20, using: &r))f", d))
            }
        }
        for _ in 0..<60_000 {
            // Random digits (1 to 25 of them) with a point and an exponent anywhere.
            let n = Int.random(in: 1...25, using: &r)
            var digits = String((0..<n).map { _ in Character(String(Int.random(in: 0...9, using: &r))) })
            while digits.count > 1, digits.first == "0" { digits.removeFirst() }
            let point = Int.random(in: 0...digits.count, using: &r)
            if point > 0, point < digits.count {
                digits.insert(".", at: digits.index(digits.startIndex, offsetBy: point))
            }
            let sign = Bool.random(using: &r) ? "-" : ""
            let exp = Int.random(in: 0...3, using: &r) == 0 ? "" : "e\(Int.random(in: -345...310, using: &r))"
            texts.append(sign + digits + exp)
        }
        for _ in 0..<20_000 {
            // Coordinates as map data writes them: longitude and latitude with 6 to 17 digits.
            let d = Double.random(in: -180...180, using: &r)
            texts.append(String(format: "%.\(Int.random(in: 6...17, using: &r))g", d))
        }
        Self.expectSame(texts)
    }
}
