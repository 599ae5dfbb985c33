// Allocation-free scanning helpers shared by the streaming readers: byte constants, eight bytes
// at a time (SWAR), decimal numbers, and line/column bookkeeping over UTF-8 bytes.

/// Byte constants (ASCII).
package enum ASCII {
    package static let tab: UInt8 = 0x09
    package static let lf: UInt8 = 0x0A
    package static let cr: UInt8 = 0x0D
    package static let space: UInt8 = 0x20
    package static let quote: UInt8 = 0x22
    package static let hash: UInt8 = 0x23
    package static let dollar: UInt8 = 0x24
    package static let amp: UInt8 = 0x26
    package static let apos: UInt8 = 0x27
    package static let star: UInt8 = 0x2A
    package static let plus: UInt8 = 0x2B
    package static let comma: UInt8 = 0x2C
    package static let minus: UInt8 = 0x2D
    package static let dot: UInt8 = 0x2E
    package static let slash: UInt8 = 0x2F
    package static let zero: UInt8 = 0x30
    package static let nine: UInt8 = 0x39
    package static let colon: UInt8 = 0x3A
    package static let semicolon: UInt8 = 0x3B
    package static let lt: UInt8 = 0x3C
    package static let eq: UInt8 = 0x3D
    package static let gt: UInt8 = 0x3E
    package static let question: UInt8 = 0x3F
    package static let bang: UInt8 = 0x21
    package static let lbracket: UInt8 = 0x5B
    package static let rbracket: UInt8 = 0x5D

    @inline(__always) package static func isDigit(_ b: UInt8) -> Bool { b &- zero < 10 }
    @inline(__always) package static func isSpace(_ b: UInt8) -> Bool { b == space || b == lf || b == cr || b == tab }
}

