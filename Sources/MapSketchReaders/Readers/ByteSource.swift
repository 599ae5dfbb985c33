// Streaming input: where the readers' bytes come from (a file, a pipe, standard input, memory, a
// decoder over another source), read a window at a time so memory is bounded by the window, not
// by the input's size.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A source of bytes read in order, a buffer at a time: a file, a pipe, memory, or a decoder
/// over another source. The GPS readers and the trace reader stream from one.
public protocol ByteSource {
    /// Reads up to `buffer.count` bytes into `buffer` and returns how many: 0 only at the end.
    /// - Throws: ``ReaderError`` when the bytes cannot be read or decoded.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// The bytes of an array, as a ``ByteSource``.
public struct MemoryByteSource: ByteSource, Sendable {
    /// The bytes.
    package let bytes: [UInt8]
    /// How many have been read.
    package private(set) var offset = 0

    /// A source over `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - offset)
        guard n > 0, let target = buffer.baseAddress else { return 0 }
        bytes.withUnsafeBytes { b in
            if let base = b.baseAddress { target.copyMemory(from: base + offset, byteCount: n) }
        }
        offset += n
        return n
    }
}

/// A file, pipe, FIFO or standard input, read with `read(2)` as the reader asks for bytes.
///
/// Opening says why a file cannot be read: not found, a folder, permission denied, or the
/// system's text for any other error, as ``ReaderError/Kind/unreadable(reason:)`` naming the file.
public final class FileByteSource: ByteSource {
    /// The file name errors use.
    package let file: String
    private var fd: Int32
    private let owned: Bool

    /// Opens `path` for reading; `file` labels errors (default: the path).
    /// - Throws: ``ReaderError`` (``ReaderError/Kind/unreadable(reason:)``) when it cannot be
    ///   opened or is a folder.
    public init(path: String, file: String? = nil) throws {
        self.file = file ?? path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        owned = true
        guard fd >= 0 else {
            let code = errno
            let reason = code == ENOENT ? "not found" : code == EACCES ? "permission denied" : POSIX.reason(code)
            throw ReaderError(file: self.file, line: 1, column: 1, kind: .unreadable(reason: reason))
        }
        var st = stat()
        if fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFDIR {
            throw ReaderError(file: self.file, line: 1, column: 1, kind: .unreadable(reason: "is a folder, expected a file"))
        }
    }

    /// Reads standard input (`file` labels errors, default `<stdin>`); it is not closed.
    public init(standardInputNamed file: String = "<stdin>") {
        self.file = file
        fd = 0
        owned = false
    }

    deinit {
        if owned, fd >= 0 { _ = close(fd) }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let n = POSIX.read(fd, base, buffer.count)
            if n >= 0 { return n }
            let code = errno
            if code == EINTR { continue }
            let reason = code == EISDIR ? "is a folder, expected a file" : POSIX.reason(code)
            throw ReaderError(file: file, line: 1, column: 1, kind: .unreadable(reason: reason))
        }
    }
}

