import MapSketchGeometry

/// A trace (or track, or golden file) that cannot be read: where, and what was expected.
///
/// `description` is `file:line:column: message`, e.g.
/// `bad.trace.jsonl:3:30: phase: expected one of "began", "moved", "ended", "cancelled", found "down"`.
/// Columns are 1-based and count UTF-8 bytes, as ``JSONError`` does.
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

    /// Converts a ``JSONError`` raised on one line of a file into a trace error, locating the
    /// member its path names in the line's text when the JSON error has no column.
    static func from(_ e: JSONError, file: String, line: Int, text: Substring) -> TraceError {
        let column = e.column ?? _column(of: e.path, in: text)
        _ = e.line  // a single line was parsed: its line is always 1; the file's line is `line`
        let message = e.path.isEmpty ? e.message : "\(e.pathString): \(e.message)"
        return TraceError(file: file, line: line, column: column, message: message)
    }

    /// The 1-based byte column of the deepest object key of `path` found in `text`, searching each
    /// key after the previous one; 1 when none is found.
    static func _column(of path: [JSONPathComponent], in text: Substring) -> Int {
        let bytes = Array(text.utf8)
        var from = 0
        var found: Int?
        for c in path {
            guard case .key(let k) = c else { continue }
            let needle = Array("\"\(k)\"".utf8)
            guard let at = _find(needle, in: bytes, from: from) else { break }
            found = at
            from = at + needle.count
        }
        return (found ?? 0) + 1
    }

    private static func _find(_ needle: [UInt8], in hay: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count, from <= hay.count - needle.count else { return nil }
        var i = from
        while i <= hay.count - needle.count {
            if hay[i] == needle[0], Array(hay[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }
}
