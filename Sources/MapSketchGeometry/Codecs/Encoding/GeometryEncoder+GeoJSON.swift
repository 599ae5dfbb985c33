// The GeoJSON encoder.

extension GeometryEncoder {
    /// GeoJSON of a multipoint or polyline held by `source`, each vertex projected by
    /// `projection` (into WGS 84) as it is written: a MultiPoint; a LineString for one path (or
    /// none: empty coordinates), else a MultiLineString. Positions carry z, where the vertex has
    /// one, when `z`; GeoJSON has no m.
    /// - Throws: only for offloaded chunks (see ``OffloadedChunks``).
    /// - Complexity: O(n) for n vertices.
    package static func geoJSON<S: VertexSource>(
        _ source: S, type: GeometryType, z: Bool, projection: PointProjection?, into o: inout ByteOutput, offload: OffloadedChunks? = nil
    ) throws {
        precondition(type == .multipoint || type == .polyline, "a multipoint or polyline")
        let f = vertexFormat(.geoJSON, type: type, z: z, m: false, projection: projection)
        if type == .multipoint {
            o.ascii("{\"type\":\"MultiPoint\",\"coordinates\":")
            try single(source, .json, f, into: &o, offload: offload)
        } else {
            switch source.partSizes.count {
            case 0: o.ascii("{\"type\":\"LineString\",\"coordinates\":[]")
            case 1:
                o.ascii("{\"type\":\"LineString\",\"coordinates\":")
                try parts(source, .json, f, into: &o, offload: offload)
            default:
                o.ascii("{\"type\":\"MultiLineString\",\"coordinates\":")
                try list(source, .json, f, into: &o, offload: offload)
            }
        }
        o.out.append(UInt8(ascii: "}"))
    }

    /// GeoJSON of any geometry whose coordinates are WGS 84 longitudes and latitudes, laid out
    /// as ``GeoJSON/jsonValue(wgs84:options:)``: polygon rings grouped into polygons with their
    /// holes and, for `.rfc7946`, exteriors counter-clockwise and holes clockwise.
    /// - Complexity: O(n) for n vertices, plus the hole assignment of polygons.
    package static func geoJSON(wgs84 g: Geometry, orientation: GeoJSON.RingOrientation, into o: inout ByteOutput) {
        let f = VertexFormat(.geoJSON, z: true, m: false)
        switch g {
        case .multipoint(let mp):
            return unfailing { try geoJSON([mp.points], type: .multipoint, z: true, projection: nil, into: &o) }
        case .polyline(let pl):
            return unfailing { try geoJSON(pl.paths, type: .polyline, z: true, projection: nil, into: &o) }
        case .point(let p):
            o.ascii("{\"type\":\"Point\",\"coordinates\":")
            if let p { f.write(p, to: &o) } else { o.ascii("[]") }
        case .polygon(let pg):
            let rings = pg.rings
            if rings.isEmpty {
                o.ascii("{\"type\":\"Polygon\",\"coordinates\":[]")
                break
            }
            // RFC 7946: exterior counter-clockwise, holes clockwise.
            let polygons = GeoJSON.groupRings(rings).map { group in
                group.enumerated().map { k, i in orientation == .rfc7946 ? Kernel.oriented(rings[i], clockwise: k > 0) : rings[i] }
            }
            if polygons.count == 1 {
                o.ascii("{\"type\":\"Polygon\",\"coordinates\":")
                unfailing { try list(polygons[0], .jsonRings, f, into: &o) }
            } else {
                o.ascii("{\"type\":\"MultiPolygon\",\"coordinates\":[")
                for (k, polygon) in polygons.enumerated() {
                    if k > 0 { o.out.append(UInt8(ascii: ",")) }
                    unfailing { try list(polygon, .jsonRings, f, into: &o) }
                }
                o.out.append(UInt8(ascii: "]"))
            }
        case .envelope(let e):
            o.ascii("{\"type\":\"Polygon\",\"coordinates\":")
            let ring = [Point(e.xmax, e.ymax), Point(e.xmin, e.ymax), Point(e.xmin, e.ymin), Point(e.xmax, e.ymin)]
            unfailing { try list([ring], .jsonRings, f, into: &o) }
        }
        o.out.append(UInt8(ascii: "}"))
    }
}
