public import Foundation

/// The values of one attribute field for many graphics, stored by type: integers, doubles and
/// dates unboxed in flat arrays, bools as bytes, strings interned (each distinct string stored
/// once; a row holds its 4-byte id), and which rows are null or lack the field as bitmaps.
///
/// A column has one type, set by its first value. A value of another type turns it into a
/// **boxed** column (one ``AttributeValue`` per row, 24 bytes each) so nothing is lost — e.g. a
/// field holding integers for some graphics and strings for others, or integers and doubles
/// (kept apart so that `.integer(5)` reads back as `.integer(5)`, not `.double(5)`). A column
/// never narrows back.
///
/// A row either has a value, holds `.null`, or lacks the field (the graphic's attribute
/// dictionary has no such key): ``subscript(_:)`` tells them apart (`.null` versus nil).
///
/// Per row: 8 bytes for integers, doubles and dates, 4 for strings (plus each distinct string
/// once), 1 for bools; the null and absent bitmaps exist only once a row needs them (1 bit per
/// row each).
///
/// ```swift
/// var population = AttributeColumn("POP", integers: [382_578, 3_400])
/// population.append(.null)
/// population[2]              // .null
/// population.kind            // .integer
/// population.append("n/a")
/// population.kind            // .boxed
/// ```
public struct AttributeColumn: Sendable, Equatable {
    /// How a column stores its values.
    public enum Kind: String, Hashable, Sendable {
        /// No row has a value yet (every row is null or absent).
        case empty
        /// 64-bit integers.
        case integer
        /// Doubles.
        case double
        /// Bools.
        case bool
        /// Dates (their `timeIntervalSinceReferenceDate`).
        case date
        /// Strings, interned: a 32-bit id per row into the column's distinct strings.
        case string
        /// One ``AttributeValue`` per row: values of more than one type.
        case boxed
    }

    /// The field name.
    public let name: String
    /// How the values are stored.
    public internal(set) var kind: Kind = .empty
    /// The number of rows.
    public private(set) var count = 0

    /// `.integer` rows.
    @usableFromInline var integers: [Int64] = []
    /// `.double` rows, or `.date` rows as seconds since the reference date (a `Date`'s own value).
    @usableFromInline var doubles: [Double] = []
    /// `.bool` rows.
    @usableFromInline var bools: [Bool] = []
    /// `.string` rows: ids into `strings`.
    @usableFromInline var stringIDs: [UInt32] = []
    /// The distinct strings of a `.string` column, by id.
    @usableFromInline var strings: [String] = []
    /// `.boxed` rows.
    @usableFromInline var boxed: [AttributeValue] = []
    /// Rows with no value: null or absent.
    @usableFromInline var noValue = _RowBits()
    /// Rows that lack the field (a subset of `noValue`).
    @usableFromInline var absent = _RowBits()
    /// String → id, built when a string is first interned after a bulk load.
    var stringIndex = _InternTable()
    /// How many of `strings` `stringIndex` holds.
    var indexedStrings = 0
    /// Rows an `.empty` column was asked to make room for (its first value picks the storage).
    var reservedRows = 0

    /// An empty column.
    public init(_ name: String) { self.name = name }

    /// A column of integers.
    public init(_ name: String, integers: [Int]) {
        self.name = name
        kind = .integer
        self.integers = integers.map { Int64($0) }
        count = integers.count
    }

    /// A column of doubles.
    public init(_ name: String, doubles: [Double]) {
        self.name = name
        kind = .double
        self.doubles = doubles
        count = doubles.count
    }

    /// A column of bools.
    public init(_ name: String, bools: [Bool]) {
        self.name = name
        kind = .bool
        self.bools = bools
        count = bools.count
    }

    /// A column of dates.
    public init(_ name: String, dates: [Date]) {
        self.name = name
        kind = .date
        doubles = dates.map(\.timeIntervalSinceReferenceDate)
        count = dates.count
    }

    /// A column of strings, each distinct one stored once.
    /// - Complexity: O(n) hashes.
    public init(_ name: String, strings: [String]) {
        self.name = name
        kind = .string
        stringIDs.reserveCapacity(strings.count)
        for s in strings { stringIDs.append(intern(s)) }
        count = strings.count
    }

    /// A column from interned strings: `dictionary[ids[i]]` is row i's value.
    /// - Precondition: every id is below `dictionary.count`.
    public init(_ name: String, stringIDs ids: [UInt32], dictionary: [String]) {
        precondition(ids.allSatisfy { Int($0) < dictionary.count }, "a string id past the dictionary")
        self.name = name
        kind = .string
        stringIDs = ids
        strings = dictionary
        count = ids.count
    }