/// The window of input a streaming reader scans: a prefix of `storage` holds the bytes from
/// stream offset `base` on. A reader works with indices into the window; when it needs bytes past
/// its end, ``refill(keepingFrom:)`` drops what the reader no longer needs, slides the rest to the
/// front and reads more, growing the window (up to `limit`) only while one token fills it.
///
/// Over an array given whole (`init(bytes:)`) the window is the array itself: no copy, no refill.
package struct InputBuffer {
    /// How many bytes a refill reads at least (tests make it tiny to cut input everywhere).
    package static let defaultChunk = 128 * 1024
    package let chunk: Int

    /// The window's bytes. It grows (to at most `limit`) and never shrinks, so its size is the
    /// most memory the input has taken.
    package private(set) var storage: [UInt8]
    /// Valid bytes at the front of `storage`.
    package private(set) var count: Int
    /// The stream offset of `storage[0]`.
    package private(set) var base = 0
    /// Whether the source has no more bytes (always true over a whole array).
    package private(set) var atEnd: Bool
    /// The largest window the reader may need, in bytes.
    package let limit: Int
    private var source: (any ByteSource)?

    /// The whole input in memory.
    package init(bytes: [UInt8]) {
        storage = bytes
        count = bytes.count
        atEnd = true
        limit = bytes.count
        chunk = Self.defaultChunk
    }

    /// A window over `source` that may grow to `limit` bytes.
    package init(source: any ByteSource, limit: Int, chunk: Int = defaultChunk) {
        storage = []
        count = 0
        atEnd = false
        self.chunk = max(1, chunk)
        self.limit = max(limit, self.chunk)
        self.source = source
    }

    /// Calls `body` with the valid bytes.
    @inline(__always)
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
    }

    /// Drops the bytes before index `keep`, slides the rest to the front and reads more.
    /// - Returns: false when nothing more can come: the source ended, or the bytes kept already
    ///   fill a window of `limit` bytes (the caller reports its token as too long).
    /// - Throws: what the source throws.
    package mutating func refill(keepingFrom keep: Int) throws -> Bool {
        guard !atEnd, var source else { return false }
        let kept = count - keep
        if keep > 0 {
            storage.withUnsafeMutableBytes { b in
                if let p = b.baseAddress, kept > 0 { p.copyMemory(from: p + keep, byteCount: kept) }
            }
            base += keep
            count = kept
        }
        if storage.count - count < chunk {  // too little room: grow (doubling) up to the limit
            guard kept < limit else { return false }
            let size = min(limit, max(chunk * 2, storage.count * 2, kept + chunk))
            storage.append(contentsOf: repeatElement(0, count: size - storage.count))
        }
        var added = 0
        while count < storage.count {
            let n = try storage.withUnsafeMutableBytes { b in
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: b[count...]))
            }
            if n == 0 {
                atEnd = true
                break
            }
            count += n
            added += n
            if added >= chunk { break }  // enough to go on; a pipe need not fill the window
        }
        self.source = atEnd ? nil : source
        return added > 0 || atEnd
    }
}

/// Lines of a streamed input, ending at LF, CR or CR LF (or the end of the input), with a leading
/// UTF-8 byte-order mark skipped: the line splitting of the GeoJSON Lines and trace readers.
package struct LineReader {
    private var input: InputBuffer
    private var offset = 0
    private var afterCR = false
    private var started = false
    /// The 1-based number of the last line returned.
    package private(set) var lineNumber = 0
    /// The file name errors use.
    package let file: String?

    /// Lines of `input`; `file` labels errors.
    package init(_ input: InputBuffer, file: String?) {
        self.input = input
        self.file = file
    }

    /// Calls `body` with the next line's bytes (without its line end) and its 1-based number, and
    /// returns what `body` returns, or nil at the end of the input.
    /// - Throws: what `body` throws; ``ReaderError`` `.tooLong` for a line longer than the
    ///   window's limit, or what the source throws.
    package mutating func next<R>(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> R) throws -> R? {
        while true {
            let storage = input
            let complete = input.atEnd
            // nil: the line runs past the window.
            let line: Range<Int>?? = storage.withBytes { p in
                var start = offset
                if !started, p.count - start >= 3 || complete {
                    started = true
                    if p.count - start >= 3, p[start] == 0xEF, p[start + 1] == 0xBB, p[start + 2] == 0xBF { start += 3 }
                }
                guard started else { return nil }
                if afterCR, start < p.count {
                    if p[start] == ASCII.lf { start += 1 }
                    afterCR = false
                }
                if start >= p.count, complete { return .some(nil) }
                var end = start
                while end < p.count, p[end] != ASCII.lf, p[end] != ASCII.cr { end += 1 }
                guard end < p.count || complete else {
                    offset = start
                    return nil
                }
                (offset, afterCR) = ByteScan.afterLineEnd(p, end)
                return start..<end
            }
            switch line {
            case .some(.some(let r)):
                lineNumber += 1
                let number = lineNumber
                return try storage.withBytes { p in try body(UnsafeBufferPointer(rebasing: p[r]), number) }
            case .some(.none):
                return nil
            case .none:
                let keep = offset
                guard try input.refill(keepingFrom: keep) else {
                    throw ReaderError(file: file, line: lineNumber + 1, column: 1, kind: .tooLong(what: "the line", limit: input.limit))
                }
                offset -= keep
            }
        }
    }
}
