// The inflater's parts: the bit reader over the compressed input, the CRC-32 of gzip's trailer,
// the error, and canonical Huffman codes with their first-level lookup table.

/// The compressed input, read a buffer at a time and taken bit by bit (least significant first).
struct BitReader {
    private var source: any ByteSource
    private var buffer = [UInt8](repeating: 0, count: POSIX.chunkBytes)
    private var position = 0
    private var count = 0
    /// Stream offset of `buffer[0]`.
    private var base = 0
    private var ended = false
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0

    init(_ source: any ByteSource) { self.source = source }

    /// The stream offset of the next whole byte not yet taken into bits.
    var offset: Int { base + position - bitCount / 8 }

    /// Reads more input, keeping the last 8 bytes taken (so whole bytes the bit buffer took ahead
    /// can always be given back).
    private mutating func refill() throws -> Bool {
        guard !ended else { return false }
        let keep = min(8, position)
        buffer.withUnsafeMutableBytes { b in
            if let p = b.baseAddress { p.copyMemory(from: p + (position - keep), byteCount: keep) }
        }
        base += position - keep
        position = keep
        count = keep
        let n = try buffer.withUnsafeMutableBytes { b in try source.read(into: UnsafeMutableRawBufferPointer(rebasing: b[keep...])) }
        if n == 0 { ended = true }
        count += n
        return n > 0
    }

    /// Fills the bit buffer with whole bytes up to 56 bits (fewer at the end of the input).
    @inline(__always)
    private mutating func fill() throws {
        while bitCount <= 56 {
            if position == count {
                guard try refill() else { return }
            }
            bitBuffer |= UInt64(buffer[position]) << UInt64(bitCount)
            position += 1
            bitCount += 8
        }
    }

    /// The next `n` (0…32) bits as an integer.
    mutating func take(_ n: Int) throws -> Int {
        if bitCount < n {
            try fill()
            guard bitCount >= n else { throw InflateError(reason: "unexpected end of deflate data", offset: base + count) }
        }
        let value = Int(bitBuffer & ((1 << UInt64(n)) - 1))
        bitBuffer >>= UInt64(n)
        bitCount -= n
        return value
    }

    /// Drops the bits up to the next byte boundary.
    mutating func alignToByte() {
        let drop = bitCount % 8
        bitBuffer >>= UInt64(drop)
        bitCount -= drop
    }

    /// The next byte (at a byte boundary) without taking it, or nil at the end of the input.
    mutating func peekByte() throws -> UInt8? {
        if bitCount < 8 { try fill() }
        return bitCount >= 8 ? UInt8(truncatingIfNeeded: bitBuffer) : nil
    }

    /// One symbol of `h`: by the 9-bit table when the code is that short, else bit by bit.
    @inline(__always)
    mutating func decode(_ h: Huffman) throws -> Int {
        if bitCount < 15 { try fill() }
        let entry = h.fast[Int(bitBuffer & 0x1FF)]
        let length = Int(entry & 0xF)
        if entry != 0, length <= bitCount {
            bitBuffer >>= UInt64(length)
            bitCount -= length
            return Int(entry >> 4)
        }
        var code = 0, first = 0, index = 0
        for len in 1..<16 {
            code |= try take(1)
            let count = h.count[len]
            if code - count < first { return h.symbol[index + (code - first)] }
            index += count
            first += count
            first <<= 1
            code <<= 1
        }
        throw InflateError(reason: "invalid Huffman code", offset: offset)
    }
}

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as gzip uses, updated as bytes come.
package struct CRC32 {
    package init() {}
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private var state: UInt32 = 0xFFFF_FFFF

    /// The checksum of the bytes so far.
    package var value: UInt32 { state ^ 0xFFFF_FFFF }

    package mutating func update(_ bytes: ArraySlice<UInt8>) {
        var c = state
        Self.table.withUnsafeBufferPointer { t in
            bytes.withUnsafeBufferPointer { b in
                for x in b { c = t[Int((c ^ UInt32(x)) & 0xFF)] ^ (c >> 8) }
            }
        }
        state = c
    }
}

struct InflateError: Error {
    var reason: String
    var offset: Int
}

/// A canonical Huffman code: how many codes of each length, the symbols in code order, and a
/// table of the codes up to 9 bits long indexed by their next 9 input bits (entry: symbol << 4 |
/// length, 0 when the code is longer).
struct Huffman {
    var count = [Int](repeating: 0, count: 16)
    var symbol: [Int]
    var fast = [UInt16](repeating: 0, count: 512)

    /// Builds the code from per-symbol code lengths (0 = unused). Incomplete codes are allowed
    /// only as RFC 1951 permits (a single distance code); `at` locates errors.
    init(lengths: ArraySlice<Int>, at offset: Int = 0) throws {
        symbol = [Int](repeating: 0, count: lengths.count)
        for l in lengths { count[l] += 1 }
        var left = 1
        for len in 1..<16 {
            left <<= 1
            left -= count[len]
            if left < 0 { throw InflateError(reason: "over-subscribed Huffman code", offset: offset) }
        }
        var offs = [Int](repeating: 0, count: 16)
        for len in 1..<15 { offs[len + 1] = offs[len] + count[len] }
        for (i, l) in lengths.enumerated() where l != 0 {
            symbol[offs[l]] = i
            offs[l] += 1
        }
        // Canonical codes (RFC 1951 §3.2.2), bit-reversed into the table: the stream sends a
        // code's most significant bit first.
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        count[0] = 0
        for len in 1..<16 {
            code = (code + count[len - 1]) << 1
            next[len] = code
        }
        for (i, l) in lengths.enumerated() where l != 0 && l <= 9 {
            let c = next[l]
            next[l] += 1
            var reversed = 0
            for k in 0..<l where c & (1 << k) != 0 { reversed |= 1 << (l - 1 - k) }
            var fill = reversed
            while fill < 512 {
                fast[fill] = UInt16(i << 4 | l)
                fill += 1 << l
            }
        }
    }

    static let fixedLength: Huffman = {
        var lengths = [Int](repeating: 8, count: 288)
        for i in 144..<256 { lengths[i] = 9 }
        for i in 256..<280 { lengths[i] = 7 }
        return (try? Huffman(lengths: lengths[...])) ?? Huffman(uncheckedSymbols: [])
    }()
    static let fixedDistance: Huffman = (try? Huffman(lengths: [Int](repeating: 5, count: 30)[...])) ?? Huffman(uncheckedSymbols: [])

    /// An empty code (never used: the fixed codes always build).
    init(uncheckedSymbols: [Int]) {
        symbol = uncheckedSymbols
    }
}
