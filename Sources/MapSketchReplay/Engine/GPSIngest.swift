import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReaders

/// Turns GPS fixes into sketch vertices: filter, project into the map's spatial reference, and
/// append through the sketch's public API (`appendVertex`, `addPart`) — the calls a person's
/// edits use, so every fix is an undoable step and posts geometry-changed.
///
/// A fix whose `segment` differs from the previous appended fix's starts a new part. A one-shot
/// conversion (`GPSConversion`) appends in bulk instead (``appendInBulk(to:mapSpatialReference:)``):
/// the same vertices, without an undo step and an event per fix.
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
    /// Whether kept fixes are gathered and appended in batches (``flushPending(into:log:)``)
    /// rather than one `appendVertex` each: for a one-shot conversion whose sketch nobody edits
    /// or watches meanwhile (see ``appendInBulk(to:mapSpatialReference:)``). Off for replays,
    /// where every fix is an edit.
    private(set) var appendsInBulk = false
    /// The geodesic length of a polyline sketch filled in bulk, summed as its vertices go in.
    private var running: RunningLength?
    /// Kept fixes' projected points not yet in the sketch (bulk appends only).
    private var pending: [Point] = []
    /// Points gathered before they go into the sketch.
    static let bulkBatchSize = 4096

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
    /// Returns why the fix was refused (logged as an `error` event), or nil. A bench's `probe`
    /// times the three stages.
    @MainActor
    @discardableResult
    mutating func ingest(_ fix: GPSFix, into sketch: SketchLayer?, log: ReplayLog, probe: (any ReplayProbe)? = nil) -> String? {
        let projection = self.projection
        return ingest(fix, into: sketch, log: log, probe: probe) {
            try projection.get().project(Point(x: fix.longitude, y: fix.latitude, z: fix.elevation))
        }
    }

    /// ``ingest(_:into:log:probe:)`` with the projection of the fix given (`projected` is called
    /// only for a fix the filters keep, and must give what the ingest's own projection gives).
    @MainActor
    @discardableResult
    mutating func ingest(
        _ fix: GPSFix, into sketch: SketchLayer?, log: ReplayLog, probe: (any ReplayProbe)? = nil,
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
        guard let probe else { return ingest(fix, into: sketch, log: log, stages: PlainStages(), projected: projected) }
        return ingest(fix, into: sketch, log: log, stages: ProbedStages(probe: probe), projected: projected)
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
            if appendsInBulk {
                try gather(q, into: sketch, newPart: newPart ? fix.segment : nil, log: log)
            } else {
                try stages.run(.gpsAppend) { try Self.append(q, to: sketch, newPart: newPart ? fix.segment : nil, log: log) }
            }
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

    /// ``append(_:to:newPart:log:)`` in bulk: the point joins the pending batch (which goes into
    /// the sketch when full, or before a new part starts), refused with the error `appendVertex`
    /// would throw when it is not finite.
    @MainActor
    private mutating func gather(_ q: Point, into sketch: SketchLayer, newPart: Int?, log: ReplayLog) throws {
        // The log sees what `append` does, in the same order (a muted `countingOnly` unmutes the
        // log when it ends, so the order decides what an enclosing mute still covers).
        if let segment = newPart {
            log.append(.gpsSegment, ["segment": .integer(Int64(segment))])
            flushPending(into: sketch, log: log)
            _ = try log.countingOnly { try sketch.addPart() }
            running?.startPart(after: sketch)
        }
        guard q.isFinite else {
            // Where `appendVertex` would have put it: the end of the last part, pending points included.
            let store = sketch.vertices
            let part = max(store.partCount - 1, 0)
            let index = (store.partCount == 0 ? 0 : store.parts[part].count) + pending.count
            try log.countingOnly { throw GeometryError.nonFiniteCoordinate(part: part, index: index) }
            return
        }
        pending.append(q)
        if pending.count >= Self.bulkBatchSize { flushPending(into: sketch, log: log) }
    }

    /// Puts the pending points into the sketch: all but the last in one bulk append, the last
    /// through `appendVertex`, so the sketch ends as appending each would leave it — the same
    /// vertices, the last one selected, and (with one level of undo) the same undo step.
    @MainActor
    mutating func flushPending(into sketch: SketchLayer?, log: ReplayLog) {
        guard let sketch, let last = pending.last else { return }
        let head = pending.dropLast()
        let loaded = log.countingOnly { sketch.appendVerticesInBulk(head) }
        if !loaded {
            for p in head { _ = try? log.countingOnly { try sketch.appendVertex(p) } }
        }
        let appended = (try? log.countingOnly { try sketch.appendVertex(last) }) != nil
        if loaded && appended {
            running?.append(pending, after: sketch)
        } else {
            running = nil  // unreachable for a sketch that takes bulk appends; measure the store instead
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Turns on bulk appends into `sketch` (see ``appendsInBulk``), and, for a polyline whose
    /// length a geodesic can measure, sums that length as vertices go in.
    @MainActor
    mutating func appendInBulk(to sketch: SketchLayer, mapSpatialReference: SpatialReference?) {
        guard sketch.editor.acceptsBulkAppend else { return }
        appendsInBulk = true
        if sketch.geometryType == .polyline, sketch.vertices.isEmpty, let sr = mapSpatialReference {
            running = RunningLength(spatialReference: sr, sketch: sketch)
        }
    }

    /// The length summed so far when it is still the sketch's: what the GPS report gives as the
    /// sketch's geodesic length without measuring its store again. Nil unless bulk appends went
    /// into a polyline that nothing else changed (the report then measures the store).
    @MainActor
    func summedGeodesicLength(of sketch: SketchLayer) -> Double? {
        guard let r = running, r.changeCount == sketch.geometryChangeCount, pending.isEmpty else { return nil }
        return r.total
    }

    /// The geodesic length of a polyline summed vertex by vertex as it is built, in the order
    /// `GeometryEngine.geodesicLength` sums it (segment by segment within a part, then part by
    /// part), so the result has the same bits. The sums run on a thread of their own, fed the
    /// appended points in order; the running total is valid while the sketch has changed only
    /// through the ingest: its geometry-changed count tells.
    private struct RunningLength {
        let spatialReference: SpatialReference
        private let worker: LengthWorker
        /// The sketch's geometry-changed count after the ingest's latest change.
        private(set) var changeCount: Int

        /// Nil when the geodesic cannot measure in `spatialReference` (nor can the store's).
        @MainActor
        init?(spatialReference: SpatialReference, sketch: SketchLayer) {
            self.spatialReference = spatialReference
            let toGeographic: PointProjection?
            if spatialReference.isWGS84 {
                toGeographic = nil
            } else if spatialReference.isWebMercator, let p = try? PointProjection(from: spatialReference, to: .wgs84) {
                toGeographic = p
            } else {
                return nil
            }
            worker = LengthWorker(toGeographic: toGeographic)
            changeCount = sketch.geometryChangeCount
        }

        @MainActor
        mutating func append(_ points: [Point], after sketch: SketchLayer) {
            worker.send(.points(points))
            changeCount = sketch.geometryChangeCount
        }

        @MainActor
        mutating func startPart(after sketch: SketchLayer) {
            worker.send(.newPart)
            changeCount = sketch.geometryChangeCount
        }

        /// The sum over everything sent so far (waits for the worker to reach it).
        var total: Double { worker.total() }
    }

    /// The thread behind ``RunningLength``: it takes the points in order and keeps the sums.
    private final class LengthWorker: Sendable {
        enum Work: Sendable {
            case points([Point])
            case newPart
            case total
        }
        private let work = BoundedQueue<Work, Void>(depth: 8)
        private let totals = BoundedQueue<Double, Void>(depth: 1)

        init(toGeographic: PointProjection?) {
            let (work, totals) = (work, totals)
            let thread = Thread {
                var finishedParts = 0.0  // the sum over the finished parts
                var current = 0.0  // the sum over the last part's segments
                var previous: Point?  // the last part's last vertex, in longitude/latitude
                while let w = try? work.take() {
                    switch w {
                    case .points(let points):
                        for p in points {
                            let q = toGeographic?.project(p) ?? p
                            if let previous { current += GeometryEngine.geodesicDistance(previous, q) }
                            previous = q
                        }
                    case .newPart:
                        finishedParts = finishedParts + current
                        current = 0
                        previous = nil
                    case .total:
                        guard totals.put(finishedParts + current) else { return }
                    }
                }
            }
            thread.name = "mapsketch.geodesic-length"
            thread.start()
        }

        deinit {
            work.cancel()
            totals.cancel()
        }

        func send(_ w: Work) { _ = work.put(w) }

        /// The total once the worker has summed everything sent before.
        func total() -> Double {
            send(.total)
            // The worker answers every `.total` in order and stops only when this object goes.
            return (try? totals.take()) ?? .nan
        }
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
            let summed = running?.spatialReference == mapSpatialReference ? summedGeodesicLength(of: sketch) : nil
            if let len = summed ?? mapSpatialReference.flatMap({ try? GeometryEngine.geodesicLength(store, spatialReference: $0) }) {
                o["geodesicLength"] = .number((len * 1000).rounded() / 1000)
            }
        }
        return .object(o)
    }
}

/// How ``GPSIngest`` runs its three stages (filter, project, append): plainly, or measured by a
/// probe.
@MainActor
private protocol IngestStages {
    func run<Result>(_ stage: ReplayOperation, _ body: () throws -> Result) rethrows -> Result
}

/// No probe: the stage runs as it is.
private struct PlainStages: IngestStages {
    @inline(__always)
    func run<Result>(_ stage: ReplayOperation, _ body: () throws -> Result) rethrows -> Result { try body() }
}

/// A probe measures the stage.
private struct ProbedStages: IngestStages {
    let probe: any ReplayProbe

    @inline(__always)
    func run<Result>(_ stage: ReplayOperation, _ body: () throws -> Result) rethrows -> Result {
        try probe.measure(stage, body)
    }
}
