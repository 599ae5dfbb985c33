/// Interned attribute values of one unique-value field: strings, numbers and bools to small ids.
///
/// Open addressing with linear probing over power-of-two tables; strings hash with FNV-1a over
/// their UTF-8 bytes, numbers with a Fibonacci multiplicative hash of their bit pattern. A lookup
/// allocates nothing and does not go through `Hasher` (SipHash), which dominates short keys.
@usableFromInline
struct _InternTable: Hashable, Sendable {
    @usableFromInline var stringKeys: [String?]
    @usableFromInline var stringIDs: [Int32]
    @usableFromInline var numberKeys: [UInt64]
    @usableFromInline var numberIDs: [Int32]
    @usableFromInline var boolIDs: [Int32]
    @usableFromInline var stringCount = 0
    @usableFromInline var numberCount = 0

    init() {
        stringKeys = [String?](repeating: nil, count: 8)
        stringIDs = [Int32](repeating: -1, count: 8)
        numberKeys = [UInt64](repeating: 0, count: 8)
        numberIDs = [Int32](repeating: -1, count: 8)
        boolIDs = [-1, -1]
    }

    @inlinable
    static func hash(_ s: String) -> Int {
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
    static func bits(_ d: Double) -> UInt64 { d == 0 ? 0 : d.bitPattern }

    @inlinable
    static func hash(_ bits: UInt64) -> Int { Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 32) }

    /// The id of a string, or -1.
    @inlinable
    func lookup(_ s: String) -> Int32 {
        stringKeys.withUnsafeBufferPointer { keys in
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
    func lookup(number d: Double) -> Int32 {
        guard !d.isNaN else { return -1 }
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

    /// The id of an attribute value, or -1 (null never matches).
    @inlinable
    func lookup(_ v: AttributeValue) -> Int32 {
        switch v {
        case .string(let s): return lookup(s)
        case .integer(let i): return lookup(number: Double(i))
        case .double(let d): return lookup(number: d)
        case .bool(let b): return boolIDs[b ? 1 : 0]
        case .date: return lookup(number: v.numericValue ?? .nan)
        case .null: return -1
        }
    }

    /// Adds a string with `id` unless present (the first id wins).
    mutating func insert(_ s: String, id: Int32) {
        if lookup(s) >= 0 { return }
        if (stringCount + 1) * 2 > stringKeys.count { growStrings() }
        let mask = stringKeys.count - 1
        var i = Self.hash(s) & mask
        while stringKeys[i] != nil { i = (i + 1) & mask }
        stringKeys[i] = s
        stringIDs[i] = id
        stringCount += 1
    }

    /// Adds a number with `id` unless present.
    mutating func insert(number d: Double, id: Int32) {
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
    mutating func insert(bool b: Bool, id: Int32) {
        if boolIDs[b ? 1 : 0] < 0 { boolIDs[b ? 1 : 0] = id }
    }

    /// Whether the string is present.
    func contains(_ s: String) -> Bool { lookup(s) >= 0 }

    private mutating func growStrings() {
        let old = zip(stringKeys, stringIDs).compactMap { k, id in k.map { ($0, id) } }
        stringKeys = [String?](repeating: nil, count: stringKeys.count * 2)
        stringIDs = [Int32](repeating: -1, count: stringKeys.count)
        stringCount = 0
        for (k, id) in old { insert(k, id: id) }
    }

    private mutating func growNumbers() {
        let old = zip(numberKeys, numberIDs).filter { $0.1 >= 0 }
        numberKeys = [UInt64](repeating: 0, count: numberKeys.count * 2)
        numberIDs = [Int32](repeating: -1, count: numberKeys.count)
        numberCount = 0
        for (b, id) in old { insert(number: Double(bitPattern: b), id: id) }
    }
}
