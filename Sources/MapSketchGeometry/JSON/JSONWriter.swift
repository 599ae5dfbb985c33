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
/// - ``JSONStyle/compact`` has no whitespace. ``JSONStyle/pretty`` indents by two spaces, writes
///   `"key": value`, and keeps arrays of scalars on one line (`[1, 2]`), so coordinates stay readable.
/// The layout of JSON text the codecs write.
public enum JSONStyle: Hashable, Sendable {
    /// No whitespace at all.
    case compact
    /// Two-space indentation; arrays holding only scalars stay on one line.
    case pretty
}

package enum JSONWriter {
    /// The output layout.
    package typealias Style = JSONStyle

    /// The value as JSON text.
    /// - Complexity: O(n) for n bytes of output.
    public static func string(_ value: JSONValue, style: Style = .compact) -> String {
        var w = ByteOutput()
        w.write(value, style: style)
        return String(decoding: w.out, as: UTF8.self)
    }

    /// The value as UTF-8 JSON bytes.
    /// - Complexity: O(n) for n bytes of output.
    package static func bytes(_ value: JSONValue, style: Style = .compact) -> [UInt8] {
        var w = ByteOutput()
        w.write(value, style: style)
        return w.out
    }

    /// Appends the value as JSON text to `out`.
    /// - Complexity: O(n) for n bytes of output.
    package static func write(_ value: JSONValue, style: Style = .compact, into out: inout String) {
        out += string(value, style: style)
    }

    /// A double formatted by the rule in the type's documentation, e.g. `3`, `0.1`, `1e-7`.
    package static func format(_ d: Double) -> String {
        var w = ByteOutput()
        w.number(d)
        return String(decoding: w.out, as: UTF8.self)
    }

    /// Appends a double formatted by the rule in the type's documentation.
    package static func writeNumber(_ d: Double, into out: inout String) {
        out += format(d)
    }

    /// Appends `s` as a quoted, escaped JSON string.
    package static func writeString(_ s: String, into out: inout String) {
        var w = ByteOutput()
        w.string(s)
        out += String(decoding: w.out, as: UTF8.self)
    }
}

/// The byte-level printer behind ``JSONWriter``.
extension ByteOutput {
    mutating func write(_ value: JSONValue, style: JSONWriter.Style) {
        switch style {
        case .compact: compact(value)
        case .pretty: pretty(value, indent: 0)
        }
    }

    mutating func compact(_ value: JSONValue) {
        switch value {
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (k, e) in a.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                compact(e)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            var first = true
            for (k, v) in o {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                string(k)
                out.append(UInt8(ascii: ":"))
                compact(v)
            }
            out.append(UInt8(ascii: "}"))
        default: scalar(value)
        }
    }

    private static func isScalar(_ v: JSONValue) -> Bool {
        switch v {
        case .array, .object: false
        default: true
        }
    }

    mutating func newline(_ indent: Int) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    mutating func pretty(_ value: JSONValue, indent: Int) {
        switch value {
        case .array(let a):
            if a.isEmpty {
                ascii("[]")
            } else if a.allSatisfy(Self.isScalar) {
                out.append(UInt8(ascii: "["))
                for (k, e) in a.enumerated() {
                    if k > 0 { ascii(", ") }
                    scalar(e)
                }
                out.append(UInt8(ascii: "]"))
            } else {
                out.append(UInt8(ascii: "["))
                for (k, e) in a.enumerated() {
                    if k > 0 { out.append(UInt8(ascii: ",")) }
                    newline(indent + 1)
                    pretty(e, indent: indent + 1)
                }
                newline(indent)
                out.append(UInt8(ascii: "]"))
            }
        case .object(let o):
            if o.isEmpty {
                ascii("{}")
                return
            }
            out.append(UInt8(ascii: "{"))
            var first = true
            for (k, v) in o {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                newline(indent + 1)
                string(k)
                ascii(": ")
                pretty(v, indent: indent + 1)
            }
            newline(indent)
            out.append(UInt8(ascii: "}"))
        default: scalar(value)
        }
    }

    mutating func scalar(_ value: JSONValue) {
        switch value {
        case .null: ascii("null")
        case .bool(let b): if b { ascii("true") } else { ascii("false") }
        case .integer(let i): integer(i)
        case .number(let d): number(d)
        case .string(let s): string(s)
        case .array, .object: compact(value)
        }
    }

