/// One class of a class breaks renderer: values in [previous break's max (or the renderer's
/// `minValue`), `maxValue`) draw with `symbol`.
public struct ClassBreak: Hashable, Sendable {
    /// The legend label.
    public var label: String
    /// A longer description for the legend.
    public var description: String
    /// The exclusive upper bound of the class.
    public var maxValue: Double
    /// The symbol of values in this class.
    public var symbol: Symbol

    /// Creates a class break.
    public init(label: String = "", description: String = "", maxValue: Double, symbol: Symbol) {
        self.label = label
        self.description = description
        self.maxValue = maxValue
        self.symbol = symbol
    }
}

/// Symbolizes graphics by a numeric attribute: a value v belongs to the break with
/// min ≤ v < max, where a break's min is the previous break's max and the first break's min is
/// ``minValue``; a value outside every break (or not numeric) gets ``defaultSymbol`` or none.
///
/// Breaks are kept sorted by `maxValue`. A lookup counts the class bounds ≤ v: a bucket table over
/// the bounds' range gives the count up to v's bucket, and at most two compares finish it (no
/// branch depends on v); bounds too clustered for that fall back to SIMD counting (≤ 32 bounds)
/// or a branch-free binary search.
public struct ClassBreaksRenderer: Hashable, Sendable {
    /// The numeric attribute (integers, doubles, dates as epoch milliseconds).
    public let field: String
    /// The inclusive lower bound of the first break (default −∞; a definition written with C's
    /// `DBL_MIN` means the smallest *positive* double, not the most negative one).
    public let minValue: Double
    /// The breaks, sorted by `maxValue`.
    public let breaks: [ClassBreak]
    /// The symbol for values outside every break.
    public let defaultSymbol: Symbol?
    /// The breaks' `maxValue`s, padded with +∞ to a multiple of 4 (SIMD lanes).
    @usableFromInline let uppers: [Double]
    /// The bucketed lookup's data, or nil when the bounds are too clustered for it.
    @usableFromInline let buckets: _ClassBuckets?

    /// Creates a class breaks renderer.
    public init(field: String, minValue: Double = -.infinity, breaks: [ClassBreak], defaultSymbol: Symbol? = nil) {
        self.field = field
        self.minValue = minValue
        let sorted = breaks.enumerated().sorted { ($0.element.maxValue, $0.offset) < ($1.element.maxValue, $1.offset) }.map(\.element)
        self.breaks = sorted
        self.uppers = sorted.map(\.maxValue) + repeatElement(.infinity, count: (4 - sorted.count % 4) % 4)
        self.defaultSymbol = defaultSymbol
        self.buckets = _ClassBuckets(minValue: minValue, uppers: sorted.map(\.maxValue))
    }

    /// The index of the break holding `value`, or -1 when none does (NaN included).
    /// - Complexity: O(1) for bounds spread enough that no 1/4,096 of their range holds three
    ///   (a table read and two compares, branch-free); else O(b) branch-free compares for
    ///   b ≤ 32 breaks, O(log b) above. No allocation.
    @inlinable @inline(__always)
    public func breakIndex(for value: Double) -> Int {
        // Optional chaining reads the table where it is (an `if let` would copy it each call).
        if let i = buckets?.breakIndex(for: value, count: breaks.count) { return i }
        return _countingBreakIndex(for: value)
    }

    /// The lookup without buckets: counts the upper bounds ≤ `value` (out of line: only
    /// renderers with clustered bounds take it).
    @usableFromInline @inline(never)
    func _countingBreakIndex(for value: Double) -> Int {
        guard value >= minValue else { return -1 }
        let count = breaks.count
        return uppers.withUnsafeBufferPointer { u in
            let n = u.count
            guard n > 0, let start = u.baseAddress else { return -1 }
            // The break holding `value` is the number of upper bounds <= value (they are sorted;
            // the +∞ padding only counts for value +∞, which then lies past the last break).
            var i = 0
            if n <= 32 {
                // Few breaks: compare four bounds at a time and count. No branch depends on
                // `value`, where a binary search mispredicts about half its steps on scattered
                // values.
                // Each compare's lanes are all ones (-1) when the bound is <= value, so
                // subtracting them counts; kept as 64-bit integer lanes (not ANDed or summed as
                // masks) this compiles to two compares and two subtractions per four bounds.
                let v = SIMD4<Double>(repeating: value)
                var acc = SIMD4<Int64>()
                let raw = UnsafeRawPointer(start)
                var k = 0
                while k < n {
                    let b = raw.loadUnaligned(fromByteOffset: k &* 8, as: SIMD4<Double>.self)
                    acc &-= unsafeBitCast(b .<= v, to: SIMD4<Int64>.self)
                    k &+= 4
                }
                let pair = acc.lowHalf &+ acc.highHalf
                i = Int(pair.x &+ pair.y)
            } else {
                // Branch-free lower bound: the loop count depends only on the break count.
                var len = n
                var base = 0
                while len > 1 {
                    let half = len >> 1
                    base = u[base &+ half] <= value ? base &+ half : base
                    len &-= half
                }
                i = base &+ (u[base] <= value ? 1 : 0)
            }
            return i < count ? i : -1
        }
    }

