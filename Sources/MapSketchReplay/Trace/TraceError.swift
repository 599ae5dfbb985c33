import MapSketchGeometry

/// A trace (or track, or golden file) that cannot be read: where, and what was expected.
///
/// `description` is `file:line:column: message`, e.g.
/// `bad.trace.jsonl:3:30: phase: expected one of "began", "moved", "ended", "cancelled", found "down"`.
/// Columns are 1-based and count UTF-8 bytes, as `JSONError` does.
public struct TraceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name as given to the reader (a path or a bare name).
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column in UTF-8 bytes.
    public var column: Int
    /// What went wrong and what was expected.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column): \(message)" }

    /// The error for a `JSONError` raised by the one-line JSON document on line `line` of
    /// `file`, located by ``JSONParser/decode(_:options:_:)`` (its own line is always 1).
    init(_ e: JSONError, file: String, line: Int) {
        self.init(file: file, line: line, column: e.column ?? 1, message: e.pathAndMessage)
    }
}
