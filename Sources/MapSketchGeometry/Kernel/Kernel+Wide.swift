// The orientation determinant over the whole double range: every product exact as an integer
// times a power of two, summed in one fixed-width two's-complement integer.

extension Kernel {
    /// The exact sign of `(a - c) × (b - c)` for any finite doubles, however large or small:
    /// the six products of the expanded determinant (`ax·by − ax·cy − cx·by − ay·bx + ay·cx +
    /// cy·bx`), each an exact 106-bit integer times a power of two between 2^-2148 and 2^1942,
    /// summed in a 4,352-bit integer on the stack. Slow (a few hundred nanoseconds) and needed
    /// only where ``orient2d(_:_:_:_:_:_:)``'s filter and ``_orient2dExact(_:_:_:_:_:_:)``'s
    /// expansion would overflow or underflow.
    ///
    /// - Complexity: O(1): 6 products into 68 words.
    @usableFromInline
    static func _orient2dWide(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double
    ) -> Int {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: WideSum.words) { buffer in
            buffer.initialize(repeating: 0)
            var sum = WideSum(words: buffer)
            sum.add(ax, by, negated: false)
            sum.add(ax, cy, negated: true)
            sum.add(cx, by, negated: true)
            sum.add(ay, bx, negated: true)
            sum.add(ay, cx, negated: false)
            sum.add(cy, bx, negated: false)
            return sum.sign
        }
    }
}

/// A signed fixed-point integer wide enough for any sum of six products of finite doubles:
/// bit 0 weighs 2^-2148 (the least product of two subnormals), the top word holds the sign.
struct WideSum {
    /// 68 words: 4,352 bits ≥ 2148 + 1942 + 106 (the widest product) + 3 (six terms) + 1 (sign).
    static let words = 68
    let words: UnsafeMutableBufferPointer<UInt64>

    init(words: UnsafeMutableBufferPointer<UInt64>) { self.words = words }

    /// `v` as an integer mantissa and a power of two: v = ±mantissa · 2^exponent exactly.
    static func decompose(_ v: Double) -> (mantissa: UInt64, exponent: Int) {
        let e = Int(v.exponentBitPattern)
        let f = v.significandBitPattern
        return e == 0 ? (f, -1074) : (f | (1 << 52), e - 1075)
    }

    /// Adds (or subtracts, when `negated`) the exact product `a·b` of two finite doubles.
    mutating func add(_ a: Double, _ b: Double, negated: Bool) {
        guard a != 0, b != 0 else { return }
        let (ma, ea) = Self.decompose(a)
        let (mb, eb) = Self.decompose(b)
        let (hi, lo) = ma.multipliedFullWidth(by: mb)
        let offset = ea + eb + 2148  // 0 … 4090
        let w = offset / 64, s = UInt64(offset % 64)
        var parts: (UInt64, UInt64, UInt64)
        if s == 0 {
            parts = (lo, hi, 0)
        } else {
            parts = (lo << s, (lo >> (64 - s)) | (hi << s), hi >> (64 - s))
        }
        let negative = (a < 0) != (b < 0) ? !negated : negated
        accumulate(parts, at: w, subtracting: negative)
    }

    /// Adds or subtracts three words starting at word `w`, carrying (or borrowing) upwards.
    private func accumulate(_ p: (UInt64, UInt64, UInt64), at w: Int, subtracting: Bool) {
        var carry: UInt64 = 0
        for k in w..<words.count {
            let v: UInt64 = k == w ? p.0 : (k == w + 1 ? p.1 : (k == w + 2 ? p.2 : 0))
            if k > w + 2 && carry == 0 { return }
            let (r1, o1) = subtracting ? words[k].subtractingReportingOverflow(v) : words[k].addingReportingOverflow(v)
            let (r2, o2) = subtracting ? r1.subtractingReportingOverflow(carry) : r1.addingReportingOverflow(carry)
            words[k] = r2
            carry = o1 || o2 ? 1 : 0
        }
    }

    /// −1, 0 or +1.
    var sign: Int {
        guard let top = words.last else { return 0 }
        if top >> 63 == 1 { return -1 }
        return words.contains { $0 != 0 } ? 1 : 0
    }
}
