// What a text reader does with its input's first bytes before scanning: gzip is inflated as it is
// read, UTF-16 (by its byte-order mark, or by the NUL bytes of ASCII text in UTF-16) is
// transcoded to UTF-8 as it is read. One place for every GPS reader and the format sniffer.

/// The first bytes of a source, already read, then the rest of it.
struct PrefixedByteSource: ByteSource {
    private var prefix: [UInt8]
    private var offset = 0
    private var rest: any ByteSource

    init(prefix: [UInt8], rest: any ByteSource) {
        self.prefix = prefix
        self.rest = rest
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if offset < prefix.count {
            let n = min(buffer.count, prefix.count - offset)
            prefix.withUnsafeBytes { b in
                if let from = b.baseAddress, let to = buffer.baseAddress { to.copyMemory(from: from + offset, byteCount: n) }
            }
            offset += n
            if offset == prefix.count { prefix = [] }
            return n
        }
        return try rest.read(into: buffer)
    }
}

/// UTF-16 text (either byte order) read as UTF-8: a byte-order mark at the start is dropped, an
/// unpaired surrogate or a final odd byte becomes U+FFFD.
struct UTF16ByteSource: ByteSource {
    let bigEndian: Bool
    private var source: any ByteSource
    private var input = [UInt8](repeating: 0, count: 32 * 1024)
    private var position = 0
    private var count = 0
    private var ended = false
    private var started = false
    private var pendingHigh: UInt16?
    /// UTF-8 bytes decoded but not yet handed out.
    private var pending: [UInt8] = []
    private var pendingOffset = 0

    init(_ source: any ByteSource, bigEndian: Bool) {
        self.source = source
        self.bigEndian = bigEndian
    }

    private mutating func unit() throws -> UInt16? {
        if count - position < 2, !ended {
            let left = count - position
            input.withUnsafeMutableBytes { b in
                if let p = b.baseAddress, left > 0 { p.copyMemory(from: p + position, byteCount: left) }
            }
            position = 0
            count = left
            while count < 2 {
                let n = try input.withUnsafeMutableBytes { b in try source.read(into: UnsafeMutableRawBufferPointer(rebasing: b[count...])) }
                if n == 0 {
                    ended = true
                    break
                }
                count += n
            }
        }
        guard count - position >= 2 else {
            if count - position == 1 {  // an odd final byte
                position += 1
                return 0xFFFD
            }
            return nil
        }
        let a = UInt16(input[position]), b = UInt16(input[position + 1])
        position += 2
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    private mutating func emit(_ scalar: Unicode.Scalar) {
        pending.append(contentsOf: UTF8.encode(scalar) ?? UTF8.EncodedScalar())
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while pending.count - pendingOffset < buffer.count {
            guard let u = try unit() else {
                if pendingHigh != nil {
                    pendingHigh = nil
                    emit("\u{FFFD}")
                }
                break
            }
            if !started {
                started = true
                if u == 0xFEFF { continue }
            }
            if let high = pendingHigh {
                pendingHigh = nil
                if (0xDC00...0xDFFF).contains(u) {
                    let value = 0x10000 + (UInt32(high - 0xD800) << 10 | UInt32(u - 0xDC00))
                    emit(Unicode.Scalar(value) ?? "\u{FFFD}")
                    continue
                }
                emit("\u{FFFD}")
            }
            if (0xD800...0xDBFF).contains(u) {
                pendingHigh = u
            } else {
                emit(Unicode.Scalar(u) ?? "\u{FFFD}")
            }
        }
        let n = min(buffer.count, pending.count - pendingOffset)
        pending.withUnsafeBytes { b in
            if let from = b.baseAddress, let to = buffer.baseAddress, n > 0 { to.copyMemory(from: from + pendingOffset, byteCount: n) }
        }
        pendingOffset += n
        if pendingOffset == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingOffset = 0
        }
        return n
    }
}