package enum ByteScan {
    /// 10^e for 0 ≤ e ≤ 22, all exactly representable as Double (a switch compiles to a constant
    /// table: no lazy global, no bounds check).
    @inline(__always) package static func exactPowerOfTen(_ e: Int) -> Double {
        switch e {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        case 22: 1e22
        default: 1
        }
    }

    /// Parses a decimal number (`-12.5`, `+3`, `.5`, `1e-3`) spanning exactly `start..<end`.
    ///
    /// Correctly rounded: the fast path (≤ 15 significant digits… mantissa < 2^53 and a power of
    /// ten ≤ 10^22, one IEEE division or multiplication, Clinger 1990) covers GPS data; anything
    /// else falls back to the standard library's parser. Returns nil if the span is not a number.
    /// - Complexity: O(end − start), no allocation on the fast path.
    package static func double(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        if let v = plainDecimal(p, start, end) { return v }
        return generalDouble(p, start, end)
    }

    /// The common case of ``double(_:_:_:)``: `[-]digits[.digits]` with 1…18 digits in all and a
    /// value below 2^53 as an integer, parsed in one tight pass; nil for anything else (the
    /// general parser then decides). Same arithmetic as the general parser's fast path — the
    /// digits as one integer, divided once by an exact power of ten — so the same Double.
    @inline(__always)
    package static func plainDecimal(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var i = start
        var negative = false
        if i < end, p[i] == ASCII.minus {
            negative = true
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = digitRun(p, &i, end, into: &mantissa)
        var fractionDigits = 0
        if i < end, p[i] == ASCII.dot {
            i += 1
            fractionDigits = digitRun(p, &i, end, into: &mantissa)
            digits += fractionDigits
        }
        // At most 18 digits: the mantissa did not wrap (10^18 < 2^63).
        guard i == end, digits >= 1, digits <= 18, mantissa < (1 << 53) else { return nil }
        var value = Double(mantissa)
        if fractionDigits > 0 { value /= exactPowerOfTen(fractionDigits) }
        return negative ? -value : value
    }

    /// Appends the decimal digits from `i` (up to `end` or the first non-digit) to `mantissa`,
    /// wrapping (the caller bounds the digit count), and returns how many there were.
    @inline(__always)
    package static func digitRun(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int, into mantissa: inout UInt64) -> Int {
        let start = i
        while i < end {
            let d = p[i] &- ASCII.zero
            guard d < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            i += 1
        }
        return i - start
    }

    /// ``double(_:_:_:)`` for any input: signs, exponents, long mantissas.
    package static func generalDouble(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var i = start
        guard i < end else { return nil }
        var negative = false
        if p[i] == ASCII.minus { negative = true; i += 1 } else if p[i] == ASCII.plus { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var significant = 0
        var exponent = 0
        var sawDigit = false
        while i < end, ASCII.isDigit(p[i]) {
            sawDigit = true
            if significant < 19 {
                mantissa = mantissa &* 10 &+ UInt64(p[i] &- ASCII.zero)
                if mantissa != 0 { significant += 1 }
            } else {
                exponent += 1
            }
            digits += 1
            i += 1
        }
        if i < end, p[i] == ASCII.dot {
            i += 1
            while i < end, ASCII.isDigit(p[i]) {
                sawDigit = true
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(p[i] &- ASCII.zero)
                    if mantissa != 0 { significant += 1 }
                    exponent -= 1
                }
                i += 1
            }
        }
        guard sawDigit else { return nil }
        if i < end, p[i] == 0x65 || p[i] == 0x45 {  // e E
            i += 1
            var expNegative = false
            if i < end, p[i] == ASCII.minus { expNegative = true; i += 1 } else if i < end, p[i] == ASCII.plus { i += 1 }
            guard i < end, ASCII.isDigit(p[i]) else { return nil }
            var e = 0
            while i < end, ASCII.isDigit(p[i]) {
                if e < 100_000 { e = e * 10 + Int(p[i] &- ASCII.zero) }
                i += 1
            }
            exponent += expNegative ? -e : e
        }
        guard i == end else { return nil }
        if mantissa < (1 << 53), exponent >= -22, exponent <= 22, significant < 19 {
            var value = Double(mantissa)
            if exponent < 0 { value /= exactPowerOfTen(-exponent) } else { value *= exactPowerOfTen(exponent) }
            return negative ? -value : value
        }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self))
    }

    /// Parses an unsigned decimal integer spanning exactly `start..<end` (at most 18 digits).
    package static func uint(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        guard start < end, end - start <= 18 else { return nil }
        var v = 0
        for i in start..<end {
            guard ASCII.isDigit(p[i]) else { return nil }
            v = v * 10 + Int(p[i] &- ASCII.zero)
        }
        return v
    }

    /// Where the next line starts after a line ending at `lineEnd` (an LF, a CR, a CR LF, or the
    /// end of `p`), and whether `p` ends right after a CR (so an LF at the start of the next
    /// window still belongs to this line end). The one line-end rule of the streaming readers.
    @inline(__always)
    package static func afterLineEnd(_ p: UnsafeBufferPointer<UInt8>, _ lineEnd: Int) -> (next: Int, afterCR: Bool) {
        guard lineEnd < p.count else { return (lineEnd, false) }
        let next = lineEnd + 1
        guard p[lineEnd] == ASCII.cr else { return (next, false) }
        if next == p.count { return (next, true) }
        return (p[next] == ASCII.lf ? next + 1 : next, false)
    }

    /// How many bytes at the start of `p` are valid UTF-8 (the offset of the first byte that is not).
    /// - Complexity: O(n).
    package static func validUTF8Prefix(_ p: UnsafeBufferPointer<UInt8>) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = p.makeIterator()
        var valid = 0
        while case .valid(let scalar) = parser.parseScalar(from: &bytes) { valid += scalar.count }
        return valid
    }

    /// Whether ranges `a` and `b` of `p` hold the same bytes.
    /// - Complexity: O(length).
    @inline(__always) package static func sameBytes(_ p: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        var i = a.lowerBound, j = b.lowerBound
        if let base = p.baseAddress {  // eight bytes at a time: both ranges lie inside `p`
            while i &+ 8 <= a.upperBound {
                let x = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                let y = UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)
                if x != y { return false }
                i &+= 8
                j &+= 8
            }
        }
        while i < a.upperBound {
            if p[i] != p[j] { return false }
            i += 1
            j += 1
        }
        return true
    }
}

/// Eight bytes at a time in a UInt64 (SIMD within a register): the NMEA line scan's helpers.
/// Source: the zero-byte tests of Hacker's Delight (H. S. Warren, 2nd ed., §6-1).
enum SWAR {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080
    static let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    static let stars: UInt64 = 0x2A2A_2A2A_2A2A_2A2A
    static let newlines: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
    static let carriageReturns: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
    static let commas: UInt64 = 0x2C2C_2C2C_2C2C_2C2C

