import MapSketchGeometry

extension MapView {
    /// Renders the map as SVG: every drawn layer bottom to top in a group with its opacity
    /// (hidden layers, layers not loaded and layers not displayed are left out, the latter with
    /// a comment saying why; while a gesture pans or zooms, so are layers whose view does not
    /// draw during panning or zooming), then the callout if one is shown. Deterministic: the same map gives
    /// the same bytes.
    public func renderSVG(decimals: Int = 3) -> String {
        var canvas = SVGCanvas(width: screenSize.width, height: screenSize.height, decimals: decimals)
        drawSVG(into: &canvas)
        return canvas.document()
    }

    /// Draws the map into a canvas (see ``renderSVG(decimals:)``).
    package func drawSVG(into canvas: inout SVGCanvas) {
        for layer in layers {
            let name = layer.name ?? ""
            if let reason = layer.notDisplayedReason {
                canvas.comment("layer \(name) not displayed: \(reason.description)")
                continue
            }
            guard layer.isDrawn else { continue }
            if navigation == .panning && !layer.view.drawDuringPanning {
                canvas.comment("layer \(name) not drawn while panning")
                continue
            }
            if navigation == .zooming && !layer.view.drawDuringZooming {
                canvas.comment("layer \(name) not drawn while zooming")
                continue
            }
            canvas.beginGroup(id: "layer-" + name, opacity: layer.view.opacity)
            layer.drawSVG(into: &canvas, map: self)
            canvas.endGroup()
        }
        if let c = callout { drawCallout(c, into: &canvas) }
    }

    private func drawCallout(_ c: Callout, into canvas: inout SVGCanvas) {
        let anchor = toScreen(Point(x: c.mapPoint.x, y: c.mapPoint.y))
        let lines = [c.title, c.detail, c.content.custom ?? ""].filter { !$0.isEmpty }
        let width = Double(max(4, lines.map(\.count).max() ?? 0)) * 7 + 16
        let height = Double(max(1, lines.count)) * 16 + 8
        let left = anchor.x - width / 2
        let top = anchor.y - 10 - height
        canvas.beginGroup(id: "callout")
        canvas.path(
            [
                [
                    ScreenPoint(x: left, y: top), ScreenPoint(x: left + width, y: top),
                    ScreenPoint(x: left + width, y: top + height), ScreenPoint(x: anchor.x + 6, y: top + height),
                    anchor, ScreenPoint(x: anchor.x - 6, y: top + height), ScreenPoint(x: left, y: top + height),
                ]
            ], closed: true, style: SVGStyle(fill: .white, stroke: .darkGray, strokeWidth: 1))
        for (i, line) in lines.enumerated() {
            canvas.text(
                line, at: ScreenPoint(x: anchor.x, y: top + 18 + Double(i) * 16), fontSize: i == 0 ? 13 : 11,
                fontFamily: "sans-serif", color: .black)
        }
        canvas.endGroup()
    }
}
