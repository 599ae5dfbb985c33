// The streaming reader behind `GeoJSON.decodeColumns` and `EsriJSON.decodeColumns`: it walks the
// document's bytes once with the JSON scanner, reads a GeoJSON point straight from the bytes
// (see FeatureColumnsReader+Bytes.swift) and builds a value tree only for one feature's other
// geometry at a time, and writes each attribute straight into its field column. Memory holds the
// columns, never the document's tree.

/// Walks a FeatureCollection or FeatureSet into columns.
struct FeatureColumnsReader {
    var p: JSONScanner
    var geometry = GeometryColumn()
    var fields: [FieldColumn] = []
    var lookup = FieldLookup()
    /// The field of each key position of the last attributes object, by the key's bytes.
    var keys = KeyCache()
    /// Per field, its strings' ids by their bytes (see ``StringInterns``).
    var interns: [StringInterns] = []

    init(_ buffer: UnsafeBufferPointer<UInt8>, options: JSONParser.Options) {
        p = JSONScanner(buffer, options: options)
        p.skipBOM()
        p.skipSpace()
    }

    /// The scanner's position, to come back to (a member read later than it is written).
    typealias Mark = (i: Int, line: Int, lineStart: Int, depth: Int)

    var mark: Mark { (p.i, p.line, p.lineStart, p.depth) }

    mutating func restore(_ m: Mark) { (p.i, p.line, p.lineStart, p.depth) = m }

    /// The byte at the position, or nil at the end.
    var byte: UInt8? { p.i < p.p.count ? p.p[p.i] : nil }

    /// A field declared ahead of the values (an Esri `fields` list): its column gets that type.
    mutating func declare(_ name: String, _ kind: FieldColumn.Kind) {
        guard lookup.existing(name) == nil else { return }
        _ = lookup.column(name)
        fields.append(FieldColumn(name, kind: kind))
        interns.append(StringInterns())
    }

    // MARK: Structure

    /// Reads an object, calling `member` with each key; `member` must read (or skip) the value.
    mutating func members(_ member: (inout FeatureColumnsReader, String) throws -> Void) throws {
        try rawMembers { r, key in try member(&r, String(decoding: key, as: UTF8.self)) }
    }

    /// Reads an object, calling `member` with each key's UTF-8 bytes (escapes decoded; valid only
    /// during the call); `member` must read (or skip) the value.
    mutating func rawMembers(_ member: (inout FeatureColumnsReader, UnsafeBufferPointer<UInt8>) throws -> Void)
        throws
    {
        guard byte == UInt8(ascii: "{") else { throw p.error("expected an object, found \(p.foundDescription())") }
        try p.enter()
        p.i += 1
        p.skipSpace()
        if byte == UInt8(ascii: "}") {
            p.i += 1
            p.depth -= 1
            return
        }
        var count = 0
        while true {
            guard byte == UInt8(ascii: "\"") else {
                if byte == UInt8(ascii: "}"), count > 0 {
                    if p.options.allowTrailingCommas { break }
                    throw p.error("trailing comma before '}' is not allowed")
                }
                throw p.error(count == 0 ? "expected a string key or '}'" : "expected a string key after ','")
            }
            let at = mark
            if let raw = plainString(), raw.ascii {
                try colon()
                try member(&self, raw.bytes)
            } else {
                restore(at)
                var key = try p.parseString()
                try colon()
                try key.withUTF8 { try member(&self, $0) }
            }
            count += 1
            p.skipSpace()
            if byte == UInt8(ascii: ",") {
                p.i += 1
                p.skipSpace()
                continue
            }
            if byte == UInt8(ascii: "}") { break }
            throw p.error("expected ',' or '}' after object member, found \(p.foundDescription())")
        }
        p.i += 1
        p.depth -= 1
    }

    /// Steps over the blank space, the ':' after a key and the blank space after it.
    @inline(__always)
    private mutating func colon() throws {
        p.skipSpace()
        guard byte == UInt8(ascii: ":") else {
            throw p.error("expected ':' after object key, found \(p.foundDescription())")
        }
        p.i += 1
        p.skipSpace()
    }

