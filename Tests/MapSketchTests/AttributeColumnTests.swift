import Foundation
@testable import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Attribute columns give back exactly the values put in — typed while one type is seen, boxed
/// once a second type arrives — and keep null apart from a missing field.
@Suite struct AttributeColumnTests {
    @Test func typedColumnsRoundTrip() {
        let dates = [Date(timeIntervalSinceReferenceDate: 0.1), Date(timeIntervalSince1970: 1_315_958_400.123)]
        let columns = [
            AttributeColumn("i", integers: [1, -5, .max]), AttributeColumn("d", doubles: [0.1, -0.0, 1e300]),
            AttributeColumn("b", bools: [true, false]), AttributeColumn("t", dates: dates),
            AttributeColumn("s", strings: ["MN", "WI", "MN", "", "a string longer than sixteen bytes"]),
        ]
        #expect(columns.map(\.kind) == [.integer, .double, .bool, .date, .string])
        #expect(columns[0][2] == .integer(.max))
        #expect(
            columns[1][1].map { if case .double(let d) = $0 { d.sign == .minus } else { false } } == true,
            "-0.0 keeps its sign")
        #expect(columns[3][0] == .date(dates[0]) && columns[3][1] == .date(dates[1]), "dates round-trip to the bit")
        #expect(columns[4].storage.distinctStringCount == 4, "each distinct string once")
        #expect((0..<5).map { columns[4][$0] } == ["MN", "WI", "MN", "", "a string longer than sixteen bytes"])
    }

    @Test func nullIsNotAbsent() {
        var c = AttributeColumn("x", values: [nil, .null, 5, nil])
        #expect(c.kind == .integer)
        #expect(c[0] == nil && c[1] == .null && c[2] == .integer(5) && c[3] == nil)
        c.storage.set(0, 7)
        c.storage.set(2, .null)
        c.storage.set(1, nil)
        #expect(c[0] == .integer(7) && c[1] == nil && c[2] == .null)
        let empty = AttributeColumn("e", values: [nil, .null])
        #expect(empty.kind == .empty && empty[0] == nil && empty[1] == .null)
    }

    @Test func aSecondTypeBoxesTheColumnWithoutLosingValues() {
        var c = AttributeColumn("code", integers: [1, 2])
        c.append(.null)
        c.append(nil)
        c.append(.double(2.5))
        #expect(c.kind == .boxed, "integers and doubles stay apart")
        c.append("n/a")
        c.append(.integer(3))
        #expect(
            (0..<c.count).map { c[$0] } == [
                .integer(1), .integer(2), .null, nil, .double(2.5), .string("n/a"), .integer(3),
            ])
        var s = AttributeColumn("s", strings: ["a", "b"])
        s.storage.set(1, .bool(true))
        #expect(s.kind == .boxed && s[0] == "a" && s[1] == .bool(true))
    }

    /// Random values of every kind appended one by one, in batches (`append(contentsOf:)`) and
    /// set in place, against a plain array of the same values.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func matchesAnArrayOfValues(seed: UInt64) {
        var r = SeededRandom(seed: seed)
        func value(_ kind: Int) -> AttributeValue? {
            switch r.int(in: 0...9) {
            case 0: return nil
            case 1: return .null
            default: break
            }
            switch kind {
            case 0: return .integer(r.int(in: -1000...1000))
            case 1: return .double(r.double(in: -1...1))
            case 2: return .bool(r.int(in: 0...1) == 1)
            case 3: return .date(Date(timeIntervalSinceReferenceDate: r.double(in: -1e9...1e9)))
            default:
                return .string(
                    ["MN", "WI", "a fairly long string value", ""][r.int(in: 0...3)]
                        + (r.int(in: 0...3) == 0 ? "\(r.int(in: 0...99))" : ""))
            }
        }
        for _ in 0..<30 {
            // Mostly one kind; a fifth of the columns mix kinds.
            let kind = r.int(in: 0...4)
            let mixed = r.int(in: 0...4) == 0
            func next() -> AttributeValue? { value(mixed ? r.int(in: 0...4) : kind) }
            var truth: [AttributeValue?] = []
            var column = AttributeColumn("f")
            for _ in 0..<r.int(in: 0...40) {
                let v = next()
                truth.append(v)
                column.append(v)
            }
            var batch = AttributeColumn("f")
            for _ in 0..<r.int(in: 0...40) {
                let v = next()
                truth.append(v)
                batch.append(v)
            }
            column.storage.append(contentsOf: batch.storage)
            column.storage.appendAbsent(2)
            truth += [nil, nil]
            for _ in 0..<10 where !truth.isEmpty {
                let i = r.int(in: 0...(truth.count - 1))
                let v = next()
                truth[i] = v
                column.storage.set(i, v)
            }
            #expect(column.count == truth.count)
            #expect((0..<column.count).map { column[$0] } == truth, "kind \(kind) mixed \(mixed): \(column.kind)")
            let keep = truth.indices.map { _ in r.int(in: 0...2) > 0 }
            column.storage.filter(keep)
            #expect((0..<column.count).map { column[$0] } == truth.indices.filter { keep[$0] }.map { truth[$0] })
        }
    }

    @Test func batchesOfStringsMergeDictionaries() {
        var c = AttributeColumn("s", strings: ["x", "y"])
        c.storage.append(contentsOf: AttributeColumn("s", stringIDs: [1, 0, 1], dictionary: ["y", "z"]).storage)
        #expect((0..<5).map { c[$0] } == ["x", "y", "z", "y", "z"])
        #expect(c.storage.distinctStringCount == 3, "y is interned once")
        var fresh = AttributeColumn("s")
        fresh.storage.append(contentsOf: AttributeColumn("s", stringIDs: [0, 0], dictionary: ["only"]).storage)
        fresh.append("only")
        #expect(fresh.storage.distinctStringCount == 1 && fresh[2] == "only")
    }

    @Test func reservedRoomDoesNotChangeValues() {
        // An empty column remembers the room asked for until its first value picks the storage.
        var c = AttributeColumn("n")
        c.storage.appendAbsent(3)
        c.storage.reserveCapacity(forAppending: 1_000)
        c.append(.null)
        c.append(7)
        c.storage.reserveCapacity(forAppending: 2)
        for i in 0..<600 { c.append(.integer(i)) }
        c.append("seven")
        #expect(c.kind == .boxed)
        #expect(c.count == 606)
        #expect(c[0] == nil && c[3] == .null && c[4] == 7 && c[5] == 0 && c[604] == 599 && c[605] == "seven")
    }

    @Test func anEmptyInternTableFindsNothingAndGrowsOnInsert() {
        var t = _InternTable()
        #expect(t.lookup("short") == -1 && t.lookup("a string longer than sixteen bytes") == -1)
        #expect(t.lookup(number: 3) == -1 && t.lookup(.bool(true)) == -1 && t.lookup(.bool(false)) == -1)
        t.insert("short", id: 0)
        t.insert("a string longer than sixteen bytes", id: 1)
        t.insert(number: 3, id: 2)
        t.insert(bool: true, id: 3)
        #expect(t.lookup("short") == 0 && t.lookup("a string longer than sixteen bytes") == 1)
        #expect(t.lookup(number: 3) == 2 && t.lookup(.bool(true)) == 3 && t.lookup(.bool(false)) == -1)
        for i in 0..<100 { t.insert(number: Double(i) + 0.5, id: Int32(10 + i)) }
        #expect((0..<100).allSatisfy { t.lookup(number: Double($0) + 0.5) == Int32(10 + $0) })
    }
}
