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
/// Breaks are kept sorted by `maxValue`; the lookup is a binary search over a flat array of
/// upper bounds.
public struct ClassBreaksRenderer: Hashable, Sendable {
    /// The numeric attribute (integers, doubles, dates as epoch milliseconds).
    public let field: String
    /// The inclusive lower bound of the first break (default −∞; note that C's `DBL_MIN`, used
    /// in the seed, is the smallest *positive* double).
    public let minValue: Double
    /// The breaks, sorted by `maxValue`.
    public let breaks: [ClassBreak]
    /// The symbol for values outside every break.
    public let defaultSymbol: Symbol?
    /// The breaks' `maxValue`s, padded with +∞ to a multiple of 4 (SIMD lanes).
    @usableFromInline let uppers: [Double]

    /// Creates a class breaks renderer.
    public init(field: String, minValue: Double = -.infinity, breaks: [ClassBreak], defaultSymbol: Symbol? = nil) {
        self.field = field
        self.minValue = minValue
        let sorted = breaks.enumerated().sorted { ($0.element.maxValue, $0.offset) < ($1.element.maxValue, $1.offset) }.map(\.element)
        self.breaks = sorted
        self.uppers = sorted.map(\.maxValue) + repeatElement(.infinity, count: (4 - sorted.count % 4) % 4)
        self.defaultSymbol = defaultSymbol
    }

    /// The index of the break holding `value`, or -1 when none does (NaN included).
    /// - Complexity: O(b) branch-free compares for b ≤ 32 breaks, else O(log b); no allocation.
    @inlinable
    public func breakIndex(for value: Double) -> Int {
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