    /// The symbol for `value`: its break's, else the default symbol.
    public func symbol(forValue value: Double) -> Symbol? {
        let i = breakIndex(for: value)
        return i >= 0 ? breaks[i].symbol : defaultSymbol
    }
}

/// The bucketed class-breaks lookup. The bounds are `minValue` followed by the upper bounds (each
/// raised to at least `minValue`), so a value's break is the count of bounds ≤ value, minus one:
/// below `minValue` (or NaN) the count is 0 and the answer -1; past the last upper bound it is
/// past the last break.
///
/// Values map to one of `n` buckets by `t = (v − origin) × scale`, clamped to [0, n − 1] and
/// rounded. That map is monotonic (correctly rounded subtraction and multiplication by a
/// positive constant, clamping and rounding all are), so a bound in an earlier bucket than v's is
/// < v, one in a later bucket is > v, and only the bounds in v's own bucket need a compare.
/// `n` is the smallest power of two from 16 to 4,096 that leaves at most two bounds per bucket;
/// `first[j]` is the number of bounds in buckets before j, which is also the index of bucket j's
/// first bound. Two compares, against `bounds[first[j]]` and `bounds[first[j] + 1]` (two +∞ pad
/// the end), finish the count: any bound they reach beyond v's bucket is > v, and a +∞ pad is ≤ v
/// only for v = +∞, which lies past every break anyway.
@usableFromInline
struct _ClassBuckets: Hashable, Sendable {
    /// `minValue`, then the upper bounds raised to at least `minValue`, then +∞, +∞.
    @usableFromInline let bounds: [Double]
    /// Per bucket: the index of its first bound (the count of bounds in earlier buckets).
    @usableFromInline let first: [UInt16]
    @usableFromInline let origin: Double
    @usableFromInline let scale: Double
    /// The last bucket's index as a double (the clamp).
    @usableFromInline let last: Double
    /// The last bucket's index (the bucket count minus one, a power of two minus one).
    @usableFromInline let mask: Int

    /// The bucket of `v`; NaN goes to bucket 0 (its compares are all false). `t` is rounded to
    /// the nearest integer by adding 2⁵² (exact for 0 ≤ t ≤ 4,095, and monotonic like any correct
    /// rounding); the clamps are SIMD selects because LLVM makes branches of scalar ones, and the
    /// mask keeps the index in the table whatever the arithmetic did.
    @inlinable @inline(__always)
    static func bucket(_ v: Double, origin: Double, scale: Double, last: Double, mask: Int) -> Int {
        let t = SIMD2<Double>(repeating: (v - origin) * scale)
        let low = SIMD2<Double>().replacing(with: t, where: t .> 0)  // max(t, 0); NaN → 0
        let high = SIMD2<Double>(repeating: last)
        let clamped = high.replacing(with: low, where: low .< high)  // min(·, last)
        return Int(truncatingIfNeeded: (clamped.x + 0x1p52).bitPattern) & mask
    }

    /// The table for these bounds, or nil when they are too clustered (or NaN) for it.
    init?(minValue: Double, uppers: [Double]) {
        guard !minValue.isNaN, !uppers.contains(where: \.isNaN), uppers.count < Int(UInt16.max) - 2 else { return nil }
        let bounds = [minValue] + uppers.map { Swift.max($0, minValue) }
        let finite = bounds.filter(\.isFinite)
        let lo = finite.min() ?? 0
        let span = (finite.max() ?? 0) - lo
        var n = 16
        while n <= 4_096 {
            let scale = span > 0 ? Double(n) / span : 0
            guard scale.isFinite else { return nil }
            let last = Double(n - 1)
            var perBucket = [Int](repeating: 0, count: n)
            for b in bounds { perBucket[Self.bucket(b, origin: lo, scale: scale, last: last, mask: n - 1)] += 1 }
            if perBucket.allSatisfy({ $0 <= 2 }) {
                var first = [UInt16](repeating: 0, count: n)
                var before = 0
                for j in 0..<n {
                    first[j] = UInt16(before)
                    before += perBucket[j]
                }
                self.bounds = bounds + [.infinity, .infinity]
                self.first = first
                self.origin = lo
                self.scale = scale
                self.last = last
                self.mask = n - 1
                return
            }
            n *= 2
        }
        return nil
    }

    /// The index of the break holding `value` among `count` breaks, or -1.
    @inlinable @inline(__always)
    func breakIndex(for value: Double, count: Int) -> Int {
        let j = Self.bucket(value, origin: origin, scale: scale, last: last, mask: mask)
        return first.withUnsafeBufferPointer { first in
            bounds.withUnsafeBufferPointer { bounds in
                // j < first.count (masked); first[j] + 1 < bounds.count (two pads).
                let k = Int(first[j])
                let below = k &+ (value >= bounds[k] ? 1 : 0) &+ (value >= bounds[k &+ 1] ? 1 : 0)
                let i = below &- 1
                return i < count ? i : -1
            }
        }
    }
}
