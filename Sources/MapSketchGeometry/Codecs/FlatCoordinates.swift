// Big two-dimensional multipoints and polylines held as flat coordinates (16 bytes a vertex); the
// GeometryEngine operations over them are in Operations/FlatCoordinates+Operations.swift.

/// A two-dimensional multipoint or polyline held as x, y pairs in one array plus the size of each
/// part — 16 bytes a vertex instead of the 48 of a ``Point`` — with the operations of
/// ``GeometryEngine`` that read and write coordinates only: ``simplify(tolerance:)``,
/// ``normalizeCentralMeridian(spatialReference:)``, ``project(from:to:)``, ``inWGS84(from:)``.
/// Each gives exactly the coordinates, parts and errors the engine gives for the same geometry
/// (``geometry``), and ``write(as:spatialReference:chunkSize:to:)`` writes them with the format's
/// encoder a chunk at a time.
package struct FlatCoordinates: Sendable, Equatable {
    /// `.multipoint` or `.polyline`.
    package let type: GeometryType
    /// x and y of every vertex, interleaved, part after part.
    package internal(set) var xy: [Double]
    /// The number of vertices of each part, each at least one (one part for a non-empty
    /// multipoint, none for an empty one).
    package internal(set) var partSizes: [Int]

    /// Coordinates of `type` (`.multipoint` or `.polyline`); `partSizes` must add up to half of
    /// `xy`'s count, each at least one, and a multipoint has at most one part.
    package init(type: GeometryType, xy: [Double], partSizes: [Int]) {
        precondition(type == .multipoint || type == .polyline, "a multipoint or polyline")
        precondition(partSizes.reduce(0, +) * 2 == xy.count && partSizes.allSatisfy { $0 > 0 }, "part sizes of the coordinates")
        precondition(type == .polyline || partSizes.count <= 1, "one part for a multipoint")
        self.type = type
        self.xy = xy
        self.partSizes = partSizes
    }

    /// The coordinates of the geometry `flat` read from `text` (the text its
    /// `FlatLineGeometry.decode` read).
    /// - Complexity: O(n) in the coordinates' text; memory 16 bytes a vertex.
    package init(_ flat: FlatLineGeometry, in text: UnsafeBufferPointer<UInt8>) {
        var xy: [Double] = []
        xy.reserveCapacity(2 * flat.vertexCount)
        flat.forEachVertex(in: text) { _, _, x, y in
            xy.append(x)
            xy.append(y)
        }
        self.init(type: flat.type, xy: xy, partSizes: flat.partSizes)
    }

    /// A multipoint's or polyline's two-dimensional coordinates (z and m dropped); nil for
    /// other geometries, and for a polyline with an empty path.
    package init?(_ g: Geometry) {
        let parts: [[Point]]
        switch g {
        case .multipoint(let mp): (type, parts) = (.multipoint, mp.points.isEmpty ? [] : [mp.points])
        case .polyline(let pl): (type, parts) = (.polyline, pl.paths)
        default: return nil
        }
        guard parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        xy = parts.flatMap { $0.flatMap { [$0.x, $0.y] } }
        partSizes = parts.map(\.count)
    }

    /// The number of vertices.
    package var vertexCount: Int { xy.count / 2 }

    /// The geometry of ``Point``s these coordinates hold.
    /// - Complexity: O(n); memory 48 bytes a vertex.
    package var geometry: Geometry {
        var parts: [[Point]] = []
        parts.reserveCapacity(partSizes.count)
        var i = 0
        for n in partSizes {
            parts.append((i..<(i + n)).map { Point(xy[2 * $0], xy[2 * $0 + 1]) })
            i += n
        }
        if type == .multipoint { return .multipoint(Multipoint(points: parts.first ?? [])) }
        return .polyline(Polyline(paths: parts))
    }

    /// Calls `body` with every vertex, in order, as `(part, index in part, x, y)`.
    /// - Throws: what `body` throws.
    /// - Complexity: O(n).
    package func forEachVertex(_ body: (Int, Int, Double, Double) throws -> Void) rethrows {
        try xy.withUnsafeBufferPointer { c in
            var i = 0
            for (part, n) in partSizes.enumerated() {
                for k in 0..<n {
                    try body(part, k, c[2 * i], c[2 * i + 1])
                    i += 1
                }
            }
        }
    }

    // MARK: - Writing

    /// Writes the geometry as `out` by the format's encoder (``GeometryEncoder``) — with
    /// `spatialReference` in Esri JSON; GeoJSON is written as it is (bring it into WGS 84 first
    /// with ``inWGS84(from:)``) — handing `sink` a chunk of about `chunkSize` bytes at a time.
    /// - Throws: what `sink` throws.
    /// - Complexity: O(n); memory O(chunkSize).
    package func write(
        as out: GeometryFormat, spatialReference: SpatialReference?, chunkSize: Int = ByteOutput.chunkBytes,
        to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try ByteOutput.streaming(chunkSize: chunkSize, to: sink) { o in
            try GeometryEncoder.write(self, type: type, as: out, spatialReference: spatialReference, into: &o)
        }
    }
}
