public import MapSketch
public import MapSketchGeometry

/// A replayable trace: a header that sets up the map, then timed events.
///
/// On disk a trace is JSON Lines (`*.trace.jsonl`): the header on the first line, one event per
/// line after it, every line with its time `t` in seconds. See the "Trace format" article and
/// `Traces/trace.schema.json`.
public struct Trace: Hashable, Sendable {
    /// The newest version of the trace format, which this code reads and writes.
    package static let formatVersion = 5
    /// The versions this code reads: 1; 2, which adds `options.allowRotationByPinching`; 3,
    /// which adds `options.validation` and the transform, tool and reticle calls
    /// (``TraceCallName/minimumVersion``); 4, which adds `options.snapping` and the
    /// `setSnapping` call; and 5, which adds the `end` line (``end``). A trace is written with the oldest version that
    /// carries it (``minimumVersion``), so older readers read every trace that does not use
    /// what a later version added.
    package static let supportedVersions: ClosedRange<Int> = 1...formatVersion
    /// The value of the header's `format` field.
    package static let formatName = "mapsketch-trace"
    /// The first format version with the `end` line.
    package static let endLineVersion = 5

    /// How the map, sketch and graphics are set up before the first event.
    public var header: TraceHeader
    /// The events, in file order (times never decrease).
    package var events: [TraceEntry]

    /// How many events the trace holds (the fuzzer replays only short traces).
    @_spi(MapSketchInternal) public var eventCount: Int { events.count }
    /// When the trace ends, from its `end` line (`{"t":…,"type":"end"}`, the last line, format
    /// version 5): the clock runs on to it after the last event, so timers due by then fire (a
    /// hold whose finger is still down). Nil without an `end` line: the trace ends at its last
    /// event (see ``endTime``). Never earlier than the last event.
    package var end: Double?
    /// Where the trace was read from, against which its layers' ``TraceGraphicsLayer/source``
    /// files are resolved (nil: a trace made in code or read from text, whose layers cannot name
    /// a file).
    package var files: TraceFiles?

    /// Creates a trace.
    package init(header: TraceHeader, events: [TraceEntry] = [], end: Double? = nil) {
        self.header = header
        self.events = events
        self.end = end
    }

    /// The time the trace ends: its ``end`` line's, else its last event's, else 0. A replay fires
    /// every timer due up to and including it.
    package var endTime: Double { end ?? events.last?.t ?? 0 }

    /// The oldest format version that carries this trace: its header's
    /// (``TraceHeader/minimumVersion``), its newest call's (``TraceCallName/minimumVersion``), or
    /// 5 for an ``end`` line.
    /// - Complexity: O(n) in the number of events.
    package var minimumVersion: Int {
        var v = max(header.minimumVersion, end == nil ? 1 : Trace.endLineVersion)
        for e in events { if case .call(let c) = e.event { v = max(v, c.name.minimumVersion) } }
        return v
    }
}

/// One event of a trace with its time and the line it came from.
package struct TraceEntry: Hashable, Sendable {
    /// Seconds on the virtual clock.
    package var t: Double
    /// What happens.
    package var event: TraceEvent
    /// The 1-based line in the trace file (0 when built in code).
    package var line: Int

    /// Creates an entry.
    package init(t: Double, _ event: TraceEvent, line: Int = 0) {
        self.t = t
        self.event = event
        self.line = line
    }
}

/// The first line of a trace: screen, viewport, spatial reference, sketch, thresholds, options,
/// graphics layers and GPS settings.
public struct TraceHeader: Hashable, Sendable {
    /// The trace format version the header declares (one of ``Trace/supportedVersions``; the
    /// encoder writes at least ``minimumVersion``).
    package var version: Int = 1
    /// A short name for reports.
    public var name: String?
    /// What the trace shows: the behaviour it is named for.
    public var description: String?
    /// What the trace declares about its own outcome (the `expect` member): an error it is meant
    /// to fail with, its golden tolerance, calls the model is meant to refuse.
    package var expect: TraceExpectation = TraceExpectation()
    /// The screen size in points.
    public var screen: ScreenSize = ScreenSize(width: 400, height: 400)
    /// The initial viewport.
    public var viewport: Viewport = Viewport(center: Point(0, 0), resolution: 1)
    /// The map's spatial reference.
    public var spatialReference: SpatialReference = .webMercator
    /// The sketch layer to set up, or nil for a map without one.
    public var sketch: TraceSketchSetup?
    /// Gesture thresholds (the map's defaults when absent: a tap within 0.3 s and 10 pt, a hold
    /// after 0.5 s, a vertex hit within half its symbol size + 10 pt).
    package var thresholds: GestureThresholds = .default
    /// The sketch's vertex hit tolerance in points (the header's `thresholds.vertexHitTolerance`;
    /// ``SketchSymbology/defaultVertexHitTolerance`` when absent).
    package var vertexHitTolerance: Double = SketchSymbology.defaultVertexHitTolerance
    /// Map and replay options.
    package var options: TraceOptions = TraceOptions()
    /// Graphics layers added bottom to top before the sketch layer.
    package var layers: [TraceGraphicsLayer] = []
    /// Which GPS fixes become sketch vertices (the header's `gps` member).
    package var gpsFilter: GPSFilter = TraceHeader.defaultGPSFilter
    /// The spatial reference of the GPS fixes' coordinates (`gps.spatialReference`, WGS 84 by
    /// default); the replay projects them into the map's.
    package var gpsSpatialReference: SpatialReference = .wgs84

