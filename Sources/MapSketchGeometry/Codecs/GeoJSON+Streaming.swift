// Compact GeoJSON geometry output written straight into bytes (see EsriJSON+Streaming.swift).
// Byte-identical to `JSONWriter.string(GeoJSON.jsonValue(wgs84: g))`; the tests check that.

extension JSONByteWriter {
    /// `[x,y]` or `[x,y,z]` (GeoJSON has no m).
    @inline(__always)
    mutating func position(_ p: Point) {
        out.append(UInt8(ascii: "["))
        number(p.x)
        out.append(UInt8(ascii: ","))
        number(p.y)
        if let z = p.z {
            out.append(UInt8(ascii: ","))
            number(z)
        }
        out.append(UInt8(ascii: "]"))
    }

    mutating func positions<C: Collection>(_ pts: C) where C.Element == Point {
        out.append(UInt8(ascii: "["))
        var first = true
        for p in pts {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            position(p)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// A closed ring, reversed (keeping its first vertex first) when `reverse`.
    mutating func ring(_ r: [Point], reverse: Bool) {
        guard let f = r.first else {
            ascii("[]")
            return
        }
        out.append(UInt8(ascii: "["))
        position(f)
        if reverse {
            for p in r.dropFirst().reversed() {
                out.append(UInt8(ascii: ","))
                position(p)
            }
        } else {
            for p in r.dropFirst() {
                out.append(UInt8(ascii: ","))
                position(p)
            }
        }
        out.append(UInt8(ascii: ","))
        position(f)
        out.append(UInt8(ascii: "]"))
    }

    /// A GeoJSON geometry object, as ``GeoJSON/jsonValue(wgs84:options:)`` lays it out.
    mutating func geoJSONGeometry(_ g: Geometry, orientation: GeoJSON.RingOrientation) {
        switch g {
        case .point(let p):
            ascii("{\"type\":\"Point\",\"coordinates\":")
            if let p { position(p) } else { ascii("[]") }
        case .multipoint(let mp):
            ascii("{\"type\":\"MultiPoint\",\"coordinates\":")
            positions(mp.points)
        case .polyline(let pl):
            if pl.paths.count == 1 {
                ascii("{\"type\":\"LineString\",\"coordinates\":")
                positions(pl.paths[0])
            } else if pl.paths.isEmpty {
                ascii("{\"type\":\"LineString\",\"coordinates\":[]")
            } else {
                ascii("{\"type\":\"MultiLineString\",\"coordinates\":[")
                for (k, path) in pl.paths.enumerated() {
                    if k > 0 { out.append(UInt8(ascii: ",")) }
                    positions(path)
                }
                out.append(UInt8(ascii: "]"))
            }
        case .polygon(let pg):
            let rings = pg.rings
            if rings.isEmpty {
                ascii("{\"type\":\"Polygon\",\"coordinates\":[]")
                break
            }
            let groups = GeoJSON.groupRings(rings)
            func polygon(_ group: [Int]) {
                out.append(UInt8(ascii: "["))
                for (k, idx) in group.enumerated() {
                    if k > 0 { out.append(UInt8(ascii: ",")) }
                    // RFC 7946: exterior counter-clockwise, holes clockwise.
                    let reverse = orientation == .rfc7946 && Kernel.isReversed(rings[idx], clockwise: k > 0)
                    ring(rings[idx], reverse: reverse)
                }
                out.append(UInt8(ascii: "]"))
            }
            if groups.count == 1 {
                ascii("{\"type\":\"Polygon\",\"coordinates\":")
                polygon(groups[0])
            } else {
                ascii("{\"type\":\"MultiPolygon\",\"coordinates\":[")
                for (k, group) in groups.enumerated() {
                    if k > 0 { out.append(UInt8(ascii: ",")) }
                    polygon(group)
                }
                out.append(UInt8(ascii: "]"))
            }
        case .envelope(let e):
            ascii("{\"type\":\"Polygon\",\"coordinates\":[")
            ring(
                [Point(e.xmax, e.ymax), Point(e.xmin, e.ymax), Point(e.xmin, e.ymin), Point(e.xmax, e.ymin)],
                reverse: false)
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }
}