    /// Whether one of the eight bytes of `v` is zero (exact as a yes/no answer).
    @inline(__always) static func hasZeroByte(_ v: UInt64) -> Bool {
        (v &- ones) & ~v & highBits != 0
    }

    /// The high bit of each zero byte of `v` (exact: no borrow between bytes).
    @inline(__always) static func zeroBytes(_ v: UInt64) -> UInt64 {
        let t = (v & lowBits) &+ lowBits
        return ~(t | v | lowBits)
    }

    /// How many of the eight bytes of `v` are zero.
    @inline(__always) static func zeroByteCount(_ v: UInt64) -> Int {
        zeroBytes(v).nonzeroBitCount
    }

    /// The XOR of the eight bytes of `v`.
    @inline(__always) static func xorOfBytes(_ v: UInt64) -> UInt8 {
        var x = v ^ (v >> 32)
        x ^= x >> 16
        x ^= x >> 8
        return UInt8(truncatingIfNeeded: x)
    }
}

/// Tracks 1-based line numbers while a reader moves forward through its input, counting line
/// ends lazily so that scanning stays one pass over the bytes. A line ends at LF, CR or CR LF.
///
/// Offsets are stream offsets; the bytes are the reader's window `p`, whose first byte is at
/// stream offset `base`. Before the reader drops the bytes before an offset it moves the
/// checkpoint there (``moveCheckpoint(to:in:base:)``), so an earlier offset of the window can
/// still be answered by counting again from the checkpoint.
struct LineCounter {
    private struct State {
        var offset = 0
        var line = 1
        var lineStart = 0
        /// Whether the byte before `offset` is a CR (an LF right after it ends no second line).
        var afterCR = false
    }

    private var state = State()
    private var checkpoint = State()

    /// The stream offset counted up to.
    var countedUpTo: Int { state.offset }

    /// The 1-based line and column (in bytes) of stream offset `offset`, which must lie in the
    /// window or after the checkpoint.
    mutating func position(of offset: Int, in p: UnsafeBufferPointer<UInt8>, base: Int = 0) -> (line: Int, column: Int) {
        if offset < state.offset {
            if offset >= state.lineStart { return (state.line, offset - state.lineStart + 1) }
            state = checkpoint
        }
        Self.count(&state, to: offset, in: p, base: base)
        return (state.line, offset - state.lineStart + 1)
    }

    /// Counts up to `offset` and keeps that point as the checkpoint (the reader is about to drop
    /// the bytes before it).
    mutating func moveCheckpoint(to offset: Int, in p: UnsafeBufferPointer<UInt8>, base: Int) {
        if offset < state.offset { state = checkpoint }
        Self.count(&state, to: offset, in: p, base: base)
        checkpoint = state
    }

    private static func count(_ s: inout State, to offset: Int, in p: UnsafeBufferPointer<UInt8>, base: Int) {
        var i = max(s.offset - base, 0)
        let end = min(offset - base, p.count)
        guard i < end, let start = p.baseAddress else { return }
        while i < end {
            // Eight bytes at a time while none is a CR (little-endian: byte k is bits 8k…8k+7).
            if !s.afterCR, i &+ 8 <= end {
                let w = UInt64(littleEndian: UnsafeRawPointer(start + i).loadUnaligned(as: UInt64.self))
                if !SWAR.hasZeroByte(w ^ SWAR.carriageReturns) {
                    let newlines = SWAR.zeroBytes(w ^ SWAR.newlines)
                    if newlines != 0 {
                        s.line &+= newlines.nonzeroBitCount
                        s.lineStart = base &+ i &+ ((63 &- newlines.leadingZeroBitCount) &>> 3) &+ 1  // after the last one
                    }
                    i &+= 8
                    continue
                }
            }
            let b = p[i]
            if b == ASCII.lf {
                if !s.afterCR { s.line += 1 }
                s.lineStart = base + i + 1
                s.afterCR = false
            } else if b == ASCII.cr {
                s.line += 1
                s.lineStart = base + i + 1
                s.afterCR = true
            } else {
                s.afterCR = false
            }
            i += 1
        }
        s.offset = base + end
    }
}
