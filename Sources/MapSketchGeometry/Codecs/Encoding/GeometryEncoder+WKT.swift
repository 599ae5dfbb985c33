// The WKT encoder.

extension GeometryEncoder {
    /// WKT of a multipoint or polyline held by `source`, with z and m (`NaN` where a vertex has
    /// none) when `z` and `m`: a MULTIPOINT; a LINESTRING for one path, else a MULTILINESTRING
    /// (an empty path is an `EMPTY` member).
    /// - Throws: only for offloaded chunks (see ``OffloadedChunks``).
    /// - Complexity: O(n) for n vertices.
    package static func wkt<S: VertexSource>(
        _ source: S, type: GeometryType, z: Bool, m: Bool, into o: inout ByteOutput, offload: OffloadedChunks? = nil
    ) throws {
        precondition(type == .multipoint || type == .polyline, "a multipoint or polyline")
        let sizes = source.partSizes
        if type == .multipoint {
            wktKeyword("MULTIPOINT", z, m, into: &o)
            guard sizes.contains(where: { $0 > 0 }) else { return o.ascii(" EMPTY") }
            try list(source, .wktMembers, vertexFormat(.wkt, type: type, z: z, m: m), into: &o, offload: offload)
        } else if sizes.count == 1 {
            wktKeyword("LINESTRING", z, m, into: &o)
            guard sizes[0] > 0 else { return o.ascii(" EMPTY") }
            o.out.append(UInt8(ascii: " "))
            try parts(source, .wkt, vertexFormat(.wkt, type: type, z: z, m: m), into: &o, offload: offload)
        } else {
            wktKeyword("MULTILINESTRING", z, m, into: &o)
            try list(source, .wkt, vertexFormat(.wkt, type: type, z: z, m: m), into: &o, offload: offload)
        }
    }

    /// WKT of a tree (``WKTGeometry``), members of a collection each with its own dimensions.
    /// - Complexity: O(n) for n vertices.
    package static func wkt(_ t: WKTGeometry, into o: inout ByteOutput) {
        let f = VertexFormat(.wkt, z: t.hasZ, m: t.hasM)
        switch t.shape {
        case .multiPoint(let ps) where !ps.contains(nil):
            return unfailing { try wkt([ps.compactMap { $0 }], type: .multipoint, z: t.hasZ, m: t.hasM, into: &o) }
        case .lineString(let ps):
            return unfailing { try wkt([ps], type: .polyline, z: t.hasZ, m: t.hasM, into: &o) }
        default: break
        }
        wktKeyword(t.keyword, t.hasZ, t.hasM, into: &o)
        switch t.shape {
        case .point(let p):
            guard let p else { return o.ascii(" EMPTY") }
            o.ascii(" (")
            f.write(p, to: &o)
            o.out.append(UInt8(ascii: ")"))
        case .multiPoint(let ps):
            // EMPTY members: each member its own part.
            unfailing { try list(ps.map { $0.map { [$0] } ?? [] }, .wkt, f, into: &o) }
        case .lineString(let ps), .linearRing(let ps):
            guard !ps.isEmpty else { return o.ascii(" EMPTY") }
            o.out.append(UInt8(ascii: " "))
            unfailing { try parts([ps], .wkt, f, into: &o) }
        case .multiLineString(let parts), .polygon(let parts):
            unfailing { try list(parts, .wkt, f, into: &o) }
        case .multiPolygon(let polygons):
            guard !polygons.isEmpty else { return o.ascii(" EMPTY") }
            o.ascii(" (")
            for (k, rings) in polygons.enumerated() {
                if k > 0 { o.ascii(", ") }
                if rings.isEmpty {
                    o.ascii("EMPTY")
                } else {
                    o.out.append(UInt8(ascii: "("))
                    unfailing { try parts(rings, .wkt, f, into: &o) }
                    o.out.append(UInt8(ascii: ")"))
                }
            }
            o.out.append(UInt8(ascii: ")"))
        case .geometryCollection(let members):
            guard !members.isEmpty else { return o.ascii(" EMPTY") }
            o.ascii(" (")
            for (k, member) in members.enumerated() {
                if k > 0 { o.ascii(", ") }
                wkt(member, into: &o)
            }
            o.out.append(UInt8(ascii: ")"))
        }
    }

    /// The keyword, then ` ZM`, ` Z` or ` M`.
    private static func wktKeyword(_ keyword: String, _ z: Bool, _ m: Bool, into o: inout ByteOutput) {
        o.text(keyword)
        if z && m { o.ascii(" ZM") } else if z { o.ascii(" Z") } else if m { o.ascii(" M") }
    }
}
