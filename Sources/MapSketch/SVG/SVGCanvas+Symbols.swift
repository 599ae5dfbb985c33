package import MapSketchGeometry
import Foundation

extension SVGCanvas {
    /// Draws a simple marker centred on `p` (offsets: x right, y up, in points; angle in degrees
    /// counter-clockwise).
    ///
    /// Circles use `size` as diameter; squares, diamonds and triangles fit a `size` × `size` box;
    /// cross and x are two strokes `size` long in the marker color.
    package mutating func drawMarker(_ m: SimpleMarkerSymbol, at p: ScreenPoint) {
        let c = ScreenPoint(x: p.x + m.xOffset, y: p.y - m.yOffset)
        let h = m.size / 2
        let outline = m.outline.flatMap { $0.style == .null ? nil : $0 }
        let fillStyle = SVGStyle(
            fill: m.color, stroke: outline?.color, strokeWidth: outline?.width ?? 1,
            dash: outline.flatMap { Self.dashArray($0.style, width: $0.width) })
        switch m.style {
        case .circle:
            circle(center: c, radius: h, style: fillStyle)
        case .square:
            path([Self.rotated([(-h, -h), (h, -h), (h, h), (-h, h)], about: c, angle: m.angle)], closed: true, style: fillStyle)
        case .diamond:
            path([Self.rotated([(0, -h), (h, 0), (0, h), (-h, 0)], about: c, angle: m.angle)], closed: true, style: fillStyle)
        case .triangle:
            path([Self.rotated([(0, -h), (h, h), (-h, h)], about: c, angle: m.angle)], closed: true, style: fillStyle)
        case .cross, .x:
            let base: [(Double, Double)] = m.style == .cross ? [(-h, 0), (h, 0), (0, -h), (0, h)] : [(-h, -h), (h, h), (-h, h), (h, -h)]
            let q = Self.rotated(base, about: c, angle: m.angle)
            path([[q[0], q[1]], [q[2], q[3]]], closed: false, style: SVGStyle(stroke: m.color, strokeWidth: max(1, outline?.width ?? 1)))
        }
    }

    /// Draws a picture marker as an `<image>` centred on `p`.
    package mutating func drawPictureMarker(_ m: PictureMarkerSymbol, at p: ScreenPoint) {
        let x = p.x + m.xOffset - m.width / 2
        let y = p.y - m.yOffset - m.height / 2
        guard x.isFinite, y.isFinite, m.width.isFinite, m.height.isFinite else { return skip("image") }
        raw("<image x=\"\(num(x))\" y=\"\(num(y))\" width=\"\(num(m.width))\" height=\"\(num(m.height))\" href=\"\(XMLEscaping.escape(m.image))\"/>")
    }

    /// Draws paths with a simple line symbol; the `null` style draws nothing, by definition.
    package mutating func drawLine(_ l: SimpleLineSymbol, paths: [[ScreenPoint]], closed: Bool = false) {
        guard l.style != .null else { return }
        path(paths, closed: closed, style: SVGStyle(stroke: l.color, strokeWidth: l.width, dash: Self.dashArray(l.style, width: l.width)))
    }

    /// Draws rings (open; closed by `Z`) with a simple fill symbol and its outline. Hatched
    /// styles use a pattern defined once per style and color; the fill rule is even-odd so holes
    /// stay empty.
    package mutating func drawFill(_ f: SimpleFillSymbol, rings: [[ScreenPoint]]) {
        let outline = f.outline.flatMap { $0.style == .null ? nil : $0 }
        var style = SVGStyle(
            stroke: outline?.color, strokeWidth: outline?.width ?? 1,
            dash: outline.flatMap { Self.dashArray($0.style, width: $0.width) }, evenOdd: true)
        switch f.style {
        case .null: break
        case .solid: style.fill = f.color
        default:
            let id = "hatch-\(f.style.rawValue)-\(f.color.hex.dropFirst())" + (f.color.alpha < 1 ? "-\(SVGNumber.format(f.color.alpha).replacingDot())" : "")
            define(id: id, Self.hatchPattern(id: id, style: f.style, color: f.color))
            style.fillPattern = id
        }
        path(rings, closed: true, style: style)
    }

