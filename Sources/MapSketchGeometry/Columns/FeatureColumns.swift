/// Features as columns: a geometry column and one typed column per attribute field, a row per
/// feature — what ``GeoJSON/decodeColumns(_:options:)-(String,_)`` and
/// ``EsriJSON/decodeColumns(_:options:)-(String,_)`` read a FeatureCollection or a FeatureSet
/// into, without a dictionary or a `Geometry` value per feature kept.
///
/// The map model loads these as a batch of graphics (`GraphicColumns(_:)` in MapSketch).
public struct FeatureColumns: Sendable, Equatable {
    /// The features' geometries (a feature without one has the empty point).
    public var geometry: GeometryColumn
    /// The attribute fields, in the order they were first met.
    public var fields: [FieldColumn]
    /// The spatial reference of the coordinates.
    public var spatialReference: SpatialReference?

    /// Creates a set of feature columns.
    package init(geometry: GeometryColumn, fields: [FieldColumn] = [], spatialReference: SpatialReference? = nil) {
        self.geometry = geometry
        self.fields = fields
        self.spatialReference = spatialReference
    }

    /// The number of features.
    public var count: Int { geometry.count }

    /// The field called `name`, if any feature had it.
    public func field(named name: String) -> FieldColumn? { fields.first { $0.name == name } }
}

/// One attribute field of many features, stored by type: integers, doubles and dates unboxed,
/// bools as bytes, strings interned (each distinct string once, a 4-byte id per row), and which
/// rows are null or lack the field as bitmaps.
///
/// The type follows the values: integers stay integers until a non-integer number arrives (then
/// the column holds doubles, every integer converted exactly; one beyond ±2⁵³ makes it mixed);
/// an Esri JSON `fields` declaration fixes it (`esriFieldTypeDate` makes a date column of epoch
/// milliseconds). A value that fits no typed column — a string among numbers, an object or an
/// array in GeoJSON properties — makes the column **mixed**: one ``JSONValue`` per row, nothing
/// lost.
public struct FieldColumn: Sendable, Equatable {
    /// How a column stores its values.
    public enum Kind: String, Hashable, Sendable {
        /// No row has a value (every row is null or lacks the field).
        case empty
        /// 64-bit integers: ``integers``.
        case integer
        /// Doubles: ``doubles``.
        case double
        /// Bools: ``bools``.
        case bool
        /// Dates as milliseconds since 1970: ``doubles``.
        case date
        /// Interned strings: ``stringIDs`` into ``strings``.
        case string
        /// Any JSON value per row: ``mixed``.
        case mixed
    }

    /// The field name.
    public let name: String
    /// How the values are stored.
    public private(set) var kind: Kind = .empty
    /// The number of rows.
    public private(set) var count = 0
    /// `.integer` rows (0 where a row has no value).
    public private(set) var integers: [Int64] = []
    /// `.double` rows, or `.date` rows in epoch milliseconds.
    public private(set) var doubles: [Double] = []
    /// `.bool` rows.
    public private(set) var bools: [Bool] = []
    /// `.string` rows: ids into ``strings``.
    package private(set) var stringIDs: [UInt32] = []
    /// The distinct strings of a `.string` column, by id.
    public private(set) var strings: [String] = []
    /// `.mixed` rows.
    package private(set) var mixed: [JSONValue] = []
    /// Bit r of word r / 64: row r is null or lacks the field.
    package private(set) var noValueWords: [UInt64] = []
    /// Bit r of word r / 64: row r lacks the field.
    package private(set) var absentWords: [UInt64] = []
    private var stringIndex: [String: UInt32] = [:]

    /// An empty column.
    package init(_ name: String) { self.name = name }

