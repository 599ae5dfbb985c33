// A decimal w × 10^q to the nearest double without text: the Eisel–Lemire step (Lemire, "Number
// Parsing at a Gigabyte per Second", 2021). It gives the correctly rounded double or says it
// cannot tell, and the caller then falls back to the C library's exact conversion.

enum DecimalToDouble {
    /// The double nearest to `w` × 10^`q` (ties to even), or nil when 128 bits of 5^q do not settle
    /// the rounding, or when the result is zero or infinite (left to the exact slow path, which
    /// says what is out of range).
    /// - Precondition: `w` holds every significant digit of the number (none were dropped).
    @inline(__always)
    static func value(_ w: UInt64, _ q: Int) -> Double? {
        guard w != 0, q >= -342, q <= 308 else { return nil }
        let lz = w.leadingZeroBitCount
        let wn = w << UInt64(lz)
        let index = 2 * (q + 342)
        // w × 5^q, truncated to 128 bits; the next 64 bits of 5^q only when the first product's
        // low bits below the 55 kept could carry.
        var (hi, lo) = wn.multipliedFullWidth(by: powersOfFive128[index])
        let mask: UInt64 = 0xFFFF_FFFF_FFFF_FFFF >> 55
        if hi & mask == mask {
            let second = wn.multipliedFullWidth(by: powersOfFive128[index + 1]).high
            let (sum, carry) = lo.addingReportingOverflow(second)
            lo = sum
            if carry { hi &+= 1 }
        }
        if lo == UInt64.max, q < -27 || q > 55 { return nil }  // the truncation could matter
        let upper = Int(hi >> 63)
        let shift = UInt64(upper + 64 - 52 - 3)
        var mantissa = hi >> shift
        var power2 = (((152_170 + 65_536) * q) >> 16) + 63 + upper - lz + 1023
        if power2 <= 0 { return nil }  // subnormal: the exact slow path
        // Exactly halfway between two doubles (only possible while 5^q fits in 64 bits): to even.
        if lo <= 1, q >= -4, q <= 23, mantissa & 3 == 1, mantissa << shift == hi {
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= 2 << 52 {
            mantissa = 1 << 52
            power2 += 1
        }
        mantissa &= ~(1 << 52)
        if power2 >= 0x7FF { return nil }
        return Double(bitPattern: UInt64(power2) << 52 | mantissa)
    }
}
