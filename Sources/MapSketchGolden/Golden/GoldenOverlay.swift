import Foundation
package import MapSketchGeometry
import MapSketch
package import MapSketchReplay

/// The pictures of a golden mismatch: the expected sketch geometry (wide green) under the actual
/// one (thin red), with every changed vertex marked.
///
/// Everything that must be seen is drawn at a fixed screen size, whatever the map's scale: a
/// marker at each moved, added or removed vertex with a label of its displacement in map units
/// (so a 1.7 cm move on a 540 m track shows as a ring labelled `1.7 cm`), start and end markers
/// on lines, a title (trace name, tolerance, count of differing numbers), a scale bar and a
/// legend. Lines with many vertices are thinned in screen space (a vertex within half a point of
/// the last one drawn is skipped), so the picture's size is bounded by its pixels.
package enum GoldenOverlay {
    /// What a picture shows.
    package enum Content: Hashable, Sendable {
        /// Only the expected geometry.
        case expected
        /// Only the actual geometry.
        case actual
        /// Both, with the changed vertices marked: the diff picture.
        case overlay
    }

    /// What a mismatch's pictures are made from.
    package struct Input: Sendable {
        /// The trace's name (the title).
        package var name: String
        /// The golden's `sketch.geometry`, decoded (nil when absent).
        package var expected: Geometry?
        /// The actual `sketch.geometry`, decoded.
        package var actual: Geometry?
        /// The tolerance of the comparison.
        package var tolerance: GoldenTolerance
        /// How many numbers of the documents differ beyond the tolerance.
        package var differingNumbers: Int
        /// The units of the map.
        package var units: MapUnits

        /// An input from the two output documents (their `sketch.geometry` members).
        package init(
            name: String, expected: JSONValue, actual: JSONValue, tolerance: GoldenTolerance, differingNumbers: Int,
            spatialReference: SpatialReference?
        ) {
            self.name = name
            self.expected = (expected["sketch"]?["geometry"]).flatMap { try? TraceGeometryJSON.decode($0) }
            self.actual = (actual["sketch"]?["geometry"]).flatMap { try? TraceGeometryJSON.decode($0) }
            self.tolerance = tolerance
            self.differingNumbers = differingNumbers
            self.units = MapUnits(spatialReference)
        }
    }

    static let expectedColor = Color(red: 46, green: 158, blue: 68)
    static let actualColor = Color(red: 214, green: 39, blue: 40)
    static let movedColor = Color(red: 255, green: 127, blue: 14)
    static let ink = Color(red: 34, green: 34, blue: 34)
    static let muted = Color(red: 96, green: 96, blue: 96)
    /// Labels drawn at most (markers go on up to `VertexChanges.limit`).
    static let labelLimit = 100

    /// The overlay SVG of the `sketch.geometry` members of two output documents (what
    /// `NAME.diff.svg` holds).
    /// - Complexity: O(n) in the number of vertices.
    package static func svg(
        name: String, expected: JSONValue, actual: JSONValue, tolerance: GoldenTolerance = .standard,
        differingNumbers: Int, spatialReference: SpatialReference? = nil
    ) -> String {
        picture(
            Input(
                name: name, expected: expected, actual: actual, tolerance: tolerance,
                differingNumbers: differingNumbers,
                spatialReference: spatialReference), .overlay)
    }

    /// One picture of `input`: `width` × `height` points, the map framed on both geometries so
    /// the three pictures of a mismatch line up.
    /// - Complexity: O(n) in the number of vertices.
    package static func picture(_ input: Input, _ content: Content, width: Double = 640, height: Double = 560) -> String
    {
        let header = 58.0
        let footer = 40.0
        let margin = 28.0
        var canvas = SVGCanvas(width: width, height: height, decimals: 2)
        canvas.rect(x: 0, y: 0, width: width, height: height, style: SVGStyle(fill: .white))

        var box: Envelope?
        for g in [input.expected, input.actual].compactMap({ $0 }) {
            if let ge = g.envelope { box = box.map { $0.union(ge) } ?? ge }
        }
        let env = box ?? Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1)
        let spanX = env.xmax - env.xmin
        let spanY = env.ymax - env.ymin
        // A single point (or a straight line along an axis) gets a frame of its own size.
        let pad = max(spanX, spanY) > 0 ? 0 : max(1, abs(env.xmin), abs(env.ymin)) * 1e-6
        let mapW = width - 2 * margin
        let mapH = height - header - footer - 2 * margin
        let scale = min(mapW / max(spanX + 2 * pad, 1e-300), mapH / max(spanY + 2 * pad, 1e-300))
        let cx = (env.xmin + env.xmax) / 2
        let cy = (env.ymin + env.ymax) / 2
        let centerX = width / 2
        let centerY = header + margin + mapH / 2
        let toScreen = { (p: Point) in ScreenPoint(x: centerX + (p.x - cx) * scale, y: centerY - (p.y - cy) * scale) }

        let changes =
            content == .overlay
            ? VertexChanges(expected: input.expected, actual: input.actual, tolerance: input.tolerance) : nil
        if content != .actual, let e = input.expected {
            draw(
                e, into: &canvas, toScreen, color: expectedColor, width: content == .overlay ? 7 : 3,
                opacity: content == .overlay ? 0.45 : 1, id: "expected")
        }
        if content != .expected, let a = input.actual {
            draw(a, into: &canvas, toScreen, color: actualColor, width: 2, opacity: 1, id: "actual")
        }
        if let g = content == .expected ? input.expected : input.actual ?? input.expected {
            drawEnds(g, into: &canvas, toScreen)
        }
        if let changes { drawChanges(changes, units: input.units, into: &canvas, toScreen) }

        // Title.
        let title: String
        switch content {
        case .overlay: title = input.name
        case .expected: title = "expected: \(input.name)"
        case .actual: title = "actual: \(input.name)"
        }
        canvas.label(title, at: ScreenPoint(x: 12, y: 22), fontSize: 15, color: ink, bold: true)
        var subtitle =
            "tolerance \(input.tolerance) · \(input.differingNumbers) number\(input.differingNumbers == 1 ? " differs" : "s differ")"
        if let changes {
            subtitle += " · vertices: \(changes.moved) moved, \(changes.added) added, \(changes.removed) removed"
            if changes.total > changes.kept.count { subtitle += " (first \(changes.kept.count) marked)" }
        }
        canvas.label(subtitle, at: ScreenPoint(x: 12, y: 42), fontSize: 11.5, color: muted)
        if input.expected == nil && input.actual == nil {
            canvas.label(
                "no sketch geometry in either document", at: ScreenPoint(x: centerX, y: centerY), fontSize: 13,
                color: muted, anchor: .middle)
        }

        drawScaleBar(scale: scale, units: input.units, into: &canvas, at: ScreenPoint(x: 14, y: height - 16))
        drawLegend(content, into: &canvas, right: width - 14, y: height - 16)
        return canvas.document()
    }

    // MARK: Geometry

    /// Draws a geometry's parts as lines (rings closed) or its points as dots, thinning vertices
    /// closer than half a point on screen.
    private static func draw(
        _ g: Geometry, into canvas: inout SVGCanvas, _ toScreen: (Point) -> ScreenPoint, color: Color, width: Double,
        opacity: Double, id: String
    ) {
        canvas.beginGroup(id: id, opacity: opacity)
        let style = SVGStyle(stroke: color, strokeWidth: width)
        if g.type == .point || g.type == .multipoint {
            for p in g.parts.joined() {
                canvas.circle(center: toScreen(p), radius: width + 2, style: SVGStyle(fill: color))
            }
        } else {
            var parts: [[ScreenPoint]] = []
            for part in g.parts where !part.isEmpty {
                parts.append(ScreenPath.thinned(part, toScreen))
            }
            canvas.path(parts, closed: g.type == .polygon, style: style)
            if g.pointCount <= 2000 {
                for part in g.parts {
                    for p in part {
                        canvas.circle(center: toScreen(p), radius: width / 2 + 1, style: SVGStyle(fill: color))
                    }
                }
            }
        }
        canvas.endGroup()
    }

    /// A start marker (an open circle) and an end marker (a filled square) on each part of a line
    /// or ring, labelled for the first parts.
    private static func drawEnds(_ g: Geometry, into canvas: inout SVGCanvas, _ toScreen: (Point) -> ScreenPoint) {
        guard g.type == .polyline || g.type == .polygon else { return }
        canvas.beginGroup(id: "ends")
        let parts = g.parts.filter { !$0.isEmpty }
        for (i, part) in parts.prefix(20).enumerated() {
            guard let first = part.first, let last = part.last else { continue }
            let suffix = parts.count > 1 ? " \(i + 1)" : ""
            let s = toScreen(first)
            canvas.circle(center: s, radius: 7, style: SVGStyle(fill: .white, stroke: ink, strokeWidth: 2))
            canvas.label(
                "start" + suffix, at: ScreenPoint(x: s.x - 10, y: s.y - 10), fontSize: 11, color: ink, anchor: .end)
            if g.type == .polyline {
                let e = toScreen(last)
                canvas.rect(x: e.x - 6, y: e.y - 6, width: 12, height: 12, style: SVGStyle(fill: ink))
                canvas.label("end" + suffix, at: ScreenPoint(x: e.x + 10, y: e.y - 10), fontSize: 11, color: ink)
            }
        }
        canvas.endGroup()
    }

    /// A ring at each moved vertex with a line from where it was, a cross where one was removed, a
    /// plus where one was added; each labelled (the first ``labelLimit``) with its displacement.
    private static func drawChanges(
        _ changes: VertexChanges, units: MapUnits, into canvas: inout SVGCanvas, _ toScreen: (Point) -> ScreenPoint
    ) {
        // Right of the marker, or left of it when the text would leave the picture.
        func label(_ text: String, at s: ScreenPoint, color: Color, into canvas: inout SVGCanvas) {
            let width = Double(text.count) * 7
            let right = s.x + 13 + width <= canvas.width - 4
            canvas.label(
                text, at: ScreenPoint(x: right ? s.x + 13 : s.x - 13, y: s.y + 4), fontSize: 12, color: color,
                anchor: right ? .start : .end, bold: true)
        }
        canvas.beginGroup(id: "changes")
        for (i, c) in changes.kept.enumerated() {
            let labelled = i < labelLimit
            switch c.kind {
            case .moved:
                guard let e = c.expected, let a = c.actual else { continue }
                let se = toScreen(e)
                let sa = toScreen(a)
                canvas.line(from: se, to: sa, style: SVGStyle(stroke: movedColor, strokeWidth: 1.5))
                canvas.circle(center: sa, radius: 10, style: SVGStyle(stroke: movedColor, strokeWidth: 3))
                canvas.circle(center: se, radius: 3, style: SVGStyle(fill: expectedColor))
                if labelled {
                    var text = "moved " + units.format(c.displacement)
                    if c.displacement == 0 { text = "z/m changed" }
                    label(text, at: sa, color: movedColor, into: &canvas)
                }
            case .added:
                guard let a = c.actual else { continue }
                let s = toScreen(a)
                canvas.circle(center: s, radius: 10, style: SVGStyle(fill: .white, stroke: actualColor, strokeWidth: 3))
                canvas.line(
                    from: ScreenPoint(x: s.x - 5, y: s.y), to: ScreenPoint(x: s.x + 5, y: s.y),
                    style: SVGStyle(stroke: actualColor, strokeWidth: 2.5))
                canvas.line(
                    from: ScreenPoint(x: s.x, y: s.y - 5), to: ScreenPoint(x: s.x, y: s.y + 5),
                    style: SVGStyle(stroke: actualColor, strokeWidth: 2.5))
                if labelled { label("added", at: s, color: actualColor, into: &canvas) }
            case .removed:
                guard let e = c.expected else { continue }
                let s = toScreen(e)
                canvas.circle(
                    center: s, radius: 10, style: SVGStyle(fill: .white, stroke: expectedColor, strokeWidth: 3))
                canvas.line(
                    from: ScreenPoint(x: s.x - 4, y: s.y - 4), to: ScreenPoint(x: s.x + 4, y: s.y + 4),
                    style: SVGStyle(stroke: expectedColor, strokeWidth: 2.5))
                canvas.line(
                    from: ScreenPoint(x: s.x - 4, y: s.y + 4), to: ScreenPoint(x: s.x + 4, y: s.y - 4),
                    style: SVGStyle(stroke: expectedColor, strokeWidth: 2.5))
                if labelled { label("removed", at: s, color: expectedColor, into: &canvas) }
            }
        }
        canvas.endGroup()
    }

    // MARK: Furniture

    /// A scale bar of a round length (1, 2 or 5 × 10ⁿ map units) about 120 points long.
    private static func drawScaleBar(scale: Double, units: MapUnits, into canvas: inout SVGCanvas, at p: ScreenPoint) {
        guard scale.isFinite, scale > 0 else { return }
        let target = 120 / scale
        let power = pow(10, (log10(target)).rounded(.down))
        var length = power
        for m in [2.0, 5.0] where power * m <= target { length = power * m }
        let w = length * scale
        canvas.beginGroup(id: "scale-bar")
        canvas.rect(
            x: p.x, y: p.y - 5, width: w / 2, height: 5, style: SVGStyle(fill: ink, stroke: ink, strokeWidth: 1))
        canvas.rect(
            x: p.x + w / 2, y: p.y - 5, width: w / 2, height: 5,
            style: SVGStyle(fill: .white, stroke: ink, strokeWidth: 1))
        let label: String
        switch units {
        case .meters: label = MapUnits.metric(length)
        case .degrees: label = MapUnits.significant(length) + "°"
        case .mapUnits: label = MapUnits.significant(length) + " map units"
        }
        canvas.label(label, at: ScreenPoint(x: p.x + w + 6, y: p.y), fontSize: 11, color: ink)
        canvas.endGroup()
    }

    private static func drawLegend(_ content: Content, into canvas: inout SVGCanvas, right: Double, y: Double) {
        var entries: [(String, Color)] = []
        if content != .actual { entries.append(("expected", expectedColor)) }
        if content != .expected { entries.append(("actual", actualColor)) }
        if content == .overlay { entries.append(("moved", movedColor)) }
        canvas.beginGroup(id: "legend")
        var x = right
        for (text, color) in entries.reversed() {
            canvas.label(text, at: ScreenPoint(x: x, y: y), fontSize: 11, color: ink, anchor: .end)
            x -= Double(text.count) * 6.2 + 6
            canvas.rect(x: x - 16, y: y - 8, width: 16, height: 6, style: SVGStyle(fill: color))
            x -= 28
        }
        canvas.endGroup()
    }
}
