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
/// the column holds doubles, every integer converted exactly; one beyond ±2⁵³ makes it boxed);
/// an Esri JSON `fields` declaration fixes it (`esriFieldTypeDate` makes a date column of epoch
/// milliseconds). A value that fits no typed column — a string among numbers, an object or an
/// array in GeoJSON properties — makes the column **boxed** (a mixed field): one ``JSONValue`` per
/// row, nothing lost.
public struct FieldColumn: Sendable, Equatable {
    /// How a column stores its values: in ``integers``, ``doubles`` (doubles, and dates as epoch
    /// milliseconds), ``bools``, ``strings`` (by id), or one ``JSONValue`` per row (boxed).
    public typealias Kind = ColumnKind

    /// The rows.
    package var storage: TypedColumn<JSONValue>

    /// An empty column.
    package init(_ name: String) { storage = TypedColumn(name) }

    /// A column of typed values, fixed to `kind` (values of another type make it boxed).
    init(_ name: String, kind: Kind) { storage = TypedColumn(name, kind: kind) }

    /// The field name.
    public var name: String { storage.name }
    /// How the values are stored.
    public var kind: Kind { storage.kind }
    /// The number of rows.
    public var count: Int { storage.count }
    /// `.integer` rows (0 where a row has no value).
    public var integers: [Int64] { storage.integers }
    /// `.double` rows, or `.date` rows in epoch milliseconds.
    public var doubles: [Double] { storage.doubles }
    /// `.bool` rows.
    public var bools: [Bool] { storage.bools }
    /// The distinct strings of a `.string` column, by id.
    public var strings: [String] { storage.strings }

    /// Row `row`'s value as JSON (dates as their epoch milliseconds): nil when the row lacks the
    /// field, `.null` when it holds null.
    package subscript(row: Int) -> JSONValue? { storage[row] }

    /// Whether row `row` holds null.
    package func isNull(_ row: Int) -> Bool { storage.isNull(row) }

    /// Whether row `row` lacks the field.
    package func isAbsent(_ row: Int) -> Bool { storage.isAbsent(row) }
}

extension JSONValue: ColumnValue {
    /// A typed column stores integers, numbers (as doubles), bools and strings; arrays and
    /// objects only a boxed column holds.
    @inlinable
    package var cell: ColumnCell {
        switch self {
        case .null: .null
        case .integer(let i): .integer(i)
        case .number(let d): .double(d)
        case .bool(let b): .bool(b)
        case .string(let s): .string(s)
        case .array, .object: .boxed
        }
    }

    /// Integers as `.integer`, doubles and dates (epoch milliseconds) as `.number`.
    @inlinable
    package init(cell: ColumnCell) {
        switch cell {
        case .integer(let i): self = .integer(i)
        case .double(let d), .date(let d): self = .number(d)
        case .bool(let b): self = .bool(b)
        case .string(let s): self = .string(s)
        case .null, .boxed: self = .null
        }
    }

    /// JSON has one kind of number: an integer among doubles is a double.
    @inlinable
    package static var integersWiden: Bool { true }
    @usableFromInline package static var firstStringRoom: Int { 64 }
}
