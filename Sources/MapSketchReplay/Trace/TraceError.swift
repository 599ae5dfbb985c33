public import MapSketchGeometry
import MapSketchReaders

/// A trace (or track, or golden file) that cannot be read: where (file:line:column) and what was
/// expected, e.g.
/// `bad.trace.jsonl:3:30: phase: expected one of "began", "moved", "ended", "cancelled", found "down"`.
public typealias TraceError = InputError

extension InputError {
    /// The error for a `JSONError` raised by the one-line JSON document on line `line` of
    /// `file`, located by `JSONParser.decode` (its own line is always 1).
    init(_ e: JSONError, file: String, line: Int) {
        self.init(file: file, line: line, column: e.column ?? 1, message: InputExcerpt.message(e.pathAndMessage))
    }

    /// The error for a `ReaderError` (an unreadable file, a line too long) of trace `file`.
    init(_ e: ReaderError, file: String) {
        self.init(file: file, line: e.line, column: e.column, message: e.message)
    }
}
