public import MapSketchGeometry

// The programmatic reticle tool (`SketchTool.reticle`, as ArcGIS's `ProgrammaticReticleTool`):
// the reticle is the screen's centre; touches only move the map under it, and four calls edit:
// select what is under the reticle, pick the selected vertex or mid-vertex up, place it (or a new
// vertex) at the reticle, or cancel the pick-up. Each placement is one undo step.

extension SketchLayer {
    /// The map point under the reticle (the screen's centre), or nil when the layer is on no map.
    public var reticlePoint: Point? {
        guard let map = mapView else { return nil }
        return map.toMap(ScreenPoint(x: map.screenSize.width / 2, y: map.screenSize.height / 2))
    }

    /// The vertex or mid-vertex picked up, waiting to be placed.
    package var reticlePickedUp: SketchSelection? { toolState.pickedUp }

    /// Selects what is under the reticle, as a tap there would hit it (the selected vertex, the
    /// nearest vertex, the nearest mid-vertex, within their reach), or nothing. Not an undo step.
    /// - Throws: ``SketchError/toolNotActive(needed:current:)`` unless the reticle tool is active;
    ///   ``SketchError/notOnMap(operation:)``.
    /// - Returns: what the reticle hit.
    @discardableResult
    public func reticleSelect() throws -> SketchHit {
        let (map, centre) = try reticle("reticleSelect")
        let hit = editor.hitTest(centre, reach: hitReach(in: map))
        switch hit {
        case .vertex(let p, let i): try select(.vertex(part: p, index: i))
        case .midVertex(let p, let s): try select(.midVertex(part: p, segment: s))
        case .map: try select(.none)
        }
        return hit
    }

    /// Picks up the selected vertex or mid-vertex: the next ``reticlePlace()`` puts it at the
    /// reticle (the map can be moved in between). Nothing changes until then.
    /// - Throws: ``SketchError/toolNotActive(needed:current:)``; ``SketchError/nothingSelected(operation:)``
    ///   unless a vertex or mid-vertex is selected.
    public func reticlePickUp() throws {
        _ = try reticle("reticlePickUp")
        switch editor.selection {
        case .vertex, .midVertex: toolState.pickedUp = editor.selection
        case .none, .part, .geometry: throw SketchError.nothingSelected(operation: .reticlePickUp)
        }
    }

    /// Places at the reticle, as one undo step: the vertex picked up moves there; a mid-vertex
    /// picked up becomes a new vertex there, between its segment's ends; with nothing picked
    /// up, a new vertex goes there as a tap on the map would add it (after the selected vertex,
    /// into the selected mid-vertex's segment, at the end of the selected part, else appended;
    /// a point sketch's point moves). The reticle's point snaps by ``snapSettings`` first. The
    /// placed vertex is selected and the pick-up ends.
    /// - Throws: ``SketchError/toolNotActive(needed:current:)``; ``GeometryError`` when what was
    ///   picked up no longer exists (an undo took it away); ``SketchError/editRejected(_:)``
    ///   (the pick-up stays, to be placed elsewhere).
    public func reticlePlace() throws {
        let (_, reticleCentre) = try reticle("reticlePlace")
        switch toolState.pickedUp {
        case .vertex(let p, let i)?:
            let centre = snapped(reticleCentre, context: .move(part: p, index: i), post: true)
            try performEdit(.moveVertex) { try $0.moveVertex(part: p, index: i, to: centre) }
        case .midVertex(let p, let s)?:
            let centre = snapped(reticleCentre, context: .insert(part: p, index: s + 1), post: true)
            try performEdit(.insertVertex) { try $0.insertVertex(centre, part: p, at: s + 1) }
        default:
            let centre = snapped(reticleCentre, context: editor.insertionContext, post: true)
            let kind: SketchEditRecord.Kind = geometryType == .point && !editor.store.isEmpty ? .moveVertex : .insertVertex
            try performEdit(kind) { _ = try $0.insertAtSelection(centre) }
        }
        toolState.pickedUp = nil
    }

    /// Drops the pick-up; nothing changes.
    /// - Throws: ``SketchError/toolNotActive(needed:current:)``.
    public func reticleCancel() throws {
        _ = try reticle("reticleCancel")
        toolState.pickedUp = nil
    }

    private func reticle(_ operation: String) throws -> (MapView, Point) {
        guard case .reticle = tool else { throw SketchError.toolNotActive(needed: "reticle", current: tool.name) }
        guard let map = mapView, let centre = reticlePoint else { throw SketchError.notOnMap(operation: operation) }
        return (map, centre)
    }
}
