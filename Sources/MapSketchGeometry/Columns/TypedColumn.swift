/// How a typed column stores its values (see ``FieldColumn``).
public enum ColumnKind: String, Hashable, Sendable {
    /// No row has a value yet (every row is null or lacks the field).
    case empty
    /// 64-bit integers.
    case integer
    /// Doubles.
    case double
    /// Bools.
    case bool
    /// Dates, a number each (the column's value type says which: epoch milliseconds for JSON
    /// values).
    case date
    /// Strings, interned: a 32-bit id per row into the column's distinct strings.
    case string
    /// One value per row, boxed: values of more than one type (a mixed field), or values no
    /// typed storage holds.
    case boxed
}

/// How a typed column stores one value: the typed storage it goes to.
@usableFromInline
package enum ColumnCell {
    /// Null: no storage (a bit in the column's null rows).
    case null
    case integer(Int64)
    case double(Double)
    /// A date as its number (the value type's unit).
    case date(Double)
    case bool(Bool)
    case string(String)
    /// A value only a boxed column holds.
    case boxed

    /// The kind of column that stores the cell (`.empty` for null).
    @inlinable
    package var kind: ColumnKind {
        switch self {
        case .null: .empty
        case .integer: .integer
        case .double: .double
        case .date: .date
        case .bool: .bool
        case .string: .string
        case .boxed: .boxed
        }
    }
}

/// A value a ``TypedColumn`` holds: how a typed column stores it, and the value a typed row reads
/// back as.
@usableFromInline
package protocol ColumnValue: Hashable, Sendable {
    /// The value of a row that holds null.
    static var null: Self { get }
    /// How a typed column stores the value.
    var cell: ColumnCell { get }
    /// The value stored as `cell` (never `.boxed`).
    init(cell: ColumnCell)
    /// Whether integers and doubles are one kind of number (JSON's): an integer column takes a
    /// double by turning into a double column, and a double or date column takes an integer as
    /// a double, while every integer involved is within ±2⁵³ (converted exactly); otherwise the
    /// column boxes. When false, a value of another type always boxes the column (so that
    /// `.integer(5)` reads back as `.integer(5)`, not `.double(5)`).
    static var integersWiden: Bool { get }
    /// How many distinct strings a string column makes room for at its first (0: grown as
    /// needed). A column filled from a file in one pass reserves; one filled graphic by graphic
    /// keeps a small layer small.
    static var firstStringRoom: Int { get }
}

