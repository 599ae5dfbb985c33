public import MapSketchReaders

/// A source that hands out its bytes in small pieces of random size, as a pipe may.
public struct ChunkedSource: ByteSource {
    let bytes: [UInt8]
    var offset = 0
    var rng: SeededRandom
    let largest: Int

    public init(_ bytes: [UInt8], seed: UInt64, largest: Int = 13) {
        self.bytes = bytes
        rng = SeededRandom(seed: seed)
        self.largest = largest
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - offset, rng.int(in: 1...largest))
        guard n > 0 else { return 0 }
        for k in 0..<n { buffer[k] = bytes[offset + k] }
        offset += n
        return n
    }
}

/// A gzip member of `bytes` in stored blocks (for tests: no compression needed).
public func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
    var offset = 0
    repeat {
        let n = min(65535, bytes.count - offset)
        out.append(offset + n == bytes.count ? 1 : 0)
        out += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
        out += bytes[offset..<(offset + n)]
        offset += n
    } while offset < bytes.count
    var crc = CRC32()
    crc.update(bytes[...])
    for v in [crc.value, UInt32(truncatingIfNeeded: bytes.count)] {
        out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
    }
    return out
}

/// A gzip "bomb" made in the test: `prefix`, then `pattern` repeated to `count` bytes, then
/// `suffix`, in one fixed-Huffman block where the repeats are back-references of 258 bytes at 13
/// bits apiece (16 MiB inflate from about 100 KiB).
public func gzipBomb(prefix: String, pattern: String, count: Int, suffix: String = "") -> [UInt8] {
    let p = Array(pattern.utf8)
    precondition(!p.isEmpty && p.count <= 4 && count >= p.count, "distances 1…4 need no extra bits")
    var bits = BitWriter()
    bits.write(1, 1)  // BFINAL
    bits.write(1, 2)  // fixed Huffman codes
    func literal(_ b: UInt8) {  // RFC 1951 §3.2.6
        if b < 144 { bits.writeCode(0x30 + Int(b), 8) } else { bits.writeCode(0x190 + Int(b) - 144, 9) }
    }
    for b in prefix.utf8 { literal(b) }
    for b in p { literal(b) }
    var emitted = p.count
    while count - emitted >= 258 {
        bits.writeCode(0xC5, 8)  // length code 285: 258 bytes
        bits.writeCode(p.count - 1, 5)  // distance code d − 1: d bytes back
        emitted += 258
    }
    while emitted < count {
        literal(p[emitted % p.count])
        emitted += 1
    }
    for b in suffix.utf8 { literal(b) }
    bits.writeCode(0, 7)  // end of block
    var crc = CRC32()
    crc.update(Array(prefix.utf8)[...])
    let block = (0..<(65536 - 65536 % p.count)).map { p[$0 % p.count] }
    var done = 0
    while done < count {
        let n = min(count - done, block.count)
        crc.update(block[0..<n])
        done += n
    }
    crc.update(Array(suffix.utf8)[...])
    var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + bits.bytes
    let size = UInt32(truncatingIfNeeded: prefix.utf8.count + count + suffix.utf8.count)
    for v in [crc.value, size] { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
    return out
}

/// Bits packed least significant first, as DEFLATE stores them.
public struct BitWriter {
    public var bytes: [UInt8] = []
    var used = 8

    public mutating func write(_ value: Int, _ count: Int) {
        for k in 0..<count {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            if value >> k & 1 == 1 { bytes[bytes.count - 1] |= 1 << UInt8(used) }
            used += 1
        }
    }

    /// A Huffman code: most significant bit first.
    public mutating func writeCode(_ code: Int, _ length: Int) {
        for k in stride(from: length - 1, through: 0, by: -1) { write(code >> k & 1, 1) }
    }
}

/// Random small corruptions of a file's bytes, for checking that a reader fails only with a
/// located `ReaderError`.
public enum ByteMutations {
    public static func mutations(of bytes: [UInt8], seed: UInt64, count: Int) -> [[UInt8]] {
        var rng = SeededRandom(seed: seed)
        let alphabet = Array("<>/=\"'&;:$*,.-0123456789ABCDEFabcdef \n\r[]{}".utf8) + [0, 0xFF, 0xC3]
        return (0..<count).map { _ in
            var b = bytes
            for _ in 0..<rng.int(in: 1...4) {
                guard !b.isEmpty else { break }
                let i = rng.int(in: 0...(b.count - 1))
                switch rng.int(in: 0...2) {
                case 0: b[i] = alphabet[rng.int(in: 0...(alphabet.count - 1))]
                case 1: b.remove(at: i)
                default: b = Array(b.prefix(i))
                }
            }
            return b
        }
    }

    public static func onlyReaderErrors(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return true
        } catch is ReaderError {
            return true
        } catch {
            return false
        }
    }
}
