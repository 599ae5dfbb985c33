public import MapSketchGeometry

/// A transform handle on screen: what dragging it does and where it is drawn.
///
/// Handles show while a part or the whole geometry is selected (under every tool but the
/// reticle). They are laid out on the selection's box: the screen envelope of the selection's
/// map envelope (its four corners taken to the screen, so a rotated map still gets an upright
/// box), grown by ``SketchSymbology/handleMargin`` on every side so no handle hides a vertex.
/// - the rotate handle: above the middle of the box's top edge, by
///   ``SketchSymbology/rotateHandleOffset``;
/// - four scale handles: the box's corners, top-left, top-right, bottom-right, bottom-left;
/// - the move handle: the box's centre.
///
/// A handle is hit like a vertex: within half its marker's size plus
/// ``SketchSymbology/vertexHitTolerance``; when several are within reach the nearest wins, and
/// of equally near ones the first in that order.
package struct SketchHandle: Hashable, Sendable {
    /// What dragging the handle does.
    public let kind: SketchTransformGesture.Kind
    /// Where the handle is drawn, in screen points.
    public let position: ScreenPoint

    /// A handle of `kind` at `position`.
    package init(kind: SketchTransformGesture.Kind, position: ScreenPoint) {
        self.kind = kind
        self.position = position
    }
}

extension SketchLayer {
    /// The point interactive rotations and scales keep fixed; nil (the default) uses the
    /// centroid of what is being transformed (``GeometryEngine/centroid(_:)``).
    public var transformAnchor: Point? {
        get { toolState.transformAnchor }
        set { toolState.transformAnchor = newValue.flatMap { $0.isFinite ? $0.xy : nil } }
    }

    /// Selects part `index` as a whole: its transform handles show; a tap on the map appends to it.
    /// - Throws: ``SketchError/invalidSelection(_:)`` for a part that does not exist.
    public func selectPart(_ index: Int) throws { try select(.part(index)) }

    /// Selects the whole geometry: its transform handles show.
    /// - Throws: ``SketchError/invalidSelection(_:)`` for a sketch without a part.
    public func selectGeometry() throws { try select(.geometry) }

    /// Moves the selected part or geometry by (dx, dy) map units (one undo step).
    /// - Throws: ``SketchError/nothingSelected(operation:)`` unless a part or the geometry is
    ///   selected; ``SketchError/editRejected(_:)``; ``GeometryError/nonFiniteCoordinate(part:index:)``.
    public func moveSelection(dx: Double, dy: Double) throws {
        try transformSelection { _ in .translation(dx: dx, dy: dy) }
    }

    /// Turns the selected part or geometry counter-clockwise by `degrees` about `anchor` (else
    /// ``transformAnchor``, else its centroid), as one undo step; exact at multiples of 90°.
    /// - Throws: as ``moveSelection(dx:dy:)``.
    public func rotateSelection(degrees: Double, anchor: Point? = nil) throws {
        try transformSelection { .rotation(degrees: degrees, about: anchor ?? $0) }
    }

    /// Scales the selected part or geometry by `x` and `y` about `anchor` (else
    /// ``transformAnchor``, else its centroid), as one undo step.
    /// - Throws: as ``moveSelection(dx:dy:)``.
    public func scaleSelection(x: Double, y: Double, anchor: Point? = nil) throws {
        try transformSelection { .scale(x: x, y: y, about: anchor ?? $0) }
    }

    /// Applies `transform` to `scope` (one undo step), whatever is selected.
    /// - Throws: ``GeometryError/partIndexOutOfRange(part:partCount:)``; ``SketchError/editRejected(_:)``;
    ///   ``GeometryError/nonFiniteCoordinate(part:index:)``.
    public func transform(_ scope: SketchTransformScope, by transform: AffineTransform) throws {
        try perform(.edit(.transform)) { try $0.transform(scope, by: transform) }
    }

    /// The selection's transform, made from its default anchor (``transformAnchor`` or the centroid).
    private func transformSelection(_ make: (Point) -> AffineTransform) throws {
        guard let scope = editor.selection.transformScope else {
            // Throws ``SketchError/nothingSelected(operation:)`` once a drag under way is committed.
            try perform(.edit(.transform)) { try $0.transformSelection(.identity) }
            return
        }
        let anchor = toolState.transformAnchor ?? editor.centroid(of: scope) ?? Point(0, 0)
        let t = make(anchor)
        try perform(.edit(.transform)) { try $0.transform(scope, by: t) }
    }

    // MARK: Handles

    /// The transform handles on screen (none unless a part or the geometry is selected, and none
    /// under the reticle tool), in hit order: rotate, the four scale corners, move. While a
    /// handle is dragged they surround the selection as the drag has transformed it.
    /// - Complexity: O(p) for p parts (the envelope comes from the chunk envelopes).
    package func transformHandles(in map: MapView) -> [SketchHandle] {
        guard let box = handleBox(in: map) else { return [] }
        let midX = (box.xmin + box.xmax) / 2
        return [
            SketchHandle(kind: .rotate, position: ScreenPoint(x: midX, y: box.ymin - symbology.rotateHandleOffset)),
            SketchHandle(kind: .scale, position: ScreenPoint(x: box.xmin, y: box.ymin)),
            SketchHandle(kind: .scale, position: ScreenPoint(x: box.xmax, y: box.ymin)),
            SketchHandle(kind: .scale, position: ScreenPoint(x: box.xmax, y: box.ymax)),
            SketchHandle(kind: .scale, position: ScreenPoint(x: box.xmin, y: box.ymax)),
            SketchHandle(kind: .move, position: ScreenPoint(x: midX, y: (box.ymin + box.ymax) / 2)),
        ]
    }

    /// The handle a finger at `screen` is on, or nil (see ``SketchHandle`` for the reach).
    package func handleHit(at screen: ScreenPoint, in map: MapView) -> SketchHandle? {
        var best: (handle: SketchHandle, distance: Double)?
        for h in transformHandles(in: map) {
            let d = h.position.distance(to: screen)
            let reach = handleSymbol(h.kind).markerSize / 2 + symbology.vertexHitTolerance
            if d <= reach, best.map({ d < $0.distance }) ?? true { best = (h, d) }
        }
        return best?.handle
    }

    /// The marker a handle of `kind` is drawn with.
    func handleSymbol(_ kind: SketchTransformGesture.Kind) -> Symbol {
        switch kind {
        case .move: symbology.moveHandleSymbol
        case .rotate: symbology.rotateHandleSymbol
        case .scale: symbology.scaleHandleSymbol
        }
    }

    /// The handle box in screen points (see ``SketchHandle``), or nil when no handles show.
    func handleBox(in map: MapView) -> (xmin: Double, ymin: Double, xmax: Double, ymax: Double)? {
        if case .reticle = tool { return nil }
        guard let scope = editor.selection.transformScope, let e = editor.store.envelope(part: scope.partIndex) else {
            return nil
        }
        var corners = [Point(e.xmin, e.ymin), Point(e.xmin, e.ymax), Point(e.xmax, e.ymax), Point(e.xmax, e.ymin)]
        if let g = editor.transformGesture { corners = corners.map(g.transform.apply) }
        let s = corners.map(map.toScreen)
        let m = symbology.handleMargin
        let xs = s.map(\.x), ys = s.map(\.y)
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return nil }
        return (x0 - m, y0 - m, x1 + m, y1 + m)
    }
}
