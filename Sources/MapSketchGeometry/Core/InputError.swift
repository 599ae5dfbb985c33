/// Input that cannot be used: where (file, 1-based line and column, columns in UTF-8 bytes) and
/// what was expected — the error every reader of files in this package reports, in the form a
/// command line prints.
///
/// `description` is `file:line:column: message`, e.g.
/// `bad.trace.jsonl:3:30: phase: expected one of "began", "moved", "ended", "cancelled", found "down"`.
/// Columns count UTF-8 bytes, as ``JSONError`` and ``WKTError`` do.
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name as given to the reader (a path, a bare name, or `<stdin>`).
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column in UTF-8 bytes.
    public var column: Int
    /// What went wrong and what was expected.
    public var message: String

    /// Creates an error.
    package init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column): \(message)" }
}