    /// A column of typed values, fixed to `kind` (values of another type make it mixed).
    init(_ name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// Whether row `row` holds null.
    package func isNull(_ row: Int) -> Bool { Self.bit(noValueWords, row) && !Self.bit(absentWords, row) }

    /// Whether row `row` lacks the field.
    package func isAbsent(_ row: Int) -> Bool { Self.bit(absentWords, row) }

    /// Row `row`'s value as JSON (dates as their epoch milliseconds): nil when the row lacks the
    /// field, `.null` when it holds null.
    package subscript(row: Int) -> JSONValue? {
        if Self.bit(noValueWords, row) { return Self.bit(absentWords, row) ? nil : .null }
        switch kind {
        case .empty: return .null
        case .integer: return .integer(integers[row])
        case .double, .date: return .number(doubles[row])
        case .bool: return .bool(bools[row])
        case .string: return .string(strings[Int(stringIDs[row])])
        case .mixed: return mixed[row]
        }
    }

    public static func == (a: FieldColumn, b: FieldColumn) -> Bool {
        a.name == b.name && a.count == b.count && (0..<a.count).allSatisfy { a[$0] == b[$0] }
    }

    // MARK: Building

    /// Appends a row: nil for a row that lacks the field.
    /// - Complexity: O(1) amortised (a change of type is O(n), once).
    mutating func append(_ value: JSONValue?) {
        let row = count
        count += 1
        guard let value, !value.isNull else {
            appendPlaceholder()
            Self.set(&noValueWords, row)
            if value == nil { Self.set(&absentWords, row) }
            return
        }
        store(value, at: row)
    }

    /// Replaces the last row's value (a key repeated in one object: the last value wins).
    mutating func replaceLast(_ value: JSONValue) {
        count -= 1
        removePlaceholderOrValue()
        Self.clear(&noValueWords, count)
        Self.clear(&absentWords, count)
        append(value)
    }

    /// Appends a row holding the string of id `id` (an id this column gave out).
    /// - Precondition: the column holds strings.
    @inline(__always)
    mutating func appendStringID(_ id: UInt32) {
        precondition(kind == .string, "a string id in a column of \(kind)")
        count += 1
        stringIDs.append(id)
    }

    /// The id of the last row's string, when the column holds strings and has rows.
    var lastStringID: UInt32? { kind == .string ? stringIDs.last : nil }

    /// Reserves room for `n` more rows of the column's present type.
    mutating func reserveCapacity(_ n: Int) {
        switch kind {
        case .empty: break
        case .integer: integers.reserveCapacity(integers.count + n)
        case .double, .date: doubles.reserveCapacity(doubles.count + n)
        case .bool: bools.reserveCapacity(bools.count + n)
        case .string: stringIDs.reserveCapacity(stringIDs.count + n)
        case .mixed: mixed.reserveCapacity(mixed.count + n)
        }
    }

    /// Appends rows that lack the field until there are `n`.
    mutating func pad(to n: Int) {
        while count < n { append(nil) }
    }

    private mutating func store(_ value: JSONValue, at row: Int) {
        if kind == .empty { become(Self.kind(of: value), rows: row) }
        switch (kind, value) {
        case (.integer, .integer(let i)): integers.append(i)
        case (.integer, .number(let d)) where integers.allSatisfy({ $0.magnitude <= 1 << 53 }):
            doubles = integers.map { Double($0) }
            integers = []
            kind = .double
            doubles.append(d)
        case (.double, .number(let d)), (.date, .number(let d)): doubles.append(d)
        case (.double, .integer(let i)) where i.magnitude <= 1 << 53,
            (.date, .integer(let i)) where i.magnitude <= 1 << 53:
            doubles.append(Double(i))
        case (.bool, .bool(let b)): bools.append(b)
        case (.string, .string(let s)): stringIDs.append(intern(s))
        default:
            if kind != .mixed { boxUp(rows: row) }
            mixed.append(value)
        }
    }

    private static func kind(of v: JSONValue) -> Kind {
        switch v {
        case .integer: .integer
        case .number: .double
        case .bool: .bool
        case .string: .string
        case .null: .empty
        case .array, .object: .mixed
        }
    }

    private mutating func become(_ kind: Kind, rows: Int) {
        self.kind = kind
        for _ in 0..<rows { appendPlaceholder() }
    }

    /// Turns a typed column into a mixed one (rows without a value hold `.null`).
    private mutating func boxUp(rows: Int) {
        var values: [JSONValue] = []
        values.reserveCapacity(rows + 1)
        for r in 0..<rows { values.append(self[r] ?? .null) }
        (integers, doubles, bools, stringIDs, strings, stringIndex) = ([], [], [], [], [], [:])
        mixed = values
        kind = .mixed
    }

    private mutating func appendPlaceholder() {
        switch kind {
        case .empty: break
        case .integer: integers.append(0)
        case .double, .date: doubles.append(0)
        case .bool: bools.append(false)
        case .string: stringIDs.append(0)
        case .mixed: mixed.append(.null)
        }
    }

    private mutating func removePlaceholderOrValue() {
        switch kind {
        case .empty: break
        case .integer: integers.removeLast()
        case .double, .date: doubles.removeLast()
        case .bool: bools.removeLast()
        case .string: stringIDs.removeLast()
        case .mixed: mixed.removeLast()
        }
    }

    private mutating func intern(_ s: String) -> UInt32 {
        if let id = stringIndex[s] { return id }
        if strings.isEmpty {
            // Room for a few dozen distinct strings from the start (not grown string by string).
            strings.reserveCapacity(64)
            stringIndex.reserveCapacity(64)
        }
        let id = UInt32(strings.count)
        strings.append(s)
        stringIndex[s] = id
        return id
    }

    private static func bit(_ words: [UInt64], _ row: Int) -> Bool {
        row >> 6 < words.count && words[row >> 6] & (1 << UInt64(row & 63)) != 0
    }

    private static func set(_ words: inout [UInt64], _ row: Int) {
        if row >> 6 >= words.count { words.append(contentsOf: repeatElement(0, count: row >> 6 + 1 - words.count)) }
        words[row >> 6] |= 1 << UInt64(row & 63)
    }

    private static func clear(_ words: inout [UInt64], _ row: Int) {
        if row >> 6 < words.count { words[row >> 6] &= ~(1 << UInt64(row & 63)) }
    }
}
