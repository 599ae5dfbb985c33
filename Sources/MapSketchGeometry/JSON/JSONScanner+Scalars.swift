// The scanner's scalars: numbers (correctly rounded), strings (escapes, UTF-8 validation).

extension JSONScanner {
    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    /// Reads a number: an integer literal that fits in `Int64` as `.integer`, any other as the
    /// nearest double (ties to even) — from the digits when that is provably exact (Clinger's
    /// fast path, then the Eisel–Lemire step), else through the C library's conversion.
    mutating func parseNumber() throws -> JSONValue {
        let start = i
        let n = p.count
        // The bytes through a local pointer and index (written back before every error and at
        // the end): the digit loops then stay in registers.
        guard let base = p.baseAddress else { throw error("expected a JSON value, found end of input") }
        var k = i
        var negative = false
        if base[k] == UInt8(ascii: "-") {
            negative = true
            k += 1
            if k < n, base[k] == UInt8(ascii: "I") {
                throw error("NaN and Infinity are not valid JSON numbers", at: start)
            }
        }
        guard k < n, Self.isDigit(base[k]) else {
            i = k
            throw error("expected a digit after '-'")
        }
        // The number is w × 10^(scale + exp) while no digit was dropped (`truncated`): w takes the
        // first 19 significant digits.
        var w: UInt64 = 0
        var digits = 0
        var truncated = false
        var scale = 0
        if base[k] == UInt8(ascii: "0") {
            k += 1
            if k < n, Self.isDigit(base[k]) {
                i = k
                throw error("leading zeros are not allowed in numbers", at: k - 1)
            }
        } else {
            while k < n {
                let d = base[k] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                if digits < 19 {
                    w = w &* 10 &+ UInt64(d)
                    digits += 1
                } else {
                    truncated = true
                    scale += 1
                }
                k += 1
            }
        }
        var isInteger = true
        if k < n, base[k] == UInt8(ascii: ".") {
            isInteger = false
            k += 1
            guard k < n, Self.isDigit(base[k]) else {
                i = k
                throw error("expected a digit after '.'")
            }
            while k < n {
                let d = base[k] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                if digits < 19 {
                    if w != 0 || d != 0 {
                        w = w &* 10 &+ UInt64(d)
                        digits += 1
                    }
                    scale -= 1
                } else {
                    truncated = true
                }
                k += 1
            }
        }
        var exp = 0
        if k < n, base[k] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            k += 1
            var expNegative = false
            if k < n, base[k] == UInt8(ascii: "+") || base[k] == UInt8(ascii: "-") {
                expNegative = base[k] == UInt8(ascii: "-")
                k += 1
            }
            guard k < n, Self.isDigit(base[k]) else {
                i = k
                throw error("expected a digit in the exponent")
            }
            while k < n, Self.isDigit(base[k]) {
                if exp < 100_000 { exp = exp * 10 + Int(base[k] &- UInt8(ascii: "0")) }
                k += 1
            }
            if expNegative { exp = -exp }
        }
        i = k
        if isInteger, !truncated {
            if negative {
                if w <= UInt64(Int64.max) + 1 {
                    return .integer(w == UInt64(Int64.max) + 1 ? .min : -Int64(w))
                }
            } else if w <= UInt64(Int64.max) {
                return .integer(Int64(w))
            }
        }
        if !truncated {
            let e10 = scale + exp
            if w <= UInt64(1) << 53, e10 >= -22, e10 <= 22 {
                var d = Double(w)
                if e10 < 0 { d /= exactPowersOfTen[-e10] } else { d *= exactPowersOfTen[e10] }
                return .number(negative ? -d : d)
            }
            if let d = DecimalToDouble.value(w, e10) { return .number(negative ? -d : d) }
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
                if highBytes, let bad = invalidUTF8Offset(slice) {
                    throw error("invalid UTF-8 byte 0x\(hexByte(slice[bad])) in string", at: start + bad)
                }
                i += 1
                return String(decoding: slice, as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error("unescaped control character U+00\(hexByte(b)) in string") }
            if b >= 0x80 { highBytes = true }
            i += 1
        }
        guard i < p.count else { throw error("unterminated string", at: open) }
        // Slow path: escapes.
        var out: [UInt8] = Array(UnsafeBufferPointer(rebasing: p[start..<i]))
        var rawStart = start
        func checkRaw(_ s: Int, _ e: Int) throws {
            let slice = UnsafeBufferPointer(rebasing: p[s..<e])
            if let bad = invalidUTF8Offset(slice) {
                throw error("invalid UTF-8 byte 0x\(hexByte(slice[bad])) in string", at: s + bad)
            }
        }
        if highBytes { try checkRaw(rawStart, i) }
        while i < p.count {
            let b = p[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw error("unescaped control character U+00\(hexByte(b)) in string") }
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
                        throw error("unpaired surrogate \\u\(hex16(scalar)) in string", at: escPos)
                    }
                    i += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else {
                        throw error("unpaired surrogate \\u\(hex16(scalar)) in string", at: escPos)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw error("unpaired surrogate \\u\(hex16(scalar)) in string", at: escPos)
                }
                guard let u = Unicode.Scalar(scalar) else {
                    throw error("invalid \\u escape", at: escPos)
                }
                out.append(contentsOf: UTF8.encode(u).map { Array($0) } ?? [])
            default:
                // A control or non-ASCII byte after the backslash is named by its value, never echoed raw.
                guard (0x21...0x7E).contains(e) else {
                    throw error("invalid escape: '\\' followed by byte 0x\(String(e, radix: 16, uppercase: true)) in string", at: escPos)
                }
                throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))' in string", at: escPos)
            }
        }
        throw error("unterminated string", at: open)
    }
}

let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
    1e20, 1e21, 1e22,
]

func hexByte(_ b: UInt8) -> String {
    let hex = Array("0123456789ABCDEF")
    return "\(hex[Int(b >> 4)])\(hex[Int(b & 15)])"
}

func hex16(_ v: UInt32) -> String {
    hexByte(UInt8(truncatingIfNeeded: v >> 8)) + hexByte(UInt8(truncatingIfNeeded: v))
}

/// The offset of the first byte that breaks UTF-8 well-formedness (Unicode §3.9 table 3-7), or nil.
func invalidUTF8Offset(_ s: UnsafeBufferPointer<UInt8>) -> Int? {
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