    /// A column from storage made elsewhere (a feature reader's column); every array but the
    /// kind's own is empty.
    init(
        _ name: String, kind: Kind, count: Int, integers: [Int64] = [], doubles: [Double] = [], bools: [Bool] = [],
        stringIDs: [UInt32] = [], strings: [String] = [], boxed: [AttributeValue] = [], noValue: [UInt64],
        absent: [UInt64]
    ) {
        self.name = name
        self.kind = kind
        self.count = count
        self.integers = integers
        self.doubles = doubles
        self.bools = bools
        self.stringIDs = stringIDs
        self.strings = strings
        self.boxed = boxed
        self.noValue = _RowBits(words: noValue)
        self.absent = _RowBits(words: absent)
    }

    /// A column of any values: nil for a row that lacks the field. Stored typed when every
    /// non-null value has one type, boxed otherwise.
    /// - Complexity: O(n).
    public init(_ name: String, values: [AttributeValue?]) {
        self.name = name
        for v in values { append(v) }
    }

    /// Row `row`'s value: nil when the row lacks the field, `.null` when it holds null.
    public subscript(row: Int) -> AttributeValue? {
        if noValue.contains(row) { return absent.contains(row) ? nil : .null }
        switch kind {
        case .empty: return .null
        case .integer: return .integer(Int(integers[row]))
        case .double: return .double(doubles[row])
        case .bool: return .bool(bools[row])
        case .date: return .date(Date(timeIntervalSinceReferenceDate: doubles[row]))
        case .string: return .string(strings[Int(stringIDs[row])])
        case .boxed: return boxed[row]
        }
    }

    /// The number of distinct strings a `.string` column holds (0 for other kinds).
    package var distinctStringCount: Int { kind == .string ? strings.count : 0 }

    public static func == (a: AttributeColumn, b: AttributeColumn) -> Bool {
        a.name == b.name && a.count == b.count && (0..<a.count).allSatisfy { a[$0] == b[$0] }
    }

    // MARK: Appending and setting

    /// Appends a row: `nil` for a row that lacks the field.
    /// - Complexity: O(1) amortised (a change to a boxed column is O(n), once).
    public mutating func append(_ value: AttributeValue?) {
        // The common case first: a value of the column's own type, without comparing values.
        switch (kind, value) {
        case (.integer, .integer(let i)?): integers.append(Int64(i))
        case (.string, .string(let s)?): stringIDs.append(intern(s))
        case (.double, .double(let d)?): doubles.append(d)
        case (.bool, .bool(let b)?): bools.append(b)
        default:
            appendOther(value)
            return
        }
        count += 1
    }

    /// Makes room for `n` more rows in the storage of the column's kind (for an empty column:
    /// in the storage its first value picks). Grows at least to double, so many small batches
    /// cost O(1) amortised each.
    /// - Complexity: O(rows) when it moves the storage.
    mutating func reserveCapacity(forAppending n: Int) {
        let need = count + n
        func grow<T>(_ a: inout [T]) {
            if a.capacity < need { a.reserveCapacity(Swift.max(need, 2 * a.capacity)) }
        }
        switch kind {
        case .empty: reservedRows = Swift.max(reservedRows, need)
        case .integer: grow(&integers)
        case .double, .date: grow(&doubles)
        case .bool: grow(&bools)
        case .string: grow(&stringIDs)
        case .boxed: grow(&boxed)
        }
    }

    /// ``append(_:)`` of a row that lacks a value, holds null, or changes the column's kind.
    private mutating func appendOther(_ value: AttributeValue?) {
        let row = count
        guard let value, value != .null else {
            appendPlaceholder()
            count += 1
            noValue.insert(row)
            if value == nil { absent.insert(row) }
            return
        }
        let k = Self.kind(of: value)
        if kind == .empty { become(k, rows: row) } else if kind != .boxed, kind != k { box() }
        switch (kind, value) {
        case (.integer, .integer(let i)): integers.append(Int64(i))
        case (.double, .double(let d)): doubles.append(d)
        case (.date, .date(let d)): doubles.append(d.timeIntervalSinceReferenceDate)
        case (.bool, .bool(let b)): bools.append(b)
        case (.string, .string(let s)): stringIDs.append(intern(s))
        default: boxed.append(value)
        }
        count += 1
    }

    /// Appends `n` rows that lack the field.
    /// - Complexity: O(n).
    mutating func appendAbsent(_ n: Int) {
        guard n > 0 else { return }
        for _ in 0..<n {
            count += 1
            appendPlaceholder()
        }
        noValue.insert(count - n..<count)
        absent.insert(count - n..<count)
    }

