/// The vertices of a geometry's parts, read in order: what the encoders (``GeometryEncoder``) and
/// the simplify rules read, whatever holds the vertices — a tree geometry's `[[Point]]` parts,
/// flat coordinates (``FlatCoordinates``, ``FlatLineGeometry/TextVertices``) or a sketch's
/// chunked parts (``VertexStore``).
package protocol VertexSource {
    /// The number of vertices of each part, in order (a part may be empty).
    var partSizes: [Int] { get }
    /// Calls `body` with every vertex, part after part, as `(part, index in part, vertex)`.
    /// - Throws: what `body` throws.
    func forEachVertex(_ body: (_ part: Int, _ index: Int, _ vertex: Point) throws -> Void) rethrows
}

/// A tree geometry's parts: paths, rings (open), or a multipoint's points as one part.
extension Array: VertexSource where Element == [Point] {
    package var partSizes: [Int] { map(\.count) }

    package func forEachVertex(_ body: (Int, Int, Point) throws -> Void) rethrows {
        for (part, points) in enumerated() {
            for (k, p) in points.enumerated() { try body(part, k, p) }
        }
    }
}

extension VertexStore: VertexSource {
    package var partSizes: [Int] { parts.map(\.count) }

    package func forEachVertex(_ body: (Int, Int, Point) throws -> Void) rethrows {
        for (part, vertices) in parts.enumerated() {
            var k = 0
            for p in vertices {
                try body(part, k, p)
                k += 1
            }
        }
    }
}

extension FlatCoordinates: VertexSource {
    package func forEachVertex(_ body: (Int, Int, Point) throws -> Void) rethrows {
        try forEachVertex { part, k, x, y in try body(part, k, Point(x, y)) }
    }
}

extension FlatLineGeometry {
    /// The vertices of a geometry read from `text` (the text ``decode(_:format:)`` read).
    package struct TextVertices: VertexSource {
        let geometry: FlatLineGeometry
        let text: UnsafeBufferPointer<UInt8>

        package var partSizes: [Int] { geometry.partSizes }

        package func forEachVertex(_ body: (Int, Int, Point) throws -> Void) rethrows {
            try geometry.forEachVertex(in: text) { part, k, x, y in try body(part, k, Point(x, y)) }
        }
    }

    /// The vertices of the geometry read from `text` (the text ``decode(_:format:)`` read), valid
    /// while `text` is.
    package func vertices(in text: UnsafeBufferPointer<UInt8>) -> TextVertices { TextVertices(geometry: self, text: text) }
}

extension VertexSource {
    /// Whether some vertex has a z, and whether some vertex has an m.
    /// - Complexity: O(n).
    func anyZM() -> (z: Bool, m: Bool) {
        var z = false, m = false
        forEachVertex { _, _, p in
            if p.z != nil { z = true }
            if p.m != nil { m = true }
        }
        return (z, m)
    }
}
