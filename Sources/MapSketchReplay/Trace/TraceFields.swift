import MapSketchGeometry

/// Reads the members of one JSON object, throwing `JSONError` with the member's path and a
/// message that says what was expected. Unknown members are an error (a misspelt option must not
/// be silently ignored).
struct TraceFields {
    let object: JSONObject
    private(set) var used: Set<String> = []

    init(_ value: JSONValue, what: String) throws {
        guard let o = value.objectValue else {
            throw JSONError("expected \(what) (an object), found \(value.kindDescription)")
        }
        object = o
    }

    mutating func value(_ key: String) -> JSONValue? {
        used.insert(key)
        guard let v = object[key], !v.isNull else { return nil }
        return v
    }

    /// A member that `extract` turns into a value, or nil when absent or null; `expected` names
    /// what it must be when `extract` cannot.
    private mutating func member<T>(_ key: String, expected: String, _ extract: (JSONValue) -> T?) throws -> T? {
        guard let v = value(key) else { return nil }
        guard let x = extract(v) else { throw JSONError("expected \(expected), found \(v.kindDescription)", path: [.key(key)]) }
        return x
    }

    /// A member that must be present: what `read` gives, or "missing member" naming what was expected.
    private mutating func required<T>(_ key: String, expected: String, _ read: (inout TraceFields) throws -> T?) throws -> T {
        guard let x = try read(&self) else { throw JSONError("missing member \"\(key)\": expected \(expected)") }
        return x
    }

    mutating func double(_ key: String) throws -> Double? { try member(key, expected: "a number") { $0.doubleValue } }

    mutating func requiredDouble(_ key: String) throws -> Double { try required(key, expected: "a number") { try $0.double(key) } }

    mutating func int(_ key: String) throws -> Int? {
        try member(key, expected: "an integer") { v in v.int64Value.flatMap { Int(exactly: $0) } }
    }

    mutating func requiredInt(_ key: String) throws -> Int { try required(key, expected: "an integer") { try $0.int(key) } }

    mutating func bool(_ key: String) throws -> Bool? { try member(key, expected: "true or false") { $0.boolValue } }

    mutating func string(_ key: String) throws -> String? { try member(key, expected: "a string") { $0.stringValue } }

    mutating func requiredString(_ key: String) throws -> String { try required(key, expected: "a string") { try $0.string(key) } }

    /// A string member that must be one of `allowed`.
    mutating func oneOf(_ key: String, _ allowed: [String]) throws -> String? {
        guard let s = try string(key) else { return nil }
        guard allowed.contains(s) else {
            throw JSONError(
                "expected one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")), found \"\(InputExcerpt.excerpt(s))\"",
                path: [.key(key)])
        }
        return s
    }

    /// Decodes a nested member, prefixing errors with its key.
    mutating func nested<T>(_ key: String, _ body: (JSONValue) throws -> T) throws -> T? {
        guard let v = value(key) else { return nil }
        return try withJSONPath(.key(key)) { try body(v) }
    }

    /// Throws on the first member that was never read.
    func rejectUnknown(allowed extra: [String] = []) throws {
        for k in object.keys where !used.contains(k) && !extra.contains(k) {
            throw JSONError("unknown member \"\(InputExcerpt.excerpt(k))\"", path: [.key(k)])
        }
    }
}

/// Decodes each element of an array, prefixing errors with the element's index.
func decodeArray<T>(_ v: JSONValue, what: String, _ body: (JSONValue) throws -> T) throws -> [T] {
    guard let a = v.arrayValue else { throw JSONError("expected \(what) (an array), found \(v.kindDescription)") }
    var out: [T] = []
    out.reserveCapacity(a.count)
    for (i, e) in a.enumerated() { out.append(try withJSONPath(.index(i)) { try body(e) }) }
    return out
}
