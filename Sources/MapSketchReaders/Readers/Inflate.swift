// DEFLATE (RFC 1951) and gzip (RFC 1952) decompression in Swift, streaming, so that `.gpx.gz`
// files read on any machine without zlib headers and a small file that inflates to gigabytes
// costs a window of memory, not its inflated size. Decoder structure after Mark Adler's puff.c
// (zlib contrib/puff): canonical Huffman codes, with a 9-bit lookup table in front of the
// bit-by-bit decode (as zlib's inflate_fast uses a first-level table).

/// Gzip helpers for whole buffers.
package enum Gzip {
    /// Whether `bytes` start with the gzip magic number (1f 8b).
    package static func isGzip(_ bytes: some Collection<UInt8>) -> Bool {
        var i = bytes.makeIterator()
        return i.next() == 0x1F && i.next() == 0x8B
    }

    /// The decompressed content of a gzip file (all members concatenated), CRC-32 and length checked.
    /// - Throws: ``ReaderError`` with kind `.badCompression` (line 1, column = byte offset + 1).
    /// - Complexity: O(n + output) time; the output is held whole (use `GzipDecoder` to stream).
    package static func decompress(_ bytes: [UInt8], file: String? = nil) throws -> [UInt8] {
        var decoder = GzipDecoder(MemoryByteSource(bytes), file: file)
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: POSIX.chunkBytes)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try decoder.read(into: $0) }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
        }
    }
}

/// Inflates raw DEFLATE data held in memory (a zlib stream from `position`, after its header),
/// whole: for small embedded streams such as a PNG's image data.
package struct Inflater {
    private var decoder: GzipDecoder

    /// An inflater of `input` from byte `position`.
    package init(input: [UInt8], position: Int = 0) {
        decoder = GzipDecoder.rawDeflate(MemoryByteSource(Array(input[min(position, input.count)...])))
    }

    /// Appends the inflated bytes to `output`.
    /// - Throws: ``ReaderError`` `.badCompression` for corrupt data.
    /// - Complexity: O(n + output).
    package mutating func run(into output: inout [UInt8]) throws {
        var chunk = [UInt8](repeating: 0, count: POSIX.chunkBytes)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try decoder.read(into: $0) }
            if n == 0 { return }
            output.append(contentsOf: chunk[0..<n])
        }
    }
}