/// The values of one field for many rows, stored by type: integers, doubles and dates unboxed in
/// flat arrays, bools as bytes, strings interned (each distinct string stored once; a row holds
/// its 4-byte id), and which rows are null or lack the field as bitmaps: the storage and the
/// rules of every typed column (`FieldColumn` holds JSON values; other modules hold their own
/// value types, see ``ColumnValue``).
///
/// A column has one type, set by its first value. A value of another type turns it into a
/// **boxed** column (one `Value` per row) so nothing is lost, unless the value type widens
/// integers to doubles (see ``ColumnValue/integersWiden``). A column never narrows back.
///
/// A row either has a value, holds null, or lacks the field: ``subscript(_:)`` tells them apart
/// (`Value.null` versus nil). Rows without a value hold a placeholder (0, false, string id 0, or
/// `Value.null`) in the typed storage.
///
/// Per row: 8 bytes for integers, doubles and dates, 4 for strings (plus each distinct string
/// once), 1 for bools; the null and absent bitmaps exist only once a row needs them (1 bit per
/// row each).
@usableFromInline
package struct TypedColumn<Value: ColumnValue>: Sendable {
    /// The field name.
    package let name: String
    /// How the values are stored.
    @usableFromInline package internal(set) var kind: ColumnKind = .empty
    /// The number of rows.
    @usableFromInline package internal(set) var count = 0

    /// `.integer` rows.
    @usableFromInline package internal(set) var integers: [Int64] = []
    /// `.double` rows, or `.date` rows as the value type's date numbers.
    @usableFromInline package internal(set) var doubles: [Double] = []
    /// `.bool` rows.
    @usableFromInline package internal(set) var bools: [Bool] = []
    /// `.string` rows: ids into `strings`.
    @usableFromInline package internal(set) var stringIDs: [UInt32] = []
    /// The distinct strings of a `.string` column, by id.
    @usableFromInline package internal(set) var strings: [String] = []
    /// `.boxed` rows.
    @usableFromInline package internal(set) var boxed: [Value] = []
    /// Rows with no value: null or absent.
    @usableFromInline package internal(set) var noValue = _RowBits()
    /// Rows that lack the field (a subset of `noValue`).
    @usableFromInline package internal(set) var absent = _RowBits()
    /// String → id, built when a string is first interned after a bulk load.
    @usableFromInline var stringIndex = _InternTable()
    /// How many of `strings` `stringIndex` holds.
    @usableFromInline var indexedStrings = 0
    /// Rows an `.empty` column was asked to make room for (its first value picks the storage).
    var reservedRows = 0

    /// An empty column.
    package init(_ name: String) { self.name = name }

    /// An empty column fixed to `kind` (a declared field type): values of its type go to its
    /// storage, others change it as any value of another type does.
    package init(_ name: String, kind: ColumnKind) {
        self.name = name
        self.kind = kind
    }

    /// A column of integers.
    package init(_ name: String, integers: [Int64]) {
        self.name = name
        kind = .integer
        self.integers = integers
        count = integers.count
    }

    /// A column of doubles, or (`kind` `.date`) of dates as the value type's date numbers.
    package init(_ name: String, doubles: [Double], kind: ColumnKind = .double) {
        precondition(kind == .double || kind == .date, "a column of doubles is of doubles or dates")
        self.name = name
        self.kind = kind
        self.doubles = doubles
        count = doubles.count
    }

    /// A column of bools.
    package init(_ name: String, bools: [Bool]) {
        self.name = name
        kind = .bool
        self.bools = bools
        count = bools.count
    }

    /// A column of strings, each distinct one stored once.
    /// - Complexity: O(n) hashes.
    package init(_ name: String, strings: [String]) {
        self.name = name
        kind = .string
        stringIDs.reserveCapacity(strings.count)
        for s in strings { stringIDs.append(intern(s)) }
        count = strings.count
    }

    /// A column from interned strings: `dictionary[ids[i]]` is row i's value.
    /// - Precondition: every id is below `dictionary.count`.
    package init(_ name: String, stringIDs ids: [UInt32], dictionary: [String]) {
        precondition(ids.allSatisfy { Int($0) < dictionary.count }, "a string id past the dictionary")
        self.name = name
        kind = .string
        stringIDs = ids
        strings = dictionary
        count = ids.count
    }

    /// A column of any values: nil for a row that lacks the field.
    /// - Complexity: O(n).
    package init(_ name: String, values: [Value?]) {
        self.name = name
        for v in values { append(v) }
    }

    /// Row `row`'s value: nil when the row lacks the field, `Value.null` when it holds null.
    @inlinable
    package subscript(row: Int) -> Value? {
        if noValue.contains(row) { return absent.contains(row) ? nil : .null }
        switch kind {
        case .empty: return .null
        case .integer: return Value(cell: .integer(integers[row]))
        case .double: return Value(cell: .double(doubles[row]))
        case .bool: return Value(cell: .bool(bools[row]))
        case .date: return Value(cell: .date(doubles[row]))
        case .string: return Value(cell: .string(strings[Int(stringIDs[row])]))
        case .boxed: return boxed[row]
        }
    }

    /// Whether row `row` holds null.
    package func isNull(_ row: Int) -> Bool { noValue.contains(row) && !absent.contains(row) }

    /// Whether row `row` lacks the field.
    package func isAbsent(_ row: Int) -> Bool { absent.contains(row) }

    /// The number of distinct strings a `.string` column holds (0 for other kinds).
    package var distinctStringCount: Int { kind == .string ? strings.count : 0 }

    // MARK: Appending

    /// Appends a row: nil for a row that lacks the field.
    /// - Complexity: O(1) amortised (a change to a boxed column is O(n), once).
    @inlinable
    package mutating func append(_ value: Value?) {
        // The common case first: a value of the column's own type, without comparing values.
        if let value {
            switch (kind, value.cell) {
            case (.integer, .integer(let i)): integers.append(i)
            case (.string, .string(let s)): stringIDs.append(intern(s))
            case (.double, .double(let d)): doubles.append(d)
            case (.bool, .bool(let b)): bools.append(b)
            default:
                appendOther(value)
                return
            }
            count &+= 1
        } else {
            appendOther(nil)
        }
    }

    /// ``append(_:)`` of a row that lacks a value, holds null, or changes the column's kind.
    @usableFromInline
    mutating func appendOther(_ value: Value?) {
        let row = count
        let cell = value?.cell ?? .null
        guard let value, cell.kind != .empty else {
            appendPlaceholder()
            count += 1
            noValue.insert(row)
            if value == nil { absent.insert(row) }
            return
        }
        admit(cell)
        store(cell, value, at: row)
        count += 1
    }

    /// Appends `n` rows that lack the field.
    /// - Complexity: O(n).
    package mutating func appendAbsent(_ n: Int) {
        guard n > 0 else { return }
        for _ in 0..<n {
            count += 1
            appendPlaceholder()
        }
        noValue.insert(count - n..<count)
        absent.insert(count - n..<count)
    }

    /// Appends rows that lack the field until there are `n`.
    @inline(__always)
    package mutating func pad(to n: Int) {
        if n > count { appendAbsent(n - count) }
    }

    /// Appends a row holding the string of id `id` (an id this column gave out).
    /// - Precondition: the column holds strings.
    @inline(__always)
    package mutating func appendStringID(_ id: UInt32) {
        precondition(kind == .string, "a string id in a column of \(kind)")
        count += 1
        stringIDs.append(id)
    }

    /// The id of the last row's string, when the column holds strings and has rows.
    package var lastStringID: UInt32? { kind == .string ? stringIDs.last : nil }

    /// Replaces the last row's value (a key repeated in one object: the last value wins), as if
    /// the row had been appended with it.
    package mutating func replaceLast(_ value: Value) {
        truncate(rows: count - 1, strings: strings.count)
        append(value)
    }

    /// Replaces row `row`'s value (`nil`: the row lacks the field).
    /// - Complexity: O(1) (a change to a boxed column is O(n), once).
    package mutating func set(_ row: Int, _ value: Value?) {
        let cell = value?.cell ?? .null
        guard let value, cell.kind != .empty else {
            noValue.insert(row)
            if value == nil { absent.insert(row) } else { absent.remove(row) }
            return
        }
        admit(cell)
        noValue.remove(row)
        absent.remove(row)
        store(cell, value, at: row)
    }

    /// Whether appending `value` keeps the column's kind (a value of its own type, null, a
    /// missing value, or any value in a boxed column).
    package func keepsKind(appending value: Value?) -> Bool {
        guard let value else { return true }
        return admission(of: value.cell) == .fits
    }
}

extension TypedColumn: Equatable {
    /// Whether two columns have the same name and the same rows (values, nulls and missing
    /// values), however they store them.
    @usableFromInline
    package static func == (a: TypedColumn, b: TypedColumn) -> Bool {
        a.name == b.name && a.count == b.count && (0..<a.count).allSatisfy { a[$0] == b[$0] }
    }
}
