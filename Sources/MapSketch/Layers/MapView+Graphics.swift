import MapSketchGeometry

/// One graphic hit by a map hit test.
public struct HitTestResult: Hashable, Sendable {
    /// The name of the graphic's layer.
    public var layerName: String
    /// The graphic.
    public var graphicID: GraphicID

    /// Creates a result.
    public init(layerName: String, graphicID: GraphicID) {
        self.layerName = layerName
        self.graphicID = graphicID
    }
}

extension MapView {
    // MARK: Hit testing

    /// The graphics under a screen point within `tolerance` points, topmost first: layers top to
    /// bottom, then the last added first. Hidden layers, layers not loaded or not displayed, and
    /// layers with ``GraphicsLayer/isHitTestEnabled`` off are skipped.
    ///
    /// Symbol-aware: a marker hits within half its size (squares: their box; pictures and text:
    /// their box), a line within half its width, a polygon inside (even-odd) or within half its
    /// outline width of a ring, each plus the tolerance. With ``wrapAround`` on, every world copy
    /// on screen is tested.
    /// - Complexity: O(L · (log n + k)) for L graphics layers, n graphics per layer and k
    ///   candidates near the point.
    public func hitTest(at screen: ScreenPoint, tolerance: Double = 10, maxResults: Int = .max) -> [HitTestResult] {
        let q = toMap(screen)
        let resolution = viewport.resolution
        // The world copies on screen (one unless wrap-around shows several), without allocating.
        let copies = worldCopies
        var out: [HitTestResult] = []
        for layer in layers.reversed() {
            guard let g = layer as? GraphicsLayer, g.isHitTestEnabled, g.isDrawn, let name = g.name else { continue }
            var ids: [GraphicID]
            if copies.count == 1 {
                ids = g.hitTest(mapPoint: Point(x: q.x - copies.shift(0), y: q.y), tolerance: tolerance, resolution: resolution)
            } else {
                ids = []
                for k in 0..<copies.count {
                    let shift = copies.shift(k)
                    ids += g.hitTest(mapPoint: Point(x: q.x - shift, y: q.y), tolerance: tolerance, resolution: resolution)
                }
                ids = Array(Set(ids)).sorted(by: >)
            }
            if ids.isEmpty { continue }
            out.reserveCapacity(out.count + ids.count)
            for id in ids {
                out.append(HitTestResult(layerName: name, graphicID: id))
                if out.count >= maxResults { return out }
            }
        }
        return out
    }

    // MARK: Callouts

    /// Shows the callout of the topmost graphic under `screen` that has an info template, in a
    /// layer with callouts on; otherwise dismisses the callout on screen. Called for every tap
    /// the touch delegate allows callouts for.
    /// - Returns: the callout shown, if any.
    @discardableResult
    public func showCallout(forTapAt screen: ScreenPoint) -> Callout? {
        let mapPoint = toMap(screen)
        for hit in hitTest(at: screen, tolerance: calloutHitTolerance) {
            guard let layer = layer(named: hit.layerName) as? GraphicsLayer, layer.calloutsEnabled,
                let graphic = layer.graphic(hit.graphicID), let template = graphic.infoTemplate
            else { continue }
            let content = template.content(for: graphic, screen: screen, mapPoint: mapPoint)
            let c = Callout(layerName: hit.layerName, graphicID: hit.graphicID, content: content, mapPoint: mapPoint)
            showCallout(c)
            return c
        }
        dismissCallout()
        return nil
    }

    /// Shows `callout`, replacing (and dismissing) the one on screen.
    public func showCallout(_ c: Callout) {
        if callout != nil { dismissCallout() }
        callout = c
        emit(.calloutShown(c))
    }

    /// Hides the callout on screen, if any.
    public func dismissCallout() {
        guard let c = callout else { return }
        callout = nil
        emit(.calloutDismissed(c))
    }

    // MARK: SVG

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
    public func drawSVG(into canvas: inout SVGCanvas) {
        for layer in layers {
            let name = layer.name ?? ""
            if let reason = layer.notDisplayedReason {
                canvas.raw("<!-- layer \(XMLEscaping.escape(name)) not displayed: \(XMLEscaping.escape(reason.description).replacingOccurrences(of: "--", with: "- -")) -->")
                continue
            }
            guard layer.isDrawn else { continue }
            if navigation == .panning && !layer.view.drawDuringPanning {
                canvas.raw("<!-- layer \(XMLEscaping.escape(name)) not drawn while panning -->")
                continue
            }
            if navigation == .zooming && !layer.view.drawDuringZooming {
                canvas.raw("<!-- layer \(XMLEscaping.escape(name)) not drawn while zooming -->")
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
            [[
                ScreenPoint(x: left, y: top), ScreenPoint(x: left + width, y: top),
                ScreenPoint(x: left + width, y: top + height), ScreenPoint(x: anchor.x + 6, y: top + height),
                anchor, ScreenPoint(x: anchor.x - 6, y: top + height), ScreenPoint(x: left, y: top + height),
            ]], closed: true, style: SVGStyle(fill: .white, stroke: .darkGray, strokeWidth: 1))
        for (i, line) in lines.enumerated() {
            canvas.text(
                line, at: ScreenPoint(x: anchor.x, y: top + 18 + Double(i) * 16), fontSize: i == 0 ? 13 : 11,
                fontFamily: "sans-serif", color: .black)
        }
        canvas.endGroup()
    }
}
