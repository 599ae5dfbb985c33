// DEFLATE (RFC 1951) and gzip (RFC 1952) decompression in Swift, so that `.gpx.gz` files read
// on any machine without zlib headers. Decoder structure after Mark Adler's puff.c (zlib
// contrib/puff): canonical Huffman decoding bit by bit, which is small and obviously correct.

/// Decompresses gzip and raw DEFLATE data.
package enum Gzip {
    /// Whether `bytes` start with the gzip magic number (1f 8b).
    package static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// The decompressed content of a gzip file (all members concatenated), CRC-32 and length checked.
    /// - Throws: `ReaderError` with kind `.badCompression` (line 1, column = byte offset + 1) when
    ///   the header, a Huffman code, a back-reference, the CRC or the length is wrong.
    /// - Complexity: O(n + output) time.
    package static func decompress(_ bytes: [UInt8], file: String? = nil) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 4)
        var offset = 0
        func fail(_ why: String, _ at: Int) -> ReaderError {
            ReaderError(file: file, line: 1, column: at + 1, kind: .badCompression(why))
        }
        repeat {
            guard bytes.count - offset >= 18, bytes[offset] == 0x1F, bytes[offset + 1] == 0x8B else {
                throw fail("expected a gzip header (1f 8b)", offset)
            }
            guard bytes[offset + 2] == 8 else { throw fail("compression method \(bytes[offset + 2]) is not deflate", offset + 2) }
            let flags = bytes[offset + 3]
            var p = offset + 10
            if flags & 4 != 0 {  // FEXTRA
                guard p + 2 <= bytes.count else { throw fail("truncated header", p) }
                p += 2 + Int(bytes[p]) | Int(bytes[p + 1]) << 8
            }
            for flag: UInt8 in [8, 16] where flags & flag != 0 {  // FNAME, FCOMMENT: zero-terminated
                while p < bytes.count, bytes[p] != 0 { p += 1 }
                p += 1
            }
            if flags & 2 != 0 { p += 2 }  // FHCRC
            guard p < bytes.count else { throw fail("truncated header", p) }
            let memberStart = output.count
            var inflater = Inflater(input: bytes, position: p)
            do {
                try inflater.run(into: &output)
            } catch let e as InflateError {
                throw fail(e.reason, e.offset)
            }
            p = inflater.bytePosition
            guard p + 8 <= bytes.count else { throw fail("missing gzip trailer", p) }
            let crc = UInt32(bytes[p]) | UInt32(bytes[p + 1]) << 8 | UInt32(bytes[p + 2]) << 16 | UInt32(bytes[p + 3]) << 24
            let size = UInt32(bytes[p + 4]) | UInt32(bytes[p + 5]) << 8 | UInt32(bytes[p + 6]) << 16 | UInt32(bytes[p + 7]) << 24
            let computed = output.withUnsafeBufferPointer { CRC32.checksum(UnsafeBufferPointer(rebasing: $0[memberStart...])) }
            guard computed == crc else { throw fail("CRC-32 mismatch", p) }
            guard UInt32(truncatingIfNeeded: output.count - memberStart) == size else { throw fail("length mismatch", p + 4) }
            offset = p + 8
            while offset < bytes.count, bytes[offset] == 0 { offset += 1 }  // zero padding after a member
        } while offset < bytes.count
        return output
    }
}

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as gzip uses.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { t in
            for b in bytes { c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        }
        return c ^ 0xFFFF_FFFF
    }
}

struct InflateError: Error {
    var reason: String
    var offset: Int
}

/// A canonical Huffman code: how many codes of each length, and the symbols in code order.
struct Huffman {
    var count = [Int](repeating: 0, count: 16)
    var symbol: [Int]

    /// Builds the code from per-symbol code lengths (0 = unused).
    /// Incomplete codes are allowed only as RFC 1951 permits (a single distance code).
    init(lengths: ArraySlice<Int>) throws {
        symbol = [Int](repeating: 0, count: lengths.count)
        for l in lengths { count[l] += 1 }
        var left = 1
        for len in 1..<16 {
            left <<= 1
            left -= count[len]
            if left < 0 { throw InflateError(reason: "over-subscribed Huffman code", offset: 0) }
        }
        var offs = [Int](repeating: 0, count: 16)
        for len in 1..<15 { offs[len + 1] = offs[len] + count[len] }
        for (i, l) in lengths.enumerated() where l != 0 {
            symbol[offs[l]] = i
            offs[l] += 1
        }
    }
}

struct Inflater {
    let input: [UInt8]
    var position: Int
    var bitBuffer: UInt32 = 0
    var bitCount = 0

    init(input: [UInt8], position: Int) {
        self.input = input
        self.position = position
    }