    /// The GPS filter of a header without `gps` member: drop exact repeats and fixes whose time
    /// goes back, keep everything else.
    public static let defaultGPSFilter = GPSFilter(dropDuplicates: true, dropOutOfOrder: true)

    /// Creates a header with the defaults above.
    public init() {}

    /// The oldest format version that carries this header: 4 when it sets
    /// ``TraceOptions/snapping``, 3 when it sets ``TraceOptions/validation``, 2 when it sets
    /// ``TraceOptions/allowRotationByPinching``, else 1.
    package var minimumVersion: Int {
        if options.snapping != nil { return 4 }
        if !options.validation.isEmpty { return 3 }
        return options.allowRotationByPinching ? 2 : 1
    }
}

/// The sketch layer of a trace: its geometry type and optional initial geometry.
public struct TraceSketchSetup: Hashable, Sendable {
    /// point, multipoint, polyline or polygon.
    public var geometryType: GeometryType
    /// The geometry to edit; nil or empty starts a new sketch.
    public var geometry: Geometry?

    /// Creates a sketch setup.
    public init(geometryType: GeometryType, geometry: Geometry? = nil) {
        self.geometryType = geometryType
        self.geometry = geometry
    }
}

/// Options of the map, the sketch and the replay.
package struct TraceOptions: Hashable, Sendable {
    /// Whether a hold on the selected vertex posts a magnifier event.
    package var showMagnifierOnTapAndHold: Bool = false
    /// Whether the map wraps around the antimeridian.
    package var wrapAround: Bool = false
    /// The bound on undo levels; nil is unbounded.
    package var levelsOfUndo: Int?
    /// Whether the sketch shows vertex numbers in the SVG.
    package var showVertexNumbers: Bool = false
    /// Sleep between events so the replay runs at the trace's pace (never in tests or `check`).
    package var realtime: Bool = false
    /// The SVG snapshot step: after this many events (nil = at the end).
    package var svgStep: Int?
    /// Whether two fingers turn the map as well as zoom and pan it (the map's
    /// `allowRotationByPinching`; default false). Needs format version 2.
    package var allowRotationByPinching: Bool = false
    /// The built-in validation rules the sketch checks edits against (none by default). Needs
    /// format version 3.
    package var validation = TraceValidation()
    /// What the sketch snaps to, and the geometry guides (the header's `options.snapping`; nil:
    /// snapping off). Needs format version 4.
    package var snapping: SnapSettings?

    /// Creates options with the defaults above.
    package init() {}
}

/// The built-in validation rules of a trace (the header's `options.validation`), by name: see
/// `SketchValidation` for what each checks.
package struct TraceValidation: Hashable, Sendable {
    /// `noSelfIntersection`: no segment an edit makes may meet another.
    package var noSelfIntersection: Bool = false
    /// `minimumArea`: the least area a polygon may be edited down to (square map units).
    package var minimumArea: Double?
    /// `minimumLength`: the least length a polyline or polygon may be edited down to (map units).
    package var minimumLength: Double?
    /// `maximumVertices`: the most vertices an edit may grow the sketch to.
    package var maximumVertices: Int?

    /// No rule.
    package init() {}

    /// Whether no rule is on.
    package var isEmpty: Bool { !noSelfIntersection && minimumArea == nil && minimumLength == nil && maximumVertices == nil }

    /// The sketch's rules for these.
    package var sketchValidation: SketchValidation {
        SketchValidation(
            noSelfIntersection: noSelfIntersection, minimumArea: minimumArea, minimumLength: minimumLength,
            maximumVertices: maximumVertices)
    }
}

