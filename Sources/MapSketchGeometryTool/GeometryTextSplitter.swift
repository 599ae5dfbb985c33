/// Cuts a stream of bytes into the texts of single geometries — JSON values (Esri JSON,
/// GeoJSON) and WKT — as the bytes arrive, holding only the geometry being read.
///
/// A geometry starts at the first byte that is not white space: `{` or `[` starts a JSON value,
/// a letter a WKT geometry. It ends where its brackets close (a JSON value), or where its
/// parentheses close or its `EMPTY` is read (WKT); it may span lines. What follows it on its
/// line must be white space, so JSON Lines (one geometry per line), a pretty-printed geometry and
/// multi-line WKT all read. Lines end at `\n` (`\r\n` too: `\r` is white space); a UTF-8
/// byte-order mark at the very start is skipped.
///
/// Completed geometries collect in ``ready`` (no callback per byte: the scan is the hot loop).
/// The splitter only finds where geometries end; the codecs read them and say what is wrong.
/// So at the first byte no geometry can hold there — a NUL or another control character, a byte
/// outside JSON or WKT syntax, nesting deeper than ``maxDepth``, an unknown WKT keyword, a second
/// geometry on a line — it stops reading: the piece it hands over ends a few bytes after that
/// byte (for the codec's excerpt) and carries where it stopped. `/dev/zero` thus stops at 1:1
/// after 41 bytes instead of being read to its end.
///
/// - Complexity: O(1) per byte; memory the size of the geometry being read.
struct GeometryTextSplitter {
    /// One geometry's text, or the text up to where reading stopped.
    struct Piece {
        /// The bytes, from the geometry's first byte.
        var text: [UInt8]
        /// The 1-based line of the first byte in the input.
        var line: Int
        /// The 1-based column (in bytes) of the first byte in its line.
        var column: Int
        /// Where the splitter stopped reading because no geometry can go on there, and what it
        /// found; nil for a geometry read to its end (or to the end of the input).
        var stop: Stop?
    }

    /// Where reading stopped and why.
    struct Stop: Hashable {
        var line: Int
        var column: Int
        var message: String
    }

    /// The deepest nesting of brackets (JSON) or parentheses (WKT) read, as the parsers limit it.
    static let maxDepth = 512
    /// Bytes kept after the byte where reading stopped, for the codec's excerpt.
    static let excerptBytes = 40
    /// The longest WKT keyword (`GEOMETRYCOLLECTION` with `ZM`).
    static let maxWordLength = 20

    private enum Mode {
        /// Between geometries: white space only.
        case between
        /// In a JSON value.
        case json
        /// In a WKT geometry.
        case wkt
        /// After a geometry, until the end of its line: white space only.
        case after
        /// Reading stopped: keeping a few more bytes of the line for the excerpt.
        case draining(left: Int)
        /// A stop was handed over: nothing more is read.
        case done
    }

    private var mode = Mode.between
    private var buffer: [UInt8] = []
    private var start = (line: 1, column: 1)
    private var stop: Stop?
    // Position of the next byte.
    private var line = 1
    private var column = 1
    private var bomSeen = 0
    /// Whether a byte-order mark may still be being read (the first three bytes).
    private var atStart = true
    // JSON state.
    private var depth = 0
    private var inString = false
    private var escaped = false
    // WKT state: the word being read at depth 0, the words read there, the keyword's dimension.
    private var word: [UInt8] = []
    private var wordStart = (line: 1, column: 1)
    private var wordsAtTop = 0
    private var keywordHasDimension = false
    /// The geometries completed and not yet taken (``takeReady()``), in input order; a stopped
    /// piece is the last.
    private(set) var ready: [Piece] = []
    /// Whether any geometry (or stopped piece) has been handed over.
    private(set) var handedOver = false

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Reads `bytes`; the geometries completed in them join ``ready``.
    mutating func push(_ bytes: UnsafeRawBufferPointer) {
        for b in bytes {
            if case .done = mode { return }
            if atStart {
                if b == Self.byteOrderMark[bomSeen] {
                    bomSeen += 1
                    if bomSeen == 3 { atStart = false }
                    continue
                }
                // Not a byte-order mark after all: its first bytes are input.
                atStart = false
                for p in Self.byteOrderMark.prefix(bomSeen) { consume(p) }
            }
            consume(b)
        }
    }

    /// Ends the input; the geometry still being read, if any, joins ``ready``.
    mutating func finish() {
        if atStart {
            atStart = false
            for p in Self.byteOrderMark.prefix(bomSeen) { consume(p) }
        }
        if case .wkt = mode, depth == 0, !word.isEmpty { endWord() }
        switch mode {
        case .between, .done: return
        case .json, .wkt, .after, .draining: handOver()
        }
    }

