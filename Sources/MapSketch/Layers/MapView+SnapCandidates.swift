public import MapSketchGeometry

extension MapView {
    /// The snap candidates of the graphics layers `settings` names, in its order: each layer's
    /// nearest vertex, then its nearest edge point, within ``SnapSettings/tolerance`` screen
    /// points of map point `p` at the current resolution (each only when its source has it on).
    /// A name that is no graphics layer of this map gives nothing.
    /// - Complexity: O(log n + v) per layer, through its spatial index (see
    ///   ``GraphicsLayer/nearestVertex(to:within:)``).
    public func layerSnapCandidates(near p: Point, settings: SnapSettings) -> [SnapTarget] {
        let tolerance = settings.tolerance * viewport.resolution
        var out: [SnapTarget] = []
        for source in settings.layers where source.vertices || source.edges {
            guard let layer = layer(named: source.name) as? GraphicsLayer else { continue }
            if source.vertices, let c = layer.nearestVertex(to: p, within: tolerance) {
                out.append(Self.snapTarget(.vertex, c, layer: source.name))
            }
            if source.edges, let c = layer.nearestEdge(to: p, within: tolerance) {
                out.append(Self.snapTarget(.edge, c, layer: source.name))
            }
        }
        return out
    }

    private static func snapTarget(_ kind: SnapTargetKind, _ c: GraphicSnapCandidate, layer: String) -> SnapTarget {
        SnapTarget(
            kind: kind, source: .layer(name: layer, graphic: c.graphic), part: c.part, index: c.index, point: c.point,
            distance: c.distance)
    }
}
