import MapSketch
import MapSketchGeometry

/// How a replay's SVG draws the sketch.
package enum SketchSVGStyle: String, CaseIterable, Hashable, Sendable {
    /// As the sketch layer draws itself while it is edited: its main symbol, vertices,
    /// mid-vertices and the selected vertex.
    case sketch
    /// As a recorded track: no editing handles; each part (a GPS track segment) a line of its own
    /// color with arrows every 60 points showing the direction of travel, a start marker (an open
    /// circle) and an end marker (a filled square).
    case track
}

extension ReplaySession {
    /// The map as SVG at this point of the replay, its sketch drawn in `style`.
    /// - Complexity: O(n) in the sketch's vertices (lines are thinned to the screen's resolution).
    package func svg(style: SketchSVGStyle) -> String {
        guard style == .track, let sketch else { return svg() }
        var canvas = SVGCanvas(width: mapView.screenSize.width, height: mapView.screenSize.height)
        let hidden = sketch.view.isHidden
        sketch.view.isHidden = true
        mapView.drawSVG(into: &canvas)
        sketch.view.isHidden = hidden
        TrackDrawing.draw(sketch.geometry, into: &canvas) { mapView.toScreen($0) }
        return canvas.document()
    }
}

/// Draws geometry as tracks (see ``SketchSVGStyle/track``).
enum TrackDrawing {
    /// One color per part, in turn.
    static let palette: [Color] = [
        Color(red: 31, green: 119, blue: 180), Color(red: 214, green: 39, blue: 40),
        Color(red: 44, green: 160, blue: 44),
        Color(red: 148, green: 103, blue: 189), Color(red: 255, green: 127, blue: 14),
        Color(red: 23, green: 190, blue: 207),
        Color(red: 140, green: 86, blue: 75), Color(red: 227, green: 119, blue: 194),
    ]
    /// Screen distance between direction arrows, in points.
    static let arrowSpacing = 60.0
    /// The most arrows drawn per picture.
    static let arrowLimit = 2000

    static func draw(_ g: Geometry, into canvas: inout SVGCanvas, toScreen: (Point) -> ScreenPoint) {
        canvas.beginGroup(id: "track")
        let parts = g.parts.filter { !$0.isEmpty }
        if g.type == .point || g.type == .multipoint {
            for p in g.parts.joined() {
                canvas.circle(
                    center: toScreen(p), radius: 4, style: SVGStyle(fill: palette[0], stroke: .white, strokeWidth: 1))
            }
            canvas.endGroup()
            return
        }
        var arrows = 0
        for (i, part) in parts.enumerated() {
            let color = palette[i % palette.count]
            var line = ScreenPath.thinned(part, toScreen)
            if g.type == .polygon, let first = line.first { line.append(first) }
            canvas.path([line], closed: false, style: SVGStyle(stroke: color, strokeWidth: 3))
            // Arrows at every `arrowSpacing` points along the line, pointing the way it goes.
            var walked = arrowSpacing / 2
            for (a, b) in zip(line, line.dropFirst()) where arrows < arrowLimit {
                let dx = b.x - a.x
                let dy = b.y - a.y
                let length = (dx * dx + dy * dy).squareRoot()
                guard length > 0 else { continue }
                var at = walked
                while at <= length, arrows < arrowLimit {
                    let f = at / length
                    arrow(
                        at: ScreenPoint(x: a.x + dx * f, y: a.y + dy * f), ux: dx / length, uy: dy / length,
                        color: color, into: &canvas)
                    arrows += 1
                    at += arrowSpacing
                }
                walked = at - length
            }
        }
        for (i, part) in parts.enumerated() {
            guard let first = part.first, let last = part.last else { continue }
            let color = palette[i % palette.count]
            let s = toScreen(first)
            canvas.circle(center: s, radius: 6, style: SVGStyle(fill: .white, stroke: color, strokeWidth: 3))
            if g.type == .polyline {
                let e = toScreen(last)
                canvas.rect(
                    x: e.x - 5, y: e.y - 5, width: 10, height: 10,
                    style: SVGStyle(fill: color, stroke: .white, strokeWidth: 1))
            }
            if parts.count == 1 {
                canvas.label(
                    "start", at: ScreenPoint(x: s.x + 9, y: s.y - 8), fontSize: 11,
                    color: Color(red: 34, green: 34, blue: 34))
                if g.type == .polyline {
                    let e = toScreen(last)
                    canvas.label(
                        "end", at: ScreenPoint(x: e.x + 9, y: e.y - 8), fontSize: 11,
                        color: Color(red: 34, green: 34, blue: 34))
                }
            }
        }
        canvas.endGroup()
    }

    /// A filled chevron at `p` pointing along the unit vector (ux, uy).
    static func arrow(at p: ScreenPoint, ux: Double, uy: Double, color: Color, into canvas: inout SVGCanvas) {
        let tip = ScreenPoint(x: p.x + ux * 8, y: p.y + uy * 8)
        let left = ScreenPoint(x: p.x - ux * 5 - uy * 6, y: p.y - uy * 5 + ux * 6)
        let right = ScreenPoint(x: p.x - ux * 5 + uy * 6, y: p.y - uy * 5 - ux * 6)
        canvas.polygon([tip, left, p, right], style: SVGStyle(fill: color, stroke: .white, strokeWidth: 1))
    }
}
