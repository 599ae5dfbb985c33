public import MapSketch
public import MapSketchGeometry
public import MapSketchReaders

/// Turns a GPS track into a sketch a fix at a time, as replaying the track's trace
/// (``TraceBuilder/gpsTrace(_:name:description:geometryType:filter:screen:)``) would, without
/// holding the track or the trace: the one-shot conversion behind `mapsketch gps`.
///
/// Each fix becomes the trace event the trace would hold and goes through the replay engine's
/// GPS ingest (filters, projection, `appendVertex`, a part per segment) on a session set up from
/// the trace's header, so the geometry, the GPS report and the SVG are the ones a replay of the
/// trace gives. Kept fixes go into the sketch in batches of 4096 (the sketch is complete whenever
/// ``session`` is read), the last of each through `appendVertex`, so the sketch ends as appending
/// every fix would leave it; a polyline's geodesic length is summed on a thread of its own as the
/// batches go in. What is kept: the sketch's vertices (16 bytes each, 24 with a height) and
/// constant state — no fixes, no events, and an undo history of one step (a conversion is never
/// undone), not one 64-byte record per fix.
///
/// ```swift
/// let conversion = try GPSConversion(name: "ride.gpx", description: "GPS track ride.gpx", geometryType: .polyline)
/// var reader = try GPSFileReader.open(try FileByteSource(path: "ride.gpx"), fileName: "ride.gpx")
/// while let fix = try reader.next() { conversion.add(fix) }
/// conversion.finish()
/// conversion.session.sketch?.vertices   // the track, in Web Mercator
/// ```
@MainActor
@_spi(MapSketchInternal) public final class GPSConversion {
    /// The session the fixes are replayed into (its map, sketch and GPS ingest), every fix added
    /// so far in its sketch.
    @_spi(MapSketchInternal) public var session: ReplaySession {
        if replaySession.gps.appendsInBulk { replaySession.gps.flushPending(into: replaySession.sketch, log: replaySession.log) }
        return replaySession
    }
    private let replaySession: ReplaySession
    /// The screen the map is framed on.
    @_spi(MapSketchInternal) public let screen: ScreenSize
    /// Fixes added so far.
    @_spi(MapSketchInternal) public private(set) var fixCount = 0
    private var frame = GPSTrackFrame()
    private var clock = GPSEventClock()

    /// A conversion into a new sketch of `geometryType` on a Web Mercator map, dropping fixes
    /// by `filter`.
    /// - Throws: ``TraceError`` if the map cannot be set up (it always can for these settings).
    @_spi(MapSketchInternal) public init(
        name: String, description: String, geometryType: GeometryType = .polyline, filter: GPSFilter = TraceHeader.defaultGPSFilter,
        screen: ScreenSize = ScreenSize(width: 800, height: 600)
    ) throws(TraceError) {
        self.screen = screen
        let header = TraceBuilder.gpsHeader(name: name, description: description, geometryType: geometryType, filter: filter, screen: screen)
        do {
            replaySession = try ReplaySession(trace: Trace(header: header, events: []), name: name)
        } catch {
            throw TraceError(file: name, line: 1, column: 1, message: error.message)
        }
        replaySession.sketch?.levelsOfUndo = 1
        replaySession.stopLoggingSketchEvents()
        // Nothing edits or watches the sketch between fixes: kept fixes go in in batches.
        if let sketch = replaySession.sketch {
            replaySession.gps.appendInBulk(to: sketch, mapSpatialReference: replaySession.mapView.spatialReference)
        }
    }

    /// Adds the next fix of the track (``add(_:)`` without the trace event).
    /// - Complexity: O(1) amortised.
    @_spi(MapSketchInternal) public func append(_ fix: GPSFix) { add(fix) }

    /// Adds the next fix of the track.
    /// - Returns: the fix's trace event (what a saved trace holds for it).
    /// - Complexity: O(1) amortised.
    @discardableResult
    package func add(_ fix: GPSFix) -> TraceEntry {
        let q = frame.add(fix)
        let entry = clock.entry(for: fix)
        // What `ReplaySession.apply` does with a GPS event (the map's clock matters to touches
        // only), with the projection the frame made; counted, never written: a failed fix must
        // not grow the log either.
        if case .gps(let f) = entry.event {
            let session = replaySession
            let refused = session.log.countingOnly {
                session.gps.projectsGeographicToWebMercator
                    ? session.gps.ingest(f, into: session.sketch, log: session.log) { q }
                    : session.gps.ingest(f, into: session.sketch, log: session.log)
            }
            if let refused { session.refusals.note(RefusedEvent(line: entry.line, call: "gps", message: refused)) }
        }
        fixCount += 1
        return entry
    }

    /// Frames the map on the track (the trace header's viewport); call after the last fix.
    @_spi(MapSketchInternal) public func finish() {
        let session = self.session
        if let v = frame.viewport(screen: screen) { session.mapView.viewport = v }
    }

    /// The header of the trace the track makes (its viewport framing the fixes added so far).
    @_spi(MapSketchInternal) public var header: TraceHeader {
        var h = replaySession.trace.header
        if let v = frame.viewport(screen: screen) { h.viewport = v }
        return h
    }

    /// The GPS section of the replay output: fixes, appended, dropped by reason, parts, length.
    @_spi(MapSketchInternal) public var report: JSONValue {
        let session = self.session
        return session.gps.report(sketch: session.sketch, mapSpatialReference: session.mapView.spatialReference)
    }
}
