/// A deterministic JSON printer: the same value gives byte-identical text on every run and machine.
///
/// - Object members print in their stored order (insertion or parse order).
/// - Integers (``JSONValue/integer(_:)``) print as decimal digits.
/// - Doubles print by the ECMAScript `Number::toString` rule (ECMA-262 §6.1.6.1.20, the rule
///   `JSON.stringify` uses) over the shortest digit string that round-trips (the standard
///   library's `description` digits): integral values below 10²¹ print without `.0` or exponent
///   (`3`, `-120`, `100000000000000000000`); magnitudes in [10⁻⁶, 10²¹) print in plain decimal
///   (`0.000001`, `2.5`); anything else prints as `d.ddde±x` (`1e-7`, `1.5e+300`). `-0` prints `0`.
///   NaN and infinity (which the parser never produces) print `null`, as `JSON.stringify` does.
/// - Strings escape `"` and `\`, and control characters as `\b \f \n \r \t` or `\u00XX`;
///   everything else, non-ASCII included, is written as UTF-8.
/// - ``Style/compact`` has no whitespace. ``Style/pretty`` indents by two spaces, writes
///   `"key": value`, and keeps arrays of scalars on one line (`[1, 2]`), so coordinates stay readable.
public enum JSONWriter {
    /// The output layout.
    public enum Style: Hashable, Sendable {
        /// No whitespace at all.
        case compact
        /// Two-space indentation; arrays holding only scalars stay on one line.
        case pretty
    }

    /// The value as JSON text.
    /// - Complexity: O(n) in the size of the output.
    public static func string(_ value: JSONValue, style: Style = .compact) -> String {
        var s = ""
        write(value, style: style, into: &s)
        return s
    }

    /// Appends the value as JSON text to `out`.
    /// - Complexity: O(n) in the size of the output.
    public static func write(_ value: JSONValue, style: Style = .compact, into out: inout String) {
        switch style {
        case .compact: writeCompact(value, into: &out)
        case .pretty: writePretty(value, indent: 0, into: &out)
        }
    }

    private static func writeCompact(_ value: JSONValue, into out: inout String) {
        switch value {
        case .array(let a):
            out += "["
            for (k, e) in a.enumerated() {
                if k > 0 { out += "," }
                writeCompact(e, into: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            var first = true
            for (k, v) in o {
                if !first { out += "," }
                first = false
                writeString(k, into: &out)
                out += ":"
                writeCompact(v, into: &out)
            }
            out += "}"
        default: writeScalar(value, into: &out)
        }
    }

    private static func isScalar(_ v: JSONValue) -> Bool {
        switch v {
        case .array, .object: false
        default: true
        }
    }

    private static func newline(_ indent: Int, into out: inout String) {
        out += "\n"
        out += String(repeating: " ", count: indent * 2)
    }

    private static func writePretty(_ value: JSONValue, indent: Int, into out: inout String) {
        switch value {
        case .array(let a):
            if a.isEmpty {
                out += "[]"
            } else if a.allSatisfy(isScalar) {
                out += "["
                for (k, e) in a.enumerated() {
                    if k > 0 { out += ", " }
                    writeScalar(e, into: &out)
                }
                out += "]"
            } else {
                out += "["
                for (k, e) in a.enumerated() {
                    if k > 0 { out += "," }
                    newline(indent + 1, into: &out)
                    writePretty(e, indent: indent + 1, into: &out)
                }
                newline(indent, into: &out)
                out += "]"
            }
        case .object(let o):
            if o.isEmpty {
                out += "{}"
                return
            }
            out += "{"
            var first = true
            for (k, v) in o {
                if !first { out += "," }
                first = false
                newline(indent + 1, into: &out)
                writeString(k, into: &out)
                out += ": "
                writePretty(v, indent: indent + 1, into: &out)
            }
            newline(indent, into: &out)
            out += "}"
        default: writeScalar(value, into: &out)
        }
    }

    private static func writeScalar(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .number(let d): writeNumber(d, into: &out)
        case .string(let s): writeString(s, into: &out)
        case .array, .object: writeCompact(value, into: &out)
        }
    }

    /// A double formatted by the rule in the type's documentation, e.g. `3`, `0.1`, `1e-7`.
    public static func format(_ d: Double) -> String {
        var s = ""
        writeNumber(d, into: &s)
        return s
    }

    /// Appends a double formatted by the rule in the type's documentation.
    public static func writeNumber(_ d: Double, into out: inout String) {
        guard d.isFinite else {
            out += "null"
            return
        }
        if d == 0 {
            out += "0"
            return
        }
        if d.rounded(.towardZero) == d, abs(d) < 1e15 {
            out += String(Int64(d))
            return
        }
        if d < 0 { out += "-" }
        // Shortest round-trip digits from the standard library, re-laid out per ECMA-262.
        let desc = abs(d).description.utf8
        var digits: [UInt8] = []
        digits.reserveCapacity(20)
        var pointPos = 0
        var seenPoint = false
        var exp = 0
        var expNeg = false
        var inExp = false
        for b in desc {
            if inExp {
                if b == UInt8(ascii: "-") {
                    expNeg = true
                } else if b != UInt8(ascii: "+") {
                    exp = exp * 10 + Int(b - UInt8(ascii: "0"))
                }
            } else if b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                inExp = true
            } else if b == UInt8(ascii: ".") {
                seenPoint = true
            } else {
                digits.append(b)
                if !seenPoint { pointPos += 1 }
            }
        }
        pointPos += expNeg ? -exp : exp
        // Strip leading zeros (moving the point) and trailing zeros.
        var lead = 0
        while lead < digits.count - 1, digits[lead] == UInt8(ascii: "0") { lead += 1 }
        digits.removeFirst(lead)
        pointPos -= lead
        while digits.count > 1, digits[digits.count - 1] == UInt8(ascii: "0") { digits.removeLast() }
        let k = digits.count
        let n = pointPos
        var s = ""
        if k <= n && n <= 21 {
            s = String(decoding: digits, as: UTF8.self) + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            s = String(decoding: digits[0..<n], as: UTF8.self) + "." + String(decoding: digits[n...], as: UTF8.self)
        } else if -6 < n && n <= 0 {
            s = "0." + String(repeating: "0", count: -n) + String(decoding: digits, as: UTF8.self)
        } else {
            let e = n - 1
            s = String(decoding: digits[0..<1], as: UTF8.self)
            if k > 1 { s += "." + String(decoding: digits[1...], as: UTF8.self) }
            s += e < 0 ? "e-\(-e)" : "e+\(e)"
        }
        out += s
    }

    /// Appends `s` as a quoted, escaped JSON string.
    public static func writeString(_ s: String, into out: inout String) {
        out += "\""
        var needsEscape = false
        for b in s.utf8 where b < 0x20 || b == 0x22 || b == 0x5C {
            needsEscape = true
            break
        }
        if !needsEscape {
            out += s
        } else {
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{08}": out += "\\b"
                case "\u{0C}": out += "\\f"
                default:
                    if u.value < 0x20 {
                        out += "\\u00" + _hexByte(UInt8(u.value)).lowercased()
                    } else {
                        out.unicodeScalars.append(u)
                    }
                }
            }
        }
        out += "\""
    }
}
