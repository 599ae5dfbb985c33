package import Foundation
import MapSketchReaders
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files atomically: the bytes go to a temporary file in the same folder, which is flushed
/// to the disk (`fsync`) and then renamed over the destination, after which the folder itself is
/// flushed, so a reader never sees a half-written file and a crash or power loss leaves either the
/// old file or the new one.
///
/// The temporary file is `.NAME.mapsketch-tmp-PID` beside `NAME` (hidden, named for its writer's
/// process), so one left by a killed run is recognisable: ``removeStaleTemporaryFiles(in:olderThan:now:)``
/// removes those whose process is gone (`check` calls it on the folders it writes to).
package enum AtomicFile {
    /// The marker in every temporary file name: `.NAME` + marker + `PID`.
    package static let temporaryMarker = ".mapsketch-tmp-"

    /// The temporary file that writing `url` uses in this process.
    package static func temporaryURL(for url: URL, pid: Int32 = getpid()) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent)\(temporaryMarker)\(pid)")
    }

    /// Writes `text` as UTF-8 to `url` atomically, creating the folder if needed.
    /// - Throws: ``OutputError`` naming the file and saying why (the system's reason) when the
    ///   folder cannot be made or the temporary file cannot be written, flushed or renamed.
    package static func write(_ text: String, to url: URL) throws(OutputError) {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(OutputError) in try write(UnsafeRawBufferPointer(bytes), to: url) }
        }
        try result.get()
    }

    /// Writes `data` to `url` atomically.
    /// - Throws: ``OutputError`` as ``write(_:to:)-(String,_)``.
    package static func write(_ data: Data, to url: URL) throws(OutputError) {
        let result = data.withUnsafeBytes { (bytes) -> Result<Void, OutputError> in
            Result { () throws(OutputError) in try write(bytes, to: url) }
        }
        try result.get()
    }

    /// Writes `bytes` to `url` atomically.
    /// - Throws: ``OutputError`` as ``write(_:to:)-(String,_)``.
    package static func write(_ bytes: UnsafeRawBufferPointer, to url: URL) throws(OutputError) {
        let writer = try AtomicFileWriter(url)
        try writer.write(bytes)
        try writer.commit()
    }

    /// Removes the temporary files that writers killed before their rename left in `folder`:
    /// `.NAME.mapsketch-tmp-PID`, the older `.NAME.tmp-PID`, and Foundation's atomic-write files
    /// `.dat.nosyncHEXPID.XXXXXX`, when process PID no longer runs, or when the file was last
    /// modified more than `olderThan` seconds before `now` (a process id can be reused). The
    /// calling process's own files are left alone.
    /// - Returns: the names removed, sorted.
    /// - Complexity: O(f) for f entries in the folder.
    @discardableResult
    package static func removeStaleTemporaryFiles(in folder: URL, olderThan: TimeInterval = 3600, now: Date = Date()) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var removed: [String] = []
        for name in names {
            guard let pid = writerProcess(ofTemporaryFile: name), pid != getpid() else { continue }
            let path = folder.appendingPathComponent(name).path
            var st = stat()
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
            let age = now.timeIntervalSince1970 - Double(POSIX.modificationSeconds(st))
            let running = kill(pid, 0) == 0 || errno == EPERM
            if !running || age > olderThan, unlink(path) == 0 { removed.append(name) }
        }
        return removed.sorted()
    }

    /// The process that wrote a temporary file named `name`, or nil when the name is not one of a
    /// temporary file (see ``removeStaleTemporaryFiles(in:olderThan:now:)``).
    package static func writerProcess(ofTemporaryFile name: String) -> Int32? {
        guard name.hasPrefix(".") else { return nil }
        if name.hasPrefix(".dat.nosync") {  // .dat.nosync<hex pid>.<6 random characters>
            let rest = name.dropFirst(".dat.nosync".count)
            guard let dot = rest.firstIndex(of: "."), rest[rest.index(after: dot)...].count == 6 else { return nil }
            return Int32(rest[..<dot], radix: 16)
        }
        for marker in [temporaryMarker, ".tmp-"] {
            guard let range = name.range(of: marker, options: .backwards), range.lowerBound > name.index(after: name.startIndex)
            else { continue }
            let digits = name[range.upperBound...]
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { continue }
            return Int32(digits)
        }
        return nil
    }
}

