/// A bitmap of rows, empty (every bit clear) until a bit is set; it grows only as far as the
/// highest row set.
@usableFromInline
package struct _RowBits: Sendable, Equatable {
    @usableFromInline package var words: [UInt64] = []

    @inlinable
    package init() {}

    /// The bits of `words` (bit r of word r / 64 is row r).
    package init(words: [UInt64]) {
        var trimmed = words
        while trimmed.last == 0 { trimmed.removeLast() }
        self.words = trimmed
    }

    /// Whether no bit is set (true before the first insert).
    @inlinable package var isEmpty: Bool { words.isEmpty }

    @inlinable
    package func contains(_ row: Int) -> Bool {
        let w = row &>> 6
        return w < words.count && words[w] & (1 &<< UInt64(row & 63)) != 0
    }

    package mutating func insert(_ row: Int) {
        let w = row >> 6
        if w >= words.count { words.append(contentsOf: repeatElement(0, count: w + 1 - words.count)) }
        words[w] |= 1 << UInt64(row & 63)
    }

    package mutating func insert(_ rows: Range<Int>) {
        for r in rows { insert(r) }
    }

    package mutating func remove(_ row: Int) {
        let w = row >> 6
        if w < words.count { words[w] &= ~(1 << UInt64(row & 63)) }
    }

    /// Clears every bit from row `row` on.
    package mutating func removeAll(from row: Int) {
        let w = row >> 6
        guard w < words.count else { return }
        words[w] &= (1 << UInt64(row & 63)) &- 1
        words.removeLast(words.count - w - 1)
        while words.last == 0 { words.removeLast() }
    }

    /// Sets, from row `base` on, the bits set in `other`.
    package mutating func append(_ other: _RowBits, at base: Int) {
        for (w, word) in other.words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                insert(base + w * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
    }
}
