/// A kind of operation `mapsketch bench` measures separately; its name is the kind's name in every
/// report.
///
/// Every operation a trace drives belongs to a kind: the model's own (what a touch causes, between
/// the map receiving it and the sketch changing), the trace's calls (timed around the call), the
/// GPS stages of a fix, renderer lookups, and setting the model up from the header. Kinds may
/// nest (a snap query inside a drag step, validation inside an edit): each kind's figures include
/// what nests inside it, and a trace's attributed share counts each operation once, at its
/// outermost kind. What belongs to no kind (the replay's own dispatch between operations) is the
/// trace's `unattributed` row.
///
/// The built-in kinds are ``builtIn``, in report order.
public struct BenchKind: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The name reports use, e.g. `vertexInsert.interactive`.
    public let name: String
    /// What the kind measures, for `mapsketch help bench`.
    package let summary: String
    /// The position in report order: a built-in kind's index in ``builtIn``; kinds of other
    /// builds (read from a report) come after every built-in one, by name.
    let order: Int

    init(_ name: String, _ order: Int, _ summary: String) {
        self.name = name
        self.order = order
        self.summary = summary
    }

    /// The built-in kind of this name, or a kind this build does not measure (read from another
    /// build's report), ordered after the built-in ones.
    package init(named name: String) {
        self = Self.builtIn.first { $0.name == name } ?? BenchKind(name, Self.builtIn.count, "")
    }

    public var description: String { name }

    public static func == (a: Self, b: Self) -> Bool { a.name == b.name }
    public func hash(into h: inout Hasher) { h.combine(name) }
    public static func < (a: Self, b: Self) -> Bool {
        a.order != b.order ? a.order < b.order : a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
    }

    /// The slot of a built-in kind in a recorder: its index in ``builtIn``.
    var slot: Int? { order < Self.builtIn.count ? order : nil }

    // The model's operations (what a touch causes).

    /// Setting the model up from the trace's header: the map, its graphics layers and their
    /// graphics, the sketch and the replay's observers.
    package static let setup = BenchKind("setup", 0, "setting the model up from the trace's header: map, layers, graphics, sketch")
    /// A touch of the trace fed to the map: its gestures recognised and dispatched (the gesture
    /// kinds nest inside it).
    package static let touch = BenchKind(
        "touch", 1, "a touch fed to the map: its gestures recognised and dispatched (nests the kinds below)")
    /// The gesture recogniser turning one raw touch into gestures.
    package static let gesture = BenchKind("gesture", 2, "the gesture recogniser turning a touch into gestures")
    /// A recognised gesture handed to the map and its touch delegate: announcing it and all it
    /// causes (the kinds below nest inside it).
    package static let gestureDispatch = BenchKind(
        "gesture.dispatch", 3, "a recognised gesture handed to the map and the sketch, and all it causes (nests the kinds below)")
    /// A one-finger pan moving the map.
    package static let viewportPan = BenchKind("viewport.pan", 4, "a pan gesture moving the map")
    /// A two-finger pinch zooming (and turning) the map, a step or its end.
    package static let viewportPinch = BenchKind("viewport.pinch", 5, "a pinch step zooming or turning the map")
    /// A tap's callout: the map hit test for the graphic under it and showing or dismissing the
    /// callout.
    package static let callout = BenchKind("callout", 6, "a tap showing or dismissing a callout (its map hit test included)")
    /// A map hit test for a tap (the graphics under it, topmost first), as a callout makes it.
    package static let mapHitTest = BenchKind("mapHitTest", 7, "the map's hit test of the graphics under a tap")
    /// The sketch's vertex / mid-vertex hit test for a tap or a hold.
    package static let sketchHitTest = BenchKind("sketchHitTest", 8, "the sketch's vertex and mid-vertex hit test")
    /// Selecting a vertex or mid-vertex: a tap on one, or a selection call.
    package static let select = BenchKind("select", 9, "selecting: a tap on a vertex or mid-vertex, or a selection call")
    /// A tap on the map inserting or appending a vertex.
    package static let vertexInsertInteractive = BenchKind("vertexInsert.interactive", 10, "a tap inserting or appending a vertex")
    /// A tap moving a point sketch's point, or a vertex drag: its start on a hold, each step, its
    /// release.
    package static let vertexMoveInteractive = BenchKind(
        "vertexMove.interactive", 11, "a tap moving a point, or a vertex drag's start, steps and release")
    /// A snap query: a point snapped to the sketch, graphics layers or a geometry guide.
    package static let snapQuery = BenchKind("snap.query", 12, "snapping a point to the sketch, graphics or a guide")
    /// A freehand or shape tool's stroke: its start, each step, its end.
    package static let toolStroke = BenchKind("tool.stroke", 13, "a freehand or shape tool's stroke: start, steps, end")
    /// A transform handle's drag (move, rotate, scale): its start, each step, its release.
    package static let transformInteractive = BenchKind("transform.interactive", 14, "a transform handle's drag: start, steps, release")
    /// Validating an edit before it commits (the sketch's validation rules).
    package static let validation = BenchKind("validation", 15, "validating an edit before it commits")

    // The trace's calls.

    /// An `insertVertex` call.
    package static let vertexInsertProgrammatic = BenchKind("vertexInsert.programmatic", 16, "an insertVertex call")
    /// A `moveVertex` call.
    package static let vertexMoveProgrammatic = BenchKind("vertexMove.programmatic", 17, "a moveVertex call")
    /// A `removeVertex` or `removeSelectedVertex` call.
    package static let vertexRemoveProgrammatic = BenchKind("vertexRemove.programmatic", 18, "a removeVertex or removeSelectedVertex call")
    /// An `addPart`, `removePart` or `removeSelectedPart` call.
    package static let partProgrammatic = BenchKind("part.programmatic", 19, "an addPart, removePart or removeSelectedPart call")
    /// An `applyGeometry` or `setGeometry` call.
    package static let geometryProgrammatic = BenchKind("geometry.programmatic", 20, "an applyGeometry or setGeometry call")
    /// A `clear` call.
    package static let clear = BenchKind("clear", 21, "a clear call")
    /// An `undo` call.
    package static let undo = BenchKind("undo", 22, "an undo call")
    /// A `redo` call.
    package static let redo = BenchKind("redo", 23, "a redo call")
    /// A `moveSelection`, `rotateSelection` or `scaleSelection` call.
    package static let transformProgrammatic = BenchKind(
        "transform.programmatic", 24, "a moveSelection, rotateSelection or scaleSelection call")
    /// A programmatic reticle call: `reticleSelect`, `reticlePickUp`, `reticlePlace`, `reticleCancel`.
    package static let reticle = BenchKind("reticle", 25, "a reticle call: select, pick up, place, cancel")
    /// A `setTool` call.
    package static let toolSwitch = BenchKind("tool.switch", 26, "a setTool call")
    /// A `setSnapping` or `setTransformAnchor` call.
    package static let sketchSettings = BenchKind("sketch.settings", 27, "a setSnapping or setTransformAnchor call")
    /// A `setViewport`, `pan` or `zoom` call.
    package static let viewportProgrammatic = BenchKind("viewport.programmatic", 28, "a setViewport, pan or zoom call")
    /// An `addGraphic` call.
    package static let graphicsAdd = BenchKind("graphics.add", 29, "an addGraphic call")
    /// A `removeGraphic` or `removeAllGraphics` call.
    package static let graphicsRemove = BenchKind("graphics.remove", 30, "a removeGraphic or removeAllGraphics call")
    /// An `addGraphicsLayer` or `removeLayer` call.
    package static let layers = BenchKind("layers", 31, "an addGraphicsLayer or removeLayer call")

    // Renderers and GPS.

    /// A simple renderer resolving a graphic's symbol.
    package static let rendererSimple = BenchKind("rendererLookup.simple", 32, "a simple renderer resolving a graphic's symbol")
    /// A class-breaks renderer resolving a graphic's symbol from its attributes.
    package static let rendererClassBreaks = BenchKind("rendererLookup.classBreaks", 33, "a class-breaks renderer resolving a symbol")
    /// A unique-value renderer resolving a graphic's symbol from its attributes.
    package static let rendererUniqueValue = BenchKind("rendererLookup.uniqueValue", 34, "a unique-value renderer resolving a symbol")
    /// A GPS fix of the trace taken in: filtered, projected and appended (the stages nest inside
    /// it).
    package static let gpsFix = BenchKind("gps.fix", 35, "a GPS fix taken in: filtered, projected, appended (nests the stages)")
    /// Reading a GPS fix: decoding its trace line.
    package static let gpsRead = BenchKind("gps.read", 36, "decoding a GPS fix's trace line")
    /// The GPS filter deciding whether a fix is kept.
    package static let gpsFilter = BenchKind("gps.filter", 37, "the GPS filter deciding whether a fix is kept")
    /// Projecting a kept fix into the map's spatial reference.
    package static let gpsProject = BenchKind("gps.project", 38, "projecting a kept fix into the map's spatial reference")
    /// Appending a projected fix to the sketch (a new part first when its segment changes).
    package static let gpsAppend = BenchKind("gps.append", 39, "appending a projected fix to the sketch")

    // Layer files.

    /// A header layer's features read from its file (`source`) into the layer: reading, decoding,
    /// renderer and index (inside ``setup``).
    package static let layerLoad = BenchKind(
        "layer.load", 40, "a header layer's features read from its file (source) into the layer")

    /// Every built-in kind, in report order.
    package static let builtIn: [BenchKind] = [
        setup, touch, gesture, gestureDispatch, viewportPan, viewportPinch, callout, mapHitTest, sketchHitTest, select, vertexInsertInteractive,
        vertexMoveInteractive, snapQuery, toolStroke, transformInteractive, validation, vertexInsertProgrammatic,
        vertexMoveProgrammatic, vertexRemoveProgrammatic, partProgrammatic, geometryProgrammatic, clear, undo, redo,
        transformProgrammatic, reticle, toolSwitch, sketchSettings, viewportProgrammatic, graphicsAdd, graphicsRemove, layers,
        rendererSimple, rendererClassBreaks, rendererUniqueValue, gpsFix, gpsRead, gpsFilter, gpsProject, gpsAppend,
        layerLoad,
    ]

    /// The name of the row that holds what belongs to no kind.
    package static let unattributedName = "unattributed"
}