/// Inflates a gzip stream (one or more members) as it is read: a ``ByteSource`` over another.
///
/// Memory is the 32 KiB history DEFLATE refers back to plus one output burst (64 KiB) and one
/// input buffer, whatever the inflated size. Each member's CRC-32 and length are checked at its
/// end; corrupt data throws ``ReaderError`` `.badCompression` at its byte offset (line 1,
/// column = offset + 1).
package struct GzipDecoder: ByteSource {
    /// How much DEFLATE may refer back.
    static let history = 32 * 1024
    /// How much one burst of decoding produces before handing bytes out.
    static let burst = POSIX.chunkBytes

    let file: String?
    private var bits: BitReader
    /// Decoded bytes: the last `history` bytes served, then those not served yet.
    private var out: [UInt8] = []
    private var served = 0
    private var phase = Phase.header
    private var lastBlock = false
    private var lengthCode = Huffman.fixedLength
    private var distanceCode = Huffman.fixedDistance
    private var crc = CRC32()
    private var memberSize: UInt32 = 0
    /// The index in `out` from which the member's CRC is not yet counted.
    private var memberStart = 0
    /// The index in `out` where the member's output begins (0 once that has left the history):
    /// a member cannot refer back into the one before.
    private var memberOutputStart = 0

    enum Phase {
        case header, blockHeader, stored(remaining: Int), codes, trailer, done
    }
    /// Whether the stream is raw DEFLATE (no gzip header or trailer).
    private let raw: Bool

    /// A decoder reading gzip bytes from `source`; `file` labels errors.
    package init(_ source: any ByteSource, file: String? = nil) {
        self.init(source, file: file, raw: false)
    }

    /// A decoder of raw DEFLATE (RFC 1951) data from `source` (a zlib stream after its 2-byte
    /// header, a PNG's image data): no gzip header, no trailer check.
    package static func rawDeflate(_ source: any ByteSource, file: String? = nil) -> GzipDecoder {
        GzipDecoder(source, file: file, raw: true)
    }

    private init(_ source: any ByteSource, file: String?, raw: Bool) {
        self.file = file
        self.raw = raw
        bits = BitReader(source)
        phase = raw ? .blockHeader : .header
        out.reserveCapacity(Self.history + Self.burst + 512)
    }

    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while served == out.count {
            if case .done = phase { return 0 }
            do {
                try produce()
            } catch let e as InflateError {
                throw ReaderError(file: file, line: 1, column: e.offset + 1, kind: .badCompression(e.reason))
            }
        }
        let n = min(buffer.count, out.count - served)
        out.withUnsafeBytes { b in
            if let from = b.baseAddress, let to = buffer.baseAddress { to.copyMemory(from: from + served, byteCount: n) }
        }
        served += n
        return n
    }

    private func fail(_ reason: String) -> InflateError { InflateError(reason: reason, offset: bits.offset) }

    /// Decodes until a burst of bytes is ready or the stream ends.
    private mutating func produce() throws {
        // Everything is served: keep only the history DEFLATE may still refer to.
        if out.count > Self.history + Self.burst {
            crc.update(out[memberStart...])
            let drop = out.count - Self.history
            out.removeFirst(drop)
            served -= drop
            memberStart = out.count
            memberOutputStart = max(0, memberOutputStart - drop)
        }
        let target = out.count + Self.burst
        while out.count < target {
            switch phase {
            case .header:
                try header()
                phase = .blockHeader
            case .blockHeader:
                lastBlock = try bits.take(1) == 1
                switch try bits.take(2) {
                case 0:
                    bits.alignToByte()
                    let len = try bits.take(16)
                    let nlen = try bits.take(16)
                    guard len == ~nlen & 0xFFFF else { throw fail("stored block length check failed") }
                    phase = .stored(remaining: len)
                case 1:
                    (lengthCode, distanceCode) = (Huffman.fixedLength, Huffman.fixedDistance)
                    phase = .codes
                case 2:
                    (lengthCode, distanceCode) = try dynamicCodes()
                    phase = .codes
                default: throw fail("invalid block type 3")
                }
            case .stored(let remaining):
                let n = min(remaining, target - out.count)
                for _ in 0..<n { out.append(UInt8(try bits.take(8))) }
                memberSize &+= UInt32(n)
                phase = remaining == n ? endOfBlock() : .stored(remaining: remaining - n)
            case .codes:
                if try codes(until: target) { phase = endOfBlock() }
            case .trailer:
                try trailer()
            case .done:
                return
            }
        }
    }

    private func endOfBlock() -> Phase { lastBlock ? (raw ? .done : .trailer) : .blockHeader }

    /// The gzip member header (RFC 1952 §2.3): magic, method 8, flags, and the optional extra
    /// field, name, comment and header CRC, skipped.
    private mutating func header() throws {
        let start = bits.offset
        guard try bits.take(8) == 0x1F, try bits.take(8) == 0x8B else {
            throw InflateError(reason: "expected a gzip header (1f 8b)", offset: start)
        }
        let method = try bits.take(8)
        guard method == 8 else { throw InflateError(reason: "compression method \(method) is not deflate", offset: start + 2) }
        let flags = try bits.take(8)
        for _ in 0..<6 { _ = try bits.take(8) }  // modification time, extra flags, operating system
        if flags & 4 != 0 {  // FEXTRA
            let length = try bits.take(16)
            for _ in 0..<length { _ = try bits.take(8) }
        }
        for flag in [8, 16] where flags & flag != 0 {  // FNAME, FCOMMENT: zero-terminated
            while try bits.take(8) != 0 {}
        }
        if flags & 2 != 0 { _ = try bits.take(16) }  // FHCRC
        crc = CRC32()
        memberSize = 0
        memberStart = out.count
        memberOutputStart = out.count
    }

    /// The member trailer: CRC-32 and length, then another member, zero padding, or the end.
    private mutating func trailer() throws {
        bits.alignToByte()
        let at = bits.offset
        let expectedCRC = UInt32(try bits.take(16)) | UInt32(try bits.take(16)) << 16
        let expectedSize = UInt32(try bits.take(16)) | UInt32(try bits.take(16)) << 16
        crc.update(out[memberStart...])
        memberStart = out.count
        guard crc.value == expectedCRC else { throw InflateError(reason: "CRC-32 mismatch", offset: at) }
        guard memberSize == expectedSize else { throw InflateError(reason: "length mismatch", offset: at + 4) }
        while true {  // zero padding after a member
            guard let b = try bits.peekByte() else {
                phase = .done
                return
            }
            guard b == 0 else { break }
            _ = try bits.take(8)
        }
        phase = .header
    }

    static let lengthBase: [UInt16] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    static let lengthExtra: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase: [UInt16] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra: [UInt8] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private mutating func dynamicCodes() throws -> (Huffman, Huffman) {
        let nlen = try bits.take(5) + 257, ndist = try bits.take(5) + 1, ncode = try bits.take(4) + 4
        guard nlen <= 286, ndist <= 30 else { throw fail("bad code counts") }
        var lengths = [Int](repeating: 0, count: 320)
        for i in 0..<ncode { lengths[Self.codeLengthOrder[i]] = try bits.take(3) }
        let lencode = try Huffman(lengths: lengths[0..<19], at: bits.offset)
        var index = 0
        while index < nlen + ndist {
            var symbol = try bits.decode(lencode)
            if symbol < 16 {
                lengths[index] = symbol
                index += 1
            } else {
                var len = 0
                if symbol == 16 {
                    guard index > 0 else { throw fail("repeat with no first length") }
                    len = lengths[index - 1]
                    symbol = 3 + (try bits.take(2))
                } else if symbol == 17 {
                    symbol = 3 + (try bits.take(3))
                } else {
                    symbol = 11 + (try bits.take(7))
                }
                guard index + symbol <= nlen + ndist else { throw fail("too many lengths") }
                for _ in 0..<symbol {
                    lengths[index] = len
                    index += 1
                }
            }
        }
        guard lengths[256] != 0 else { throw fail("no end-of-block code") }
        return (try Huffman(lengths: lengths[0..<nlen], at: bits.offset), try Huffman(lengths: lengths[nlen..<(nlen + ndist)], at: bits.offset))
    }

    /// Decodes literal/length and distance symbols until `out` reaches `target` bytes (a copy may
    /// go up to 258 past it) or the block ends.
    /// - Returns: whether the block ended.
    private mutating func codes(until target: Int) throws -> Bool {
        let (lencode, distcode) = (lengthCode, distanceCode)
        while out.count < target {
            var symbol = try bits.decode(lencode)
            if symbol < 256 {
                out.append(UInt8(truncatingIfNeeded: symbol))
                memberSize &+= 1
            } else if symbol == 256 {
                return true
            } else {
                symbol -= 257
                guard symbol < 29 else { throw fail("bad length symbol") }
                let len = Int(Self.lengthBase[symbol]) + (try bits.take(Int(Self.lengthExtra[symbol])))
                let dsym = try bits.decode(distcode)
                guard dsym < 30 else { throw fail("bad distance symbol") }
                let dist = Int(Self.distanceBase[dsym]) + (try bits.take(Int(Self.distanceExtra[dsym])))
                guard dist <= out.count - memberOutputStart else { throw fail("distance too far back") }
                var from = out.count - dist
                for _ in 0..<len {
                    out.append(out[from])
                    from += 1
                }
                memberSize &+= UInt32(len)
            }
        }
        return false
    }

}
