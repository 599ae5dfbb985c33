package import MapSketchGeometry

/// How a sketch is drawn, as `AGSSketchGraphicsLayer`'s symbol properties: the main symbol
/// (line for polylines, fill for polygons, marker for points and multipoints), the vertex,
/// selected vertex and mid-vertex markers, and optional vertex numbers.
///
/// The marker sizes also set how far a tap reaches: half the marker's size plus
/// ``vertexHitTolerance``.
public struct SketchSymbology: Hashable, Sendable {
    /// The default ``vertexHitTolerance``: 10 points.
    public static let defaultVertexHitTolerance: Double = 10

    /// The line or fill of the sketch; nil picks ``defaultMainSymbol(for:)``.
    public var mainSymbol: Symbol?
    /// Every vertex but the selected one.
    public var vertexSymbol: Symbol
    /// The selected vertex.
    public var selectedVertexSymbol: Symbol
    /// The midpoints of segments.
    public var midVertexSymbol: Symbol
    /// Whether each vertex is labelled with its index (1-based within its part).
    public var showsVertexNumbers: Bool
    /// The label style for vertex numbers (its `text` is replaced by the number).
    public var vertexNumberSymbol: TextSymbol
    /// How far beyond half its marker's size a tap still hits a vertex, the selected vertex or a
    /// mid-vertex, in points (default 10, ``defaultVertexHitTolerance``). A tap at distance d
    /// from a vertex drawn with a marker of size s hits it when d ≤ s / 2 + this tolerance (in
    /// points, converted to map units at the map's resolution); see ``SketchLayer/hitReach(in:)``.
    public var vertexHitTolerance: Double
    /// The scale handles at the corners of the selection's box (a part or the geometry selected).
    public var scaleHandleSymbol: Symbol
    /// The rotate handle above the box.
    public var rotateHandleSymbol: Symbol
    /// The move handle at the box's centre.
    public var moveHandleSymbol: Symbol
    /// The box around the selected part or geometry, and the freehand stroke and shape outline
    /// while they are drawn.
    public var guideLineSymbol: SimpleLineSymbol
    /// The reticle at the screen's centre (the reticle tool).
    public var reticleSymbol: Symbol
    /// How far outside the selection's envelope on screen the handle box lies, in points, so
    /// the corner handles never hide a vertex (default 10).
    package var handleMargin: Double
    /// How far above the box's top edge the rotate handle sits, in points (default 30).
    package var rotateHandleOffset: Double

    /// The default symbology.
    public init(
        mainSymbol: Symbol? = nil,
        vertexSymbol: Symbol = .simpleMarker(
            SimpleMarkerSymbol(style: .square, color: .white, size: 10, outline: SimpleLineSymbol(color: .black, width: 1))),
        selectedVertexSymbol: Symbol = .simpleMarker(
            SimpleMarkerSymbol(style: .square, color: .red, size: 12, outline: SimpleLineSymbol(color: .black, width: 1))),
        midVertexSymbol: Symbol = .simpleMarker(
            SimpleMarkerSymbol(style: .circle, color: Color.gray.withAlpha(0.8), size: 8)),
        showsVertexNumbers: Bool = false,
        vertexNumberSymbol: TextSymbol = TextSymbol(text: "", color: .black, fontSize: 10, xOffset: 8, yOffset: 8),
        vertexHitTolerance: Double = SketchSymbology.defaultVertexHitTolerance,
        scaleHandleSymbol: Symbol = .simpleMarker(
            SimpleMarkerSymbol(style: .square, color: .white, size: 10, outline: SimpleLineSymbol(color: .blue, width: 1))),
        rotateHandleSymbol: Symbol = .simpleMarker(
            SimpleMarkerSymbol(style: .circle, color: .white, size: 12, outline: SimpleLineSymbol(color: .blue, width: 1))),
        moveHandleSymbol: Symbol = .simpleMarker(
            SimpleMarkerSymbol(style: .diamond, color: .white, size: 12, outline: SimpleLineSymbol(color: .blue, width: 1))),
        guideLineSymbol: SimpleLineSymbol = SimpleLineSymbol(style: .dash, color: .blue, width: 1),
        reticleSymbol: Symbol = .simpleMarker(
            SimpleMarkerSymbol(style: .cross, color: .black, size: 24, outline: SimpleLineSymbol(color: .black, width: 1))),
        handleMargin: Double = 10,
        rotateHandleOffset: Double = 30
    ) {
        self.mainSymbol = mainSymbol
        self.vertexSymbol = vertexSymbol
        self.selectedVertexSymbol = selectedVertexSymbol
        self.midVertexSymbol = midVertexSymbol
        self.showsVertexNumbers = showsVertexNumbers
        self.vertexNumberSymbol = vertexNumberSymbol
        self.vertexHitTolerance = vertexHitTolerance
        self.scaleHandleSymbol = scaleHandleSymbol
        self.rotateHandleSymbol = rotateHandleSymbol
        self.moveHandleSymbol = moveHandleSymbol
        self.guideLineSymbol = guideLineSymbol
        self.reticleSymbol = reticleSymbol
        self.handleMargin = handleMargin
        self.rotateHandleOffset = rotateHandleOffset
    }

    /// The main symbol used for `type`: the one set, else a 2 pt blue line, a translucent blue
    /// fill with a blue outline, or a blue circle marker.
    package func mainSymbol(for type: GeometryType) -> Symbol {
        if let mainSymbol { return mainSymbol }
        return Self.defaultMainSymbol(for: type)
    }

    /// The default main symbol for `type`.
    package static func defaultMainSymbol(for type: GeometryType) -> Symbol {
        let blue = Color(red: 0, green: 112, blue: 255)
        switch type {
        case .polyline: return .simpleLine(SimpleLineSymbol(color: blue, width: 2))
        case .polygon, .envelope:
            return .simpleFill(
                SimpleFillSymbol(color: blue.withAlpha(0.25), outline: SimpleLineSymbol(color: blue, width: 2)))
        case .point, .multipoint: return .simpleMarker(SimpleMarkerSymbol(color: blue, size: 10))
        }
    }
}

extension Symbol {
    /// The on-screen size of a marker in points: a simple marker's size (plus its outline), a
    /// picture's larger side, the largest part of a composite; 0 for lines, fills and text.
    package var markerSize: Double {
        switch self {
        case .simpleMarker(let m): return m.size + (m.outline?.width ?? 0)
        case .pictureMarker(let p): return Swift.max(p.width, p.height)
        case .composite(let parts): return parts.map(\.markerSize).max() ?? 0
        case .simpleLine, .simpleFill, .text: return 0
        }
    }
}
