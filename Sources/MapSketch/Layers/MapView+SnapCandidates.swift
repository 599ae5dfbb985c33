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
