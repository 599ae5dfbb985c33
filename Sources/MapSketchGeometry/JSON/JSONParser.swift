/// A byte-level recursive-descent JSON parser (RFC 8259), without Foundation.
///
/// - Strict by default: no comments, no NaN/Infinity, no leading zeros, no single quotes, no
///   trailing commas (``Options/allowTrailingCommas`` relaxes that). A repeated object key keeps
///   the last value, as `JSON.parse` does, unless ``Options/rejectDuplicateKeys`` is set.
/// - A UTF-8 byte-order mark at the start is skipped. Strings must be valid UTF-8; escapes
///   include `\uXXXX` with surrogate pairs (an unpaired surrogate is an error).
/// - Numbers without fraction or exponent that fit in `Int64` become ``JSONValue/integer(_:)``;
///   others ``JSONValue/number(_:)``, correctly rounded (Clinger's fast path for ≤ 15 significant
///   digits and |exponent| ≤ 22, the standard library's correctly rounded conversion otherwise).
///   A number too large for `Double` is an error, never infinity.
/// - Errors are ``JSONError`` with a 1-based line and a 1-based column counted in UTF-8 bytes
///   (a line ends at `\n`; `\r\n` works too), and say what was expected. Text from the input
///   quoted in a message is escaped and cut short (`InputExcerpt`).
///
/// ```swift
/// let v = try JSONParser.parse(#"{"rings": [[[0,0],[0,1],[1,1],[0,0]]]}"#)
/// try JSONParser.parse("[1,]")   // throws 1:4: trailing comma before ']' is not allowed
/// ```
package enum JSONParser {
    /// Parsing options.
    package struct Options: Hashable, Sendable {
        /// The deepest nesting of arrays and objects accepted (default 512). The parser recurses
        /// once per level, so this also bounds its stack use; raise it with care.
        package var maxDepth: Int
        /// Accept a comma before `]` or `}` (as some hand-written files have). Default false.
        package var allowTrailingCommas: Bool
        /// Reject an object that repeats a key. Default false: as ECMAScript's `JSON.parse` does, the
        /// last value wins and keeps the first occurrence's position. RFC 8259 §4 leaves this open,
        /// and real ArcGIS responses repeat keys (e.g. `fieldAliases`).
        package var rejectDuplicateKeys: Bool

        /// Creates options.
        package init(maxDepth: Int = 512, allowTrailingCommas: Bool = false, rejectDuplicateKeys: Bool = false) {
            self.maxDepth = maxDepth
            self.allowTrailingCommas = allowTrailingCommas
            self.rejectDuplicateKeys = rejectDuplicateKeys
        }

        /// Strict RFC 8259 parsing with nesting up to 512.
        package static let strict = Options()
    }

    /// One line of a JSON Lines document.
    package struct Line: Hashable, Sendable {
        /// The 1-based line number in the input.
        package var line: Int
        /// The value on that line.
        package var value: JSONValue
    }

    /// Parses one JSON document.
    /// - Throws: ``JSONError`` with line:column and what was expected.
    /// - Complexity: O(n) for n bytes.
    package static func parse(_ text: String, options: Options = .strict) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try parse($0, options: options) }
    }

    /// Parses one JSON document from UTF-8 bytes.
    /// - Throws: ``JSONError`` with line:column and what was expected.
    /// - Complexity: O(n) for n bytes.
    package static func parse(_ bytes: [UInt8], options: Options = .strict) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { try parse($0, options: options) }
    }

    /// Parses one JSON document from a buffer of UTF-8 bytes.
    /// - Throws: ``JSONError`` with line:column and what was expected.
    /// - Complexity: O(n) for n bytes.
    package static func parse(_ buffer: UnsafeBufferPointer<UInt8>, options: Options = .strict) throws -> JSONValue {
        var p = JSONScanner(buffer, options: options)
        p.skipBOM()
        return try p.parseDocument()
    }

    /// Parses JSON Lines: one value per non-blank line. Errors carry the line number in the input.
    /// - Throws: ``JSONError`` for the first bad line.
    /// - Complexity: O(n) for n bytes.
    package static func parseLines(_ text: String, options: Options = .strict) throws -> [Line] {
        var out: [Line] = []
        try forEachLine(text, options: options) { out.append(Line(line: $0, value: $1)) }
        return out
    }

    /// Calls `body` with each non-blank line of a JSON Lines document, in order, as it is
    /// parsed: the one way JSON Lines are read. Lines are split as ``forEachLine(in:_:)`` splits
    /// them (`\n`, `\r\n` too; a byte-order mark at the start skipped), so a file saved on
    /// Windows reads the same as one saved on Unix.
    /// - Throws: ``JSONError`` for the first bad line, with its line in the whole text; a
    ///   ``JSONError`` that `body` throws without a position gets the line:column of the value
    ///   its path names in that line (as ``decode(_:options:_:)`` locates one); anything else
    ///   `body` throws, unchanged.
    /// - Complexity: O(n) for n bytes; one value is held at a time.
    package static func forEachLine(
        _ text: String, options: Options = .strict, _ body: (_ line: Int, _ value: JSONValue) throws -> Void
    ) throws {
        var text = text
        try text.withUTF8 { buf in
            try forEachLine(in: buf) { lineNo, slice in
                guard !slice.allSatisfy(isJSONSpace) else { return }
                var p = JSONScanner(slice, options: options)
                p.line = lineNo
                let value = try p.parseDocument()
                do {
                    try body(lineNo, value)
                } catch let e as JSONError where e.line == nil {
                    guard let loc = location(of: e.path, in: slice, options: options, firstLine: lineNo) else { throw e }
                    var located = e
                    located.line = loc.line
                    located.column = loc.column
                    throw located
                }
            }
        }
    }

    /// Calls `body` with each line of UTF-8 text and its 1-based number, without its line end:
    /// a line ends at `\n`, and a `\r` just before it belongs to the line end (Windows files);
    /// a UTF-8 byte-order mark at the start is skipped (columns of line 1 count from after it).
    /// A final line without a line end is a line; an empty text has none.
    /// - Throws: what `body` throws.
    /// - Complexity: O(n) for n bytes.
    package static func forEachLine(
        in buf: UnsafeBufferPointer<UInt8>, _ body: (_ line: Int, _ text: UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        var start = 0
        var lineNo = 1
        if buf.count >= 3, buf[0] == 0xEF, buf[1] == 0xBB, buf[2] == 0xBF { start = 3 }
        while start < buf.count {
            var end = start
            while end < buf.count, buf[end] != UInt8(ascii: "\n") { end += 1 }
            let stop = end > start && buf[end - 1] == UInt8(ascii: "\r") ? end - 1 : end
            try body(lineNo, UnsafeBufferPointer(rebasing: buf[start..<stop]))
            lineNo += 1
            start = end + 1
        }
    }

    /// Where the value at `path` starts in `text` (1-based line and byte column). When the
    /// document has no value at `path` (a missing member, an index past the end), where the
    /// deepest value on the way there starts: the object or array that lacks it, or the root. So
    /// every decoding error gets a position, and one about something missing points at its
    /// container. Nil only when `text` holds no JSON value. Decoding errors get their line:column
    /// after the fact this way, so parsed values need not carry positions.
    /// - Complexity: O(n) for n bytes (a second scan, only on the error path).
    public static func location(
        of path: [JSONPathComponent], in text: String, options: Options = .strict
    ) -> (line: Int, column: Int)? {
        var text = text
        return text.withUTF8 { location(of: path, in: $0, options: options) }
    }

    /// ``location(of:in:options:)-(_,String,_)`` in UTF-8 bytes whose first line is line
    /// `firstLine` (a line of a JSON Lines file).
    /// - Complexity: O(n) for n bytes.
    package static func location(
        of path: [JSONPathComponent], in buffer: UnsafeBufferPointer<UInt8>, options: Options = .strict, firstLine: Int = 1
    ) -> (line: Int, column: Int)? {
        var p = JSONScanner(buffer, options: options)
        p.line = firstLine
        p.skipBOM()
        p.target = path
        _ = try? p.parseDocument()
        return p.found ?? p.nearest
    }

    /// Fills in the line:column of a decoding error from its path (see
    /// ``location(of:in:options:)``), if it has none yet.
    public static func locate(_ error: JSONError, in text: String, options: Options = .strict) -> JSONError {
        guard error.line == nil, let loc = location(of: error.path, in: text, options: options) else { return error }
        var e = error
        e.line = loc.line
        e.column = loc.column
        return e
    }

    /// Parses `text` and decodes its value with `body`, putting line:column on a decoding error:
    /// the one way the codecs, the trace reader and the tools turn text into values.
    ///
    /// ```swift
    /// let g = try JSONParser.decode(text) { value in try decodeGeometry(value) }
    /// // a bad member: "3:17: rings[0][2]: expected a number, found a string"
    /// ```
    /// - Throws: the parser's ``JSONError`` for a syntax error; a ``JSONError`` that `body` throws,
    ///   with the line:column of the value its path names (``locate(_:in:options:)``); anything
    ///   else `body` throws, unchanged.
    /// - Complexity: O(n) for n bytes plus the cost of `body`; a second scan only on a decoding error.
    public static func decode<T>(_ text: String, options: Options = .strict, _ body: (JSONValue) throws -> T) throws -> T {
        var text = text
        return try text.withUTF8 { try decode($0, options: options, body) }
    }

    /// ``decode(_:options:_:)-(String,_,_)`` from UTF-8 bytes.
    /// - Throws: as the text form.
    /// - Complexity: O(n) for n bytes plus the cost of `body`.
    package static func decode<T>(
        _ buffer: UnsafeBufferPointer<UInt8>, options: Options = .strict, _ body: (JSONValue) throws -> T
    ) throws -> T {
        let value = try parse(buffer, options: options)
        do {
            return try body(value)
        } catch let e as JSONError where e.line == nil {
            guard let loc = location(of: e.path, in: buffer, options: options) else { throw e }
            var located = e
            located.line = loc.line
            located.column = loc.column
            throw located
        }
    }
}
