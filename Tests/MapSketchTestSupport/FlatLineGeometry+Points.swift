package import MapSketchGeometry

extension FlatLineGeometry {
    /// The geometry as the codecs give it, point by point from `text` (the text
    /// ``decode(_:format:)`` read): what the flat reading is checked against.
    /// - Complexity: O(n) for n vertices; memory 48 bytes a vertex.
    package func geometry(in text: UnsafeBufferPointer<UInt8>) -> Geometry {
        var pts: [[Point]] = partSizes.map { n in
            var part: [Point] = []
            part.reserveCapacity(n)
            return part
        }
        forEachVertex(in: text) { part, _, x, y in pts[part].append(Point(x, y)) }
        if type == .multipoint { return .multipoint(Multipoint(points: pts.first ?? [])) }
        return .polyline(Polyline(paths: pts))
    }
}
