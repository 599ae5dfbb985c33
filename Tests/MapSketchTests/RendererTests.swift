import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct RendererTests {
    let low = Symbol.simpleMarker(SimpleMarkerSymbol(color: .green))
    let mid = Symbol.simpleMarker(SimpleMarkerSymbol(color: .yellow))
    let high = Symbol.simpleMarker(SimpleMarkerSymbol(color: .red))
    let fallback = Symbol.simpleMarker(SimpleMarkerSymbol(color: .gray))

    var cities: ClassBreaksRenderer {
        ClassBreaksRenderer(
            field: "POP1990", minValue: 0,
            breaks: [
                ClassBreak(label: "High", maxValue: .greatestFiniteMagnitude, symbol: high),
                ClassBreak(label: "Low", maxValue: 50_000, symbol: low),
                ClassBreak(label: "Medium", maxValue: 250_000, symbol: mid),
            ], defaultSymbol: fallback)
    }

    /// Both lookup paths (counting for up to 32 padded bounds, binary search above) agree with
    /// a linear scan of the half-open classes, for every break count, on bounds and between.
    @Test func classBreaksLookupMatchesLinearScan() {
        var rng = SeededRandom(seed: 17)
        for n in 1...40 {
            var maxes = (0..<n).map { _ in Double(rng.int(in: -50...50)) }
            if n % 7 == 0 { maxes[n - 1] = .infinity }
            let r = ClassBreaksRenderer(
                field: "v", minValue: -40, breaks: maxes.map { ClassBreak(maxValue: $0, symbol: low) })
            let sorted = r.breaks.map(\.maxValue)
            func reference(_ v: Double) -> Int {
                guard v >= -40 else { return -1 }
                return sorted.firstIndex { v < $0 } ?? -1
            }
            var probes: [Double] = [-.infinity, -41, -40, .infinity, .nan]
            for k in -120...120 { probes.append(Double(k) * 0.5) }
            for v in probes {
                #expect(r.breakIndex(for: v) == reference(v), "\(n) breaks, value \(v)")
            }
        }
    }

    @Test func classBreaksAreHalfOpen() {
        let r = cities
        #expect(r.breaks.map(\.label) == ["Low", "Medium", "High"], "sorted by max")
        #expect(r.breakIndex(for: 0) == 0, "min is inclusive")
        #expect(r.breakIndex(for: 49_999.99) == 0)
        #expect(r.breakIndex(for: 50_000) == 1, "max is exclusive")
        #expect(r.breakIndex(for: 250_000) == 2)
        #expect(r.breakIndex(for: -1) == -1, "below minValue")
        #expect(r.breakIndex(for: .nan) == -1)
        #expect(r.breakIndex(for: .infinity) == -1, "above the last max")
        #expect(r.symbol(forValue: -1) == fallback)
        #expect(r.symbol(forValue: 60_000) == mid)
    }

    @Test func classBreaksThroughTheRendererEnum() {
        let r = Renderer.classBreaks(cities)
        #expect(r.symbol(for: ["POP1990": .integer(10)]) == low)
        #expect(r.symbol(for: ["POP1990": .double(300_000.5)]) == high)
        #expect(r.symbol(for: ["POP1990": .string("10")]) == fallback, "a string is not numeric")
        #expect(r.symbol(for: [:]) == fallback, "missing field")
        #expect(r.symbolIndex(for: ["POP1990": 60_000]) == 1)
        #expect(r.symbolIndex(for: [:]) == 3, "the default symbol comes after the breaks")
        let noDefault = Renderer.classBreaks(ClassBreaksRenderer(field: "v", breaks: [ClassBreak(maxValue: 1, symbol: low)]))
        #expect(noDefault.symbolIndex(for: ["v": 5]) == -1)
        #expect(noDefault.symbol(for: ["v": 5]) == nil)
        #expect(noDefault.symbol(for: ["v": -1e300]) == low, "minValue defaults to -infinity")
    }

    @Test func uniqueValueOneField() throws {
        let r = UniqueValueRenderer(
            field: "TYPE",
            uniqueValues: [
                UniqueValue(value: "VILLAGE", symbol: low), UniqueValue(value: "CITY", symbol: high),
                UniqueValue(value: "TOWN", symbol: mid), UniqueValue(value: "CITY", symbol: fallback),
            ], defaultSymbol: fallback)
        #expect(r.symbol(for: ["TYPE": "CITY"]) == high, "the first duplicate wins")
        #expect(r.symbol(for: ["TYPE": "TOWN"]) == mid)
        #expect(r.symbol(for: ["TYPE": "town"]) == fallback, "case matters")
        #expect(r.symbol(for: ["TYPE": .null]) == fallback)
        #expect(r.valueIndex(.string("VILLAGE")) == 0)
        #expect(r.valueIndex(.string("HAMLET")) == -1)
    }

    @Test func uniqueValuesMatchNumbersAndBools() {
        let r = UniqueValueRenderer(
            field: "CODE", uniqueValues: [UniqueValue(value: "5", symbol: low), UniqueValue(value: "true", symbol: high)])
        #expect(r.symbol(for: ["CODE": .integer(5)]) == low)
        #expect(r.symbol(for: ["CODE": .double(5)]) == low)
        #expect(r.symbol(for: ["CODE": "5"]) == low)
        #expect(r.symbol(for: ["CODE": .double(5.5)]) == nil)
        #expect(r.symbol(for: ["CODE": .bool(true)]) == high)
        #expect(r.symbol(for: ["CODE": .bool(false)]) == nil)
    }

    @Test func uniqueValueThreeFieldsWithDelimiter() throws {
        let r = try UniqueValueRenderer(
            fields: ["STATE", "TYPE", "RANK"], fieldDelimiter: "|",
            uniqueValues: [
                UniqueValue(value: "MN|CITY|1", symbol: high), UniqueValue(value: "MN|TOWN|2", symbol: mid),
                UniqueValue(value: "WI|CITY|1", symbol: low),
            ], defaultSymbol: fallback)
        #expect(r.symbol(for: ["STATE": "MN", "TYPE": "CITY", "RANK": 1]) == high)
        #expect(r.symbol(for: ["STATE": "WI", "TYPE": "CITY", "RANK": 1]) == low)
        #expect(r.symbol(for: ["STATE": "WI", "TYPE": "TOWN", "RANK": 2]) == fallback, "each part exists, the combination does not")
        #expect(r.symbol(for: ["STATE": "MN", "TYPE": "CITY"]) == fallback, "a missing field")
        #expect(r.valueIndex(.string("MN"), .string("TOWN"), .integer(2)) == 1)
        let two = try UniqueValueRenderer(fields: ["A", "B"], uniqueValues: [UniqueValue(value: "x,y", symbol: low)])
        #expect(two.symbol(for: ["A": "x", "B": "y"]) == low)
        #expect(two.symbol(for: ["A": "y", "B": "x"]) == nil)
    }

    @Test func uniqueValueDefinitionErrors() {
        #expect(throws: RendererError.fieldCount(4)) {
            try UniqueValueRenderer(fields: ["a", "b", "c", "d"], uniqueValues: [])
        }
        #expect(throws: RendererError.fieldCount(0)) { try UniqueValueRenderer(fields: [], uniqueValues: []) }
        #expect(throws: RendererError.valuePartCount(value: "MN", expected: 2, found: 1)) {
            try UniqueValueRenderer(fields: ["a", "b"], uniqueValues: [UniqueValue(value: "MN", symbol: low)])
        }
        #expect(throws: RendererError.emptyDelimiter) {
            try UniqueValueRenderer(fields: ["a"], fieldDelimiter: "", uniqueValues: [])
        }
    }

    @Test func simpleRendererAndSymbolTable() throws {
        let r = Renderer.simple(low)
        #expect(r.symbol(for: [:]) == low)
        #expect(r.symbols == [low])
        let u = Renderer.uniqueValue(UniqueValueRenderer(field: "T", uniqueValues: [UniqueValue(value: "a", symbol: mid)], defaultSymbol: fallback))
        #expect(u.symbols == [mid, fallback])
        #expect(u.symbolIndex(for: ["T": "zzz"]) == 1)
    }

    @Test func attributeDisplayStrings() {
        #expect(AttributeValue.double(2.5).displayString == "2.5")
        #expect(AttributeValue.double(3).displayString == "3")
        #expect(AttributeValue.integer(-7).displayString == "-7")
        #expect(AttributeValue.bool(true).displayString == "true")
        #expect(AttributeValue.null.displayString == "")
        #expect(AttributeValue.date(Date(timeIntervalSince1970: 1_315_958_400)).displayString == "2011-09-14T00:00:00Z")
        #expect(AttributeValue.date(Date(timeIntervalSince1970: -1)).displayString == "1969-12-31T23:59:59Z")
        #expect(AttributeValue.date(Date(timeIntervalSince1970: 1000)).numericValue == 1_000_000, "epoch milliseconds")
    }
}
