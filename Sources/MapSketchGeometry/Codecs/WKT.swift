/// An error reading WKT: where (1-based line and column), what was expected and what was found.
public struct WKTError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column (in UTF-8 bytes) of the problem.
    public var column: Int
    /// What the reader expected there.
    public var expected: String
    /// What it found instead (a short excerpt, or "end of input").
    public var found: String

    /// Creates an error.
    package init(line: Int, column: Int, expected: String, found: String) {
        self.line = line
        self.column = column
        self.expected = expected
        self.found = found
    }

    public var description: String { "\(line):\(column): expected \(expected), found \(found)" }
}

/// The OGC Well-Known Text codec (Simple Features 1.2.1 §7, with the ISO Z / M / ZM tags).
///
/// ```swift
/// let g = try WKT.decode("POLYGON ((0 0, 0 10, 10 10, 10 0, 0 0))")
/// WKT.encode(g)   // "POLYGON ((0 0, 0 10, 10 10, 10 0, 0 0))"
/// ```
public enum WKT {
    /// Reads one geometry into a ``Geometry`` (see ``WKTGeometry`` for the mapping).
    /// - Throws: ``WKTError`` with line:column for malformed text, or for a GEOMETRYCOLLECTION.
    /// - Complexity: O(n) for n bytes of text.
    public static func decode(_ text: String) throws -> Geometry {
        try decode(WKTParser(text))
    }

    /// Reads one geometry from UTF-8 bytes, as ``decode(_:)`` reads text.
    /// - Throws: ``WKTError`` with line:column.
    /// - Complexity: O(n) for n bytes.
    package static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>) throws -> Geometry {
        try decode(WKTParser(Array(bytes)))
    }

    private static func decode(_ parser: WKTParser) throws -> Geometry {
        var p = parser
        let start = p.position
        let tree = try p.parseDocument()
        do {
            return try tree.geometry()
        } catch var e as WKTError {
            e.line = start.line
            e.column = start.column
            throw e
        }
    }

    /// Reads one geometry keeping its WKT structure (collections, linear rings, EMPTY members).
    /// - Throws: ``WKTError`` with line:column for malformed text.
    /// - Complexity: O(n) for n bytes of text.
    package static func decodeTree(_ text: String) throws -> WKTGeometry {
        var p = WKTParser(text)
        return try p.parseDocument()
    }

    /// Writes a geometry: deterministic, rings closed, numbers in shortest round-trip form
    /// with integral values written without a fraction.
    /// - Complexity: O(n) for n vertices plus the ring grouping of a polygon.
    public static func encode(_ g: Geometry) -> String {
        var o = ByteOutput()
        switch g {
        case .multipoint(let mp): GeometryEncoder.unfailing { try GeometryEncoder.wkt([mp.points], type: .multipoint, z: mp.hasZ, m: mp.hasM, into: &o) }
        case .polyline(let pl): GeometryEncoder.unfailing { try GeometryEncoder.wkt(pl.paths, type: .polyline, z: pl.hasZ, m: pl.hasM, into: &o) }
        default: GeometryEncoder.wkt(WKTGeometry(g), into: &o)
        }
        return String(decoding: o.out, as: UTF8.self)
    }

    /// Writes a WKT tree.
    package static func encode(_ t: WKTGeometry) -> String {
        var o = ByteOutput()
        GeometryEncoder.wkt(t, into: &o)
        return String(decoding: o.out, as: UTF8.self)
    }

    /// Formats one number the way the writer does: integral values without ".0", others with
    /// Swift's shortest round-trip representation; non-finite values as `NaN`, `Inf`, `-Inf`.
    package static func format(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v < 0 ? "-Inf" : "Inf" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return v.description
    }
}

/// A byte scanner over WKT text tracking line and column.
struct WKTParser {
    /// The deepest nesting of parentheses accepted, as `JSONParser.Options.maxDepth` for JSON:
    /// the parser recurses once per level, so this bounds its stack use.
    static let maxDepth = 512

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    /// A parser at the start of `text`, after a UTF-8 byte-order mark if there is one (columns
    /// then count from after it, as the JSON parser counts them).
    init(_ text: String) { self.init(Array(text.utf8)) }

