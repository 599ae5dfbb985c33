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
    /// settings name (through their spatial index; the layers are found by name once, and again
    /// after the settings or the map's layers change), then the geometry guides. Nil when
    /// snapping is off, the layer is on no map or nothing is in reach.
    /// - Complexity: O(log n + k) per source, for the k vertices near `p` (see
    ///   ``SketchEditor/snap(_:settings:resolution:context:layerCandidates:)``).
    public func snapTarget(for p: Point, context: SnapContext) -> SnapTarget? {
        guard snapSettings.isEnabled else { return nil }
        // The map references the link while the layer is on it: a link referenced by this layer
        // alone belongs to a map that is gone (a layer holds its map weakly). With no link (the
        // first query on this map) or a map gone, the map is looked for (nil: on no map).
        if snapLink == nil || isKnownUniquelyReferenced(&snapLink) { return firstSnapTarget(for: p, context: context) }
        if snapCache.isProbed { return measuredSnapQuery(p, context: context) }
        return snapQuery(p, context: context)
    }

    /// ``snapTarget(for:context:)`` with no link to the map: the layer's first query on its map
    /// (or the first since the map went): the link is made (its allocation is part of the
    /// measured query), the map's resolution and probe taken, then the query runs. Nil when the
    /// layer is on no map.
    @inline(never)
    private func firstSnapTarget(for p: Point, context: SnapContext) -> SnapTarget? {
        leaveSnapMap()
        guard let map = mapView else { return nil }
        return map.measure(.snapQuery) {
            snapLink = map.attachSnapLink(for: self)
            snapCache.resolution = map.viewport.resolution
            snapCache.isProbed = map.probe.probe != nil
            return snapQuery(p, context: context)
        }
    }

    /// Lets go of what the snap queries kept of the map (the layer left it, or it is gone).
    func leaveSnapMap() {
        snapLink = nil
        snapCache.invalidate()
        snapCache.isProbed = false
    }

    /// ``snapQuery(_:context:)`` measured by the map's probe (which the editor holds while the
    /// layer is on the map); out of line, so that the unmeasured query returns its target in place.
    @inline(never)
    private func measuredSnapQuery(_ p: Point, context: SnapContext) -> SnapTarget? {
        editor.probe.measure(.snapQuery) { snapQuery(p, context: context) }
    }

    /// The query: the winner of ``bestSnapPick(_:context:resolution:)`` as a ``SnapTarget``,
    /// else the guides. (Inlined, so that the target is built in the caller's result.)
    @inline(__always)
    private func snapQuery(_ p: Point, context: SnapContext) -> SnapTarget? {
        let resolution = snapCache.resolution
        guard resolution > 0, resolution.isFinite else { return nil }
        if let best = bestSnapPick(p, context: context, resolution: resolution) { return best.target(layers: snapSettings.layers) }
        guard snapSettings.guides.isAnyOn else { return nil }
        return editor.store.snapGuide(near: p, guides: snapSettings.guides, resolution: resolution, context: context)
    }

    /// The best vertex or edge candidate: the sketch's own, then the layers' (through the layers
    /// the snap cache found on the map, found again when it has thrown them away; the sketch's
    /// wins at equal rank and distance). The settings are read field by field and the sketch
    /// through its store alone (reading the whole editor out of the layer would copy it), only
    /// when a source of its own is on.
    private func bestSnapPick(_ p: Point, context: SnapContext, resolution: Double) -> SnapPick? {
        let tolerance = snapSettings.tolerance * resolution
        var best: SnapPick?
        if snapSettings.snapsToSketchVertices || snapSettings.snapsToSketchEdges {
            best = editor.store.sketchSnapPick(
                p, vertices: snapSettings.snapsToSketchVertices, edges: snapSettings.snapsToSketchEdges, tolerance: tolerance,
                context: context)
        }
        if !snapSettings.layers.isEmpty {
            if !snapCache.isResolved, let map = mapView { snapCache.resolve(snapSettings.layers, on: map) }
            if snapCache.isResolved { snapCache.offerLayers(near: p, tolerance: tolerance, to: &best) }
        }
        return best
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
