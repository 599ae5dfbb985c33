package import Foundation
import MapSketchGeometry
import MapSketchReaders
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a trace file whose header is known only at the end (a GPS track's viewport frames all
/// its fixes) while its events stream: event lines go to an anonymous spill file (created in the
/// destination's folder and unlinked at once, so even a killed run leaves nothing), then
/// ``commit(header:)`` writes the header and copies the events into the file, atomically.
package final class TraceFileWriter {
    /// The trace file.
    package let url: URL
    private var spill: Int32
    private var buffer: [UInt8] = []

    /// Prepares to write `url`.
    /// - Throws: ``OutputError`` when the spill file cannot be made.
    package init(_ url: URL) throws(OutputError) {
        self.url = url
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw OutputError(path: folder.path, message: "cannot create the folder: \(error.localizedDescription)")
        }
        var template = Array(folder.appendingPathComponent(".\(url.lastPathComponent)\(AtomicFile.temporaryMarker)\(getpid())-XXXXXX").path.utf8CString)
        spill = template.withUnsafeMutableBufferPointer { p in p.baseAddress.map { mkstemp($0) } ?? -1 }
        guard spill >= 0 else {
            throw OutputError(path: url.path, message: "cannot create a temporary file beside it: \(POSIX.reason())")
        }
        _ = template.withUnsafeBufferPointer { p in p.baseAddress.map { unlink($0) } }
        buffer.reserveCapacity(POSIX.chunkBytes)
    }

    deinit { _ = close(spill) }

    /// Appends an event line.
    /// - Throws: ``OutputError`` when the spill file cannot be written.
    package func append(_ entry: TraceEntry) throws(OutputError) {
        buffer.append(contentsOf: JSONWriter.bytes(TraceEncoder.encodeEvent(entry)))
        buffer.append(ASCII.lf)
        if buffer.count >= POSIX.chunkBytes { try flush() }
    }

    private func flush() throws(OutputError) {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { b in b.baseAddress.map { POSIX.write(spill, $0 + offset, b.count - offset) } ?? 0 }
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputError(path: url.path, message: "cannot write the temporary file: \(POSIX.reason())")
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes the trace file: `header`, then the events appended, atomically.
    /// - Throws: ``OutputError`` naming the file.
    package func commit(header: TraceHeader) throws(OutputError) {
        try flush()
        let writer = try AtomicFileWriter(url)
        try writer.write(JSONWriter.string(TraceEncoder.encodeHeader(header)) + "\n")
        guard lseek(spill, 0, SEEK_SET) == 0 else {
            throw OutputError(path: url.path, message: "cannot read the temporary file back: \(POSIX.reason())")
        }
        var chunk = [UInt8](repeating: 0, count: POSIX.chunkBytes)
        while true {
            let n = chunk.withUnsafeMutableBytes { b in b.baseAddress.map { POSIX.read(spill, $0, b.count) } ?? 0 }
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputError(path: url.path, message: "cannot read the temporary file back: \(POSIX.reason())")
            }
            if n == 0 { break }
            let written = chunk.withUnsafeBytes { b in
                Result { () throws(OutputError) in try writer.write(UnsafeRawBufferPointer(rebasing: b[0..<n])) }
            }
            try written.get()
        }
        try writer.commit()
    }
}