    /// The byte after the last one consumed (partial bits discarded).
    var bytePosition: Int { position }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    mutating func bits(_ need: Int) throws -> Int {
        while bitCount < need {
            guard position < input.count else { throw InflateError(reason: "unexpected end of deflate data", offset: position) }
            bitBuffer |= UInt32(input[position]) << UInt32(bitCount)
            position += 1
            bitCount += 8
        }
        let value = Int(bitBuffer & ((1 << UInt32(need)) - 1))
        bitBuffer >>= UInt32(need)
        bitCount -= need
        return value
    }

    mutating func decode(_ h: Huffman) throws -> Int {
        var code = 0, first = 0, index = 0
        for len in 1..<16 {
            code |= try bits(1)
            let count = h.count[len]
            if code - count < first { return h.symbol[index + (code - first)] }
            index += count
            first += count
            first <<= 1
            code <<= 1
        }
        throw InflateError(reason: "invalid Huffman code", offset: position)
    }

    mutating func run(into out: inout [UInt8]) throws {
        var last = 0
        repeat {
            last = try bits(1)
            switch try bits(2) {
            case 0: try stored(into: &out)
            case 1: try codes(into: &out, Self.fixedLength, Self.fixedDistance)
            case 2:
                let (l, d) = try dynamicCodes()
                try codes(into: &out, l, d)
            default: throw InflateError(reason: "invalid block type 3", offset: position)
            }
        } while last == 0
        bitBuffer = 0
        bitCount = 0
    }

    mutating func stored(into out: inout [UInt8]) throws {
        bitBuffer = 0
        bitCount = 0
        guard position + 4 <= input.count else { throw InflateError(reason: "truncated stored block", offset: position) }
        let len = Int(input[position]) | Int(input[position + 1]) << 8
        let nlen = Int(input[position + 2]) | Int(input[position + 3]) << 8
        guard len == ~nlen & 0xFFFF else { throw InflateError(reason: "stored block length check failed", offset: position) }
        position += 4
        guard position + len <= input.count else { throw InflateError(reason: "truncated stored block", offset: position) }
        out.append(contentsOf: input[position..<(position + len)])
        position += len
    }

    static let fixedLength: Huffman = {
        var lengths = [Int](repeating: 8, count: 288)
        for i in 144..<256 { lengths[i] = 9 }
        for i in 256..<280 { lengths[i] = 7 }
        return (try? Huffman(lengths: lengths[...])) ?? Huffman.empty
    }()
    static let fixedDistance: Huffman = (try? Huffman(lengths: [Int](repeating: 5, count: 30)[...])) ?? Huffman.empty

    mutating func dynamicCodes() throws -> (Huffman, Huffman) {
        let nlen = try bits(5) + 257, ndist = try bits(5) + 1, ncode = try bits(4) + 4
        guard nlen <= 286, ndist <= 30 else { throw InflateError(reason: "bad code counts", offset: position) }
        var lengths = [Int](repeating: 0, count: 320)
        for i in 0..<ncode { lengths[Self.codeLengthOrder[i]] = try bits(3) }
        let lencode = try Huffman(lengths: lengths[0..<19])
        var index = 0
        while index < nlen + ndist {
            var symbol = try decode(lencode)
            if symbol < 16 {
                lengths[index] = symbol
                index += 1
            } else {
                var len = 0
                if symbol == 16 {
                    guard index > 0 else { throw InflateError(reason: "repeat with no first length", offset: position) }
                    len = lengths[index - 1]
                    symbol = 3 + (try bits(2))
                } else if symbol == 17 {
                    symbol = 3 + (try bits(3))
                } else {
                    symbol = 11 + (try bits(7))
                }
                guard index + symbol <= nlen + ndist else { throw InflateError(reason: "too many lengths", offset: position) }
                for _ in 0..<symbol {
                    lengths[index] = len
                    index += 1
                }
            }
        }
        guard lengths[256] != 0 else { throw InflateError(reason: "no end-of-block code", offset: position) }
        let l = try Huffman(lengths: lengths[0..<nlen])
        let d = try Huffman(lengths: lengths[nlen..<(nlen + ndist)])
        return (l, d)
    }

    mutating func codes(into out: inout [UInt8], _ lencode: Huffman, _ distcode: Huffman) throws {
        while true {
            var symbol = try decode(lencode)
            if symbol < 256 {
                out.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                symbol -= 257
                guard symbol < 29 else { throw InflateError(reason: "bad length symbol", offset: position) }
                let len = Self.lengthBase[symbol] + (try bits(Self.lengthExtra[symbol]))
                let dsym = try decode(distcode)
                guard dsym < 30 else { throw InflateError(reason: "bad distance symbol", offset: position) }
                let dist = Self.distanceBase[dsym] + (try bits(Self.distanceExtra[dsym]))
                guard dist <= out.count else { throw InflateError(reason: "distance too far back", offset: position) }
                var from = out.count - dist
                for _ in 0..<len {
                    out.append(out[from])
                    from += 1
                }
            }
        }
    }
}

extension Huffman {
    /// An empty code (never used: the fixed codes always build).
    static let empty = Huffman(uncheckedSymbols: [])

    init(uncheckedSymbols: [Int]) {
        symbol = uncheckedSymbols
    }
}
