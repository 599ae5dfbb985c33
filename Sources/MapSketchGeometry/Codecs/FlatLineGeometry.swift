// Big two-dimensional multipoints and polylines written from their JSON text straight to any
// format, without a JSON tree or a `Point` per vertex.

/// A two-dimensional multipoint or polyline read from JSON text without a JSON tree or a
/// ``Point`` per vertex: a first pass checks the text and notes the size of each part, a second
/// writes the coordinates straight from the text — so what memory holds is the text and the part
/// sizes, not the 48-byte points and the JSON value per number of the general path.
///
/// It is read from GeoJSON (`MultiPoint`, `LineString`, `MultiLineString` with exactly the members
/// `type` and `coordinates`) and Esri JSON (`points` or `paths`, with optional `spatialReference`
/// and `hasZ`/`hasM` false) whose positions are two finite numbers; ``decode(_:format:)`` returns
/// nil for anything else, or for any error, so a caller falls back to the full codecs, which read
/// every shape and report errors. ``write(_:as:spatialReference:chunkSize:to:)`` writes it with
/// the format's encoder.
package struct FlatLineGeometry {
    /// `.multipoint` or `.polyline`.
    package let type: GeometryType
    /// The format the text was in.
    package let format: GeometryFormat
    /// The spatial reference the text states: WGS 84 for GeoJSON, Esri JSON's own or nil.
    package let spatialReference: SpatialReference?
    /// The number of vertices of each part (one part for a non-empty multipoint).
    package let partSizes: [Int]
    /// Where the coordinates array starts in the text.
    let coordinatesOffset: Int

    /// The number of vertices.
    package var vertexCount: Int { partSizes.reduce(0, +) }

    /// Calls `body` with every vertex of the geometry read from `text` (the text
    /// ``decode(_:format:)`` read), in order, as `(part, index in part, x, y)`.
    /// - Throws: what `body` throws.
    /// - Complexity: O(n) in the coordinates' text.
    package func forEachVertex(
        in text: UnsafeBufferPointer<UInt8>, _ body: (Int, Int, Double, Double) throws -> Void
    ) rethrows {
        var s = JSONScanner(text, options: .strict)
        s.i = coordinatesOffset
        _ = try s.flatCoordinates(body)
    }

    // MARK: - Reading

    /// Reads `text` (one JSON object; `format` nil detects it as the codecs do) when it is one of
    /// the shapes in the type's documentation, with finite coordinates; nil otherwise.
    /// - Complexity: O(n) in the text; memory O(parts) beyond the other members' values.
    package static func decode(_ text: UnsafeBufferPointer<UInt8>, format: GeometryFormat?) -> FlatLineGeometry? {
        var s = JSONScanner(text, options: .strict)
        s.skipBOM()
        s.skipSpace()
        guard s.i < text.count, text[s.i] == UInt8(ascii: "{") else { return nil }
        s.i += 1
        var members: [String: JSONValue] = [:]
        var coordinateKey: String?
        var coordinates: [Int] = []
        var offset = 0
        var depth = 0  // of the coordinates: 2 a list of positions, 3 a list of lists; 0 empty
        s.skipSpace()
        if s.i < text.count, text[s.i] == UInt8(ascii: "}") { return nil }
        while true {
            s.skipSpace()
            guard s.i < text.count, text[s.i] == UInt8(ascii: "\""), let key = try? s.parseString() else { return nil }
            s.skipSpace()
            guard s.i < text.count, text[s.i] == UInt8(ascii: ":") else { return nil }
            s.i += 1
            s.skipSpace()
            guard members[key] == nil, key != coordinateKey else { return nil }
            if key == "coordinates" || key == "paths" || key == "points" {
                offset = s.i
                guard coordinateKey == nil, let (parts, d) = s.flatCoordinates({ _, _, _, _ in }) else { return nil }
                coordinateKey = key
                coordinates = parts
                depth = d
            } else {
                guard let v = try? s.parseValue() else { return nil }
                members[key] = v
            }
            s.skipSpace()
            guard s.i < text.count else { return nil }
            if text[s.i] == UInt8(ascii: "}") {
                s.i += 1
                break
            }
            guard text[s.i] == UInt8(ascii: ",") else { return nil }
            s.i += 1
        }
        s.skipSpace()
        guard s.i == text.count, let coordinateKey else { return nil }
        let detected: GeometryFormat = members["type"] != nil || coordinateKey == "coordinates" ? .geoJSON : .esriJSON
        guard format == nil || format == detected else { return nil }
        if detected == .geoJSON {
            guard coordinateKey == "coordinates", members.count == 1, case .string(let type)? = members["type"] else { return nil }
            switch (type, depth) {
            case ("LineString", 2), ("LineString", 0):
                return FlatLineGeometry(type: .polyline, format: .geoJSON, spatialReference: .wgs84, partSizes: coordinates, coordinatesOffset: offset)
            case ("MultiPoint", 2), ("MultiPoint", 0):
                return FlatLineGeometry(type: .multipoint, format: .geoJSON, spatialReference: .wgs84, partSizes: coordinates, coordinatesOffset: offset)
            case ("MultiLineString", 3), ("MultiLineString", 0):
                return FlatLineGeometry(type: .polyline, format: .geoJSON, spatialReference: .wgs84, partSizes: coordinates, coordinatesOffset: offset)
            default: return nil
            }
        }
        var sr: SpatialReference?
        for (key, value) in members {
            switch key {
            case "hasZ", "hasM": guard case .bool(false) = value else { return nil }
            case "spatialReference":
                guard let r = try? EsriJSON.decodeSpatialReference(value) else { return nil }
                sr = r
            default: return nil
            }
        }
        switch (coordinateKey, depth) {
        case ("points", 2), ("points", 0):
            return FlatLineGeometry(type: .multipoint, format: .esriJSON, spatialReference: sr, partSizes: coordinates, coordinatesOffset: offset)
        case ("paths", 3), ("paths", 0):
            return FlatLineGeometry(type: .polyline, format: .esriJSON, spatialReference: sr, partSizes: coordinates, coordinatesOffset: offset)
        default: return nil
        }
    }

    // MARK: - Writing

    /// Writes the geometry read from `text` (the text ``decode(_:format:)`` read) as `out` with
    /// `spatialReference` — GeoJSON only when that is WGS 84 (else false is returned before
    /// anything is written, for the caller to project with the codecs) — by the format's
    /// encoder (``GeometryEncoder``), handing `sink` a chunk of about `chunkSize` bytes at a time.
    /// - Returns: false when nothing was written because GeoJSON needs a projection.
    /// - Throws: what `sink` throws.
    /// - Complexity: O(n) for n vertices; memory O(chunkSize).
    package func write(
        _ text: UnsafeBufferPointer<UInt8>, as out: GeometryFormat, spatialReference sr: SpatialReference?, chunkSize: Int = ByteOutput.chunkBytes,
        to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Bool {
        if out == .geoJSON, !GeoJSON.isLongitudeLatitude(sr) { return false }
        try ByteOutput.streaming(chunkSize: chunkSize, to: sink) { o in
            try GeometryEncoder.write(vertices(in: text), type: type, as: out, spatialReference: sr, into: &o)
        }
        return true
    }
}

extension JSONScanner {
    /// Reads `[[x,y],…]` (depth 2) or `[[[x,y],…],…]` (depth 3) at `i`, calling `visit` with each vertex as `(part, index in part, x, y)`, and returns the size of each
    /// part — one for depth 2, one per list for depth 3, none for `[]` (depth 0). Nil for anything
    /// else (a position of other than two numbers, a non-finite number, an empty part, a syntax
    /// error): the caller falls back to the full parser.
    /// - Throws: what `visit` throws.
    mutating func flatCoordinates(_ visit: (Int, Int, Double, Double) throws -> Void) rethrows -> ([Int], Int)? {
        guard i < p.count, p[i] == UInt8(ascii: "[") else { return nil }
        let outer = i
        i += 1
        skipSpace()
        guard i < p.count else { return nil }
        if p[i] == UInt8(ascii: "]") {
            i += 1
            return ([], 0)
        }
        // `[[` then a number: a list of positions; `[[[`: a list of lists.
        var k = i + 1
        while k < p.count, isJSONSpace(p[k]) { k += 1 }
        guard p[i] == UInt8(ascii: "["), k < p.count else { return nil }
        if p[k] == UInt8(ascii: "[") {
            var sizes: [Int] = []
            while true {
                skipSpace()
                guard let n = try flatPositionList(part: sizes.count, visit) else { return nil }
                sizes.append(n)
                skipSpace()
                guard i < p.count else { return nil }
                if p[i] == UInt8(ascii: "]") {
                    i += 1
                    return (sizes, 3)
                }
                guard p[i] == UInt8(ascii: ",") else { return nil }
                i += 1
            }
        }
        i = outer
        guard let n = try flatPositionList(part: 0, visit) else { return nil }
        return ([n], 2)
    }

    /// `[[x,y],…]` with at least one position: its vertex count; nil for anything else.
    mutating func flatPositionList(part: Int, _ visit: (Int, Int, Double, Double) throws -> Void) rethrows -> Int? {
        guard i < p.count, p[i] == UInt8(ascii: "[") else { return nil }
        i += 1
        var n = 0
        while true {
            skipSpace()
            guard i < p.count, p[i] == UInt8(ascii: "[") else { return nil }
            i += 1
            skipSpace()
            guard let x = flatNumber() else { return nil }
            skipSpace()
            guard i < p.count, p[i] == UInt8(ascii: ",") else { return nil }
            i += 1
            skipSpace()
            guard let y = flatNumber() else { return nil }
            skipSpace()
            guard i < p.count, p[i] == UInt8(ascii: "]") else { return nil }
            i += 1
            try visit(part, n, x, y)
            n += 1
            skipSpace()
            guard i < p.count else { return nil }
            if p[i] == UInt8(ascii: "]") {
                i += 1
                return n
            }
            guard p[i] == UInt8(ascii: ",") else { return nil }
            i += 1
        }
    }

    /// A finite number at `i`, as the parser reads it; nil for anything else.
    @inline(__always)
    mutating func flatNumber() -> Double? {
        guard i < p.count, p[i] == UInt8(ascii: "-") || Self.isDigit(p[i]) else { return nil }
        switch try? parseNumber() {
        case .integer(let v)?: return Double(v)
        case .number(let d)? where d.isFinite: return d
        default: return nil
        }
    }
}
