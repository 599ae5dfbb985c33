import MapSketchGeometry

/// The map's side of a sketch layer's snap queries: made by the layer's first snap query on the
/// map and kept in the map's list (``MapView/snapLinks``) until the layer leaves, so that the map
/// can keep the layer's ``SnapLayerCache`` up to date (its resolution whenever the viewport
/// changes; its found layers thrown away whenever a layer joins or leaves the map).
///
/// The layer holds the link too, and the map's reference to it is how the layer tells, on every
/// query, that its map still exists without touching the map: a layer holds its map weakly, and
/// turning a weak reference into a strong one and letting go of it again costs two atomic
/// operations on the map's side table, a large part of a snap query through a packed index. A
/// link that only its layer references belongs to a map that is gone (the map's list went with
/// it).
///
/// The list is linked through the links themselves (most maps have no sketch layer or one), so a
/// sketch layer that snaps allocates its link and nothing else, and one that never snaps nothing.
@MainActor
final class MapSnapLink {
    /// The sketch layer (on the map while the map holds the link), told of the map's changes
    /// through ``Layer/snapResolutionDidChange(_:)`` and ``Layer/snapLayersDidChange()``.
    unowned let layer: Layer
    /// The next link of the map's list.
    var next: MapSnapLink?

    init(_ layer: Layer) { self.layer = layer }
}

extension MapView {
    /// A new snap link for `layer`, a sketch layer of the map, kept in ``snapLinks`` until
    /// ``detachSnapLink(_:)``.
    func attachSnapLink(for layer: Layer) -> MapSnapLink {
        let link = MapSnapLink(layer)
        link.next = snapLinks
        snapLinks = link
        return link
    }

    /// Forgets `link` (its sketch layer left the map).
    func detachSnapLink(_ link: MapSnapLink) {
        if snapLinks === link {
            snapLinks = link.next
        } else {
            var previous = snapLinks
            while let p = previous, p.next !== link { previous = p.next }
            previous?.next = link.next
        }
        link.next = nil
    }

    /// Makes every sketch layer on the map find its snap layers again (a layer joined or left).
    func invalidateSnapLinks() {
        var link = snapLinks
        while let l = link {
            l.layer.snapLayersDidChange()
            link = l.next
        }
    }

    /// Writes the resolution into every sketch layer's snap cache (the viewport changed).
    func updateSnapLinks() {
        var link = snapLinks
        while let l = link {
            l.layer.snapResolutionDidChange(viewport.resolution)
            link = l.next
        }
    }
}