    /// Replaces row `row`'s value (`nil`: the row lacks the field).
    /// - Complexity: O(1) (a change to a boxed column is O(n), once).
    mutating func set(_ row: Int, _ value: AttributeValue?) {
        guard let value, value != .null else {
            noValue.insert(row)
            if value == nil { absent.insert(row) } else { absent.remove(row) }
            return
        }
        let k = Self.kind(of: value)
        if kind == .empty { become(k, rows: count) } else if kind != .boxed, kind != k { box() }
        noValue.remove(row)
        absent.remove(row)
        switch (kind, value) {
        case (.integer, .integer(let i)): integers[row] = Int64(i)
        case (.double, .double(let d)): doubles[row] = d
        case (.date, .date(let d)): doubles[row] = d.timeIntervalSinceReferenceDate
        case (.bool, .bool(let b)): bools[row] = b
        case (.string, .string(let s)): stringIDs[row] = intern(s)
        default: boxed[row] = value
        }
    }

    /// Appends every row of `other` (a column of the same field).
    /// - Complexity: O(m) for m rows of `other`, plus a hash per distinct string of `other`.
    mutating func append(contentsOf other: AttributeColumn) {
        let base = count
        if kind == .empty, other.kind != .empty { become(other.kind, rows: base) }
        if other.kind == .empty {
            for _ in 0..<other.count { appendPlaceholder() }
        } else if base == 0 {
            // A bulk load into an empty column adopts the batch's storage as it is (shared
            // until one of them changes).
            integers = other.integers
            doubles = other.doubles
            bools = other.bools
            stringIDs = other.stringIDs
            strings = other.strings
            boxed = other.boxed
            stringIndex = _InternTable()
            indexedStrings = 0
            kind = other.kind
        } else if kind == other.kind {
            switch kind {
            case .integer: integers.append(contentsOf: other.integers)
            case .double, .date: doubles.append(contentsOf: other.doubles)
            case .bool: bools.append(contentsOf: other.bools)
            case .string: appendMapped(other)
            case .boxed: boxed.append(contentsOf: other.boxed)
            case .empty: break
            }
        } else {
            if kind != .boxed { box() }
            boxed.reserveCapacity(base + other.count)
            for r in 0..<other.count { boxed.append(other[r] ?? .null) }
        }
        count += other.count
        noValue.append(other.noValue, at: base)
        absent.append(other.absent, at: base)
    }

    /// Whether appending `value` keeps the column's kind (a value of its own type, null, a
    /// missing value, or any value in a boxed column).
    func keepsKind(appending value: AttributeValue?) -> Bool {
        switch (kind, value) {
        case (_, nil), (_, .null?), (.boxed, _), (.integer, .integer?), (.double, .double?), (.date, .date?),
            (.bool, .bool?), (.string, .string?):
            true
        default: false
        }
    }

    /// Drops every row from `row` on, and every distinct string from `strings` on (what a
    /// failed bulk add appended after them; the column keeps its kind).
    /// - Complexity: O(rows dropped).
    mutating func truncate(rows row: Int, strings keep: Int) {
        let k = count - row
        precondition(k >= 0, "truncating a column to more rows than it has")
        switch kind {
        case .empty: break
        case .integer: integers.removeLast(k)
        case .double, .date: doubles.removeLast(k)
        case .bool: bools.removeLast(k)
        case .string: stringIDs.removeLast(k)
        case .boxed: boxed.removeLast(k)
        }
        count = row
        noValue.removeAll(from: row)
        absent.removeAll(from: row)
        if kind == .string, strings.count > keep {
            strings.removeLast(strings.count - keep)
            // Rebuilt from `strings` on the next intern.
            stringIndex = _InternTable()
            indexedStrings = 0
        }
    }

    /// Keeps only the rows where `keep` is true, in order.
    /// - Complexity: O(n).
    mutating func filter(_ keep: [Bool]) {
        var out = AttributeColumn(name)
        out.kind = kind
        out.strings = strings
        out.stringIndex = stringIndex
        out.indexedStrings = indexedStrings
        for r in 0..<count where keep[r] {
            let w = out.count
            out.count += 1
            switch kind {
            case .empty: break
            case .integer: out.integers.append(integers[r])
            case .double, .date: out.doubles.append(doubles[r])
            case .bool: out.bools.append(bools[r])
            case .string: out.stringIDs.append(stringIDs[r])
            case .boxed: out.boxed.append(boxed[r])
            }
            if noValue.contains(r) { out.noValue.insert(w) }
            if absent.contains(r) { out.absent.insert(w) }
        }
        self = out
    }
}
