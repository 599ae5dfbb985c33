/// A byte-level recursive-descent JSON parser (RFC 8259), without Foundation.
///
/// - Strict by default: no comments, no NaN/Infinity, no leading zeros, no single quotes, no
///   trailing commas (``Options/allowTrailingCommas`` relaxes that). A repeated object key keeps
///   the last value, as `JSON.parse` does, unless ``Options/rejectDuplicateKeys`` is set.
/// - A UTF-8 byte-order mark at the start is skipped. Strings must be valid UTF-8; escapes
///   include `\uXXXX` with surrogate pairs (an unpaired surrogate is an error).
/// - Numbers without fraction or exponent that fit in `Int64` become ``JSONValue/integer(_:)``;
///   others ``JSONValue/number(_:)``, correctly rounded (Clinger's fast path for ≤ 15 significant
///   digits and |exponent| ≤ 22, the standard library's correctly rounded conversion otherwise).
///   A number too large for `Double` is an error, never infinity.
/// - Errors are ``JSONError`` with a 1-based line and a 1-based column counted in UTF-8 bytes
///   (a line ends at `\n`; `\r\n` works too), and say what was expected.
///
/// ```swift
/// let v = try JSONParser.parse(#"{"rings": [[[0,0],[0,1],[1,1],[0,0]]]}"#)
/// try JSONParser.parse("[1,]")   // throws 1:4: trailing comma before ']' is not allowed
/// ```
public enum JSONParser {
    /// Parsing options.
    public struct Options: Hashable, Sendable {
        /// The deepest nesting of arrays and objects accepted (default 512). The parser recurses
        /// once per level, so this also bounds its stack use; raise it with care.
        public var maxDepth: Int
        /// Accept a comma before `]` or `}` (as some hand-written files have). Default false.
        public var allowTrailingCommas: Bool
        /// Reject an object that repeats a key. Default false: as ECMAScript's `JSON.parse` does, the
        /// last value wins and keeps the first occurrence's position. RFC 8259 §4 leaves this open,
        /// and real ArcGIS responses repeat keys (e.g. `fieldAliases`).
        public var rejectDuplicateKeys: Bool

        /// Creates options.
        public init(maxDepth: Int = 512, allowTrailingCommas: Bool = false, rejectDuplicateKeys: Bool = false) {
            self.maxDepth = maxDepth
            self.allowTrailingCommas = allowTrailingCommas
            self.rejectDuplicateKeys = rejectDuplicateKeys
        }

        /// Strict RFC 8259 parsing with nesting up to 512.
        public static let strict = Options()
    }

    /// One line of a JSON Lines document.
    public struct Line: Hashable, Sendable {
        /// The 1-based line number in the input.
        public var line: Int
        /// The value on that line.
        public var value: JSONValue
    }

