/// Input the geometry tool cannot use: where (file, 1-based line and column, columns in UTF-8
/// bytes) and what was expected.
///
/// `description` is `file:line:column: message`, the form the command line prints, e.g.
/// `<stdin>:1:12: y: expected a number, found a string`.
public struct GeometryToolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name as given to the tool (`<stdin>` for standard input).
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
}
