package import MapSketchGeometry

extension MapView {
    /// The snap candidates of the graphics layers `settings` names, in its order: each layer's
    /// nearest vertex, then its nearest edge point, within ``SnapSettings/tolerance`` screen
    /// points of map point `p` at the current resolution (each only when its source has it on).
    /// A name that is no graphics layer of this map gives nothing.
    /// - Complexity: O(log n + v) per layer, through its spatial index (see
    ///   ``GraphicsLayer/nearestVertex(to:within:)``).
    package func layerSnapCandidates(near p: Point, settings: SnapSettings) -> [SnapTarget] {
        var out: [SnapTarget] = []
        forEachLayerSnapCandidate(near: p, settings: settings) { out.append($0) }
        return out
    }

    /// The best of ``layerSnapCandidates(near:settings:)``'s candidates by the precedence of
    /// ``SnapTarget/best(_:)`` (the earliest of equals), as a ``SnapPick``: one pass of each
    /// layer's index for both its vertex and its edge, nothing allocated, no target made.
    func bestLayerSnapPick(near p: Point, settings: SnapSettings) -> SnapPick? {
        let tolerance = settings.tolerance * viewport.resolution
        var best: SnapPick?
        for (k, source) in settings.layers.enumerated() where source.vertices || source.edges {
            guard let layer = layer(named: source.name) as? GraphicsLayer else { continue }
            let found = layer.slots.nearest(to: p, within: tolerance, vertices: source.vertices, edges: source.edges)
            if let c = found.vertex { Self.offer(c, isEdge: false, source: k, to: &best) }
            if let c = found.edge { Self.offer(c, isEdge: true, source: k, to: &best) }
        }
        return best
    }

    @inline(__always)
    private static func offer(_ c: GraphicSnapCandidate, isEdge: Bool, source: Int, to best: inout SnapPick?) {
        let pick = SnapPick(
            isEdge: isEdge, source: source, graphic: c.graphic.rawValue, part: c.part, index: c.index, point: c.point,
            distance: c.distance)
        if best.map({ pick.beats($0) }) ?? true { best = pick }
    }

    /// Calls `body` with each of ``layerSnapCandidates(near:settings:)``'s candidates, in its
    /// order.
    private func forEachLayerSnapCandidate(near p: Point, settings: SnapSettings, _ body: (SnapTarget) -> Void) {
        let tolerance = settings.tolerance * viewport.resolution
        for source in settings.layers where source.vertices || source.edges {
            guard let layer = layer(named: source.name) as? GraphicsLayer else { continue }
            let found = layer.slots.nearest(to: p, within: tolerance, vertices: source.vertices, edges: source.edges)
            if let c = found.vertex { body(Self.snapTarget(.vertex, c, layer: source.name)) }
            if let c = found.edge { body(Self.snapTarget(.edge, c, layer: source.name)) }
        }
    }

    private static func snapTarget(_ kind: SnapTargetKind, _ c: GraphicSnapCandidate, layer: String) -> SnapTarget {
        SnapTarget(
            kind: kind, source: .layer(name: layer, graphic: c.graphic), part: c.part, index: c.index, point: c.point,
            distance: c.distance)
    }
}