    /// A parser at the start of UTF-8 `bytes` (after a byte-order mark, as ``init(_:)-(String)``).
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            i = 3
            lineStart = 3
        }
    }

    var position: (line: Int, column: Int) { (line, i - lineStart + 1) }

    private enum Dim { case xy, z, m, zm, unspecified }

    /// Non-finite spellings accepted for ordinates (JTS writes `NaN`).
    private static let specialNumbers: [String: Double] = [
        "nan": .nan, "inf": .infinity, "+inf": .infinity, "-inf": -.infinity,
        "infinity": .infinity, "+infinity": .infinity, "-infinity": -.infinity,
    ]

    mutating func parseDocument() throws -> WKTGeometry {
        let g = try parseGeometry()
        skipSpace()
        if i < bytes.count { throw error("end of input") }
        return g
    }

    private mutating func parseGeometry() throws -> WKTGeometry {
        skipSpace()
        let wordPos = position
        var word = readWord().uppercased()
        guard !word.isEmpty else { throw error("a geometry keyword (POINT, LINESTRING, POLYGON, …)") }
        var dim = Dim.unspecified
        let types = ["POINT", "MULTIPOINT", "LINESTRING", "LINEARRING", "MULTILINESTRING", "POLYGON",
                     "MULTIPOLYGON", "GEOMETRYCOLLECTION"]
        if !types.contains(word) {
            for suffix in ["ZM", "Z", "M"] where word.hasSuffix(suffix) && types.contains(String(word.dropLast(suffix.count))) {
                word = String(word.dropLast(suffix.count))
                dim = suffix == "ZM" ? .zm : (suffix == "Z" ? .z : .m)
                break
            }
        }
        guard types.contains(word) else {
            throw WKTError(line: wordPos.line, column: wordPos.column,
                           expected: "a geometry keyword (POINT, LINESTRING, POLYGON, …)", found: InputExcerpt.quoted(word))
        }
        skipSpace()
        if dim == .unspecified {
            let save = (i, line, lineStart)
            let tag = readWord().uppercased()
            switch tag {
            case "Z": dim = .z
            case "M": dim = .m
            case "ZM": dim = .zm
            default: (i, line, lineStart) = save
            }
        }
        var flags = (z: dim == .z || dim == .zm, m: dim == .m || dim == .zm)
        if try takeEmpty() { return WKTGeometry(emptyShape(word), hasZ: flags.z, hasM: flags.m) }
        let shape: WKTGeometry.Shape
        switch word {
        case "POINT":
            try expect("(")
            let p = try coordinate(dim, &flags)
            try expect(")")
            shape = .point(p)
        case "MULTIPOINT":
            shape = .multiPoint(try list { (q: inout WKTParser) throws -> Point? in
                if try q.takeEmpty() { return nil }
                q.skipSpace()
                if q.peek == UInt8(ascii: "(") {
                    try q.expect("(")
                    let p = try q.coordinate(dim, &flags)
                    try q.expect(")")
                    return p
                }
                return try q.coordinate(dim, &flags)
            })
        case "LINESTRING": shape = .lineString(try sequence(dim, &flags))
        case "LINEARRING": shape = .linearRing(try sequence(dim, &flags))
        case "MULTILINESTRING": shape = .multiLineString(try list { try $0.takeEmpty() ? [] : $0.sequence(dim, &flags) })
        case "POLYGON": shape = .polygon(try polygonBody(dim, &flags))
        case "MULTIPOLYGON": shape = .multiPolygon(try list { try $0.takeEmpty() ? [] : $0.polygonBody(dim, &flags) })
        default: shape = .geometryCollection(try list { try $0.parseGeometry() })
        }
        return WKTGeometry(shape, hasZ: flags.z, hasM: flags.m)
    }

    private func emptyShape(_ word: String) -> WKTGeometry.Shape {
        switch word {
        case "POINT": .point(nil)
        case "MULTIPOINT": .multiPoint([])
        case "LINESTRING": .lineString([])
        case "LINEARRING": .linearRing([])
        case "MULTILINESTRING": .multiLineString([])
        case "POLYGON": .polygon([])
        case "MULTIPOLYGON": .multiPolygon([])
        default: .geometryCollection([])
        }
    }

    private mutating func polygonBody(_ dim: Dim, _ flags: inout (z: Bool, m: Bool)) throws -> [[Point]] {
        let rings = try list { try $0.takeEmpty() ? [] : $0.sequence(dim, &flags) }
        // POLYGON (EMPTY) is an empty polygon.
        return rings.allSatisfy(\.isEmpty) ? [] : rings
    }

    private mutating func sequence(_ dim: Dim, _ flags: inout (z: Bool, m: Bool)) throws -> [Point] {
        try list { try $0.coordinate(dim, &flags) }
    }

    /// "(" item ("," item)* ")", at most ``maxDepth`` levels deep.
    private mutating func list<T>(_ item: (inout WKTParser) throws -> T) throws -> [T] {
        try expect("(")
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maxDepth {
            throw WKTError(line: line, column: i - lineStart, expected: "at most \(Self.maxDepth) levels of nested parentheses",
                           found: "'(' at level \(depth)")
        }
        var out: [T] = []
        while true {
            out.append(try item(&self))
            skipSpace()
            if peek == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if peek == UInt8(ascii: ")") {
                i += 1
                return out
            }
            throw error("',' or ')'")
        }
    }

    private mutating func coordinate(_ dim: Dim, _ flags: inout (z: Bool, m: Bool)) throws -> Point {
        let x = try number()
        let y = try number()
        var extra: [Double] = []
        while extra.count < 2 {
            skipSpace()
            guard let c = peek, c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                || (c >= 48 && c <= 57) || c == UInt8(ascii: "N") || c == UInt8(ascii: "n")
                || c == UInt8(ascii: "I") || c == UInt8(ascii: "i")
            else { break }
            extra.append(try number())
        }
        switch dim {
        case .xy:
            guard extra.isEmpty else { throw error("',' or ')' after two ordinates") }
            return Point(x: x, y: y)
        case .z, .m:
            guard extra.count == 1 else { throw error("a third ordinate (\(dim == .z ? "z" : "m"))") }
            return dim == .z ? Point(x: x, y: y, z: extra[0]) : Point(x: x, y: y, m: extra[0])
        case .zm:
            guard extra.count == 2 else { throw error("four ordinates (x y z m)") }
            return Point(x: x, y: y, z: extra[0], m: extra[1])
        case .unspecified:
            if extra.count >= 1 { flags.z = true }
            if extra.count == 2 { flags.m = true }
            return Point(x: x, y: y, z: extra.first, m: extra.count == 2 ? extra[1] : nil)
        }
    }

    private mutating func number() throws -> Double {
        skipSpace()
        let start = i
        while i < bytes.count {
            let c = bytes[i]
            let isNum = (c >= 48 && c <= 57) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
                || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "z"))
            if !isNum { break }
            i += 1
        }
        let token = String(decoding: bytes[start..<i], as: UTF8.self)
        let isPlain = !token.isEmpty && bytes[start..<i].allSatisfy {
            ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+")
                || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
        }
        if !isPlain, let v = Self.specialNumbers[token.lowercased()] { return v }
        guard isPlain, let v = Double(token) else {
            let col = start - lineStart + 1
            throw WKTError(line: line, column: col, expected: "a number",
                           found: token.isEmpty ? describe(at: start) : InputExcerpt.quoted(token))
        }
        return v
    }

    mutating func takeEmpty() throws -> Bool {
        skipSpace()
        let save = (i, line, lineStart)
        if readWord().uppercased() == "EMPTY" { return true }
        (i, line, lineStart) = save
        return false
    }

    private mutating func expect(_ ch: Character) throws {
        skipSpace()
        guard let c = peek, let a = ch.asciiValue, c == a else { throw error("'\(ch)'") }
        i += 1
    }

    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func readWord() -> String {
        let start = i
        while i < bytes.count, (bytes[i] | 0x20) >= UInt8(ascii: "a"), (bytes[i] | 0x20) <= UInt8(ascii: "z") { i += 1 }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    mutating func skipSpace() {
        while i < bytes.count {
            let c = bytes[i]
            if c == 10 {
                line += 1
                lineStart = i + 1
            } else if c != 32 && c != 9 && c != 13 {
                return
            }
            i += 1
        }
    }

    /// What follows position `j` on its line, quoted for a message (at most 12 characters).
    private func describe(at j: Int) -> String {
        guard j < bytes.count else { return "end of input" }
        var end = j
        while end < bytes.count, end < j + 64, bytes[end] != 10, bytes[end] != 13 { end += 1 }
        return InputExcerpt.quoted(String(decoding: bytes[j..<end], as: UTF8.self), limit: 12)
    }

    private func error(_ expected: String) -> WKTError {
        WKTError(line: line, column: i - lineStart + 1, expected: expected, found: describe(at: i))
    }
}
