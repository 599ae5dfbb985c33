public import Foundation
public import MapSketchGeometry

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
    /// How a column stores its values: integers, doubles, bools, dates (their
    /// `timeIntervalSinceReferenceDate`), interned strings, or one ``AttributeValue`` per row
    /// (boxed).
    public typealias Kind = ColumnKind

    /// The rows.
    @usableFromInline package var storage: TypedColumn<AttributeValue>

    /// A column around its rows.
    init(_ storage: TypedColumn<AttributeValue>) { self.storage = storage }

    /// An empty column.
    public init(_ name: String) { storage = TypedColumn(name) }

    /// A column of integers.
    public init(_ name: String, integers: [Int]) { storage = TypedColumn(name, integers: integers.map { Int64($0) }) }

    /// A column of doubles.
    public init(_ name: String, doubles: [Double]) { storage = TypedColumn(name, doubles: doubles) }

    /// A column of bools.
    public init(_ name: String, bools: [Bool]) { storage = TypedColumn(name, bools: bools) }

    /// A column of dates.
    public init(_ name: String, dates: [Date]) {
        storage = TypedColumn(name, doubles: dates.map(\.timeIntervalSinceReferenceDate), kind: .date)
    }

    /// A column of strings, each distinct one stored once.
    /// - Complexity: O(n) hashes.
    public init(_ name: String, strings: [String]) { storage = TypedColumn(name, strings: strings) }

    /// A column from interned strings: `dictionary[ids[i]]` is row i's value.
    /// - Precondition: every id is below `dictionary.count`.
    public init(_ name: String, stringIDs ids: [UInt32], dictionary: [String]) {
        storage = TypedColumn(name, stringIDs: ids, dictionary: dictionary)
    }

    /// A column of any values: nil for a row that lacks the field. Stored typed when every
    /// non-null value has one type, boxed otherwise.
    /// - Complexity: O(n).
    public init(_ name: String, values: [AttributeValue?]) { storage = TypedColumn(name, values: values) }

    /// The field name.
    public var name: String { storage.name }
    /// How the values are stored.
    public var kind: Kind { storage.kind }
    /// The number of rows.
    public var count: Int { storage.count }

    /// Row `row`'s value: nil when the row lacks the field, `.null` when it holds null.
    @inlinable
    public subscript(row: Int) -> AttributeValue? { storage[row] }

    /// Appends a row: `nil` for a row that lacks the field.
    /// - Complexity: O(1) amortised (a change to a boxed column is O(n), once).
    @inlinable
    public mutating func append(_ value: AttributeValue?) { storage.append(value) }
}

extension AttributeValue: ColumnValue {
    /// Integers, doubles, bools, strings and dates (their `timeIntervalSinceReferenceDate`) are
    /// stored typed.
    @inlinable
    package var cell: ColumnCell {
        switch self {
        case .null: .null
        case .integer(let i): .integer(Int64(i))
        case .double(let d): .double(d)
        case .bool(let b): .bool(b)
        case .date(let d): .date(d.timeIntervalSinceReferenceDate)
        case .string(let s): .string(s)
        }
    }

    /// The value a typed row holds.
    @inlinable
    package init(cell: ColumnCell) {
        switch cell {
        case .integer(let i): self = .integer(Int(i))
        case .double(let d): self = .double(d)
        case .bool(let b): self = .bool(b)
        case .date(let d): self = .date(Date(timeIntervalSinceReferenceDate: d))
        case .string(let s): self = .string(s)
        case .null, .boxed: self = .null
        }
    }

    /// Integers and doubles are kept apart: a column holding both is boxed.
    @inlinable
    package static var integersWiden: Bool { false }
    @usableFromInline package static var firstStringRoom: Int { 0 }
}

extension _InternTable {
    /// The id of an attribute value, or -1 (null never matches).
    @inlinable @inline(__always)
    func lookup(_ v: AttributeValue) -> Int32 {
        switch v {
        case .string(let s): return lookup(s)
        case .integer(let i): return lookup(number: Double(i))
        case .double(let d): return lookup(number: d)
        case .bool(let b): return boolIDs[b ? 1 : 0]
        case .date: return lookup(number: v.numericValue ?? .nan)
        case .null: return -1
        }
    }
}
