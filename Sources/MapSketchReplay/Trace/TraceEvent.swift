public import MapSketch
public import MapSketchGeometry

/// What happens at one instant of a trace.
public enum TraceEvent: Hashable, Sendable {
    /// A raw touch (phase, finger id, position in points).
    case touch(phase: TouchPhase, id: Int, x: Double, y: Double)
    /// A GPS fix to append to the sketch.
    case gps(TraceGPSFix)
    /// A programmatic call on the sketch, the map or a graphics layer.
    case call(TraceCall)

    /// The `type` of the JSON line.
    public var typeName: String {
        switch self {
        case .touch: "touch"
        case .gps: "gps"
        case .call(let c): c.name
        }
    }
}

/// One GPS fix in WGS 84 degrees.
public struct TraceGPSFix: Hashable, Sendable {
    /// Latitude in degrees (−90…90).
    public var lat: Double
    /// Longitude in degrees (−180…180).
    public var lon: Double
    /// Elevation in meters.
    public var ele: Double?
    /// The receiver's time, seconds since 1970 (UTC), when known.
    public var time: Double?
    /// Horizontal dilution of precision.
    public var hdop: Double?
    /// Horizontal accuracy in meters.
    public var accuracy: Double?
    /// Speed over ground in m/s.
    public var speed: Double?
    /// The track segment: a change of segment starts a new sketch part.
    public var segment: Int

    /// Creates a fix.
    public init(
        lat: Double, lon: Double, ele: Double? = nil, time: Double? = nil, hdop: Double? = nil,
        accuracy: Double? = nil, speed: Double? = nil, segment: Int = 0
    ) {
        self.lat = lat
        self.lon = lon
        self.ele = ele
        self.time = time
        self.hdop = hdop
        self.accuracy = accuracy
        self.speed = speed
        self.segment = segment
    }
}

/// A programmatic call, as an app would make it.
public enum TraceCall: Hashable, Sendable {
    /// Undo the last change of the sketch.
    case undo
    /// Redo the last undone change.
    case redo
    /// Insert a vertex at (part, index).
    case insertVertex(part: Int, index: Int, point: Point)
    /// Move the vertex at (part, index) to a point.
    case moveVertex(part: Int, index: Int, point: Point)
    /// Remove the vertex at (part, index).
    case removeVertex(part: Int, index: Int)
    /// Add a new (empty) part, which becomes the current part.
    case addPart
    /// Remove the part at an index.
    case removePart(part: Int)
    /// Remove the selected vertex.
    case removeSelectedVertex
    /// Remove the part holding the selection.
    case removeSelectedPart
    /// Select the vertex at (part, index).
    case selectVertex(part: Int, index: Int)
    /// Select the last vertex of the last part.
    case selectLastVertex
    /// Clear the selection.
    case clearSelection
    /// Remove every vertex (an undoable change).
    case clear
    /// Replace the geometry with one of the same type as one undoable step.
    case applyGeometry(Geometry)
    /// Set the geometry: replaces the sketch and clears the undo history.
    case setGeometry(Geometry)
    /// Add a graphic to a graphics layer.
    case addGraphic(layer: String, graphic: TraceGraphic)
    /// Remove the graphic at an index (in insertion order) from a graphics layer.
    case removeGraphic(layer: String, index: Int)
    /// Remove every graphic from a graphics layer.
    case removeAllGraphics(layer: String)
    /// Add a graphics layer on top of the others.
    case addGraphicsLayer(TraceGraphicsLayer)
    /// Remove a layer by name.
    case removeLayer(name: String)
    /// Set the viewport.
    case setViewport(Viewport)
    /// Pan the content by (dx, dy) points.
    case pan(dx: Double, dy: Double)
    /// Zoom by a factor (> 1 zooms in) about an anchor (default: the screen center).
    case zoom(factor: Double, anchorX: Double?, anchorY: Double?)

    /// The `type` of the JSON line.
    public var name: String {
        switch self {
        case .undo: "undo"
        case .redo: "redo"
        case .insertVertex: "insertVertex"
        case .moveVertex: "moveVertex"
        case .removeVertex: "removeVertex"
        case .addPart: "addPart"
        case .removePart: "removePart"
        case .removeSelectedVertex: "removeSelectedVertex"
        case .removeSelectedPart: "removeSelectedPart"
        case .selectVertex: "selectVertex"
        case .selectLastVertex: "selectLastVertex"
        case .clearSelection: "clearSelection"
        case .clear: "clear"
        case .applyGeometry: "applyGeometry"
        case .setGeometry: "setGeometry"
        case .addGraphic: "addGraphic"
        case .removeGraphic: "removeGraphic"
        case .removeAllGraphics: "removeAllGraphics"
        case .addGraphicsLayer: "addGraphicsLayer"
        case .removeLayer: "removeLayer"
        case .setViewport: "setViewport"
        case .pan: "pan"
        case .zoom: "zoom"
        }
    }

    /// Every call name, in documentation order.
    public static let allNames = [
        "undo", "redo", "insertVertex", "moveVertex", "removeVertex", "addPart", "removePart",
        "removeSelectedVertex", "removeSelectedPart", "selectVertex", "selectLastVertex", "clearSelection",
        "clear", "applyGeometry", "setGeometry", "addGraphic", "removeGraphic", "removeAllGraphics",
        "addGraphicsLayer", "removeLayer", "setViewport", "pan", "zoom",
    ]
}