    mutating func integer(_ i: Int64) {
        if i < 0 { out.append(UInt8(ascii: "-")) }
        var m = i.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buf in
            var k = 20
            repeat {
                k -= 1
                buf[k] = UInt8(ascii: "0") + UInt8(m % 10)
                m /= 10
            } while m > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[k..<20]))
        }
    }

    /// ECMA-262 Number::toString over the shortest round-trip digits (see ``JSONWriter``).
    mutating func number(_ d: Double) {
        guard d.isFinite else {
            ascii("null")
            return
        }
        if d == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        if d.rounded(.towardZero) == d, abs(d) < 1e15 {
            integer(Int64(d))
            return
        }
        if d < 0 { out.append(UInt8(ascii: "-")) }
        // The standard library's shortest round-trip text (what `description` holds), written
        // into a fixed buffer instead of a new string.
        var desc = ShortestDoubleText()
        abs(d).write(to: &desc)
        desc.withBytes { text in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digits in
                var k = 0  // digit count
                var pointPos = 0
                var seenPoint = false
                var exp = 0
                var expNeg = false
                var inExp = false
                for b in text {
                    if inExp {
                        if b == UInt8(ascii: "-") {
                            expNeg = true
                        } else if b != UInt8(ascii: "+") {
                            exp = exp * 10 + Int(b &- UInt8(ascii: "0"))
                        }
                    } else if b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                        inExp = true
                    } else if b == UInt8(ascii: ".") {
                        seenPoint = true
                    } else if k < 32 {
                        digits[k] = b
                        k += 1
                        if !seenPoint { pointPos += 1 }
                    }
                }
                pointPos += expNeg ? -exp : exp
                // Strip leading zeros (moving the point) and trailing zeros.
                var lead = 0
                while lead < k - 1, digits[lead] == UInt8(ascii: "0") { lead += 1 }
                pointPos -= lead
                var end = k
                while end - lead > 1, digits[end - 1] == UInt8(ascii: "0") { end -= 1 }
                let ds = UnsafeBufferPointer(rebasing: digits[lead..<end])
                let count = ds.count
                let n = pointPos
                if count <= n && n <= 21 {
                    out.append(contentsOf: ds)
                    out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: n - count))
                } else if 0 < n && n <= 21 {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: ds[0..<n]))
                    out.append(UInt8(ascii: "."))
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: ds[n...]))
                } else if -6 < n && n <= 0 {
                    ascii("0.")
                    out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -n))
                    out.append(contentsOf: ds)
                } else {
                    let e = n - 1
                    out.append(ds[0])
                    if count > 1 {
                        out.append(UInt8(ascii: "."))
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: ds[1...]))
                    }
                    out.append(UInt8(ascii: "e"))
                    out.append(e < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                    integer(Int64(abs(e)))
                }
            }
        }
    }

    mutating func string(_ s: String) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): ascii("\\\"")
            case UInt8(ascii: "\\"): ascii("\\\\")
            case UInt8(ascii: "\n"): ascii("\\n")
            case UInt8(ascii: "\r"): ascii("\\r")
            case UInt8(ascii: "\t"): ascii("\\t")
            case 0x08: ascii("\\b")
            case 0x0C: ascii("\\f")
            case 0..<0x20:
                ascii("\\u00")
                let hex: StaticString = "0123456789abcdef"
                out.append(hex.utf8Start[Int(b >> 4)])
                out.append(hex.utf8Start[Int(b & 15)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// The text `Double.write(to:)` produces (at most 32 ASCII bytes: the standard library writes
/// at most 24 for a double), kept without allocating.
struct ShortestDoubleText: TextOutputStream {
    private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var count = 0

    mutating func write(_ string: String) {
        for b in string.utf8 { append(b) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        for b in buffer { append(b) }
    }

    @inline(__always)
    private mutating func append(_ b: UInt8) {
        guard count < 32 else { return }
        withUnsafeMutableBytes(of: &storage) { $0[count] = b }
        count += 1
    }

    /// Calls `body` with the bytes written.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in
            body(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[0..<count]))
        }
    }
}
