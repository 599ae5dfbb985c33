package import MapSketch
package import MapSketchGeometry
package import MapSketchReaders

/// What happens at one instant of a trace.
package enum TraceEvent: Hashable, Sendable {
    /// A raw touch: its phase, the finger's id and where it is on the screen, in points. The
    /// replay hands it to the map as a `TouchEvent` at the entry's time.
    case touch(phase: TouchPhase, id: Int, location: ScreenPoint)
    /// A GPS fix to append to the sketch, as a trace line holds it: `lat`, `lon`, `ele`, `time`,
    /// `hdop`, `accuracy`, `speed` and `segment` are its latitude, longitude, elevation, time,
    /// HDOP, horizontal accuracy, speed and segment. Course, quality, mode and source line are not
    /// part of the trace format.
    case gps(GPSFix)
    /// A programmatic call on the sketch, the map or a graphics layer.
    case call(TraceCall)

    /// The `type` of the JSON line.
    package var typeName: String {
        switch self {
        case .touch: "touch"
        case .gps: "gps"
        case .call(let c): c.name.rawValue
        }
    }
}

/// A programmatic call, as an app would make it.
package enum TraceCall: Hashable, Sendable {
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
    /// Select a part as a whole (format version 3).
    case selectPart(part: Int)
    /// Select the whole geometry (format version 3).
    case selectGeometry
    /// Move the selected part or geometry by (dx, dy) map units (format version 3).
    case moveSelection(dx: Double, dy: Double)
    /// Turn the selected part or geometry counter-clockwise by degrees about an anchor (default:
    /// the layer's transform anchor, else the centroid) (format version 3).
    case rotateSelection(degrees: Double, anchor: Point?)
    /// Scale the selected part or geometry by sx and sy about an anchor (format version 3).
    case scaleSelection(sx: Double, sy: Double, anchor: Point?)
    /// Set the anchor of interactive rotations and scales; nil goes back to the centroid
    /// (format version 3).
    case setTransformAnchor(Point?)
    /// Switch the sketch's tool (format version 3).
    case setTool(SketchTool)
    /// Select what is under the reticle (format version 3).
    case reticleSelect
    /// Pick up the selected vertex or mid-vertex (format version 3).
    case reticlePickUp
    /// Place what was picked up, or a new vertex, at the reticle (format version 3).
    case reticlePlace
    /// Drop the pick-up (format version 3).
    case reticleCancel
    /// Sets what the sketch snaps to and the geometry guides (the members of `options.snapping`
    /// on the call itself; format version 4).
    case setSnapping(SnapSettings)

    /// The call's name: the `type` of its JSON line.
    package var name: TraceCallName {
        switch self {
        case .undo: .undo
        case .redo: .redo
        case .insertVertex: .insertVertex
        case .moveVertex: .moveVertex
        case .removeVertex: .removeVertex
        case .addPart: .addPart
        case .removePart: .removePart
        case .removeSelectedVertex: .removeSelectedVertex
        case .removeSelectedPart: .removeSelectedPart
        case .selectVertex: .selectVertex
        case .selectLastVertex: .selectLastVertex
        case .clearSelection: .clearSelection
        case .clear: .clear
        case .applyGeometry: .applyGeometry
        case .setGeometry: .setGeometry
        case .addGraphic: .addGraphic
        case .removeGraphic: .removeGraphic
        case .removeAllGraphics: .removeAllGraphics
        case .addGraphicsLayer: .addGraphicsLayer
        case .removeLayer: .removeLayer
        case .setViewport: .setViewport
        case .pan: .pan
        case .zoom: .zoom
        case .selectPart: .selectPart
        case .selectGeometry: .selectGeometry
        case .moveSelection: .moveSelection
        case .rotateSelection: .rotateSelection
        case .scaleSelection: .scaleSelection
        case .setTransformAnchor: .setTransformAnchor
        case .setTool: .setTool
        case .reticleSelect: .reticleSelect
        case .reticlePickUp: .reticlePickUp
        case .reticlePlace: .reticlePlace
        case .reticleCancel: .reticleCancel
        case .setSnapping: .setSnapping
        }
    }
}