    private mutating func consume(_ b: UInt8) {
        let here = (line: line, column: column)
        if b == 0x0A {
            line += 1
            column = 1
        } else {
            column += 1
        }
        switch mode {
        case .done: return
        case .between:
            if isSpace(b) { return }
            start = here
            buffer.removeAll(keepingCapacity: true)
            buffer.append(b)
            if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                mode = .json
                depth = 1
                inString = false
                escaped = false
            } else if isLetter(b) {
                mode = .wkt
                depth = 0
                word = [b]
                wordStart = here
                wordsAtTop = 0
                keywordHasDimension = false
            } else {
                stopReading(at: here, "expected a geometry (Esri JSON, GeoJSON or WKT)")
            }
        case .json:
            buffer.append(b)
            scanJSON(b, at: here)
        case .wkt:
            if depth == 0, !isLetter(b), !word.isEmpty {
                endWord()
                if case .after = mode {
                    // EMPTY ended the geometry: this byte is the first after it.
                    after(b, at: here)
                    return
                }
            }
            buffer.append(b)
            if case .wkt = mode { scanWKT(b, at: here) }
        case .after:
            after(b, at: here)
        case .draining(let left):
            if b == 0x0A || b == 0x0D || left == 0 {
                handOver()
                return
            }
            buffer.append(b)
            mode = .draining(left: left - 1)
        }
    }

    /// A byte after a complete geometry: white space to the end of the line, which hands the
    /// geometry over.
    private mutating func after(_ b: UInt8, at here: (line: Int, column: Int)) {
        if b == 0x0A {
            handOver()
        } else if isSpace(b) {
            buffer.append(b)
        } else {
            buffer.append(b)
            stopReading(at: here, "expected the end of the line after the geometry")
        }
    }

    private mutating func scanJSON(_ b: UInt8, at here: (line: Int, column: Int)) {
        if inString {
            if escaped {
                escaped = false
            } else if b == UInt8(ascii: "\\") {
                escaped = true
            } else if b == UInt8(ascii: "\"") {
                inString = false
            } else if b < 0x20 {
                stopReading(at: here, "unexpected control character in a string")
            }
            return
        }
        switch b {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
            if depth > Self.maxDepth { stopReading(at: here, "nesting deeper than \(Self.maxDepth) levels") }
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            if depth == 0 { mode = .after }
        case UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            break
        default:
            if !(isSpace(b) || isDigit(b) || isLetter(b)) { stopReading(at: here, "unexpected byte") }
        }
    }

    private mutating func scanWKT(_ b: UInt8, at here: (line: Int, column: Int)) {
        if depth == 0 && isLetter(b) {
            if word.isEmpty { wordStart = here }
            word.append(b)
            if word.count > Self.maxWordLength { stopReading(at: wordStart, "expected a WKT keyword") }
            return
        }
        switch b {
        case UInt8(ascii: "("):
            guard wordsAtTop > 0 || depth > 0 else {
                stopReading(at: here, "expected a WKT keyword")
                return
            }
            depth += 1
            if depth > Self.maxDepth { stopReading(at: here, "nesting deeper than \(Self.maxDepth) levels") }
        case UInt8(ascii: ")"):
            guard depth > 0 else {
                stopReading(at: here, "unexpected ')'")
                return
            }
            depth -= 1
            if depth == 0 { mode = .after }
        default:
            if isSpace(b) { return }
            let numeric = isDigit(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".")
            if depth > 0 && (numeric || isLetter(b) || b == UInt8(ascii: ",")) { return }
            stopReading(at: here, "unexpected byte")
        }
    }

    /// A WKT word at depth 0 has ended: a keyword (with or without Z, M or ZM), a dimension
    /// after a bare keyword, or EMPTY, which ends the geometry; anything else stops reading.
    private mutating func endWord() {
        let w = String(decoding: word, as: UTF8.self).uppercased()
        word.removeAll(keepingCapacity: true)
        defer { wordsAtTop += 1 }
        if wordsAtTop == 0 {
            for keyword in Self.keywords {
                if w == keyword { return }
                for suffix in ["Z", "M", "ZM"] where w == keyword + suffix {
                    keywordHasDimension = true
                    return
                }
            }
        } else if w == "EMPTY" {
            mode = .after
            return
        } else if wordsAtTop == 1 && !keywordHasDimension && (w == "Z" || w == "M" || w == "ZM") {
            keywordHasDimension = true
            return
        }
        stopReading(at: wordStart, "expected a WKT keyword")
    }

    static let keywords = [
        "POINT", "MULTIPOINT", "LINESTRING", "LINEARRING", "MULTILINESTRING", "POLYGON", "MULTIPOLYGON",
        "GEOMETRYCOLLECTION",
    ]

    private mutating func stopReading(at here: (line: Int, column: Int), _ message: String) {
        if stop == nil { stop = Stop(line: here.line, column: here.column, message: message) }
        mode = .draining(left: Self.excerptBytes)
    }

    /// The completed geometries, leaving none.
    mutating func takeReady() -> [Piece] {
        defer { ready.removeAll(keepingCapacity: true) }
        return ready
    }

    private mutating func handOver() {
        let piece = Piece(text: buffer, line: start.line, column: start.column, stop: stop)
        buffer = []
        handedOver = true
        if stop != nil {
            mode = .done
        } else {
            mode = .between
        }
        ready.append(piece)
    }

    private func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
    private func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }
    private func isLetter(_ b: UInt8) -> Bool { (b | 0x20) &- UInt8(ascii: "a") < 26 }
}
