// The Esri JSON encoder.

extension GeometryEncoder {
    /// Esri JSON of a multipoint, polyline or polygon (rings open: each is closed as written)
    /// held by `source`: `{`, `"hasZ":true,` and `"hasM":true,` when `z` and `m`, `points`,
    /// `paths` or `rings`, then `spatialReference` when there is one, `}`.
    /// - Throws: only for offloaded chunks (see ``OffloadedChunks``).
    /// - Complexity: O(n) for n vertices.
    package static func esriJSON<S: VertexSource>(
        _ source: S, type: GeometryType, z: Bool, m: Bool, spatialReference sr: SpatialReference?, into o: inout ByteOutput,
        offload: OffloadedChunks? = nil
    ) throws {
        precondition(type == .multipoint || type == .polyline || type == .polygon, "a multipart geometry")
        o.out.append(UInt8(ascii: "{"))
        if z { o.ascii("\"hasZ\":true,") }
        if m { o.ascii("\"hasM\":true,") }
        let f = vertexFormat(.esriJSON, type: type, z: z, m: m)
        switch type {
        case .multipoint:
            o.ascii("\"points\":")
            try single(source, .json, f, into: &o, offload: offload)
        case .polyline:
            o.ascii("\"paths\":")
            try list(source, .json, f, into: &o, offload: offload)
        default:
            o.ascii("\"rings\":")
            try list(source, .jsonRings, f, into: &o, offload: offload)
        }
        esriSpatialReference(sr, into: &o)
        o.out.append(UInt8(ascii: "}"))
    }

    /// Esri JSON of any geometry, laid out as ``EsriJSON/jsonValue(_:)-(SpatialGeometry)``: a
    /// multipart one with the flags ``EsriJSON/writtenFlags(_:_:_:)`` gives.
    /// - Complexity: O(n) for n vertices.
    package static func esriJSON(_ g: SpatialGeometry, into o: inout ByteOutput) {
        func multipart(_ parts: [[Point]], _ type: GeometryType, _ z: Bool, _ m: Bool) {
            let (z, m) = EsriJSON.writtenFlags(z, m, parts)
            unfailing { try esriJSON(parts, type: type, z: z, m: m, spatialReference: g.spatialReference, into: &o) }
        }
        switch g.geometry {
        case .multipoint(let mp): return multipart([mp.points], .multipoint, mp.hasZ, mp.hasM)
        case .polyline(let pl): return multipart(pl.paths, .polyline, pl.hasZ, pl.hasM)
        case .polygon(let pg): return multipart(pg.rings, .polygon, pg.hasZ, pg.hasM)
        case .point(let p):
            if let p {
                o.ascii("{\"x\":")
                o.number(p.x)
                o.ascii(",\"y\":")
                o.number(p.y)
                if let z = p.z {
                    o.ascii(",\"z\":")
                    o.number(z)
                }
                if let m = p.m {
                    o.ascii(",\"m\":")
                    o.number(m)
                }
            } else {
                o.ascii("{\"x\":null")
            }
        case .envelope(let e):
            o.ascii("{\"xmin\":")
            o.number(e.xmin)
            o.ascii(",\"ymin\":")
            o.number(e.ymin)
            o.ascii(",\"xmax\":")
            o.number(e.xmax)
            o.ascii(",\"ymax\":")
            o.number(e.ymax)
        }
        esriSpatialReference(g.spatialReference, into: &o)
        o.out.append(UInt8(ascii: "}"))
    }

    /// `,"spatialReference":{…}` when there is one.
    private static func esriSpatialReference(_ sr: SpatialReference?, into o: inout ByteOutput) {
        guard let sr else { return }
        o.ascii(",\"spatialReference\":")
        o.compact(EsriJSON.jsonValue(sr))
    }
}
