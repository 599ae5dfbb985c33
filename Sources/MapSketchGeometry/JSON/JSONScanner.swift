@inline(__always)
func isJSONSpace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
}

/// Thrown internally to stop a location scan once the target is found.
private struct LocationFound: Error {}

/// The scanner behind `JSONParser`: its position, line, depth and location-mode state.
struct JSONScanner {
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
        return "byte 0x\(hexByte(b))"
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
        } catch is LocationFound {
            return .null
        }
    }

    mutating func parseValue() throws -> JSONValue {
        if let target, matched == depth, depth > nearestDepth {
            nearest = (line, i - lineStart + 1)
            nearestDepth = depth
            if depth == target.count {
                found = nearest
                throw LocationFound()
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
                throw error("duplicate key \(InputExcerpt.jsonString(key)) in object", at: keyPos)
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
            if duplicate { obj[key] = v } else { obj.appendUnchecked(key, v) }
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
}
