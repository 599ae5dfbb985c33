public import MapSketchGeometry

/// What a sketch snaps to while a vertex is added or moved, and how close the finger must be.
///
/// Off by default. When on, the point under the finger (a tap that adds a vertex, each step and
/// the release of a vertex drag, a reticle placement) moves to the nearest snap target within
/// ``tolerance`` screen points. Precedence, highest first:
/// 1. a vertex (of the sketch, or of a graphic in one of ``layers``): any vertex within the
///    tolerance beats every edge;
/// 2. the nearest point of an edge (segment);
/// 3. a geometry guide (see ``GeometryGuides``), when no vertex or edge is in reach.
///
/// Within a rank the nearest wins. Ties at the same distance go to the sketch before the layers,
/// then to the layers in the order ``layers`` lists them; within the sketch to the lower part,
/// then the lower vertex or segment index; within a layer to the topmost graphic (highest id),
/// then the lower part and index (as ``GraphicsLayer/nearestVertex(to:within:)`` decides).
public struct SnapSettings: Hashable, Sendable {
    /// The default tolerance: 10 screen points (OpenLayers' `pixelTolerance`).
    public static let defaultTolerance = 10.0

    /// Whether snapping (and the geometry guides) is on at all. Default false.
    public var isEnabled: Bool
    /// Whether the sketch's own vertices are snap targets. Default true.
    public var snapsToSketchVertices: Bool
    /// Whether the sketch's own edges are snap targets. Default true.
    public var snapsToSketchEdges: Bool
    /// The graphics layers whose graphics are snap targets, by layer name, in tie-break order.
    public var layers: [SnapLayerSource]
    /// How near, in screen points, a target must be (the bound included); ≥ 0.
    public var tolerance: Double
    /// The geometry guides (all off by default).
    public var guides: GeometryGuides

    /// Settings from their parts (the defaults: off, the sketch's vertices and edges, no layer,
    /// 10 points, no guide).
    public init(
        isEnabled: Bool = false, snapsToSketchVertices: Bool = true, snapsToSketchEdges: Bool = true,
        layers: [SnapLayerSource] = [], tolerance: Double = SnapSettings.defaultTolerance,
        guides: GeometryGuides = GeometryGuides()
    ) {
        self.isEnabled = isEnabled
        self.snapsToSketchVertices = snapsToSketchVertices
        self.snapsToSketchEdges = snapsToSketchEdges
        self.layers = layers
        self.tolerance = tolerance
        self.guides = guides
    }
}

/// A graphics layer the sketch snaps to, and to which of its graphics' parts.
public struct SnapLayerSource: Hashable, Sendable {
    /// The layer's name on the map (``MapView/layer(named:)``); a name no graphics layer has
    /// snaps to nothing.
    public var name: String
    /// Whether the graphics' vertices are snap targets.
    public var vertices: Bool
    /// Whether the graphics' edges are snap targets.
    public var edges: Bool

    /// A source snapping to `name`'s vertices and edges (both on by default).
    public init(name: String, vertices: Bool = true, edges: Bool = true) {
        self.name = name
        self.vertices = vertices
        self.edges = edges
    }
}

/// Geometry guides: lines through the vertex the new or moved vertex joins (its *anchor*, the
/// vertex before it in its part), onto which the point is projected when it lies close to one.
///
/// - ``perpendicular``: at 90° to the previous segment (the one ending at the anchor);
/// - ``extension``: the previous segment carried on beyond the anchor (ahead of it only);
/// - ``parallel``: parallel to a sketch segment with an end within ``parallelSearchRadius``
///   points of the anchor (the previous segment and the segments the moved vertex ends are left
///   out).
///
/// A guide applies when the point is within ``distanceTolerance`` points of its line *and* the
/// direction from the anchor to the point is within ``angleTolerance`` degrees of the guide's.
/// Of the guides that apply, the one nearest the point wins; ties go to perpendicular, then
/// extension, then parallel, and among parallel guides to the lower part and segment index.
/// Guides need a previous segment (perpendicular, extension) or an anchor (parallel): the first
/// vertex of a part has none. A ring's first vertex has no anchor either (guides do not wrap
/// round the closing segment).
public struct GeometryGuides: Hashable, Sendable {
    /// The default angle tolerance: 5 degrees.
    public static let defaultAngleTolerance = 5.0
    /// The default distance tolerance: 10 screen points.
    public static let defaultDistanceTolerance = 10.0
    /// The default search radius of parallel guides: 200 screen points.
    public static let defaultParallelSearchRadius = 200.0

    /// The 90° guide to the previous segment.
    public var perpendicular: Bool
    /// The guide parallel to a nearby sketch segment.
    public var parallel: Bool
    /// The extension of the previous segment.
    public var `extension`: Bool
    /// The most the direction from the anchor may differ from a guide's, in degrees (0…90).
    public var angleTolerance: Double
    /// The most the point may be from a guide's line, in screen points (≥ 0).
    public var distanceTolerance: Double
    /// How far from the anchor, in screen points, a segment's end may be for a parallel guide.
    public var parallelSearchRadius: Double

