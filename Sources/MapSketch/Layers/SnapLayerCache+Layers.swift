import MapSketchGeometry

// A sketch's snap cache (see `SnapLayerCache`): finding the graphics layers its settings name, and
// searching them.
extension SnapLayerCache {
    /// Finds the graphics layers `layers` names on `map`, in order (a name that is no graphics
    /// layer of the map gives none, as does a source with vertices and edges both off), and
    /// retains their storage. Allocates only when the settings name more layers than ever before
    /// (the first time, once).
    /// - Complexity: O(s · l) for s sources and l layers on the map.
    @MainActor
    mutating func resolve(_ layers: [SnapLayerSource], on map: MapView) {
        invalidate()
        sources.reserveCapacity(layers.count)
        for (k, source) in layers.enumerated() where source.vertices || source.edges {
            guard let layer = map.layer(named: source.name) as? GraphicsLayer else { continue }
            sources.append(
                Source(storage: Unmanaged.passRetained(layer.slots as AnyObject), position: k, vertices: source.vertices, edges: source.edges))
        }
        isResolved = true
    }

    /// Makes `best` (the sketch's own candidate, if any) the best snap candidate for `p` within
    /// `tolerance` map units of it and the found layers', by the precedence of
    /// ``SnapTarget/best(_:)`` (a vertex before an edge, then the nearer, then the earlier:
    /// `best`, then each layer's nearest vertex and nearest edge point in settings order); a
    /// layer's is a ``SnapPick`` whose ``SnapPick/source`` is its position in the settings. One
    /// search of each layer's index; once a vertex is in hand, no edge is weighed (none could
    /// win). Nothing is allocated.
    /// - Precondition: ``isResolved``.
    /// - Complexity: O(log n + v) per layer, for the v vertices of the graphics within reach.
    func offerLayers(near p: Point, tolerance: Double, to best: inout SnapPick?) {
        for source in sources {
            let edges = source.edges && (best?.isEdge ?? true)
            // The storage, read without retaining it again (the source holds it).
            Unmanaged<GraphicSlots>.fromOpaque(source.storage.toOpaque())._withUnsafeGuaranteedRef { slots in
                let found = slots.nearestSlots(to: p, within: tolerance, vertices: source.vertices, edges: edges, edgesUnlessVertex: true)
                if found.vertex.found {
                    Self.offer(found.vertex, isEdge: false, source: source.position, slots: slots, to: &best)
                } else if found.edge.found {
                    Self.offer(found.edge, isEdge: true, source: source.position, slots: slots, to: &best)
                }
            }
        }
    }

    /// Makes `c` the best when it wins over it (strictly: the earlier of equals stays).
    @inline(__always)
    private static func offer(_ c: SlotSnapNearest, isEdge: Bool, source: Int, slots: GraphicSlots, to best: inout SnapPick?) {
        let pick = SnapPick(
            isEdge: isEdge, source: source, graphic: slots.id(c.slot), part: c.part, index: c.index, point: c.point,
            distance: c.d2.squareRoot())
        if let b = best, !pick.beats(b) { return }
        best = pick
    }
}
