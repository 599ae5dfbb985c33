import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The one typed column behind the feature readers' fields (JSON values) and the map model's
/// attribute columns: its kind follows a declarative rule over every value it was given, it reads
/// back what went in (an integer among doubles as the same number), and null stays apart from a
/// missing field, through appends, batches, sets, truncation and filtering.
@Suite struct TypedColumnTests {
    /// The kind a column of JSON values has after taking `values` (in any order): none → empty;
    /// one kind → that kind; integers and doubles → doubles while every integer is within ±2⁵³;
    /// anything else → boxed.
    static func expectedKind(_ values: [JSONValue?]) -> ColumnKind {
        var kinds = Set<ColumnKind>()
        var exact = true
        for case let v? in values {
            switch v {
            case .null: continue
            case .integer(let i):
                kinds.insert(.integer)
                if i.magnitude > 1 << 53 { exact = false }
            case .number: kinds.insert(.double)
            case .bool: kinds.insert(.bool)
            case .string: kinds.insert(.string)
            case .array, .object: kinds.insert(.boxed)
            }
        }
        if kinds.isEmpty { return .empty }
        if kinds.count == 1 { return kinds.first! }
        return kinds == [.integer, .double] && exact ? .double : .boxed
    }

    /// Whether a row that was given `given` reads back as `read`: the same value, or an integer
    /// as the same number once its column held doubles (a double column, or a boxed one that
    /// was a double column first). A double column reads no row as an integer.
    static func same(_ read: JSONValue?, _ given: JSONValue?, _ kind: ColumnKind) -> Bool {
        guard case .integer(let i)? = given else { return read == given }
        if kind == .double { return read == .number(Double(i)) }
        return read == given || (kind == .boxed && read == .number(Double(i)))
    }

    static func same(_ column: TypedColumn<JSONValue>, _ truth: [JSONValue?]) -> Bool {
        column.count == truth.count && truth.indices.allSatisfy { same(column[$0], truth[$0], column.kind) }
    }

    static func value(_ r: inout SeededRandom, _ kind: Int) -> JSONValue? {
        switch r.int(in: 0...9) {
        case 0: return nil
        case 1: return .null
        default: break
        }
        switch kind {
        case 0: return .integer(Int64(r.int(in: -1000...1000)))
        case 1: return .number(r.double(in: -1...1))
        case 2: return .bool(r.int(in: 0...1) == 1)
        case 3: return .string(["MN", "WI", "a string longer than sixteen bytes", ""][r.int(in: 0...3)])
        case 4: return .integer(r.int(in: 0...1) == 0 ? 1 << 53 : (1 << 53) + 1)  // the edge of exact doubles
        default: return .array([.integer(Int64(r.int(in: 0...9)))])
        }
    }

    /// Random JSON values appended one by one and in batches, then set, truncated and filtered,
    /// against a plain array: the kind follows ``expectedKind(_:)`` and every row reads back.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func jsonValuesFollowTheRuleAndReadBack(seed: UInt64) {
        var r = SeededRandom(seed: seed)
        for _ in 0..<40 {
            // Mostly one kind; integers with doubles often (the widening); any mix sometimes.
            let kinds: [Int] = [
                [0], [1], [2], [3], [0, 1], [0, 1, 4], [0, 4], [r.int(in: 0...5), r.int(in: 0...5)],
            ][r.int(in: 0...7)]
            func next() -> JSONValue? { Self.value(&r, kinds[r.int(in: 0...(kinds.count - 1))]) }
            var truth: [JSONValue?] = []
            var seen: [JSONValue?] = []
            var column = TypedColumn<JSONValue>("f")
            for _ in 0..<r.int(in: 0...30) {
                let v = next()
                truth.append(v)
                column.append(v)
            }
            var batch = TypedColumn<JSONValue>("f")
            for _ in 0..<r.int(in: 0...30) {
                let v = next()
                truth.append(v)
                batch.append(v)
            }
            column.append(contentsOf: batch)
            column.appendAbsent(2)
            truth += [nil, nil]
            seen = truth
            #expect(column.kind == Self.expectedKind(seen), "\(kinds): \(seen)")
            #expect(Self.same(column, truth), "\(kinds) \(column.kind)")
            for _ in 0..<8 where !truth.isEmpty {
                let i = r.int(in: 0...(truth.count - 1))
                let v = next()
                truth[i] = v
                seen.append(v)
                column.set(i, v)
            }
            // (An integer past 2^53 that a set overwrote no longer keeps doubles out.)
            if !kinds.contains(4) { #expect(column.kind == Self.expectedKind(seen), "\(kinds): \(seen)") }
            #expect(Self.same(column, truth), "\(kinds) \(column.kind)")
            #expect((0..<column.count).allSatisfy { column.isNull($0) == (truth[$0] == .null) })
            #expect((0..<column.count).allSatisfy { column.isAbsent($0) == (truth[$0] == nil) })
            let keep = truth.indices.map { _ in r.int(in: 0...2) > 0 }
            let kind = column.kind
            column.filter(keep)
            truth = truth.indices.filter { keep[$0] }.map { truth[$0] }
            #expect(column.kind == kind && Self.same(column, truth))
            let rows = r.int(in: 0...truth.count)
            column.truncate(rows: rows, strings: column.distinctStringCount)
            #expect(column.kind == kind && Self.same(column, Array(truth.prefix(rows))))
        }
    }

