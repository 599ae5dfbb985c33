import MapSketch
import MapSketchGeometry

/// Turns GPS fixes into sketch vertices: filter, project into the map's spatial reference, and
/// append through the sketch's public API (`appendVertex`, `addPart`) — the calls a person's
/// edits use, so every fix is an undoable step and posts geometry-changed.
///
/// A fix whose `segment` differs from the previous accepted fix's starts a new part.
struct GPSIngest {
    let settings: TraceGPSSettings
    let mapSpatialReference: SpatialReference
    /// Fixes seen.
    private(set) var fixes = 0
    /// Fixes appended.
    private(set) var appended = 0
    /// Dropped fixes by reason (the filter's reason names).
    private(set) var dropped: [String: Int] = [:]
    private var filter: GPSFilter.Stream
    private var lastSegment: Int?
    /// The projection from the fixes' spatial reference to the map's, resolved once (or why it
    /// cannot be: every fix then logs that error, as projecting it would).
    private let projection: Result<PointProjection, ProjectionError>

    init(settings: TraceGPSSettings, mapSpatialReference: SpatialReference) {
        self.settings = settings
        self.mapSpatialReference = mapSpatialReference
        filter = GPSFilter.Stream(
            GPSFilter(
                minimumDistance: settings.minDistance > 0 ? settings.minDistance : nil, maximumHDOP: settings.maxHDOP,
                maximumAccuracy: settings.maxAccuracy, dropDuplicates: settings.dropDuplicates,
                dropOutOfOrder: settings.dropOutOfOrder))
        projection = Result { () throws(ProjectionError) in
            try PointProjection(from: settings.spatialReference, to: mapSpatialReference)
        }
    }

    /// The readers' fix for a trace fix.
    static func fix(_ f: TraceGPSFix) -> GPSFix {
        GPSFix(
            time: f.time, latitude: f.lat, longitude: f.lon, elevation: f.ele, hdop: f.hdop, horizontalAccuracy: f.accuracy,
            speed: f.speed, segment: f.segment)
    }

    /// Filters, projects and appends one fix to the session's sketch. The session's log is
    /// reached through the session (not passed `inout`): the sketch's geometry-changed handler
    /// writes to the same log while the fix is being appended.
    @MainActor
    mutating func ingest(_ f: TraceGPSFix, session: ReplaySession) {
        fixes += 1
        guard let sketch = session.sketch else {
            session.log.append("error", ["message": "a GPS fix needs a sketch (the header has no \"sketch\")"])
            return
        }
        if let reason = filter.consider(Self.fix(f)) {
            dropped[reason.rawValue, default: 0] += 1
            return
        }
        do {
            let q = try projection.get().project(Point(x: f.lon, y: f.lat, z: f.ele))
            if let last = lastSegment, last != f.segment, sketch.geometryType == .polyline || sketch.geometryType == .polygon {
                session.log.append("gpsSegment", ["segment": .integer(Int64(f.segment))])
                session.log.muted = true
                defer { session.log.muted = false }
                _ = try sketch.addPart()
            }
            session.log.muted = true
            defer { session.log.muted = false }
            try sketch.appendVertex(q)
            lastSegment = f.segment
            appended += 1
        } catch {
            session.log.muted = false
            session.log.append("error", ["message": .string("GPS fix (\(f.lat), \(f.lon)): \(error)")])
        }
    }

    /// The GPS section of the output: fixes read, appended, dropped by reason, parts and the
    /// geodesic length of the sketch in meters.
    @MainActor
    func report(sketch: SketchLayer?, mapSpatialReference: SpatialReference?) -> JSONValue {
        var o: JSONObject = ["fixes": .integer(Int64(fixes)), "appended": .integer(Int64(appended))]
        var d = JSONObject()
        for k in dropped.keys.sorted() { d[k] = .integer(Int64(dropped[k] ?? 0)) }
        o["dropped"] = .object(d)
        if let sketch {
            let g = sketch.geometry
            o["parts"] = .integer(Int64(g.parts.count))
            if let sr = mapSpatialReference, let len = try? GeometryEngine.geodesicLength(g, spatialReference: sr) {
                o["geodesicLength"] = .number((len * 1000).rounded() / 1000)
            }
        }
        return .object(o)
    }
}