/// The name of each programmatic call a trace can make: the `type` of its JSON line, in
/// documentation order.
///
/// Adding a call: add its name here and its case (with its members) to ``TraceCall``, and declare
/// it in `Traces/trace.schema.json`. The compiler then points at every switch that must handle it
/// (``TraceCall/name``, the decoder, the encoder and the replay), and the corpus tests fail until
/// the schema declares it.
package enum TraceCallName: String, CaseIterable, Hashable, Sendable {
    /// `"undo"`: ``TraceCall/undo``.
    case undo
    /// `"redo"`: ``TraceCall/redo``.
    case redo
    /// `"insertVertex"`: ``TraceCall/insertVertex(part:index:point:)``.
    case insertVertex
    /// `"moveVertex"`: ``TraceCall/moveVertex(part:index:point:)``.
    case moveVertex
    /// `"removeVertex"`: ``TraceCall/removeVertex(part:index:)``.
    case removeVertex
    /// `"addPart"`: ``TraceCall/addPart``.
    case addPart
    /// `"removePart"`: ``TraceCall/removePart(part:)``.
    case removePart
    /// `"removeSelectedVertex"`: ``TraceCall/removeSelectedVertex``.
    case removeSelectedVertex
    /// `"removeSelectedPart"`: ``TraceCall/removeSelectedPart``.
    case removeSelectedPart
    /// `"selectVertex"`: ``TraceCall/selectVertex(part:index:)``.
    case selectVertex
    /// `"selectLastVertex"`: ``TraceCall/selectLastVertex``.
    case selectLastVertex
    /// `"clearSelection"`: ``TraceCall/clearSelection``.
    case clearSelection
    /// `"clear"`: ``TraceCall/clear``.
    case clear
    /// `"applyGeometry"`: ``TraceCall/applyGeometry(_:)``.
    case applyGeometry
    /// `"setGeometry"`: ``TraceCall/setGeometry(_:)``.
    case setGeometry
    /// `"addGraphic"`: ``TraceCall/addGraphic(layer:graphic:)``.
    case addGraphic
    /// `"removeGraphic"`: ``TraceCall/removeGraphic(layer:index:)``.
    case removeGraphic
    /// `"removeAllGraphics"`: ``TraceCall/removeAllGraphics(layer:)``.
    case removeAllGraphics
    /// `"addGraphicsLayer"`: ``TraceCall/addGraphicsLayer(_:)``.
    case addGraphicsLayer
    /// `"removeLayer"`: ``TraceCall/removeLayer(name:)``.
    case removeLayer
    /// `"setViewport"`: ``TraceCall/setViewport(_:)``.
    case setViewport
    /// `"pan"`: ``TraceCall/pan(dx:dy:)``.
    case pan
    /// `"zoom"`: ``TraceCall/zoom(factor:anchorX:anchorY:)``.
    case zoom
    /// `"selectPart"`: ``TraceCall/selectPart(part:)``.
    case selectPart
    /// `"selectGeometry"`: ``TraceCall/selectGeometry``.
    case selectGeometry
    /// `"moveSelection"`: ``TraceCall/moveSelection(dx:dy:)``.
    case moveSelection
    /// `"rotateSelection"`: ``TraceCall/rotateSelection(degrees:anchor:)``.
    case rotateSelection
    /// `"scaleSelection"`: ``TraceCall/scaleSelection(sx:sy:anchor:)``.
    case scaleSelection
    /// `"setTransformAnchor"`: ``TraceCall/setTransformAnchor(_:)``.
    case setTransformAnchor
    /// `"setTool"`: ``TraceCall/setTool(_:)``.
    case setTool
    /// `"reticleSelect"`: ``TraceCall/reticleSelect``.
    case reticleSelect
    /// `"reticlePickUp"`: ``TraceCall/reticlePickUp``.
    case reticlePickUp
    /// `"reticlePlace"`: ``TraceCall/reticlePlace``.
    case reticlePlace
    /// `"reticleCancel"`: ``TraceCall/reticleCancel``.
    case reticleCancel
    /// `"setSnapping"`: ``TraceCall/setSnapping(_:)``.
    case setSnapping

    /// The first trace format version with the call: 4 for `setSnapping`, 3 for the transform,
    /// tool and reticle calls, 1 for the others.
    package var minimumVersion: Int {
        switch self {
        case .selectPart, .selectGeometry, .moveSelection, .rotateSelection, .scaleSelection, .setTransformAnchor,
            .setTool, .reticleSelect, .reticlePickUp, .reticlePlace, .reticleCancel:
            3
        case .setSnapping: 4
        default: 1
        }
    }
}
