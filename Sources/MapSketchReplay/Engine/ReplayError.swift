/// A call in a trace that the model refused (logged as an `error` event; the replay goes on).
struct ReplayCallError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// A trace whose header the model cannot set up.
public struct ReplayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line of the trace.
    public var line: Int
    /// The 1-based column in UTF-8 bytes (1 unless a member of the line is at fault).
    public var column: Int
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(line: Int, column: Int = 1, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(line):\(column): \(message)" }
}