    /// Guides from their parts (the defaults: none on, 5°, 10 points, 200 points).
    public init(
        perpendicular: Bool = false, parallel: Bool = false, extension: Bool = false,
        angleTolerance: Double = GeometryGuides.defaultAngleTolerance,
        distanceTolerance: Double = GeometryGuides.defaultDistanceTolerance,
        parallelSearchRadius: Double = GeometryGuides.defaultParallelSearchRadius
    ) {
        self.perpendicular = perpendicular
        self.parallel = parallel
        self.extension = `extension`
        self.angleTolerance = angleTolerance
        self.distanceTolerance = distanceTolerance
        self.parallelSearchRadius = parallelSearchRadius
    }

    /// Whether any guide is on.
    package var isAnyOn: Bool { perpendicular || parallel || self.extension }
}

/// A kind of geometry guide, in tie-break order.
public enum GuideKind: String, Hashable, Sendable, CaseIterable {
    /// At 90° to the previous segment.
    case perpendicular
    /// The previous segment carried on.
    case `extension`
    /// Parallel to a sketch segment.
    case parallel
}

/// Where a snap target lies: the sketch, or a graphic of a graphics layer.
public enum SnapSource: Hashable, Sendable {
    /// The sketch itself.
    case sketch
    /// A graphic of the named layer.
    case layer(name: String, graphic: GraphicID)
}

/// What a point snapped to.
public enum SnapTargetKind: Hashable, Sendable {
    /// A vertex (``SnapTarget/index`` is the vertex's).
    case vertex
    /// The nearest point of an edge (``SnapTarget/index`` is the index of the edge's first vertex).
    case edge
    /// A geometry guide (``SnapTarget/index`` is the index of the segment the guide follows).
    case guide(GuideKind)
}

/// Where and to what a point snapped: reported by ``SketchLayer/onSnapped(_:)`` and kept in
/// ``SketchLayer/currentSnap``.
public struct SnapTarget: Hashable, Sendable {
    /// Vertex, edge or guide.
    public var kind: SnapTargetKind
    /// The sketch or the layer and graphic.
    public var source: SnapSource
    /// The part (path, ring) of the sketch or graphic.
    public var part: Int
    /// The vertex index, or the first vertex of the edge or of the segment a guide follows.
    public var index: Int
    /// The snapped map point: where the vertex goes.
    public var point: Point
    /// The distance from the point under the finger to ``point``, in map units.
    public var distance: Double
    /// For a guide, the anchor the guide line runs through (nil otherwise).
    public var guideOrigin: Point?

    /// A target from its parts.
    package init(
        kind: SnapTargetKind, source: SnapSource, part: Int, index: Int, point: Point, distance: Double,
        guideOrigin: Point? = nil
    ) {
        self.kind = kind
        self.source = source
        self.part = part
        self.index = index
        self.point = point
        self.distance = distance
        self.guideOrigin = guideOrigin
    }

    /// The rank of ``kind`` in the precedence: 0 vertex, 1 edge, 2 guide.
    package var rank: Int {
        switch kind {
        case .vertex: 0
        case .edge: 1
        case .guide: 2
        }
    }

    /// The winner among `candidates` by the precedence of ``SnapSettings``: the lowest
    /// ``rank``, then the smallest ``distance``, then the earliest in `candidates` (callers list
    /// the sketch before the layers, and the layers in settings order).
    /// - Complexity: O(n) for n candidates.
    package static func best(_ candidates: [SnapTarget]) -> SnapTarget? {
        var best: SnapTarget?
        for c in candidates { keepBetter(&best, c) }
        return best
    }

    /// Replaces `best` with `candidate` when `best` is nil or `candidate` wins over it by the
    /// precedence of ``best(_:)`` (a lower rank, or the same rank and a smaller distance): offering
    /// candidates one by one in order gives ``best(_:)`` of them all.
    /// - Complexity: O(1).
    @inline(__always)
    static func keepBetter(_ best: inout SnapTarget?, _ candidate: SnapTarget) {
        if let b = best, !(candidate.rank < b.rank || (candidate.rank == b.rank && candidate.distance < b.distance)) { return }
        best = candidate
    }
}

/// The edit a snapped point is for: it decides what must not snap to itself and which vertex
/// the guides start from.
public enum SnapContext: Hashable, Sendable {
    /// No vertex of the sketch is involved (a point sketch's point, or a free query).
    case free
    /// A new vertex that will become vertex `index` of `part`: its anchor is vertex `index − 1`.
    case insert(part: Int, index: Int)
    /// Vertex `index` of `part` being moved: that vertex and the edges it ends are not snap
    /// targets; its anchor is vertex `index − 1`.
    case move(part: Int, index: Int)
}
