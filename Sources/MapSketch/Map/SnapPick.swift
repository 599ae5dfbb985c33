import MapSketchGeometry

/// A vertex or edge snap candidate while a snap query weighs them: a plain value (no layer
/// name, no guide), so keeping the best so far copies a few words; only the winner becomes a
/// ``SnapTarget`` (``target(layers:)``).
struct SnapPick: Sendable {
    /// ``SnapTargetKind/vertex`` or ``SnapTargetKind/edge``.
    var isEdge: Bool
    /// The source: -1 for the sketch, else the index of the layer in ``SnapSettings/layers``.
    var source: Int
    /// The graphic, for a layer's candidate (0 for the sketch's).
    var graphic: Int
    var part: Int
    var index: Int
    var point: Point
    /// The distance from the queried point to ``point``, in map units.
    var distance: Double

    /// Whether this candidate wins over `other` by the precedence of ``SnapTarget/best(_:)``: a
    /// lower rank (a vertex before an edge), or the same rank and a smaller distance.
    @inline(__always)
    func beats(_ other: SnapPick) -> Bool {
        (!isEdge && other.isEdge) || (isEdge == other.isEdge && distance < other.distance)
    }

    /// The snap target this candidate stands for; `layers` names the layer of ``source``.
    /// (Inlined, so that a query builds its target in the caller's result.)
    @inline(__always)
    func target(layers: [SnapLayerSource]) -> SnapTarget {
        let src: SnapSource = source < 0 ? .sketch : .layer(name: layers[source].name, graphic: GraphicID(rawValue: graphic))
        return SnapTarget(kind: isEdge ? .edge : .vertex, source: src, part: part, index: index, point: point, distance: distance)
    }

    /// The nearest candidate of one kind from one source found so far: offers at a squared
    /// distance within `limit` that is strictly smaller than the best so far win, so the first
    /// offered of equals stays.
    struct Nearest {
        var d2: Double
        var part = -1
        var index = 0
        var point = Point(x: 0, y: 0)

        /// Nothing found yet; offers farther than `limit` (a squared distance) are refused.
        init(limit: Double) { d2 = limit }

        @inline(__always)
        mutating func offer(_ d2: Double, part: Int, index: Int, _ point: Point) {
            if d2 < self.d2 || (self.part < 0 && d2 == self.d2) {
                self.d2 = d2
                self.part = part
                self.index = index
                self.point = point
            }
        }

        /// The sketch's candidate of `kind` (vertex or edge), or nil when nothing was in reach.
        func pick(_ kind: SnapTargetKind) -> SnapPick? {
            guard part >= 0 else { return nil }
            return SnapPick(isEdge: kind == .edge, source: -1, graphic: 0, part: part, index: index, point: point, distance: d2.squareRoot())
        }
    }
}