/// One atomic write in progress: bytes appended to the temporary file, then ``commit()`` (flush,
/// rename into place, flush the folder) or ``discard()``; a writer released without a commit
/// removes its temporary file, leaving the destination as it was.
package final class AtomicFileWriter {
    /// The destination.
    package let url: URL
    /// The temporary file being written.
    package let temporary: URL
    private var fd: Int32

    /// Creates the destination's folder if needed and opens a fresh temporary file beside it,
    /// with the destination's permissions when it exists.
    /// - Throws: ``OutputError`` saying why.
    package init(_ url: URL) throws(OutputError) {
        self.url = url
        temporary = AtomicFile.temporaryURL(for: url)
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw OutputError(path: folder.path, message: "cannot create the folder: \(error.localizedDescription)")
        }
        _ = unlink(temporary.path)  // left by an earlier process with this id
        fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            throw OutputError(path: url.path, message: "cannot create the temporary file \(temporary.lastPathComponent): \(POSIX.reason())")
        }
        var st = stat()
        if stat(url.path, &st) == 0 { _ = fchmod(fd, st.st_mode & 0o7777) }
    }

    deinit {
        if fd >= 0 {
            _ = close(fd)
            _ = unlink(temporary.path)
        }
    }

    /// Appends bytes to the temporary file.
    /// - Throws: ``OutputError`` (the temporary file is removed) when the write fails.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        guard fd >= 0 else { throw OutputError(path: url.path, message: "the write was already finished") }
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let n = POSIX.write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                let why = POSIX.reason()
                discard()
                throw OutputError(path: url.path, message: "cannot write the temporary file \(temporary.lastPathComponent): \(why)")
            }
            offset += n
        }
    }

    /// Appends a string's UTF-8 bytes.
    /// - Throws: ``OutputError`` as ``write(_:)-(UnsafeRawBufferPointer)``.
    package func write(_ text: String) throws(OutputError) {
        var text = text
        let result = text.withUTF8 { b in Result { () throws(OutputError) in try write(UnsafeRawBufferPointer(b)) } }
        try result.get()
    }

    /// Flushes the temporary file to the disk, renames it over the destination and flushes the
    /// folder, so the rename itself survives a power loss.
    /// - Throws: ``OutputError`` (the temporary file is removed, the destination untouched) when
    ///   the flush or the rename fails.
    package func commit() throws(OutputError) {
        guard fd >= 0 else { throw OutputError(path: url.path, message: "the write was already finished") }
        if fsync(fd) != 0, errno != EINVAL {  // EINVAL: a file system without fsync (some pipes, /dev)
            let why = POSIX.reason()
            discard()
            throw OutputError(path: url.path, message: "cannot flush the temporary file \(temporary.lastPathComponent): \(why)")
        }
        let closed = close(fd)
        fd = -1
        guard closed == 0 else {
            let why = POSIX.reason()
            _ = unlink(temporary.path)
            throw OutputError(path: url.path, message: "cannot close the temporary file \(temporary.lastPathComponent): \(why)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let why = POSIX.reason()
            _ = unlink(temporary.path)
            throw OutputError(path: url.path, message: "cannot rename the temporary file into place: \(why)")
        }
        let dir = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            _ = fsync(dir)
            _ = close(dir)
        }
    }

    /// Stops the write: the temporary file is removed and the destination left as it was.
    package func discard() {
        guard fd >= 0 else { return }
        _ = close(fd)
        fd = -1
        _ = unlink(temporary.path)
    }
}

/// An output file that could not be written.
public struct OutputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file or folder.
    public var path: String
    /// What went wrong.
    public var message: String

    /// Creates an error.
    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
