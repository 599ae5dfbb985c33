/// A string of at most 16 UTF-8 bytes packed into two words, with its length: two such keys are
/// equal exactly when the strings' bytes are (see ``_InternTable/shortKey(_:)``). `length` is -1
/// in an empty table slot.
@usableFromInline
package struct _ShortKey: Hashable, Sendable {
    @usableFromInline package var w0: UInt64
    @usableFromInline package var w1: UInt64
    @usableFromInline package var length: Int32
    @usableFromInline package var id: Int32

    @inlinable
    package init(w0: UInt64, w1: UInt64, length: Int32, id: Int32) {
        self.w0 = w0
        self.w1 = w1
        self.length = length
        self.id = id
    }

    @usableFromInline package static let empty = _ShortKey(w0: 0, w1: 0, length: -1, id: -1)
}

/// The ids of `false` (index 0) and `true` (index 1) in an ``_InternTable``, -1 while absent:
/// two fields, not an array, so an empty table allocates nothing.
@usableFromInline
package struct _BoolIDs: Hashable, Sendable {
    @usableFromInline package var ids: (Int32, Int32) = (-1, -1)

    @inlinable
    package init() {}

    @inlinable
    package subscript(i: Int) -> Int32 {
        get { i == 0 ? ids.0 : ids.1 }
        set { if i == 0 { ids.0 = newValue } else { ids.1 = newValue } }
    }

    @inlinable
    package static func == (a: _BoolIDs, b: _BoolIDs) -> Bool { a.ids == b.ids }

    @inlinable
    package func hash(into hasher: inout Hasher) {
        hasher.combine(ids.0)
        hasher.combine(ids.1)
    }
}