    /// Draws a text symbol at `p` (offsets x right, y up).
    package mutating func drawText(_ t: TextSymbol, at p: ScreenPoint) {
        text(
            t.text, at: ScreenPoint(x: p.x + t.xOffset, y: p.y - t.yOffset), fontSize: t.fontSize,
            fontFamily: t.fontFamily, color: t.color, anchor: .middle, angle: t.angle)
    }

    /// Draws `geometry` with `symbol`, mapping vertices to the screen with `toScreen`.
    ///
    /// Markers draw at every point (a multipoint's too); lines along every path; fills over
    /// every ring; text at the geometry's label point (a point, or the envelope centre); a
    /// composite draws its parts in order.
    /// - Returns: false, drawing nothing, when the symbol does not fit the geometry type (see
    ///   ``Symbol/fits(_:)``) or the geometry is empty; the caller reports the mismatch.
    @discardableResult
    package mutating func draw(_ symbol: Symbol, geometry: Geometry, toScreen: (Point) -> ScreenPoint) -> Bool {
        guard symbol.fits(geometry.type), !geometry.isEmpty else { return false }
        switch symbol {
        case .simpleMarker(let m):
            for part in geometry.parts { for p in part { drawMarker(m, at: toScreen(p)) } }
        case .pictureMarker(let m):
            for part in geometry.parts { for p in part { drawPictureMarker(m, at: toScreen(p)) } }
        case .simpleLine(let l):
            drawLine(l, paths: geometry.parts.map { $0.map(toScreen) })
        case .simpleFill(let f):
            drawFill(f, rings: geometry.parts.map { $0.map(toScreen) })
        case .text(let t):
            guard let e = geometry.envelope else { return false }
            let anchor: Point = if case .point(let p?) = geometry { p } else { e.center }
            drawText(t, at: toScreen(anchor))
        case .composite(let parts):
            for s in parts { draw(s, geometry: geometry, toScreen: toScreen) }
        }
        return true
    }

    /// The dash array for a line style scaled by its width (nil for solid and null).
    package static func dashArray(_ style: SimpleLineStyle, width: Double) -> [Double]? {
        let w = max(1, width)
        switch style {
        case .solid, .null: return nil
        case .dash: return [4 * w, 3 * w]
        case .dot: return [w, 2 * w]
        case .dashDot: return [4 * w, 2 * w, w, 2 * w]
        }
    }

    static func rotated(_ offsets: [(Double, Double)], about c: ScreenPoint, angle: Double) -> [ScreenPoint] {
        guard angle != 0 else { return offsets.map { ScreenPoint(x: c.x + $0.0, y: c.y + $0.1) } }
        // Counter-clockwise on screen (y down) is a negative rotation of screen coordinates.
        let a = -angle * .pi / 180
        let (s, k) = (sin(a), cos(a))
        return offsets.map { ScreenPoint(x: c.x + $0.0 * k - $0.1 * s, y: c.y + $0.0 * s + $0.1 * k) }
    }

    static func hatchPattern(id: String, style: SimpleFillStyle, color: Color) -> String {
        let stroke = "stroke=\"\(color.hex)\"" + (color.alpha < 1 ? " stroke-opacity=\"\(SVGNumber.format(color.alpha))\"" : "")
        var lines: [String] = []
        if style == .horizontal || style == .cross { lines.append("M0 4 L8 4") }
        if style == .vertical || style == .cross { lines.append("M4 0 L4 8") }
        if style == .forwardDiagonal || style == .diagonalCross { lines.append("M0 8 L8 0") }
        if style == .backwardDiagonal || style == .diagonalCross { lines.append("M0 0 L8 8") }
        return "<pattern id=\"\(XMLEscaping.escape(id))\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\"><path d=\"\(lines.joined(separator: " "))\" \(stroke) stroke-width=\"1\"/></pattern>"
    }
}

extension String {
    fileprivate func replacingDot() -> String { String(map { $0 == "." ? "_" : $0 }) }
}