/// A graphics layer to add before the events start.
package struct TraceGraphicsLayer: Hashable, Sendable {
    /// The unique layer name.
    package var name: String
    /// The layer's renderer, if any.
    package var renderer: TraceRenderer?
    /// Whether a tap on a graphic may show a callout (default true).
    package var calloutsEnabled: Bool = true
    /// Whether the layer can be hit-tested (default true).
    package var hitTestable: Bool = true
    /// The graphics, in the order they are added (after the features of ``source``).
    package var graphics: [TraceGraphic] = []
    /// The file the layer's features are read from (the `source` member), before ``graphics``.
    package var source: TraceLayerSource?

    /// Creates a layer setup.
    package init(name: String, renderer: TraceRenderer? = nil, graphics: [TraceGraphic] = []) {
        self.name = name
        self.renderer = renderer
        self.graphics = graphics
    }
}

/// An attribute value of a graphic, as JSON can carry it.
package enum TraceAttribute: Hashable, Sendable {
    /// A JSON string.
    case string(String)
    /// A JSON number without fraction or exponent.
    case integer(Int)
    /// Any other JSON number.
    case double(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// Milliseconds since 1970-01-01T00:00:00Z, written `{"date": ms}`.
    case date(Double)
    /// JSON `null`.
    case null
}

/// A graphic to add: geometry, optional symbol, attributes and info template.
package struct TraceGraphic: Hashable, Sendable {
    /// The geometry (in the map's spatial reference unless ``spatialReference`` says otherwise).
    package var geometry: Geometry
    /// The spatial reference of ``geometry`` when it is not the map's.
    package var spatialReference: SpatialReference?
    /// The graphic's own symbol, which wins over the renderer's.
    package var symbol: Symbol?
    /// Attributes, in order.
    package var attributes: [(key: String, value: TraceAttribute)]
    /// Callout title template with `${FIELD}` tokens.
    package var calloutTitle: String?
    /// Callout detail template with `${FIELD}` tokens.
    package var calloutDetail: String?

    /// Creates a graphic.
    package init(
        geometry: Geometry, spatialReference: SpatialReference? = nil, symbol: Symbol? = nil,
        attributes: [(key: String, value: TraceAttribute)] = [], calloutTitle: String? = nil,
        calloutDetail: String? = nil
    ) {
        self.geometry = geometry
        self.spatialReference = spatialReference
        self.symbol = symbol
        self.attributes = attributes
        self.calloutTitle = calloutTitle
        self.calloutDetail = calloutDetail
    }

    package static func == (a: TraceGraphic, b: TraceGraphic) -> Bool {
        a.geometry == b.geometry && a.spatialReference == b.spatialReference && a.symbol == b.symbol
            && a.attributes.map(\.key) == b.attributes.map(\.key)
            && a.attributes.map(\.value) == b.attributes.map(\.value) && a.calloutTitle == b.calloutTitle
            && a.calloutDetail == b.calloutDetail
    }

    package func hash(into h: inout Hasher) {
        h.combine(geometry)
        h.combine(symbol)
        for (k, v) in attributes {
            h.combine(k)
            h.combine(v)
        }
    }
}

/// A renderer of a graphics layer.
package enum TraceRenderer: Hashable, Sendable {
    /// One symbol for every graphic.
    case simple(Symbol)
    /// Symbol by numeric field value: a value v belongs to the break with min ≤ v < max.
    case classBreaks(field: String, minValue: Double, breaks: [TraceClassBreak], defaultSymbol: Symbol?)
    /// Symbol by the values of up to three fields joined by `delimiter`.
    case uniqueValue(fields: [String], delimiter: String, values: [TraceUniqueValue], defaultSymbol: Symbol?)
}

/// One class break: values up to (not including) `maxValue`.
package struct TraceClassBreak: Hashable, Sendable {
    /// The exclusive upper bound.
    package var maxValue: Double
    /// The symbol of the values in this break.
    package var symbol: Symbol
    /// Creates a break.
    package init(maxValue: Double, symbol: Symbol) {
        self.maxValue = maxValue
        self.symbol = symbol
    }
}

/// One unique value and its symbol.
package struct TraceUniqueValue: Hashable, Sendable {
    /// The joined field values.
    package var value: String
    /// The symbol.
    package var symbol: Symbol
    /// Creates a unique value.
    package init(value: String, symbol: Symbol) {
        self.value = value
        self.symbol = symbol
    }
}