/// Interned values: strings, numbers and bools to small ids — a string column's distinct strings
/// (see ``TypedColumn``), and the values a lookup by value matches.
///
/// Open addressing with linear probing over power-of-two tables. Strings of up to 16 UTF-8 bytes
/// (field values are short: codes, classes, names) are packed into two words and compared as
/// integers, so a lookup neither hashes byte by byte nor compares or retains a `String`; longer
/// strings hash with FNV-1a over their UTF-8 bytes. Numbers hash with a Fibonacci multiplicative
/// hash of their bit pattern. A lookup allocates nothing (except for a string without contiguous
/// UTF-8, which is copied once) and does not go through `Hasher` (SipHash), which dominates short
/// keys.
@usableFromInline
package struct _InternTable: Hashable, Sendable {
    /// Strings of at most 16 UTF-8 bytes, packed.
    @usableFromInline package var shortKeys: [_ShortKey]
    @usableFromInline package var shortCount = 0
    /// Longer strings.
    @usableFromInline package var stringKeys: [String?]
    @usableFromInline package var stringIDs: [Int32]
    @usableFromInline package var numberKeys: [UInt64]
    @usableFromInline package var numberIDs: [Int32]
    @usableFromInline package var boolIDs = _BoolIDs()
    @usableFromInline package var stringCount = 0
    @usableFromInline package var numberCount = 0

    /// An empty table. It allocates nothing: each kind of key gets its slots on its first insert
    /// (a table per string column of a few rows, most of them never used).
    package init() {
        shortKeys = []
        stringKeys = []
        stringIDs = []
        numberKeys = []
        numberIDs = []
    }

    @inlinable
    package static func hash(_ s: String) -> Int {
        let fast = s.utf8.withContiguousStorageIfAvailable { buf -> UInt64 in
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in buf { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            return h
        }
        var h: UInt64
        if let fast {
            h = fast
        } else {
            h = 0xcbf2_9ce4_8422_2325
            for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }

    @inlinable
    package static func bits(_ d: Double) -> UInt64 { d == 0 ? 0 : d.bitPattern }

    @inlinable
    package static func hash(_ bits: UInt64) -> Int { Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 32) }

    /// The packed form of `bytes` when it has at most 16 of them: for 8…16 bytes the first and
    /// the last eight (overlapping), for 4…7 the first and the last four, for 1…3 the first, the
    /// middle and the last byte. With the length alongside, each form determines the bytes.
    @inlinable @inline(__always)
    package static func pack(_ bytes: UnsafeRawBufferPointer) -> _ShortKey? {
        let n = bytes.count
        guard n > 0 else { return _ShortKey(w0: 0, w1: 0, length: 0, id: -1) }
        guard n <= 16, let p = bytes.baseAddress else { return nil }
        let w0: UInt64
        let w1: UInt64
        if n >= 8 {
            w0 = p.loadUnaligned(as: UInt64.self)
            w1 = p.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        } else if n >= 4 {
            w0 = UInt64(p.loadUnaligned(as: UInt32.self))
            w1 = UInt64(p.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self))
        } else {
            w0 = UInt64(p.load(as: UInt8.self)) | UInt64(p.load(fromByteOffset: n >> 1, as: UInt8.self)) << 8
                | UInt64(p.load(fromByteOffset: n &- 1, as: UInt8.self)) << 16
            w1 = 0
        }
        return _ShortKey(w0: w0, w1: w1, length: Int32(truncatingIfNeeded: n), id: -1)
    }

    /// `s` packed when its UTF-8 has at most 16 bytes, else nil.
    @inlinable @inline(__always)
    package static func shortKey(_ s: String) -> _ShortKey? {
        if let packed = s.utf8.withContiguousStorageIfAvailable({ pack(UnsafeRawBufferPointer($0)) }) { return packed }
        // No contiguous UTF-8 (a foreign string): copy it once.
        return Array(s.utf8).withUnsafeBytes { pack($0) }
    }

    @inlinable @inline(__always)
    package static func hash(_ k: _ShortKey) -> Int {
        let h = (k.w0 ^ (k.w1 &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(UInt32(bitPattern: k.length))) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: h >> 32)
    }

    /// The id of a packed string, or -1.
    @inlinable @inline(__always)
    package func lookup(short k: _ShortKey) -> Int32 {
        shortKeys.withUnsafeBufferPointer { slots in
            guard !slots.isEmpty else { return -1 }
            let mask = slots.count &- 1
            var i = Self.hash(k) & mask
            while true {
                let slot = slots[i]
                if slot.length < 0 { return -1 }
                if slot.w0 == k.w0, slot.w1 == k.w1, slot.length == k.length { return slot.id }
                i = (i &+ 1) & mask
            }
        }
    }

    /// The id of a string, or -1.
    @inlinable @inline(__always)
    package func lookup(_ s: String) -> Int32 {
        if let k = Self.shortKey(s) { return lookup(short: k) }
        return stringKeys.withUnsafeBufferPointer { keys in
            guard !keys.isEmpty else { return -1 }
            let mask = keys.count - 1
            var i = Self.hash(s) & mask
            while true {
                guard let k = keys[i] else { return -1 }
                if k == s { return stringIDs[i] }
                i = (i + 1) & mask
            }
        }
    }

    /// The id of a number, or -1.
    @inlinable
    package func lookup(number d: Double) -> Int32 {
        guard !d.isNaN, !numberKeys.isEmpty else { return -1 }
        let b = Self.bits(d)
        let mask = numberKeys.count - 1
        var i = Self.hash(b) & mask
        while true {
            let id = numberIDs[i]
            if id < 0 { return -1 }
            if numberKeys[i] == b { return id }
            i = (i + 1) & mask
        }
    }

    /// Adds a string with `id` unless present (the first id wins).
    package mutating func insert(_ s: String, id: Int32) {
        if lookup(s) >= 0 { return }
        if var k = Self.shortKey(s) {
            if (shortCount + 1) * 2 > shortKeys.count { growShort() }
            k.id = id
            let mask = shortKeys.count - 1
            var i = Self.hash(k) & mask
            while shortKeys[i].length >= 0 { i = (i + 1) & mask }
            shortKeys[i] = k
            shortCount += 1
            return
        }
        if (stringCount + 1) * 2 > stringKeys.count { growStrings() }
        let mask = stringKeys.count - 1
        var i = Self.hash(s) & mask
        while stringKeys[i] != nil { i = (i + 1) & mask }
        stringKeys[i] = s
        stringIDs[i] = id
        stringCount += 1
    }

    /// Adds a number with `id` unless present.
    package mutating func insert(number d: Double, id: Int32) {
        guard !d.isNaN, lookup(number: d) < 0 else { return }
        if (numberCount + 1) * 2 > numberKeys.count { growNumbers() }
        let b = Self.bits(d)
        let mask = numberKeys.count - 1
        var i = Self.hash(b) & mask
        while numberIDs[i] >= 0 { i = (i + 1) & mask }
        numberKeys[i] = b
        numberIDs[i] = id
        numberCount += 1
    }

    /// Adds a bool with `id` unless present.
    package mutating func insert(bool b: Bool, id: Int32) {
        if boolIDs[b ? 1 : 0] < 0 { boolIDs[b ? 1 : 0] = id }
    }

    /// Makes room for `n` strings stored as `s` is (packed when short, hashed when long), so that
    /// the first `n` inserts of such strings do not grow the table. Only a table with no such
    /// string yet is sized.
    package mutating func reserveCapacity(_ n: Int, forStringsLike s: String) {
        var slots = 8
        while slots < 2 * n { slots <<= 1 }
        if Self.shortKey(s) != nil {
            if shortCount == 0, shortKeys.count < slots {
                shortKeys = [_ShortKey](repeating: .empty, count: slots)
            }
        } else if stringCount == 0, stringKeys.count < slots {
            stringKeys = [String?](repeating: nil, count: slots)
            stringIDs = [Int32](repeating: -1, count: slots)
        }
    }

    /// Whether the string is present.
    package func contains(_ s: String) -> Bool { lookup(s) >= 0 }

    private mutating func growShort() {
        let old = shortKeys.filter { $0.length >= 0 }
        shortKeys = [_ShortKey](repeating: .empty, count: Swift.max(8, shortKeys.count * 2))
        for k in old {
            let mask = shortKeys.count - 1
            var i = Self.hash(k) & mask
            while shortKeys[i].length >= 0 { i = (i + 1) & mask }
            shortKeys[i] = k
        }
    }

    private mutating func growStrings() {
        let old = zip(stringKeys, stringIDs).compactMap { k, id in k.map { ($0, id) } }
        stringKeys = [String?](repeating: nil, count: Swift.max(8, stringKeys.count * 2))
        stringIDs = [Int32](repeating: -1, count: stringKeys.count)
        stringCount = 0
        for (k, id) in old { insert(k, id: id) }
    }

    private mutating func growNumbers() {
        let old = zip(numberKeys, numberIDs).filter { $0.1 >= 0 }
        numberKeys = [UInt64](repeating: 0, count: Swift.max(8, numberKeys.count * 2))
        numberIDs = [Int32](repeating: -1, count: numberKeys.count)
        numberCount = 0
        for (b, id) in old { insert(number: Double(bitPattern: b), id: id) }
    }
}
