package import MapSketchGeometry

/// Draws the expected sketch geometry (green, wide) under the actual one (red, thin) so a
/// mismatch can be seen at a glance.
package enum GoldenOverlay {
    /// The overlay SVG of the `sketch.geometry` members of two output documents.
    /// - Complexity: O(n) in the number of vertices.
    package static func svg(expected: JSONValue, actual: JSONValue, size: Double = 600) -> String {
        let e = (expected["sketch"]?["geometry"]).flatMap { try? TraceGeometryJSON.decode($0) }
        let a = (actual["sketch"]?["geometry"]).flatMap { try? TraceGeometryJSON.decode($0) }
        var env: Envelope?
        for g in [e, a].compactMap({ $0 }) {
            if let ge = g.envelope { env = env.map { $0.union(ge) } ?? ge }
        }
        let box = env ?? Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1)
        let w = max(box.xmax - box.xmin, 1e-12)
        let h = max(box.ymax - box.ymin, 1e-12)
        let scale = (size - 40) / max(w, h)
        func sx(_ x: Double) -> String { JSONWriter.format(((20 + (x - box.xmin) * scale) * 100).rounded() / 100) }
        func sy(_ y: Double) -> String { JSONWriter.format(((20 + (box.ymax - y) * scale) * 100).rounded() / 100) }
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(size))\" height=\"\(Int(size))\" viewBox=\"0 0 \(Int(size)) \(Int(size))\">\n"
        s += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        s += "<text x=\"8\" y=\"14\" font-size=\"12\" fill=\"#008000\">expected</text>"
        s += "<text x=\"80\" y=\"14\" font-size=\"12\" fill=\"#d00000\">actual</text>\n"
        func draw(_ g: Geometry?, color: String, width: Double, radius: Double) {
            guard let g else { return }
            let closed = g.type == .polygon
            if g.type == .point || g.type == .multipoint {
                for p in g.parts.joined() {
                    s += "<circle cx=\"\(sx(p.x))\" cy=\"\(sy(p.y))\" r=\"\(radius)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(width / 2)\"/>\n"
                }
                return
            }
            for part in g.parts where !part.isEmpty {
                var d = ""
                for (i, p) in part.enumerated() { d += (i == 0 ? "M" : " L") + "\(sx(p.x)) \(sy(p.y))" }
                if closed { d += " Z" }
                s += "<path d=\"\(d)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(width)\" stroke-linejoin=\"round\" stroke-opacity=\"0.8\"/>\n"
                for p in part {
                    s += "<circle cx=\"\(sx(p.x))\" cy=\"\(sy(p.y))\" r=\"\(radius)\" fill=\"\(color)\"/>\n"
                }
            }
        }
        draw(e, color: "#008000", width: 6, radius: 5)
        draw(a, color: "#d00000", width: 2, radius: 2.5)
        s += "</svg>\n"
        return s
    }
}
