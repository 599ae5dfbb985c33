import MapSketchGeometry

extension SketchLayer {
    /// Draws the sketch over the layers below it: the main symbol along the lines or over the
    /// rings (points and multipoints have none: their vertices are the sketch), then the
    /// mid-vertices, the vertices, the selected vertex on top, vertex numbers when shown, and
    /// what the tools draw over it all (SketchLayer+ToolSVG.swift: transform handles, the stroke
    /// or shape being drawn, the reticle). A transform being dragged is drawn applied.
    ///
    /// Only vertices and mid-vertices on screen (plus a marker's reach) are drawn, found by chunk
    /// envelope instead of scanning every vertex. A main symbol that does not fit the geometry
    /// type is written as an XML comment instead.
    /// - Complexity: O(n) for the main symbol; O(log n + k) for the k markers on screen.
    func drawSketchSVG(into canvas: inout SVGCanvas, map: MapView) {
        let store = editor.displayStore
        let type = store.type
        let toScreen = { (p: Point) in map.toScreen(p) }
        let marginPoints = Swift.max(
            symbology.vertexSymbol.markerSize, symbology.selectedVertexSymbol.markerSize,
            symbology.midVertexSymbol.markerSize) / 2 + 1
        let window = map.visibleEnvelope.inset(by: marginPoints * map.viewport.resolution)

        if type == .polyline || type == .polygon, !store.isEmpty {
            let main = symbology.mainSymbol(for: type)
            canvas.beginGroup(id: "sketch-main")
            if !canvas.draw(main, geometry: store.geometry, toScreen: toScreen) {
                canvas.comment("sketch main symbol does not fit a \(type)")
            }
            canvas.endGroup()
        }

        if type == .polyline || type == .polygon {
            canvas.beginGroup(id: "sketch-mid-vertices")
            for part in store.parts {
                part.forEachMidVertex(in: window, closed: store.isClosed) { _, m in
                    canvas.draw(symbology.midVertexSymbol, geometry: .point(m), toScreen: toScreen)
                }
            }
            canvas.endGroup()
        }

        var selected: (Point, Int)?
        canvas.beginGroup(id: "sketch-vertices")
        for (pi, part) in store.parts.enumerated() {
            part.forEachVertex(in: window) { i, v in
                if case .vertex(pi, i) = editor.selection {
                    selected = (v, i)
                } else {
                    canvas.draw(symbology.vertexSymbol, geometry: .point(v), toScreen: toScreen)
                }
            }
        }
        canvas.endGroup()
        if let (v, _) = selected {
            canvas.beginGroup(id: "sketch-selected-vertex")
            canvas.draw(symbology.selectedVertexSymbol, geometry: .point(v), toScreen: toScreen)
            canvas.endGroup()
        }

        if symbology.showsVertexNumbers {
            canvas.beginGroup(id: "sketch-vertex-numbers")
            for part in store.parts {
                part.forEachVertex(in: window) { i, v in
                    var label = symbology.vertexNumberSymbol
                    label.text = String(i + 1)
                    canvas.drawText(label, at: toScreen(v))
                }
            }
            canvas.endGroup()
        }
        drawToolOverlays(into: &canvas, map: map)
        drawSnapOverlay(into: &canvas, map: map)
    }
}