    /// Parses one JSON document.
    /// - Throws: ``JSONError`` with line:column and what was expected.
    /// - Complexity: O(n) for n bytes.
    public static func parse(_ text: String, options: Options = .strict) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try parse($0, options: options) }
    }

    /// Parses one JSON document from UTF-8 bytes.
    /// - Throws: ``JSONError`` with line:column and what was expected.
    /// - Complexity: O(n) for n bytes.
    public static func parse(_ bytes: [UInt8], options: Options = .strict) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { try parse($0, options: options) }
    }

    /// Parses one JSON document from a buffer of UTF-8 bytes.
    /// - Throws: ``JSONError`` with line:column and what was expected.
    /// - Complexity: O(n) for n bytes.
    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>, options: Options = .strict) throws -> JSONValue {
        var p = _JSONScanner(buffer, options: options)
        p.skipBOM()
        return try p.parseDocument()
    }

    /// Parses JSON Lines: one value per non-blank line. Errors carry the line number in the input.
    /// - Throws: ``JSONError`` for the first bad line.
    /// - Complexity: O(n) for n bytes.
    public static func parseLines(_ text: String, options: Options = .strict) throws -> [Line] {
        var out: [Line] = []
        try forEachLine(text, options: options) { out.append(Line(line: $0, value: $1)) }
        return out
    }

    /// Calls `body` with each non-blank line of a JSON Lines document, in order, as it is parsed.
    /// - Throws: ``JSONError`` for the first bad line, or whatever `body` throws.
    /// - Complexity: O(n) for n bytes; one value is held at a time.
    public static func forEachLine(
        _ text: String, options: Options = .strict, _ body: (_ line: Int, _ value: JSONValue) throws -> Void
    ) throws {
        var text = text
        try text.withUTF8 { buf in
            var start = 0
            var lineNo = 1
            if buf.count >= 3, buf[0] == 0xEF, buf[1] == 0xBB, buf[2] == 0xBF { start = 3 }
            while start < buf.count {
                var end = start
                while end < buf.count, buf[end] != UInt8(ascii: "\n") { end += 1 }
                let slice = UnsafeBufferPointer(rebasing: buf[start..<end])
                if !slice.allSatisfy(_isSpace) {
                    var p = _JSONScanner(slice, options: options)
                    p.line = lineNo
                    try body(lineNo, try p.parseDocument())
                }
                lineNo += 1
                start = end + 1
            }
        }
    }

    /// Where the value at `path` starts in `text` (1-based line and byte column). When the
    /// document has no value at `path` (a missing member, an index past the end), where the
    /// deepest value on the way there starts: the object or array that lacks it, or the root. So
    /// every decoding error gets a position, and one about something missing points at its
    /// container. Nil only when `text` holds no JSON value. Decoding errors get their line:column
    /// after the fact this way, so parsed values need not carry positions.
    /// - Complexity: O(n) for n bytes (a second scan, only on the error path).
    public static func location(
        of path: [JSONPathComponent], in text: String, options: Options = .strict
    ) -> (line: Int, column: Int)? {
        var text = text
        return text.withUTF8 { buf in
            var p = _JSONScanner(buf, options: options)
            p.skipBOM()
            p.target = path
            _ = try? p.parseDocument()
            return p.found ?? p.nearest
        }
    }

    /// Fills in the line:column of a decoding error from its path (see
    /// ``location(of:in:options:)``), if it has none yet.
    public static func locate(_ error: JSONError, in text: String, options: Options = .strict) -> JSONError {
        guard error.line == nil, let loc = location(of: error.path, in: text, options: options) else { return error }
        var e = error
        e.line = loc.line
        e.column = loc.column
        return e
    }

    /// Parses `text` and decodes its value with `body`, putting line:column on a decoding error:
    /// the one way the codecs, the trace reader and the tools turn text into values.
    ///
    /// ```swift
    /// let g = try JSONParser.decode(text) { value in try decodeGeometry(value) }
    /// // a bad member: "3:17: rings[0][2]: expected a number, found a string"
    /// ```
    /// - Throws: the parser's ``JSONError`` for a syntax error; a ``JSONError`` that `body` throws,
    ///   with the line:column of the value its path names (``locate(_:in:options:)``); anything
    ///   else `body` throws, unchanged.
    /// - Complexity: O(n) for n bytes plus the cost of `body`; a second scan only on a decoding error.
    public static func decode<T>(_ text: String, options: Options = .strict, _ body: (JSONValue) throws -> T) throws -> T {
        let value = try parse(text, options: options)
        do {
            return try body(value)
        } catch let e as JSONError {
            throw locate(e, in: text, options: options)
        }
    }
}

@inline(__always)
func _isSpace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
}

/// Thrown internally to stop a location scan once the target is found.
private struct _Found: Error {}

/// The scanner state. Internal; use ``JSONParser``.
struct _JSONScanner {
    let p: UnsafeBufferPointer<UInt8>
    let options: JSONParser.Options
    var i = 0
    var line = 1
    var lineStart = 0
    var depth = 0
    // Location mode.
    var target: [JSONPathComponent]?
    var matched = 0
    var found: (line: Int, column: Int)?
    /// The deepest value on the target path seen so far, and its depth.
    var nearest: (line: Int, column: Int)?
    var nearestDepth = -1