/// How a reader's input is encoded, judged from its first bytes.
package enum InputEncoding: Equatable {
    case plain
    case gzip
    case utf16(bigEndian: Bool)

    /// How many bytes ``detect(_:)`` looks at.
    package static let sniffLength = 4096

    /// Gzip by its magic number; UTF-16 by its byte-order mark, or, without one, by ASCII text's
    /// NUL high bytes: in at least 8 code units, nine in ten of one byte of each pair are NUL
    /// and at most one in ten of the other.
    package static func detect(_ head: some Collection<UInt8>) -> InputEncoding {
        if Gzip.isGzip(head) { return .gzip }
        let bytes = Array(head.prefix(512))
        if bytes.count >= 2 {
            if bytes[0] == 0xFF, bytes[1] == 0xFE { return .utf16(bigEndian: false) }
            if bytes[0] == 0xFE, bytes[1] == 0xFF { return .utf16(bigEndian: true) }
        }
        let pairs = bytes.count / 2
        guard pairs >= 8 else { return .plain }
        var evenZeros = 0, oddZeros = 0
        for k in 0..<pairs {
            if bytes[2 * k] == 0 { evenZeros += 1 }
            if bytes[2 * k + 1] == 0 { oddZeros += 1 }
        }
        if oddZeros * 10 >= pairs * 9, evenZeros * 10 <= pairs { return .utf16(bigEndian: false) }
        if evenZeros * 10 >= pairs * 9, oddZeros * 10 <= pairs { return .utf16(bigEndian: true) }
        return .plain
    }

    /// `source` decoded: inflated when gzip, transcoded when UTF-16 (also inside gzip), with the
    /// first bytes of the decoded text for sniffing a format.
    /// - Throws: what the source throws.
    package static func decode(_ source: any ByteSource, file: String?) throws -> (source: any ByteSource, head: [UInt8]) {
        var (head, rest) = try peek(source)
        var decoded = rest
        switch detect(head) {
        case .plain: return (decoded, head)
        case .gzip:
            (head, decoded) = try peek(GzipDecoder(rest, file: file))
            if case .utf16(let bigEndian) = detect(head) {
                (head, decoded) = try peek(UTF16ByteSource(decoded, bigEndian: bigEndian))
            }
        case .utf16(let bigEndian):
            (head, decoded) = try peek(UTF16ByteSource(rest, bigEndian: bigEndian))
        }
        return (decoded, head)
    }

    /// The first ``sniffLength`` bytes of `source` (fewer when it is shorter) and a source that
    /// still yields them.
    package static func peek(_ source: any ByteSource) throws -> (head: [UInt8], source: any ByteSource) {
        var source = source
        var head = [UInt8](repeating: 0, count: sniffLength)
        var count = 0
        while count < head.count {
            let n = try head.withUnsafeMutableBytes { b in try source.read(into: UnsafeMutableRawBufferPointer(rebasing: b[count...])) }
            if n == 0 { break }
            count += n
        }
        head.removeLast(head.count - count)
        return (head, PrefixedByteSource(prefix: head, rest: source))
    }

    /// An input window over `bytes`: the array itself when plain, else a decoding stream (whose
    /// errors come with the first read).
    package static func buffer(bytes: [UInt8], limit: Int, file: String?) -> InputBuffer {
        if detect(bytes.prefix(512)) == .plain { return InputBuffer(bytes: bytes) }
        return InputBuffer(source: DecodingSource(MemoryByteSource(bytes), file: file), limit: limit)
    }

    /// An input window over `source`, decoded (errors come with the first read).
    package static func buffer(source: any ByteSource, limit: Int, file: String?) -> InputBuffer {
        InputBuffer(source: DecodingSource(source, file: file), limit: limit)
    }
}

/// A source decoded by ``InputEncoding/decode(_:file:)`` on its first read.
struct DecodingSource: ByteSource {
    private var raw: any ByteSource
    private var decoded: (any ByteSource)?
    let file: String?

    init(_ raw: any ByteSource, file: String?) {
        self.raw = raw
        self.file = file
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var source = try decoded ?? InputEncoding.decode(raw, file: file).source
        defer { decoded = source }
        return try source.read(into: buffer)
    }
}
