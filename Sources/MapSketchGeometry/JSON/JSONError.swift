/// One step of a path into a JSON document: an object member or an array element.
@usableFromInline package enum JSONPathComponent: Hashable, Sendable {
    /// An object member by key.
    case key(String)
    /// An array element by 0-based index.
    case index(Int)
}

/// A JSON syntax error or a decoding error, with where it happened.
///
/// - ``line`` and ``column`` are 1-based; **columns count UTF-8 bytes** from the start of the line
///   (a tab or a multi-byte character advances the column by its byte count). In JSON Lines input
///   (`JSONParser.parseLines`) ``line`` is the line of the file.
/// - ``path`` is where in the document a decoding error arose, e.g.
///   `features[3].geometry.rings[0][2]`; it is empty for syntax errors and for the root.
///
/// `description` renders `line:column: path: message`, e.g.
/// `4:17: features[0].geometry.rings[0][2]: expected a number, found a string`.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong and what was expected, e.g. `expected ',' or '}' after object member`.
    public var message: String
    /// The path of the offending value (decoding errors); empty for syntax errors.
    package var path: [JSONPathComponent]
    /// The 1-based line, when known.
    public var line: Int?
    /// The 1-based column in UTF-8 bytes, when known.
    public var column: Int?

    /// Creates an error.
    @usableFromInline package init(_ message: String, path: [JSONPathComponent] = [], line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.path = path
        self.line = line
        self.column = column
    }

    /// The path rendered as `a.b[2].c`; keys that are not identifiers are quoted: `["a b"]`.
    package var pathString: String { JSONError.render(path) }

    /// Renders a path as `a.b[2].c`.
    package static func render(_ path: [JSONPathComponent]) -> String {
        var s = ""
        for c in path {
            switch c {
            case .index(let i): s += "[\(i)]"
            case .key(let k):
                if _isIdentifier(k) {
                    if !s.isEmpty { s += "." }
                    s += k
                } else {
                    s += "["
                    JSONWriter.writeString(k, into: &s)
                    s += "]"
                }
            }
        }
        return s
    }

    /// This error with `component` put in front of its path (used while unwinding a decode).
    @usableFromInline package func prefixed(by component: JSONPathComponent) -> JSONError {
        var e = self
        e.path.insert(component, at: 0)
        return e
    }

    /// `path: message` (the message alone for the root): the error without its position, for a
    /// caller that puts its own `file:line:column:` in front.
    package var pathAndMessage: String { path.isEmpty ? message : pathString + ": " + message }

    /// `line:column: path: message`, leaving out what is unknown.
    public var description: String {
        var s = ""
        if let line {
            s += "\(line)"
            if let column { s += ":\(column)" }
            s += ": "
        }
        return s + pathAndMessage
    }

    private static func _isIdentifier(_ k: String) -> Bool {
        guard let f = k.utf8.first, !(f >= UInt8(ascii: "0") && f <= UInt8(ascii: "9")) else { return false }
        return k.utf8.allSatisfy { b in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
                || b == UInt8(ascii: "$")
        }
    }
}

/// Runs `body`, putting `component` in front of the path of any ``JSONError`` it throws.
@inlinable
package func withJSONPath<T>(_ component: JSONPathComponent, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let e as JSONError {
        throw e.prefixed(by: component)
    }
}
