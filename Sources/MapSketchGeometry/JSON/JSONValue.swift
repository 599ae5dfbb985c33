/// A JSON value: what the codecs read and write (``EsriJSON``, ``GeoJSON``), and the attributes of
/// a ``Feature``; printed by ``JSONWriter``.
///
/// Numbers keep their kind: a literal without fraction or exponent that fits in 64 bits is an
/// ``integer(_:)`` (so IDs such as `9007199254740993` round-trip exactly); every other number is
/// a ``number(_:)``. Objects keep their keys in the order they were read or inserted
/// (see ``JSONObject``).
///
/// Equality is structural and order-sensitive for object keys; `.integer(1)` and `.number(1)` are
/// different values (use ``doubleValue`` to compare numerically).
///
/// ```swift
/// let v: JSONValue = ["x": 1, "y": 2.5]
/// v["x"]?.doubleValue   // 1.0
/// JSONWriter.string(v)  // {"x":1,"y":2.5}
/// ```
public enum JSONValue: Hashable, Sendable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer literal that fits in `Int64`.
    case integer(Int64)
    /// Any other number; always finite (the parser rejects NaN and infinity).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object with ordered keys.
    case object(JSONObject)

    /// The numeric value of an integer or number, else nil.
    @inlinable
    package var doubleValue: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }

    /// The value as an exact `Int64`: an integer, or a number with no fractional part in range.
    package var int64Value: Int64? {
        switch self {
        case .integer(let i): return i
        case .number(let d):
            guard d.rounded(.towardZero) == d, d >= -0x1p63, d < 0x1p63 else { return nil }
            return Int64(d)
        default: return nil
        }
    }

    /// The string, or nil when the value is not a string.
    @inlinable
    package var stringValue: String? { if case .string(let s) = self { s } else { nil } }

    /// The boolean, or nil when the value is not a boolean.
    @inlinable
    package var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }

    /// The elements, or nil when the value is not an array.
    @inlinable
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }

    /// The object, or nil when the value is not an object.
    @inlinable
    package var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }

    /// Whether the value is `null`.
    @inlinable
    package var isNull: Bool { if case .null = self { true } else { false } }

    /// The member named `key` when this is an object, else nil.
    package subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { o[key] } else { nil }
    }

    /// The element at `index` when this is an array and the index is in range, else nil.
    package subscript(index: Int) -> JSONValue? {
        guard case .array(let a) = self, a.indices.contains(index) else { return nil }
        return a[index]
    }

    /// A short name of the value's kind for error messages: "null", "a boolean", "a number", …
    @usableFromInline
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `nil` is JSON `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal is ``integer(_:)``.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A float literal is ``number(_:)``.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object whose keys keep the literal's order; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var o = JSONObject()
        for (k, v) in elements { o[k] = v }
        self = .object(o)
    }
}

/// A JSON object whose members keep their order.
///
/// Keys are unique. Lookup is O(1) on average: objects above a small size keep a hash index beside
/// the ordered storage; small objects (the common geometry case) are scanned, which is faster there.
/// Equality compares members in order (`{"a":1,"b":2}` ≠ `{"b":2,"a":1}`).
public struct JSONObject: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// The keys in order.
    @usableFromInline package private(set) var keys: [String] = []
    /// The values, parallel to ``keys``.
    package private(set) var values: [JSONValue] = []
    /// key → position, kept only when `count > indexThreshold`.
    private var index: [String: Int]?

    static let indexThreshold = 12

    /// Creates an empty object.
    package init() {}

    /// Creates an object from ordered members.
    /// - Throws: nothing; a repeated key keeps its first position and its last value.
    /// - Complexity: O(n) for n members.
    package init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
        for (k, v) in members { self[k] = v }
    }

    /// An object whose keys keep the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The number of members.
    @inlinable package var count: Int { keys.count }
    /// Whether the object has no members.
    @inlinable package var isEmpty: Bool { keys.isEmpty }

    /// The position of `key`, or nil.
    /// - Complexity: O(1) on average for large objects, O(n) with small n otherwise.
    package func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    /// Whether `key` is present.
    package func contains(_ key: String) -> Bool { position(of: key) != nil }

    /// The value for `key`; setting a new key appends it, setting nil removes it.
    package subscript(key: String) -> JSONValue? {
        get { position(of: key).map { values[$0] } }
        set {
            if let i = position(of: key) {
                if let newValue {
                    values[i] = newValue
                } else {
                    keys.remove(at: i)
                    values.remove(at: i)
                    rebuildIndex()
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
                if index != nil {
                    index?[key] = keys.count - 1
                } else if keys.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    /// Appends a member known not to be present (the parser checks first).
    mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
        if index != nil {
            index?[key] = keys.count - 1
        } else if keys.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    private mutating func rebuildIndex() {
        guard keys.count > Self.indexThreshold else {
            index = nil
            return
        }
        var d = [String: Int](minimumCapacity: keys.count)
        for (i, k) in keys.enumerated() { d[k] = i }
        index = d
    }

    /// The members in order.
    public func makeIterator() -> Zip2Sequence<[String], [JSONValue]>.Iterator {
        zip(keys, values).makeIterator()
    }

    /// Equal when the members are equal in the same order.
    public static func == (l: JSONObject, r: JSONObject) -> Bool {
        l.keys == r.keys && l.values == r.values
    }

    /// Hashes the members in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(keys)
        hasher.combine(values)
    }
}
