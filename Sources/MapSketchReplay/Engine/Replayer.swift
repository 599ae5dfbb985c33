public import Foundation
public import MapSketchGeometry
import MapSketchReaders

/// Replays trace files: read, set up, run on the virtual clock, report.
@MainActor
public enum Replayer {
    /// Reads a trace file, streaming it a line at a time.
    /// - Throws: ``TraceError`` (file:line:column: what was expected), including for a file that
    ///   cannot be read (saying why: not found, a folder, permission, the system's reason) or a
    ///   line that is not UTF-8.
    public static func load(_ url: URL, displayName: String? = nil) throws(TraceError) -> Trace {
        let file = displayName ?? url.lastPathComponent
        let source: FileByteSource
        do {
            source = try FileByteSource(path: url.path, file: file)
        } catch let e as ReaderError {
            throw TraceError(e, file: file)
        } catch {
            throw TraceError(file: file, line: 1, column: 1, message: "cannot read the file: \(error)")
        }
        var trace = try TraceDecoder.decode(source: source, file: file)
        trace.files = TraceFiles(trace: url, displayName: file)
        return trace
    }

    /// The text of a trace file.
    /// - Throws: ``TraceError`` when the file cannot be read, or at the first line that is not
    ///   UTF-8 (or that fails to decode before it).
    package static func text(of url: URL, displayName file: String) throws(TraceError) -> String {
        let data = try InputFile.contents(of: url, displayName: file)
        guard let text = String(validating: data, as: UTF8.self) else {
            // The streaming decoder locates the first byte that is not UTF-8.
            _ = try TraceDecoder.decode(source: MemoryByteSource([UInt8](data)), file: file)
            throw TraceError(file: file, line: 1, column: 1, message: "expected UTF-8 text")
        }
        return text
    }

    /// Replays a trace to its end (or to `step` events) and returns the session;
    /// `extensions` (the team's own code) are installed in the session.
    /// - Throws: ``TraceError`` for a trace that cannot be read or set up.
    public static func replay(
        _ trace: Trace, name: String, file: String, upTo step: Int? = nil, extensions: ReplayExtensions = .none
    ) throws(TraceError) -> ReplaySession {
        let session: ReplaySession
        do {
            session = try ReplaySession(trace: trace, name: name, extensions: extensions)
        } catch {
            throw TraceError(file: file, line: error.line, column: error.column, message: error.message)
        }
        session.run(upTo: step)
        return session
    }
}
