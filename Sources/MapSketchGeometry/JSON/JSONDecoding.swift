// Typed access for codecs. Every accessor throws a ``JSONError`` whose path names the field; the
// path is built while the error unwinds (see ``withJSONPath(_:_:)``), so the success path pays
// nothing for it. `JSONParser.locate` then adds the line:column.
//
//     let obj = try value.decodeObject()
//     let rings = try obj.decode("rings") { try $0.decodeArray() }
//     // error: "rings[0][2]: expected a number, found a string"

extension JSONValue {
    /// The number as a `Double`.
    /// - Throws: ``JSONError`` "expected a number, found …".
    @inlinable
    package func decodeNumber() throws -> Double {
        switch self {
        case .number(let d): return d
        case .integer(let i): return Double(i)
        default: throw JSONError("expected a number, found \(kindDescription)")
        }
    }

    /// The number as an exact `Int`.
    /// - Throws: ``JSONError`` when it is not a number or not an integer in range.
    package func decodeInt() throws -> Int {
        guard case .integer(let i) = self else {
            if case .number(let d) = self {
                throw JSONError("expected an integer, found \(JSONWriter.format(d))")
            }
            throw JSONError("expected an integer, found \(kindDescription)")
        }
        guard let v = Int(exactly: i) else { throw JSONError("integer \(i) is out of range") }
        return v
    }

    /// The string.
    /// - Throws: ``JSONError`` "expected a string, found …".
    package func decodeString() throws -> String {
        guard case .string(let s) = self else { throw JSONError("expected a string, found \(kindDescription)") }
        return s
    }

    /// The boolean.
    /// - Throws: ``JSONError`` "expected a boolean, found …".
    package func decodeBool() throws -> Bool {
        guard case .bool(let b) = self else { throw JSONError("expected a boolean, found \(kindDescription)") }
        return b
    }

    /// The elements.
    /// - Throws: ``JSONError`` "expected an array, found …".
    @inlinable
    package func decodeArray() throws -> [JSONValue] {
        guard case .array(let a) = self else { throw JSONError("expected an array, found \(kindDescription)") }
        return a
    }

    /// The object.
    /// - Throws: ``JSONError`` "expected an object, found …".
    package func decodeObject() throws -> JSONObject {
        guard case .object(let o) = self else { throw JSONError("expected an object, found \(kindDescription)") }
        return o
    }

    /// Decodes every element of an array with `body`; errors get the element's `[index]` in their path.
    /// - Throws: ``JSONError`` when this is not an array, or what `body` throws.
    /// - Complexity: O(n) calls of `body` for n elements.
    @inlinable
    package func decodeElements<T>(_ body: (JSONValue) throws -> T) throws -> [T] {
        let a = try decodeArray()
        var out: [T] = []
        out.reserveCapacity(a.count)
        for (k, e) in a.enumerated() {
            do {
                out.append(try body(e))
            } catch let err as JSONError {
                throw err.prefixed(by: .index(k))
            }
        }
        return out
    }
}

extension JSONObject {
    /// The member `key`.
    /// - Throws: ``JSONError`` "missing required field "key"".
    package func require(_ key: String) throws -> JSONValue {
        guard let v = self[key] else { throw JSONError("missing required field \"\(key)\"") }
        return v
    }

    /// Decodes the required member `key` with `body`; errors get `key` in their path.
    /// - Throws: ``JSONError`` when the member is missing, or what `body` throws.
    package func decode<T>(_ key: String, _ body: (JSONValue) throws -> T) throws -> T {
        let v = try require(key)
        return try withJSONPath(.key(key)) { try body(v) }
    }

    /// Decodes the member `key` with `body` when it is present and not null, else returns nil.
    /// - Throws: what `body` throws, with `key` in the path.
    package func decodeIfPresent<T>(_ key: String, _ body: (JSONValue) throws -> T) throws -> T? {
        guard let v = self[key], !v.isNull else { return nil }
        return try withJSONPath(.key(key)) { try body(v) }
    }
}
