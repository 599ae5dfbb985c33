import MapSketchGeometry

extension SketchLayer {
    /// Draws what the tools show over the sketch, each in its own group:
    /// - `sketch-handles`: the selection's box (the guide line) with its transform handles, the
    ///   rotate handle joined to the box's top edge (see ``SketchHandle``);
    /// - `sketch-stroke`: the freehand stroke being drawn, as the finger went (not yet simplified);
    /// - `sketch-shape`: the outline of the shape being drawn;
    /// - `sketch-reticle`: the reticle at the screen's centre, with the vertex picked up drawn
    ///   there as the selected vertex.
    func drawToolOverlays(into canvas: inout SVGCanvas, map: MapView) {
        let guide = symbology.guideLineSymbol
        if let box = handleBox(in: map) {
            let handles = transformHandles(in: map)
            canvas.beginGroup(id: "sketch-handles")
            let corners = [
                ScreenPoint(x: box.xmin, y: box.ymin), ScreenPoint(x: box.xmax, y: box.ymin),
                ScreenPoint(x: box.xmax, y: box.ymax), ScreenPoint(x: box.xmin, y: box.ymax),
            ]
            canvas.drawLine(guide, paths: [corners], closed: true)
            if let rotate = handles.first(where: { $0.kind == .rotate }) {
                canvas.drawLine(guide, paths: [[ScreenPoint(x: rotate.position.x, y: box.ymin), rotate.position]])
            }
            for h in handles { drawMarker(handleSymbol(h.kind), at: h.position, into: &canvas) }
            canvas.endGroup()
        }
        switch toolState.drag {
        case .stroke(let points)?:
            canvas.beginGroup(id: "sketch-stroke")
            canvas.drawLine(guide, paths: [points.map(map.toScreen)])
            canvas.endGroup()
        case .shape(let start, let current)?:
            if case .shape(let shape) = tool {
                let outline = shape.outline(from: start, to: current)
                canvas.beginGroup(id: "sketch-shape")
                if !outline.isEmpty { canvas.drawLine(guide, paths: [outline], closed: true) }
                canvas.endGroup()
            }
        case .handle?, nil:
            break
        }
        if case .reticle = tool {
            let centre = ScreenPoint(x: map.screenSize.width / 2, y: map.screenSize.height / 2)
            canvas.beginGroup(id: "sketch-reticle")
            if toolState.pickedUp != nil { drawMarker(symbology.selectedVertexSymbol, at: centre, into: &canvas) }
            drawMarker(symbology.reticleSymbol, at: centre, into: &canvas)
            canvas.endGroup()
        }
    }

    private func drawMarker(_ symbol: Symbol, at p: ScreenPoint, into canvas: inout SVGCanvas) {
        _ = canvas.draw(symbol, geometry: .point(Point(p.x, p.y)), toScreen: { ScreenPoint(x: $0.x, y: $0.y) })
    }
}
