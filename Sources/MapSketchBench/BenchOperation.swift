import MapSketch
import MapSketchReplay

/// A kind of operation `mapsketch bench` measures separately; the raw value is its name in every
/// report.
///
/// Touches are split into the model's own operations (recognition, hit tests, the edit a tap or a
/// drag makes); calls a trace makes are timed around the call; GPS fixes are timed per stage.
public enum BenchOperation: String, CaseIterable, Hashable, Sendable {
    /// The gesture recogniser turning one raw touch into gestures.
    case gesture
    /// A map hit test for a tap (the graphics under it), as a callout makes it.
    case mapHitTest
    /// The sketch's vertex / mid-vertex hit test for a tap or a hold.
    case sketchHitTest
    /// Selecting a vertex or mid-vertex: a tap on one, or a `selectVertex` / `selectLastVertex` /
    /// `clearSelection` / `selectPart` / `selectGeometry` call.
    case select
    /// A tap on the map inserting or appending a vertex.
    case vertexInsertInteractive = "vertexInsert.interactive"
    /// A tap moving a point sketch's point, or one step of a vertex drag (and its release).
    case vertexMoveInteractive = "vertexMove.interactive"
    /// An `insertVertex` call.
    case vertexInsertProgrammatic = "vertexInsert.programmatic"
    /// A `moveVertex` call.
    case vertexMoveProgrammatic = "vertexMove.programmatic"
    /// A `removeVertex` or `removeSelectedVertex` call (the model has no removing gesture).
    case vertexRemoveProgrammatic = "vertexRemove.programmatic"
    /// An `undo` call.
    case undo
    /// A `redo` call.
    case redo
    /// A simple renderer resolving a graphic's symbol.
    case rendererSimple = "rendererLookup.simple"
    /// A class-breaks renderer resolving a graphic's symbol from its attributes.
    case rendererClassBreaks = "rendererLookup.classBreaks"
    /// A unique-value renderer resolving a graphic's symbol from its attributes.
    case rendererUniqueValue = "rendererLookup.uniqueValue"
    /// Reading a GPS fix: decoding its trace line into a `GPSFix`.
    case gpsRead = "gps.read"
    /// The GPS filter deciding whether a fix is kept.
    case gpsFilter = "gps.filter"
    /// Projecting a kept fix into the map's spatial reference.
    case gpsProject = "gps.project"
    /// Appending a projected fix to the sketch (a new part first when its segment changes).
    case gpsAppend = "gps.append"
    /// A `moveSelection`, `rotateSelection` or `scaleSelection` call: a whole-geometry or part
    /// transform (one undo step).
    case transformProgrammatic = "transform.programmatic"
    /// A programmatic reticle call: `reticleSelect`, `reticlePickUp`, `reticlePlace`,
    /// `reticleCancel`.
    case reticle
    /// A snap query: the point of a tap, a vertex drag step or a reticle placement snapped to
    /// the sketch, the chosen graphics layers or a geometry guide (only with snapping on).
    case snapQuery = "snap.query"

    /// The position in ``allCases``: the index of the operation's slot in a recorder.
    var ordinal: Int {
        switch self {
        case .gesture: 0
        case .mapHitTest: 1
        case .sketchHitTest: 2
        case .select: 3
        case .vertexInsertInteractive: 4
        case .vertexMoveInteractive: 5
        case .vertexInsertProgrammatic: 6
        case .vertexMoveProgrammatic: 7
        case .vertexRemoveProgrammatic: 8
        case .undo: 9
        case .redo: 10
        case .rendererSimple: 11
        case .rendererClassBreaks: 12
        case .rendererUniqueValue: 13
        case .gpsRead: 14
        case .gpsFilter: 15
        case .gpsProject: 16
        case .gpsAppend: 17
        case .transformProgrammatic: 18
        case .reticle: 19
        case .snapQuery: 20
        }
    }

    /// The kind of an operation the replay reports, or nil for an operation measured only in the
    /// trace's total (parts, geometry replacement, graphics layers, the viewport, the tool and the
    /// transform anchor).
    init?(_ operation: ReplayOperation) {
        switch operation {
        case .model(let m):
            switch m {
            case .gestureRecognition: self = .gesture
            case .mapHitTest: self = .mapHitTest
            case .sketchHitTest: self = .sketchHitTest
            case .sketchSelect: self = .select
            case .vertexInsert: self = .vertexInsertInteractive
            case .vertexMove: self = .vertexMoveInteractive
            case .snapQuery: self = .snapQuery
            }
        case .call(let call):
            switch call {
            case .insertVertex: self = .vertexInsertProgrammatic
            case .moveVertex: self = .vertexMoveProgrammatic
            case .removeVertex, .removeSelectedVertex: self = .vertexRemoveProgrammatic
            case .undo: self = .undo
            case .redo: self = .redo
            case .selectVertex, .selectLastVertex, .clearSelection, .selectPart, .selectGeometry: self = .select
            case .moveSelection, .rotateSelection, .scaleSelection: self = .transformProgrammatic
            case .reticleSelect, .reticlePickUp, .reticlePlace, .reticleCancel: self = .reticle
            case .setTransformAnchor, .setTool, .setSnapping,
                .addPart, .removePart, .removeSelectedPart, .clear, .applyGeometry, .setGeometry, .addGraphic,
                .removeGraphic, .removeAllGraphics, .addGraphicsLayer, .removeLayer, .setViewport, .pan, .zoom:
                return nil
            }
        case .gpsFilter: self = .gpsFilter
        case .gpsProject: self = .gpsProject
        case .gpsAppend: self = .gpsAppend
        case .rendererLookup(let r):
            switch r {
            case .simple: self = .rendererSimple
            case .classBreaks: self = .rendererClassBreaks
            case .uniqueValue: self = .rendererUniqueValue
            }
        }
    }
}