    @Test func integersWidenToDoublesOnlyExactly() {
        var c = TypedColumn<JSONValue>("n", values: [.integer(1), nil, .null, .integer(-(1 << 53))])
        #expect(c.kind == .integer)
        c.append(.number(2.5))
        #expect(c.kind == .double, "every integer within ±2^53 converts exactly")
        #expect((0..<5).map { c[$0] } == [.number(1), nil, .null, .number(-0x1p53), .number(2.5)])
        c.append(.integer(7))
        c.append(.integer((1 << 53) + 1))
        #expect(c.kind == .boxed, "an integer past 2^53 has no exact double")
        #expect(c[5] == .number(7) && c[6] == .integer((1 << 53) + 1), "rows keep what they read as")
        var big = TypedColumn<JSONValue>("b", values: [.integer((1 << 53) + 1)])
        big.append(.number(0.5))
        #expect(big.kind == .boxed && big[0] == .integer((1 << 53) + 1) && big[1] == .number(0.5))
    }

    @Test func aDeclaredDateColumnTakesNumbers() {
        var d = TypedColumn<JSONValue>("d", kind: .date)
        d.append(.integer(1_315_958_400_000))
        d.append(.number(0.5))
        d.append(nil)
        #expect(d.kind == .date && d.doubles == [1_315_958_400_000, 0.5, 0])
        #expect(d[0] == .number(1_315_958_400_000) && d[2] == nil)
        d.append("not a date")
        #expect(d.kind == .boxed && d[1] == .number(0.5) && d[3] == "not a date")
    }

    @Test func replacingTheLastRowIsAppendingItAgain() {
        var c = TypedColumn<JSONValue>("r", values: [.integer(1), .integer((1 << 53) + 1)])
        c.replaceLast(.number(0.5))
        #expect(
            c.kind == .double && c[0] == .number(1) && c[1] == .number(0.5), "the replaced integer no longer blocks")
        var s = TypedColumn<JSONValue>("s", values: ["a"])
        s.replaceLast(.null)
        s.replaceLast("b")
        #expect(s.kind == .string && s[0] == "b" && !s.isNull(0) && s.count == 1)
        s.append(nil)
        s.replaceLast("a")
        #expect(s[1] == "a" && !s.isAbsent(1) && s.distinctStringCount == 2)
    }

    @Test func batchesOfOtherTypesGoRowByRow() {
        var ints = TypedColumn<JSONValue>("x", values: [.integer(1), nil])
        ints.append(contentsOf: TypedColumn("x", values: [.number(1.5), .null]))
        #expect(ints.kind == .double && (0..<4).map { ints[$0] } == [.number(1), nil, .number(1.5), .null])
        var strings = TypedColumn<JSONValue>("x", values: ["a"])
        strings.append(contentsOf: TypedColumn("x", values: [.integer(2)]))
        #expect(strings.kind == .boxed && strings[0] == "a" && strings[1] == .integer(2))
    }

    @Test func stringsAreInternedOncePerColumn() {
        var c = TypedColumn<JSONValue>("s", stringIDs: [1, 0, 1], dictionary: ["y", "z"])
        for s in ["z", "y", "x", "a string longer than sixteen bytes", "x"] { c.append(.string(s)) }
        #expect(c.distinctStringCount == 4 && c.strings == ["y", "z", "x", "a string longer than sixteen bytes"])
        #expect(c.stringIDs == [1, 0, 1, 1, 0, 2, 3, 2])
        var fresh = TypedColumn<JSONValue>("f")
        for i in 0..<200 { fresh.append(.string("v\(i % 70)")) }
        #expect(fresh.distinctStringCount == 70 && (0..<200).allSatisfy { fresh[$0] == .string("v\($0 % 70)") })
    }
}
