package import MapSketchGeometry

/// Geometry inside traces: Esri JSON geometry objects without a spatial reference
/// (`{"x":…,"y":…}`, `{"points":[…]}`, `{"paths":[…]}`, `{"rings":[…]}`).
///
/// Traces keep coordinates exactly as written — ring order and orientation, per-vertex z and m —
/// because a trace states what a person drew, invalid shapes included; the project's `EsriJSON`
/// codec normalises on read (ring orientation, hasZ/hasM layouts), which is right for data
/// interchange but would change what a trace says. The CLI's `--format` output goes through the
/// codecs.
package enum TraceGeometryJSON {
    /// Decodes an Esri JSON geometry.
    /// - Throws: `JSONError` naming the member and what was expected.
    package static func decode(_ v: JSONValue) throws -> Geometry {
        let o = try v.decodeObject()
        func coords(_ c: JSONValue) throws -> Point {
            let a = try c.decodeArray()
            guard a.count >= 2 else { throw JSONError("expected [x, y] (2 to 4 numbers), found \(a.count) numbers") }
            let x = try withJSONPath(.index(0)) { try a[0].decodeNumber() }
            let y = try withJSONPath(.index(1)) { try a[1].decodeNumber() }
            let z = a.count > 2 ? try withJSONPath(.index(2)) { try a[2].decodeNumber() } : nil
            let m = a.count > 3 ? try withJSONPath(.index(3)) { try a[3].decodeNumber() } : nil
            return Point(x: x, y: y, z: z, m: m)
        }
        if o.contains("x") {
            let xv = try o.require("x")
            if xv.isNull { return .point(nil) }
            let x = try withJSONPath(.key("x")) { try xv.decodeNumber() }
            let y = try o.decode("y") { try $0.decodeNumber() }
            let z = try o.decodeIfPresent("z") { try $0.decodeNumber() }
            let m = try o.decodeIfPresent("m") { try $0.decodeNumber() }
            return .point(Point(x: x, y: y, z: z, m: m))
        }
        if o.contains("points") {
            return .multipoint(Multipoint(points: try o.decode("points") { try $0.decodeElements(coords) }))
        }
        if o.contains("paths") {
            return .polyline(Polyline(paths: try o.decode("paths") { try $0.decodeElements { try $0.decodeElements(coords) } }))
        }
        if o.contains("rings") {
            let rings = try o.decode("rings") { try $0.decodeElements { try $0.decodeElements(coords) } }
            return .polygon(Polygon(rings: rings.map(Polygon.open)))
        }
        throw JSONError("expected an Esri JSON geometry with \"x\", \"points\", \"paths\" or \"rings\"")
    }

    /// Encodes a geometry as Esri JSON (polygon rings closed, as Esri JSON writes them).
    package static func encode(_ g: Geometry) -> JSONValue {
        func c(_ p: Point) -> JSONValue {
            var a: [JSONValue] = [.number(p.x), .number(p.y)]
            if let z = p.z { a.append(.number(z)) }
            if let m = p.m {
                if p.z == nil { a.append(.null) }
                a.append(.number(m))
            }
            return .array(a)
        }
        switch g {
        case .point(let p):
            guard let p else { return ["x": nil] }
            var o: JSONObject = ["x": .number(p.x), "y": .number(p.y)]
            if let z = p.z { o["z"] = .number(z) }
            if let m = p.m { o["m"] = .number(m) }
            return .object(o)
        case .multipoint(let m): return ["points": .array(m.points.map(c))]
        case .polyline(let l): return ["paths": .array(l.paths.map { .array($0.map(c)) })]
        case .polygon(let p): return ["rings": .array(p.rings.map { .array(Polygon.closed($0).map(c)) })]
        case .envelope(let e):
            return ["xmin": .number(e.xmin), "ymin": .number(e.ymin), "xmax": .number(e.xmax), "ymax": .number(e.ymax)]
        }
    }
}
