import MapSketch
import MapSketchGeometry

/// Turns GPS fixes into sketch vertices: filter, project into the map's spatial reference, and
/// append through the sketch's public API (`appendVertex`, `addPart`) — the calls a person's
/// edits use, so every fix is an undoable step and posts geometry-changed.
///
/// A fix whose `segment` differs from the previous appended fix's starts a new part.
struct GPSIngest {
    /// Fixes seen.
    private(set) var fixes = 0
    /// Fixes appended.
    private(set) var appended = 0
    private var filter: GPSFilter.Stream
    private var lastSegment: Int?
    /// The projection from the fixes' spatial reference to the map's, resolved once (or why it
    /// cannot be: every fix then logs that error, as projecting it would).
    private let projection: Result<PointProjection, ProjectionError>

    /// An ingest that filters with `filter` and projects from `spatialReference` (the fixes') to
    /// `mapSpatialReference`.
    init(filter: GPSFilter, from spatialReference: SpatialReference, to mapSpatialReference: SpatialReference) {
        self.filter = GPSFilter.Stream(filter)
        projection = Result { () throws(ProjectionError) in
            try PointProjection(from: spatialReference, to: mapSpatialReference)
        }
    }

    /// Fixes kept and dropped by the filter, by reason.
    var counts: GPSFilter.Counts { filter.counts }

    /// Filters, projects and appends one fix to `sketch`. The sketch's own events (an edit and a
    /// selection per fix) are counted in `log` but not written; a new part and a failure are.
    /// Returns why the fix was refused (logged as an `error` event), or nil. A bench's `recorder`
    /// times the three stages.
    @MainActor
    @discardableResult
    mutating func ingest(_ fix: GPSFix, into sketch: SketchLayer?, log: ReplayLog, recorder: BenchRecorder? = nil) -> String? {
        let projection = self.projection
        return ingest(fix, into: sketch, log: log, recorder: recorder) {
            try projection.get().project(Point(x: fix.longitude, y: fix.latitude, z: fix.elevation))
        }
    }

    /// ``ingest(_:into:log:recorder:)`` with the projection of the fix given (`projected` is called
    /// only for a fix the filters keep, and must give what the ingest's own projection gives).
    @MainActor
    @discardableResult
    mutating func ingest(
        _ fix: GPSFix, into sketch: SketchLayer?, log: ReplayLog, recorder: BenchRecorder? = nil,
        projected: () throws -> Point
    ) -> String? {
        fixes += 1
        guard let sketch else {
            let message = "a GPS fix needs a sketch (the header has no \"sketch\")"
            log.append(.error, ["message": .string(message)])
            return message
        }
        // One specialised copy of the stages per way of measuring them, so a replay without a
        // bench pays nothing, and a bench's timing needs no closure (which would retain what it
        // captures on every fix).
        guard let recorder else { return ingest(fix, into: sketch, log: log, stages: PlainStages(), projected: projected) }
        if recorder.underCallgrind {
            return ingest(fix, into: sketch, log: log, stages: WrappedStages(recorder: recorder), projected: projected)
        }
        return ingest(fix, into: sketch, log: log, stages: TimedStages(recorder: recorder), projected: projected)
    }

    @MainActor
    private mutating func ingest<Stages: IngestStages>(
        _ fix: GPSFix, into sketch: SketchLayer, log: ReplayLog, stages: Stages, projected: () throws -> Point
    ) -> String? {
        let dropped = stages.run(.gpsFilter) { filter.consider(fix) }
        if dropped != nil { return nil }
        do {
            let q = try stages.run(.gpsProject) { try projected() }
            let newPart = lastSegment.map { $0 != fix.segment } == true && (sketch.geometryType == .polyline || sketch.geometryType == .polygon)
            try stages.run(.gpsAppend) { try Self.append(q, to: sketch, newPart: newPart ? fix.segment : nil, log: log) }
            lastSegment = fix.segment
            appended += 1
            return nil
        } catch {
            let message = "GPS fix (\(fix.latitude), \(fix.longitude)): \(error)"
            log.append(.error, ["message": .string(message)])
            return message
        }
    }

    /// Appends a projected fix, after starting a new part for segment `newPart` when given.
    @MainActor
    private static func append(_ q: Point, to sketch: SketchLayer, newPart: Int?, log: ReplayLog) throws {
        if let segment = newPart {
            log.append(.gpsSegment, ["segment": .integer(Int64(segment))])
            _ = try log.countingOnly { try sketch.addPart() }
        }
        try log.countingOnly { try sketch.appendVertex(q) }
    }

    /// Whether the ingest projects WGS 84 fixes into Web Mercator (the `gps` command's maps), so a
    /// caller that projected a fix with `GeometryEngine.projectGeographicToWebMercator` may hand the
    /// point in.
    var projectsGeographicToWebMercator: Bool {
        guard case .success(let p) = projection else { return false }
        return p.from.isWGS84 && p.to.isWebMercator
    }

    /// The GPS section of the output: fixes read, appended, dropped by reason (the reasons that
    /// dropped any, by name), parts and the geodesic length of the sketch in meters.
    @MainActor
    func report(sketch: SketchLayer?, mapSpatialReference: SpatialReference?) -> JSONValue {
        var o: JSONObject = ["fixes": .integer(Int64(fixes)), "appended": .integer(Int64(appended))]
        var d = JSONObject()
        for reason in GPSFilter.Reason.allCases.sorted(by: { $0.rawValue < $1.rawValue }) where counts[reason] > 0 {
            d[reason.rawValue] = .integer(Int64(counts[reason]))
        }
        o["dropped"] = .object(d)
        if let sketch {
            // Read from the sketch's chunks: assembling a million-vertex geometry costs 48 bytes a vertex.
            let store = sketch.vertices
            let parts = store.type == .point || store.type == .multipoint ? (store.isEmpty ? 0 : 1) : store.partCount
            o["parts"] = .integer(Int64(parts))
            if let sr = mapSpatialReference, let len = try? GeometryEngine.geodesicLength(store, spatialReference: sr) {
                o["geodesicLength"] = .number((len * 1000).rounded() / 1000)
            }
        }
        return .object(o)
    }
}

/// How ``GPSIngest`` runs its three stages (filter, project, append): plainly, timed by a bench,
/// or inside the bench's per-kind functions under callgrind.
@MainActor
private protocol IngestStages {
    func run<Result>(_ stage: BenchOperation, _ body: () throws -> Result) rethrows -> Result
}

/// No bench: the stage runs as it is.
private struct PlainStages: IngestStages {
    @inline(__always)
    func run<Result>(_ stage: BenchOperation, _ body: () throws -> Result) rethrows -> Result { try body() }
}

/// A bench times the stage between its begin and end marks.
private struct TimedStages: IngestStages {
    // Strong: a method call through a field of the (borrowed) stages value needs no retain, where
    // an `unowned(unsafe)` field is retained and released around every call.
    let recorder: BenchRecorder

    @inline(__always)
    func run<Result>(_ stage: BenchOperation, _ body: () throws -> Result) rethrows -> Result {
        let mark = recorder.begin(stage)
        let result = try body()
        recorder.end(stage, mark)
        return result
    }
}

/// Under callgrind the stage runs inside its kind's function.
private struct WrappedStages: IngestStages {
    let recorder: BenchRecorder

    func run<Result>(_ stage: BenchOperation, _ body: () throws -> Result) rethrows -> Result {
        try recorder.measure(stage, body)
    }
}
