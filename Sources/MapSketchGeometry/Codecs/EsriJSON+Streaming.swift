// Compact geometry output written straight into bytes, without building a JSONValue tree first
// (one allocation per vertex saved). Byte-identical to `JSONWriter.string(jsonValue(g))`; the
// tests check that for every geometry type.

extension JSONByteWriter {
    /// `[x,y]`, then z (or null) when `hasZ`, then m (or null) when `hasM`.
    @inline(__always)
    mutating func vertex(_ p: Point, hasZ: Bool, hasM: Bool) {
        out.append(UInt8(ascii: "["))
        number(p.x)
        out.append(UInt8(ascii: ","))
        number(p.y)
        if hasZ {
            out.append(UInt8(ascii: ","))
            if let z = p.z { number(z) } else { ascii("null") }
        }
        if hasM {
            out.append(UInt8(ascii: ","))
            if let m = p.m { number(m) } else { ascii("null") }
        }
        out.append(UInt8(ascii: "]"))
    }

    /// A list of vertices; `close` repeats the first at the end (a ring).
    mutating func vertices(_ pts: [Point], hasZ: Bool, hasM: Bool, close: Bool = false) {
        out.append(UInt8(ascii: "["))
        for (k, p) in pts.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            vertex(p, hasZ: hasZ, hasM: hasM)
        }
        if close, let f = pts.first {
            out.append(UInt8(ascii: ","))
            vertex(f, hasZ: hasZ, hasM: hasM)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// A list of parts.
    mutating func parts(_ parts: [[Point]], hasZ: Bool, hasM: Bool, close: Bool = false) {
        out.append(UInt8(ascii: "["))
        for (k, part) in parts.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            vertices(part, hasZ: hasZ, hasM: hasM, close: close)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// An Esri JSON geometry object, as ``EsriJSON/jsonValue(_:)-(SpatialGeometry)`` lays it out.
    mutating func esriGeometry(_ g: SpatialGeometry) {
        out.append(UInt8(ascii: "{"))
        func flags(_ z: Bool, _ m: Bool, _ parts: [[Point]]) -> (Bool, Bool) {
            let (z, m) = EsriJSON.writtenFlags(z, m, parts)
            if z { ascii("\"hasZ\":true,") }
            if m { ascii("\"hasM\":true,") }
            return (z, m)
        }
        switch g.geometry {
        case .point(let p):
            if let p {
                ascii("\"x\":")
                number(p.x)
                ascii(",\"y\":")
                number(p.y)
                if let z = p.z {
                    ascii(",\"z\":")
                    number(z)
                }
                if let m = p.m {
                    ascii(",\"m\":")
                    number(m)
                }
            } else {
                ascii("\"x\":null")
            }
        case .multipoint(let mp):
            let (z, m) = flags(mp.hasZ, mp.hasM, [mp.points])
            ascii("\"points\":")
            vertices(mp.points, hasZ: z, hasM: m)
        case .polyline(let pl):
            let (z, m) = flags(pl.hasZ, pl.hasM, pl.paths)
            ascii("\"paths\":")
            parts(pl.paths, hasZ: z, hasM: m)
        case .polygon(let pg):
            let (z, m) = flags(pg.hasZ, pg.hasM, pg.rings)
            ascii("\"rings\":")
            parts(pg.rings, hasZ: z, hasM: m, close: true)
        case .envelope(let e):
            ascii("\"xmin\":")
            number(e.xmin)
            ascii(",\"ymin\":")
            number(e.ymin)
            ascii(",\"xmax\":")
            number(e.xmax)
            ascii(",\"ymax\":")
            number(e.ymax)
        }
        if let sr = g.spatialReference {
            ascii(",\"spatialReference\":")
            compact(EsriJSON.jsonValue(sr))
        }
        out.append(UInt8(ascii: "}"))
    }
}