    /// Reads an array, calling `element` with each index; `element` must read the value.
    mutating func elements(_ element: (inout FeatureColumnsReader, Int) throws -> Void) throws {
        guard byte == UInt8(ascii: "[") else { throw p.error("expected an array, found \(p.foundDescription())") }
        try p.enter()
        p.i += 1
        p.skipSpace()
        var n = 0
        if byte == UInt8(ascii: "]") {
            p.i += 1
            p.depth -= 1
            return
        }
        while true {
            if byte == UInt8(ascii: "]"), n > 0 {
                if p.options.allowTrailingCommas { break }
                throw p.error("trailing comma before ']' is not allowed")
            }
            try element(&self, n)
            n += 1
            p.skipSpace()
            if byte == UInt8(ascii: ",") {
                p.i += 1
                p.skipSpace()
                continue
            }
            if byte == UInt8(ascii: "]") { break }
            throw p.error("expected ',' or ']' after array element, found \(p.foundDescription())")
        }
        p.i += 1
        p.depth -= 1
    }

    /// Steps over one value without building it: strings (escapes included) and nesting are
    /// followed; the value's own syntax is checked only as far as finding its end needs.
    mutating func skipValue() throws {
        guard let b = byte else { throw p.error("expected a JSON value, found end of input") }
        switch b {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let start = mark
            var depth = 0
            while let c = byte {
                switch c {
                case UInt8(ascii: "\""):
                    _ = try p.parseString()
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    if start.depth + depth > p.options.maxDepth {
                        throw p.error("nesting deeper than \(p.options.maxDepth) levels")
                    }
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                case UInt8(ascii: "\n"):
                    p.line += 1
                    p.lineStart = p.i + 1
                default: break
                }
                p.i += 1
                if depth == 0 { return }
            }
            restore(start)
            throw p.error("unterminated \(b == UInt8(ascii: "{") ? "object" : "array")")
        default:
            _ = try p.parseValue()
        }
    }

    /// Reads one value into a tree (a feature's geometry, a small member).
    mutating func value() throws -> JSONValue { try p.parseValue() }

    /// Reads a value and decodes it with `decode`, giving a decoding error the line and column of
    /// the member its path names and putting `path` in front of it.
    mutating func decode<T>(_ path: [JSONPathComponent], _ decode: (JSONValue) throws -> T) throws -> T {
        let start = mark
        let v = try value()
        do {
            return try decode(v)
        } catch let e as JSONError {
            var located = e
            if e.line == nil {
                // Find the member within the value's own bytes (the rest of the document is not read).
                var q = JSONScanner(UnsafeBufferPointer(rebasing: p.p[start.i..<p.i]), options: p.options)
                q.line = start.line
                q.lineStart = start.lineStart - start.i
                q.target = e.path
                _ = try? q.parseDocument()
                if let at = q.found ?? q.nearest {
                    located.line = at.line
                    located.column = at.column
                }
            }
            located.path = path + e.path
            throw located
        }
    }

    // MARK: Attributes

    /// Reads an attributes object (or null) into row `row` of the fields: a plain string (no
    /// escape) through the field's intern table by its bytes, any other value as a ``JSONValue``.
    mutating func attributes(row: Int) throws {
        if byte == UInt8(ascii: "n") {
            _ = try p.parseValue()
            return
        }
        var position = 0
        try rawMembers { r, key in
            let f = r.field(key, position)
            position += 1
            if r.fields[f].count == row + 1 {
                r.fields[f].storage.replaceLast(try r.attributeValue())  // a repeated key: the last value wins
                return
            }
            r.fields[f].storage.pad(to: row)
            if r.byte == UInt8(ascii: "\""), r.fields[f].kind == .string || r.fields[f].kind == .empty {
                try r.appendString(field: f)
            } else {
                r.fields[f].storage.append(try r.attributeValue())
            }
        }
    }

    /// The attribute value at the position, as a tree.
    private mutating func attributeValue() throws -> JSONValue {
        byte == UInt8(ascii: "\"") ? .string(try p.parseString()) : try p.parseValue()
    }

    /// Ends row `row`: its geometry (the empty point when the feature had none), and every field
    /// it lacked.
    mutating func endRow(_ row: Int, geometry g: Geometry?) {
        geometry.append(g ?? .point(nil))
        for f in fields.indices where fields[f].count <= row { fields[f].storage.pad(to: row + 1) }
    }

    /// The columns read.
    func columns(_ spatialReference: SpatialReference?) -> FeatureColumns {
        var out = FeatureColumns(geometry: geometry, fields: fields, spatialReference: spatialReference)
        for f in out.fields.indices { out.fields[f].storage.pad(to: geometry.count) }
        return out
    }

    /// The columns read so far, leaving the reader with none: the next row is row 0 of new
    /// columns (a batch of a streamed read).
    mutating func takeColumns(_ spatialReference: SpatialReference?) -> FeatureColumns {
        let out = columns(spatialReference)
        geometry = GeometryColumn()
        fields = []
        lookup = FieldLookup()
        keys = KeyCache()
        interns = []
        return out
    }
}
