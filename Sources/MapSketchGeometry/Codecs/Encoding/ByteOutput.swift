/// The one output buffer of the encoders: bytes gathered, and — for a streaming writer — handed
/// to a sink about ``chunkBytes`` at a time, so a geometry of millions of vertices is written
/// with one buffer of memory instead of its whole text.
///
/// A sink's failure is kept, not thrown where the bytes are appended: the encoders never fail
/// midway, nothing more goes to the sink, and ``finish()`` throws it. Without a sink the bytes
/// only gather (``out``).
package struct ByteOutput {
    /// The size of an I/O chunk: a streaming output hands its sink this much at a time, and file
    /// readers read this much at a time.
    package static let chunkBytes = 64 * 1024

    /// The bytes not yet handed to the sink (every byte, without one).
    package var out: [UInt8] = []
    private let sink: ((UnsafeRawBufferPointer) throws -> Void)?
    private let chunkSize: Int
    /// The sink's failure, once it has failed.
    package private(set) var failure: (any Error)?

    /// An output gathering its bytes.
    package init() {
        sink = nil
        chunkSize = .max
        out.reserveCapacity(256)
    }

    /// An output handing `sink` about `chunkSize` bytes at a time (at least one).
    package init(chunkSize: Int = ByteOutput.chunkBytes, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.sink = sink
        self.chunkSize = max(1, chunkSize)
        out.reserveCapacity(min(self.chunkSize, Self.chunkBytes) + 256)
    }

    /// Calls `body` with an output handing `sink` about `chunkSize` bytes at a time, then
    /// hands it the rest.
    /// - Throws: what `body` or `sink` throws.
    package static func streaming<R>(
        chunkSize: Int = ByteOutput.chunkBytes, to sink: (UnsafeRawBufferPointer) throws -> Void, _ body: (inout ByteOutput) throws -> R
    ) throws -> R {
        try withoutActuallyEscaping(sink) { sink in
            var o = ByteOutput(chunkSize: chunkSize, sink: sink)
            let r = try body(&o)
            try o.finish()
            return r
        }
    }

    /// Whether the sink has failed (writing on is wasted work).
    package var failed: Bool { failure != nil }

    /// Appends ASCII text (a separator or bracket of one or two bytes byte by byte: far cheaper
    /// than copying a buffer, once a vertex).
    @inline(__always)
    mutating func ascii(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        if n <= 2 {
            for i in 0..<n { out.append(s.utf8Start[i]) }
        } else {
            out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: n))
        }
    }

    /// Appends the UTF-8 of `s`.
    package mutating func text(_ s: String) {
        out.append(contentsOf: s.utf8)
    }

    /// Hands the gathered bytes to the sink once they fill a chunk.
    @inline(__always)
    package mutating func flushIfFull() {
        if out.count >= chunkSize { flush() }
    }

    /// Hands the gathered bytes to the sink (nothing without one).
    package mutating func flush() {
        guard let sink, !out.isEmpty else { return }
        if failure == nil {
            do {
                try out.withUnsafeBytes { try sink($0) }
            } catch {
                failure = error
            }
        }
        out.removeAll(keepingCapacity: true)
    }

    /// Writes `bytes` formatted elsewhere after everything gathered: handed to the sink as they
    /// are (no copy), or gathered without one.
    package mutating func write(_ bytes: [UInt8]) {
        guard let sink else { return out.append(contentsOf: bytes) }
        flush()
        guard failure == nil else { return }
        do {
            try bytes.withUnsafeBytes { try sink($0) }
        } catch {
            failure = error
        }
    }

    /// Hands the rest to the sink.
    /// - Throws: the sink's failure, if it failed at any time.
    package mutating func finish() throws {
        flush()
        if let failure { throw failure }
    }
}