    init(_ p: UnsafeBufferPointer<UInt8>, options: JSONParser.Options) {
        self.p = p
        self.options = options
    }

    mutating func skipBOM() {
        if p.count >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF {
            i = 3
            lineStart = 3
        }
    }

    func error(_ message: String, at pos: Int? = nil) -> JSONError {
        JSONError(message, line: line, column: (pos ?? i) - lineStart + 1)
    }

    /// A description of the byte at `i` for messages.
    func foundDescription() -> String {
        guard i < p.count else { return "end of input" }
        let b = p[i]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(_hexByte(b))"
    }

    @inline(__always)
    mutating func skipSpace() {
        while i < p.count {
            let b = p[i]
            if b == 0x20 || b == 0x09 || b == 0x0D {
                i += 1
            } else if b == 0x0A {
                i += 1
                line += 1
                lineStart = i
            } else {
                return
            }
        }
    }

    mutating func parseDocument() throws -> JSONValue {
        skipSpace()
        guard i < p.count else { throw error("expected a JSON value, found end of input") }
        do {
            let v = try parseValue()
            skipSpace()
            if i < p.count { throw error("expected end of input after the JSON value, found \(foundDescription())") }
            return v
        } catch is _Found {
            return .null
        }
    }

    mutating func parseValue() throws -> JSONValue {
        if let target, matched == depth, depth > nearestDepth {
            nearest = (line, i - lineStart + 1)
            nearestDepth = depth
            if depth == target.count {
                found = nearest
                throw _Found()
            }
        }
        guard i < p.count else { throw error("expected a JSON value, found end of input") }
        switch p[i] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw error("NaN and Infinity are not valid JSON numbers")
        default:
            throw error(
                "expected a JSON value (object, array, string, number, true, false or null), found \(foundDescription())"
            )
        }
    }

    mutating func literal(_ word: StaticString, _ value: JSONValue) throws -> JSONValue {
        let n = word.utf8CodeUnitCount
        let w = word.utf8Start
        for k in 0..<n where i + k >= p.count || p[i + k] != w[k] {
            throw error("invalid literal, expected '\(word)'")
        }
        i += n
        return value
    }

    mutating func enter() throws {
        depth += 1
        if depth > options.maxDepth { throw error("nesting deeper than \(options.maxDepth) levels") }
    }

    mutating func parseObject() throws -> JSONValue {
        try enter()
        i += 1  // {
        var obj = JSONObject()
        skipSpace()
        if i < p.count, p[i] == UInt8(ascii: "}") {
            i += 1
            depth -= 1
            return .object(obj)
        }
        while true {
            guard i < p.count, p[i] == UInt8(ascii: "\"") else {
                if i < p.count, p[i] == UInt8(ascii: "}"), !obj.isEmpty {
                    if options.allowTrailingCommas { break }
                    throw error("trailing comma before '}' is not allowed")
                }
                throw error(obj.isEmpty ? "expected a string key or '}'" : "expected a string key after ','")
            }
            let keyPos = i
            let key = try parseString()
            let duplicate = obj.contains(key)
            if duplicate, options.rejectDuplicateKeys {
                throw error("duplicate key \(JSONWriter.string(.string(key))) in object", at: keyPos)
            }
            skipSpace()
            guard i < p.count, p[i] == UInt8(ascii: ":") else {
                throw error("expected ':' after object key, found \(foundDescription())")
            }
            i += 1
            skipSpace()
            let saved = matched
            if let target, matched == depth - 1, matched < target.count, target[matched] == .key(key) {
                matched += 1
            }
            let v = try parseValue()
            matched = saved
            if duplicate { obj[key] = v } else { obj._appendUnchecked(key, v) }
            skipSpace()
            guard i < p.count else { throw error("expected ',' or '}' after object member, found end of input") }
            if p[i] == UInt8(ascii: ",") {
                i += 1
                skipSpace()
                continue
            }
            if p[i] == UInt8(ascii: "}") { break }
            throw error("expected ',' or '}' after object member, found \(foundDescription())")
        }
        i += 1  // }
        depth -= 1
        return .object(obj)
    }

    mutating func parseArray() throws -> JSONValue {
        try enter()
        i += 1  // [
        var arr: [JSONValue] = []
        skipSpace()
        if i < p.count, p[i] == UInt8(ascii: "]") {
            i += 1
            depth -= 1
            return .array(arr)
        }
        while true {
            if i < p.count, p[i] == UInt8(ascii: "]"), !arr.isEmpty {
                if options.allowTrailingCommas { break }
                throw error("trailing comma before ']' is not allowed")
            }
            let saved = matched
            if let target, matched == depth - 1, matched < target.count, target[matched] == .index(arr.count) {
                matched += 1
            }
            arr.append(try parseValue())
            matched = saved
            skipSpace()
            guard i < p.count else { throw error("expected ',' or ']' after array element, found end of input") }
            if p[i] == UInt8(ascii: ",") {
                i += 1
                skipSpace()
                continue
            }
            if p[i] == UInt8(ascii: "]") { break }
            throw error("expected ',' or ']' after array element, found \(foundDescription())")
        }
        i += 1  // ]
        depth -= 1
        return .array(arr)
    }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    mutating func parseNumber() throws -> JSONValue {
        let start = i
        var negative = false
        if p[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
            if i < p.count, p[i] == UInt8(ascii: "I") {
                throw error("NaN and Infinity are not valid JSON numbers", at: start)
            }
        }
        guard i < p.count, Self.isDigit(p[i]) else { throw error("expected a digit after '-'") }
        var mantissa: UInt64 = 0
        var exact = true  // mantissa holds every digit and stays ≤ 2^53
        var digits = 0
        var scale = 0
        if p[i] == UInt8(ascii: "0") {
            i += 1
            if i < p.count, Self.isDigit(p[i]) { throw error("leading zeros are not allowed in numbers", at: i - 1) }
        } else {
            while i < p.count, Self.isDigit(p[i]) {
                let d = UInt64(p[i] &- UInt8(ascii: "0"))
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ d
                } else {
                    exact = false
                }
                digits += 1
                i += 1
            }
        }
        var isInteger = true
        if i < p.count, p[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard i < p.count, Self.isDigit(p[i]) else { throw error("expected a digit after '.'") }
            while i < p.count, Self.isDigit(p[i]) {
                let d = UInt64(p[i] &- UInt8(ascii: "0"))
                if exact, mantissa <= (UInt64(1) << 53 - d) / 10 {
                    mantissa = mantissa * 10 + d
                    scale -= 1
                } else {
                    exact = false
                }
                i += 1
            }
        }
        var exp = 0
        if i < p.count, p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            var expNegative = false
            if i < p.count, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") {
                expNegative = p[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < p.count, Self.isDigit(p[i]) else { throw error("expected a digit in the exponent") }
            while i < p.count, Self.isDigit(p[i]) {
                if exp < 100_000 { exp = exp * 10 + Int(p[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            if expNegative { exp = -exp }
        }
        if isInteger, exact, digits <= 19 {
            if negative {
                if mantissa <= UInt64(Int64.max) + 1 {
                    return .integer(mantissa == UInt64(Int64.max) + 1 ? .min : -Int64(mantissa))
                }
            } else if mantissa <= UInt64(Int64.max) {
                return .integer(Int64(mantissa))
            }
        }
        let e10 = scale + exp
        if exact, mantissa <= (UInt64(1) << 53), e10 >= -22, e10 <= 22 {
            var d = Double(mantissa)
            if e10 < 0 { d /= _pow10[-e10] } else { d *= _pow10[e10] }
            return .number(negative ? -d : d)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: p[start..<i]), as: UTF8.self)
        guard let d = Double(text) else { throw error("invalid number", at: start) }
        guard d.isFinite else { throw error("number \(text) is out of range for a 64-bit float", at: start) }
        return .number(d)
    }

    mutating func hex4() throws -> UInt32 {
        guard i + 4 <= p.count else { throw error("expected 4 hex digits after '\\u'") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = p[i]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw error("expected 4 hex digits after '\\u'")
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }

    mutating func parseString() throws -> String {
        let open = i
        i += 1  // "
        let start = i
        var highBytes = false
        // Fast path: no escapes.
        while i < p.count {
            let b = p[i]
            if b == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: p[start..<i])
                if highBytes, let bad = _invalidUTF8Offset(slice) {
                    throw error("invalid UTF-8 byte 0x\(_hexByte(slice[bad])) in string", at: start + bad)
                }
                i += 1
                return String(decoding: slice, as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error("unescaped control character U+00\(_hexByte(b)) in string") }
            if b >= 0x80 { highBytes = true }
            i += 1
        }
        guard i < p.count else { throw error("unterminated string", at: open) }
        // Slow path: escapes.
        var out: [UInt8] = Array(UnsafeBufferPointer(rebasing: p[start..<i]))
        var rawStart = start
        func checkRaw(_ s: Int, _ e: Int) throws {
            let slice = UnsafeBufferPointer(rebasing: p[s..<e])
            if let bad = _invalidUTF8Offset(slice) {
                throw error("invalid UTF-8 byte 0x\(_hexByte(slice[bad])) in string", at: s + bad)
            }
        }
        if highBytes { try checkRaw(rawStart, i) }
        while i < p.count {
            let b = p[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw error("unescaped control character U+00\(_hexByte(b)) in string") }
            if b != UInt8(ascii: "\\") {
                rawStart = i
                while i < p.count, p[i] != UInt8(ascii: "\""), p[i] != UInt8(ascii: "\\"), p[i] >= 0x20 { i += 1 }
                try checkRaw(rawStart, i)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: p[rawStart..<i]))
                continue
            }
            let escPos = i
            i += 1
            guard i < p.count else { break }
            let e = p[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard i + 1 < p.count, p[i] == UInt8(ascii: "\\"), p[i + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate \\u\(_hex16(scalar)) in string", at: escPos)
                    }
                    i += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else {
                        throw error("unpaired surrogate \\u\(_hex16(scalar)) in string", at: escPos)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw error("unpaired surrogate \\u\(_hex16(scalar)) in string", at: escPos)
                }
                guard let u = Unicode.Scalar(scalar) else {
                    throw error("invalid \\u escape", at: escPos)
                }
                out.append(contentsOf: UTF8.encode(u).map { Array($0) } ?? [])
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))' in string", at: escPos)
            }
        }
        throw error("unterminated string", at: open)
    }
}

