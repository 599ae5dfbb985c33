public import MapSketchGeometry

// Snapping on the layer: the settings, the query that weighs the sketch, the chosen graphics
// layers and the guides, the snap events, and the snap target and guide drawn in the SVG.
extension SketchLayer {
    /// The latest snap of a tap, a vertex drag step or release, or a reticle placement: what
    /// the point snapped to, or nil when the latest such point did not snap (or a drag was
    /// cancelled). The SVG marks it.
    public var currentSnap: SnapTarget? { snapState }

    /// Calls `handler` with the target of every snapped point an edit commits: a tap that adds
    /// or moves a vertex, the release of a vertex drag, a reticle placement (the intermediate
    /// steps of a drag snap too, and show in ``currentSnap``, without an event). The handler runs
    /// before the edit's geometry-changed event.
    /// - Returns: a token for ``removeObserver(_:)``.
    @discardableResult
    public func onSnapped(_ handler: @escaping @MainActor (SnapTarget) -> Void) -> SketchObservation {
        register(handler, in: &snapObservers)
    }

    /// A new stream of every later snap event (unbounded buffer). Ends when dropped.
    package var snaps: AsyncStream<SnapTarget> { snapObservers.stream(takeID()) }

    /// The snap target for map point `p` by ``snapSettings``, for an edit of `context`: the
    /// sketch's own vertices and edges, the vertices and edges of the graphics layers the
    /// settings name (through their spatial index: ``MapView/layerSnapCandidates(near:settings:)``),
    /// then the geometry guides. Nil when
    /// snapping is off, the layer is on no map or nothing is in reach.
    /// - Complexity: O(log n + k) per source, for the k vertices near `p` (see
    ///   ``SketchEditor/snap(_:settings:resolution:context:layerCandidates:)``).
    public func snapTarget(for p: Point, context: SnapContext) -> SnapTarget? {
        guard snapSettings.isEnabled, let map = mapView else { return nil }
        return map.measure(.snapQuery) { snapQuery(p, context: context, map: map) }
    }

    private func snapQuery(_ p: Point, context: SnapContext, map: MapView) -> SnapTarget? {
        let settings = snapSettings
        // The layers first, into one value; then the sketch through its store alone (reading the
        // whole editor out of the layer for the call would copy it).
        let fromLayers = settings.layers.isEmpty ? nil : map.bestLayerSnapPick(near: p, settings: settings)
        return editor.store.snap(p, settings: settings, resolution: map.viewport.resolution, context: context, bestOfLayers: fromLayers)
    }

    /// `p` snapped for `context` (or `p` itself when nothing is in reach), remembered in
    /// ``currentSnap`` and, with `post`, posted to the snap observers.
    func snapped(_ p: Point, context: SnapContext, post: Bool) -> Point {
        guard snapSettings.isEnabled else {
            snapState = nil
            return p
        }
        let t = snapTarget(for: p, context: context)
        snapState = t
        guard let t else { return p }
        if post {
            let hs = snapObservers.handlers
            for h in hs { h.body(t) }
            snapObservers.yieldToStreams(t)
        }
        // Keep z and m of the finger's point (a map point from the screen has none).
        var q = t.point
        q.z = p.z
        q.m = p.m
        return q
    }

    /// Draws the latest snap (group `sketch-snap`): the active guide as a guide line from its
    /// anchor through the snapped point and on to the screen's edge, and ``snapSymbol`` on the
    /// snapped point.
    func drawSnapOverlay(into canvas: inout SVGCanvas, map: MapView) {
        guard let t = snapState else { return }
        canvas.beginGroup(id: "sketch-snap")
        if let o = t.guideOrigin {
            let a = map.toScreen(o), b = map.toScreen(t.point)
            let dx = b.x - a.x, dy = b.y - a.y
            let len = (dx * dx + dy * dy).squareRoot()
            if len > 0 {
                // Long enough to cross the screen both ways (the extension only goes ahead).
                let reach = map.screenSize.width + map.screenSize.height
                let ux = dx / len * reach, uy = dy / len * reach
                let start: ScreenPoint
                if case .guide(.extension) = t.kind { start = a } else { start = ScreenPoint(x: a.x - ux, y: a.y - uy) }
                canvas.drawLine(symbology.guideLineSymbol, paths: [[start, ScreenPoint(x: a.x + ux, y: a.y + uy)]])
            }
        }
        let s = map.toScreen(t.point)
        _ = canvas.draw(snapSymbol, geometry: .point(Point(s.x, s.y)), toScreen: { ScreenPoint(x: $0.x, y: $0.y) })
        canvas.endGroup()
    }
}
