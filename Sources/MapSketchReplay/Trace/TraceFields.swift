import MapSketchGeometry

/// Reads the members of one JSON object, throwing ``JSONError`` with the member's path and a
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

    func has(_ key: String) -> Bool { if let v = object[key] { !v.isNull } else { false } }

    mutating func value(_ key: String) -> JSONValue? {
        used.insert(key)
        guard let v = object[key], !v.isNull else { return nil }
        return v
    }

    mutating func required(_ key: String, _ what: String) throws -> JSONValue {
        guard let v = value(key) else { throw JSONError("missing member \"\(key)\": expected \(what)") }
        return v
    }

    mutating func double(_ key: String) throws -> Double? {
        guard let v = value(key) else { return nil }
        guard let d = v.doubleValue else {
            throw JSONError("expected a number, found \(v.kindDescription)", path: [.key(key)])
        }
        return d
    }

    mutating func requiredDouble(_ key: String) throws -> Double {
        guard let d = try double(key) else { throw JSONError("missing member \"\(key)\": expected a number") }
        return d
    }

    mutating func int(_ key: String) throws -> Int? {
        guard let v = value(key) else { return nil }
        guard let i = v.int64Value, let n = Int(exactly: i) else {
            throw JSONError("expected an integer, found \(v.kindDescription)", path: [.key(key)])
        }
        return n
    }

    mutating func requiredInt(_ key: String) throws -> Int {
        guard let i = try int(key) else { throw JSONError("missing member \"\(key)\": expected an integer") }
        return i
    }

    mutating func bool(_ key: String) throws -> Bool? {
        guard let v = value(key) else { return nil }
        guard let b = v.boolValue else {
            throw JSONError("expected true or false, found \(v.kindDescription)", path: [.key(key)])
        }
        return b
    }

    mutating func string(_ key: String) throws -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.stringValue else {
            throw JSONError("expected a string, found \(v.kindDescription)", path: [.key(key)])
        }
        return s
    }

    mutating func requiredString(_ key: String) throws -> String {
        guard let s = try string(key) else { throw JSONError("missing member \"\(key)\": expected a string") }
        return s
    }

    /// A string member that must be one of `allowed`.
    mutating func oneOf(_ key: String, _ allowed: [String]) throws -> String? {
        guard let s = try string(key) else { return nil }
        guard allowed.contains(s) else {
            throw JSONError(
                "expected one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")), found \"\(s)\"",
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
            throw JSONError("unknown member \"\(k)\"", path: [.key(k)])
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
