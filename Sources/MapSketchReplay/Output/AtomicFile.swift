package import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files atomically: the bytes go to a temporary file in the same folder, which is then
/// renamed over the destination, so a reader never sees a half-written file and a crash leaves the
/// old file intact.
package enum AtomicFile {
    /// Writes `text` as UTF-8 to `url` atomically, creating the folder if needed.
    /// - Throws: ``OutputError`` naming the file when the folder cannot be made, the temporary
    ///   file cannot be written, or the rename fails.
    package static func write(_ text: String, to url: URL) throws(OutputError) {
        try write(Data(text.utf8), to: url)
    }

    /// Writes `data` to `url` atomically (temporary file + rename).
    /// - Throws: ``OutputError`` naming the file.
    package static func write(_ data: Data, to url: URL) throws(OutputError) {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw OutputError(path: folder.path, message: "cannot create the folder: \(error.localizedDescription)")
        }
        let temp = folder.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())")
        guard FileManager.default.createFile(atPath: temp.path, contents: data) else {
            throw OutputError(path: url.path, message: "cannot write the temporary file \(temp.lastPathComponent)")
        }
        guard rename(temp.path, url.path) == 0 else {
            let code = errno
            _ = unlink(temp.path)
            throw OutputError(path: url.path, message: "cannot rename the temporary file into place (errno \(code))")
        }
    }
}

/// An output file that could not be written.
public struct OutputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file or folder.
    public var path: String
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
