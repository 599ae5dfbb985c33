import MapSketchGeometry

/// What a sketch layer's snap query keeps of its map (see ``MapSnapLink``): the resolution,
/// whether the map has a probe, and the graphics layers the sketch's ``SnapSettings/layers``
/// name, found on the map once and kept until the settings change or a layer joins or leaves the
/// map (finding them and searching them: SnapLayerCache+Layers.swift, with the graphics layers).
///
/// Each query then goes straight to the layers' storage: no lookup by name, no cast, no
/// reference counting. The storage is held strongly (retained when found, released when thrown
/// away), so it stays valid even if the map goes away on another thread during a query (after the
/// map is gone, the sketch's next query lets go of it; until then, or until the sketch goes, the
/// storage stays).
///
/// Stored in the sketch layer (not a class of its own, so a query reads it through the layer
/// with no reference counting) and not isolated to the main actor, so that the query over it
/// runs as plain code; the sketch and the map use it only from the main actor.
struct SnapLayerCache: ~Copyable {
    /// One named graphics layer: its storage (retained while the source is kept), the source's
    /// position in ``SnapSettings/layers`` (its tie-break order and the name a target reports),
    /// and what of it is a target.
    struct Source {
        let storage: Unmanaged<AnyObject>
        let position: Int
        let vertices: Bool
        let edges: Bool
    }

    /// The map's resolution (``Viewport/resolution``), written by the map.
    var resolution: Double = 0
    /// Whether the map has a probe (``MapView/probe``): the query is then measured.
    var isProbed = false
    /// Whether ``sources`` are the layers the settings name on the map as it is.
    var isResolved = false
    /// The sources, in settings order (each retaining its storage).
    var sources: [Source] = []

    init() {}

    deinit {
        for s in sources { s.storage.release() }
    }

    /// Forgets the found layers (letting go of their storage): the next query finds them again.
    mutating func invalidate() {
        guard isResolved else { return }
        isResolved = false
        for s in sources { s.storage.release() }
        sources.removeAll(keepingCapacity: true)
    }
}
