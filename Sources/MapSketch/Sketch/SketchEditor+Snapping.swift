import Foundation
package import MapSketchGeometry

// Snapping to the sketch itself and the geometry guides (see SnapSettings.swift for the rules).
// Every query is a window query over the chunked storage (`forEachVertex(in:)`,
// `forEachSegment(meeting:closed:)`): O(log n + k) for the k vertices near the point, never a
// scan of the sketch.

extension SketchEditor {
    /// Where a vertex added by a tap at the map (``insertAtSelection(_:)``) would go: the context
    /// for snapping that point.
    package var insertionContext: SnapContext {
        if store.type == .point { return store.isEmpty ? .free : .move(part: 0, index: 0) }
        switch selection {
        case .vertex(let p, let i): return .insert(part: p, index: i + 1)
        case .midVertex(let p, let s): return .insert(part: p, index: s + 1)
        case .part(let p) where p < store.partCount: return .insert(part: p, index: store.parts[p].count)
        case .none, .geometry, .part:
            let p = store.partCount - 1
            return p < 0 ? .insert(part: 0, index: 0) : .insert(part: p, index: store.parts[p].count)
        }
    }

    /// The sketch vertex nearest to `p` within `distance` map units (the bound included), leaving
    /// out the vertex a ``SnapContext/move(part:index:)`` moves. Ties go to the lower part, then
    /// the lower index.
    /// - Complexity: O(parts · log n + k) for the k vertices in the chunks near `p`.
    package func snapVertex(near p: Point, within distance: Double, context: SnapContext) -> SnapTarget? {
        store.snapVertex(near: p, within: distance, context: context)
    }

    /// The point of a sketch edge nearest to `p` within `distance` map units (the bound
    /// included), leaving out the edges a ``SnapContext/move(part:index:)`` moves (the two that
    /// end at the moved vertex). Ties go to the lower part, then the lower segment index (a
    /// ring's closing segment is the last). Points and multipoints have no edges.
    /// - Complexity: O(parts · log n + k) for the k vertices in the chunks near `p`.
    package func snapEdge(near p: Point, within distance: Double, context: SnapContext) -> SnapTarget? {
        store.snapEdge(near: p, within: distance, context: context)
    }

    /// The geometry guide `p` lies close to, and `p` projected onto it (see ``GeometryGuides``
    /// for the guides and their tolerances), or nil. `resolution` is map units per screen point.
    /// - Complexity: O(1) for the perpendicular and extension guides; O(parts · log n + k) for
    ///   parallel guides, over the k segments near the anchor.
    package func snapGuide(near p: Point, guides: GeometryGuides, resolution: Double, context: SnapContext) -> SnapTarget? {
        store.snapGuide(near: p, guides: guides, resolution: resolution, context: context)
    }

    /// The snap target for `p` among the sketch's own vertices and edges and the guides, with
    /// `layerCandidates` (the graphics layers' nearest vertex and edge, in settings order)
    /// weighed in by the precedence of ``SnapSettings``, or nil when nothing is in reach or
    /// snapping is off. `resolution` is map units per screen point.
    /// - Complexity: as ``snapVertex(near:within:context:)`` plus ``snapGuide(near:guides:resolution:context:)``
    ///   when no vertex or edge is in reach.
    package func snap(
        _ p: Point, settings: SnapSettings, resolution: Double, context: SnapContext, layerCandidates: [SnapTarget] = []
    ) -> SnapTarget? {
        guard settings.isEnabled, resolution > 0, resolution.isFinite else { return nil }
        var best = store.sketchSnapPick(
            p, vertices: settings.snapsToSketchVertices, edges: settings.snapsToSketchEdges, tolerance: settings.tolerance * resolution,
            context: context)?
            .target(layers: settings.layers)
        for c in layerCandidates { SnapTarget.keepBetter(&best, c) }
        return best ?? store.snapGuide(near: p, guides: settings.guides, resolution: resolution, context: context)
    }
}
