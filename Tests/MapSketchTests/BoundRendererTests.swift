import Foundation
@_spi(MapSketchInternal) import MapSketch
import MapSketchTestSupport
import Testing

/// A renderer bound to attribute columns decides exactly what it decides from each row's
/// attribute dictionary, for every kind of column, missing fields, nulls, and strings added after
/// binding.
@Suite struct BoundRendererTests {
    static let marker = Symbol.simpleMarker(SimpleMarkerSymbol())

    /// Random rows for fields A (strings), B (numbers: integers, doubles or mixed), C (bools or
    /// dates), D (mixed everything), with nulls and missing values.
    static func rows(_ r: inout SeededRandom, count: Int) -> [[String: AttributeValue]] {
        let words = ["MN", "WI", "residential", "a long value past sixteen bytes", "", "5", "2.5", "true"]
        return (0..<count).map { _ in
            var row: [String: AttributeValue] = [:]
            func maybe(_ k: String, _ v: AttributeValue) {
                switch r.int(in: 0...11) {
                case 0: break
                case 1: row[k] = .null
                default: row[k] = v
                }
            }
            maybe("A", .string(words[r.int(in: 0...(words.count - 1))]))
            maybe("B", r.int(in: 0...1) == 0 ? .integer(r.int(in: -2...8)) : .double(Double(r.int(in: -4...16)) / 2))
            maybe(
                "C",
                r.int(in: 0...3) == 0
                    ? .date(Date(timeIntervalSince1970: Double(r.int(in: 0...3)))) : .bool(r.int(in: 0...1) == 1))
            maybe("D", [.string("5"), .integer(5), .double(5), .bool(true), .string("x")][r.int(in: 0...4)])
            maybe("I", .integer(r.int(in: -2...6)))
            maybe("F", .double(Double(r.int(in: -4...12)) / 2))
            maybe("L", .bool(r.int(in: 0...1) == 1))
            maybe("T", .date(Date(timeIntervalSince1970: Double(r.int(in: 0...3)))))
            return row
        }
    }

    static func renderers() throws -> [Renderer] {
        let values = [
            "MN", "WI", "residential", "a long value past sixteen bytes", "", "5", "2.5", "true", "false", "1000", "3",
            "-2", "3000",
        ]
        func uv(_ n: Int) -> [UniqueValue] {
            (0..<n).map { UniqueValue(value: values[$0 % values.count], symbol: marker) }
        }
        var out: [Renderer] = [.simple(marker)]
        for field in ["A", "B", "C", "D", "I", "F", "L", "T", "missing"] {
            out.append(
                .classBreaks(
                    ClassBreaksRenderer(
                        field: field, minValue: -1,
                        breaks: [0, 1, 2.5, 4, 1e3, 2e3].map { ClassBreak(maxValue: $0, symbol: marker) },
                        defaultSymbol: marker)))
            out.append(
                .classBreaks(ClassBreaksRenderer(field: field, breaks: [ClassBreak(maxValue: 3, symbol: marker)])))
            out.append(.uniqueValue(UniqueValueRenderer(field: field, uniqueValues: uv(13), defaultSymbol: marker)))
            out.append(.uniqueValue(UniqueValueRenderer(field: field, uniqueValues: uv(4))))
        }
        let combos = ["MN|5|true", "WI|2.5|false", "residential|3|true", "|5|false", "5|5|true"]
        out.append(
            .uniqueValue(
                try UniqueValueRenderer(
                    fields: ["A", "B", "C"], fieldDelimiter: "|",
                    uniqueValues: combos.map { UniqueValue(value: $0, symbol: marker) }, defaultSymbol: marker)))
        out.append(
            .uniqueValue(
                try UniqueValueRenderer(
                    fields: ["D", "A"], fieldDelimiter: "|",
                    uniqueValues: ["5|MN", "true|WI", "x|"].map { UniqueValue(value: $0, symbol: marker) })))
        out.append(
            .uniqueValue(
                try UniqueValueRenderer(
                    fields: ["A", "missing", "B"], fieldDelimiter: "|",
                    uniqueValues: [UniqueValue(value: "MN||5", symbol: marker)], defaultSymbol: marker)))
        return out
    }

    /// The rows as columns, one per field (a row lacking a field is absent in its column).
    static func columns(_ rows: [[String: AttributeValue]]) -> [AttributeColumn] {
        ["A", "B", "C", "D", "I", "F", "L", "T"].map { name in AttributeColumn(name, values: rows.map { $0[name] }) }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func boundLookupsMatchTheDictionaryPath(seed: UInt64) throws {
        var r = SeededRandom(seed: seed)
        let rows = Self.rows(&r, count: 400)
        var columns = Self.columns(rows)
        #expect(columns.map(\.kind) == [.string, .boxed, .boxed, .boxed, .integer, .double, .bool, .date])
        for renderer in try Self.renderers() {
            let bound = BoundRenderer(renderer, columns: columns)
            #expect(bound.isCurrent(for: columns))
            var wrong: [String] = []
            for (i, row) in rows.enumerated()
            where bound.symbolIndex(row: i, in: columns) != renderer.symbolIndex(for: row) {
                wrong.append(
                    "row \(i) \(row): \(bound.symbolIndex(row: i, in: columns)) vs \(renderer.symbolIndex(for: row))")
            }
            #expect(wrong.isEmpty, "\(renderer): \(wrong.prefix(3))")
        }
        // Strings interned after binding (the binding's tables do not know them) still match.
        let renderer = try Self.renderers()[3]
        let bound = BoundRenderer(renderer, columns: columns)
        for s in ["MN", "new value", "WI", "another new one"] { columns[0].append(.string(s)) }
        for (i, s) in ["MN", "new value", "WI", "another new one"].enumerated() {
            let row = rows.count + i
            #expect(bound.symbolIndex(row: row, in: columns) == renderer.symbolIndex(for: ["A": .string(s)]))
        }
    }

    @Test func numericColumnsAreReadUnboxed() {
        let r = Renderer.classBreaks(
            ClassBreaksRenderer(field: "v", breaks: [ClassBreak(maxValue: 10, symbol: Self.marker)]))
        for column in [AttributeColumn("v", integers: [5, 50]), AttributeColumn("v", doubles: [5, 50])] {
            let bound = BoundRenderer(r, columns: [column])
            #expect([0, 1].map { bound.symbolIndex(row: $0, in: [column]) } == [0, -1])
        }
        let strings = AttributeColumn("v", strings: ["5"])
        #expect(
            BoundRenderer(r, columns: [strings]).symbolIndex(row: 0, in: [strings]) == -1, "a string is not numeric")
    }

    @Test func aChangedColumnIsNoLongerCurrent() {
        let r = Renderer.uniqueValue(
            UniqueValueRenderer(field: "v", uniqueValues: [UniqueValue(value: "a", symbol: Self.marker)]))
        var columns = [AttributeColumn("v", strings: ["a"])]
        let bound = BoundRenderer(r, columns: columns)
        columns[0].append(.integer(1))
        #expect(!bound.isCurrent(for: columns), "the column was boxed")
        let none = BoundRenderer(r, columns: [])
        #expect(!none.isCurrent(for: [AttributeColumn("v")]), "the field got a column")
    }
}