let _pow10: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
    1e20, 1e21, 1e22,
]

func _hexByte(_ b: UInt8) -> String {
    let hex = Array("0123456789ABCDEF")
    return "\(hex[Int(b >> 4)])\(hex[Int(b & 15)])"
}

func _hex16(_ v: UInt32) -> String {
    _hexByte(UInt8(truncatingIfNeeded: v >> 8)) + _hexByte(UInt8(truncatingIfNeeded: v))
}

/// The offset of the first byte that breaks UTF-8 well-formedness (Unicode §3.9 table 3-7), or nil.
func _invalidUTF8Offset(_ s: UnsafeBufferPointer<UInt8>) -> Int? {
    var k = 0
    let n = s.count
    while k < n {
        let b = s[k]
        if b < 0x80 {
            k += 1
            continue
        }
        var need = 0
        var lo: UInt8 = 0x80
        var hi: UInt8 = 0xBF
        switch b {
        case 0xC2...0xDF: need = 1
        case 0xE0:
            need = 2
            lo = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: need = 2
        case 0xED:
            need = 2
            hi = 0x9F
        case 0xF0:
            need = 3
            lo = 0x90
        case 0xF1...0xF3: need = 3
        case 0xF4:
            need = 3
            hi = 0x8F
        default: return k
        }
        guard k + need < n else { return k }
        let c1 = s[k + 1]
        if c1 < lo || c1 > hi { return k }
        for j in 2..<(need + 1) where s[k + j] < 0x80 || s[k + j] > 0xBF { return k }
        k += need + 1
    }
    return nil
}
