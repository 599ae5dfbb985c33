public import MapSketch
public import MapSketchGeometry
import Foundation
public import MapSketchReaders

/// Builds whole traces from recorded inputs: GPS tracks and touch logs.
public enum TraceBuilder {
    /// A trace that replays a GPS track into a new sketch of `geometryType` on a Web Mercator map
    /// whose viewport frames the track.
    ///
    /// Event times are the fixes' times relative to the first timed fix (never decreasing: a fix
    /// earlier than the previous event keeps the previous time; one without time comes 1 s after
    /// the previous event), so replay order is file order and the `gps` filters see the receiver
    /// times unchanged. Each event keeps what a trace line holds of its fix (see
    /// ``TraceEvent/gps(_:)``), so the trace is the same before and after a round trip through text.
    /// - Complexity: O(n) in the number of fixes.
    public static func gpsTrace(
        _ track: GPSTrack, name: String, description: String, geometryType: GeometryType = .polyline,
        filter: GPSFilter = TraceHeader.defaultGPSFilter, screen: ScreenSize = ScreenSize(width: 800, height: 600)
    ) -> Trace {
        var h = gpsHeader(name: name, description: description, geometryType: geometryType, filter: filter, screen: screen)
        var env = GPSTrackFrame()
        for f in track.fixes { env.add(f) }
        h.viewport = env.viewport(screen: screen) ?? h.viewport
        var events: [TraceEntry] = []
        events.reserveCapacity(track.fixes.count)
        var clock = GPSEventClock()
        for f in track.fixes { events.append(clock.entry(for: f)) }
        return Trace(header: h, events: events)
    }

    /// The header of ``gpsTrace(_:name:description:geometryType:filter:screen:)`` before its
    /// viewport is set: a Web Mercator map, a new sketch of `geometryType`, the filter.
    static func gpsHeader(
        name: String, description: String, geometryType: GeometryType, filter: GPSFilter, screen: ScreenSize
    ) -> TraceHeader {
        var h = TraceHeader()
        h.name = name
        h.description = description
        h.screen = screen
        h.spatialReference = .webMercator
        h.sketch = TraceSketchSetup(geometryType: geometryType)
        h.gpsFilter = filter
        return h
    }

    /// A trace that replays recorded touches (e.g. from `getevent`) into a sketch on a map whose
    /// screen is `screen`, one map unit per point, centered at the origin.
    /// - Complexity: O(n) in the number of touches.
    public static func touchTrace(
        _ touches: [TouchEvent], name: String, description: String, screen: ScreenSize, geometryType: GeometryType = .polyline
    ) -> Trace {
        var h = TraceHeader()
        h.name = name
        h.description = description
        h.screen = screen
        h.viewport = Viewport(center: Point(0, 0), resolution: 1)
        h.sketch = TraceSketchSetup(geometryType: geometryType)
        h.options.showMagnifierOnTapAndHold = true
        var last = 0.0
        let events = touches.map { e -> TraceEntry in
            let t = max((e.time * 1_000_000).rounded() / 1_000_000, last)
            last = t
            let location = ScreenPoint(x: (e.location.x * 1000).rounded() / 1000, y: (e.location.y * 1000).rounded() / 1000)
            return TraceEntry(t: t, .touch(phase: e.phase, id: e.id, location: location))
        }
        return Trace(header: h, events: events)
    }
}

/// The envelope of a GPS track in Web Mercator, fix by fix, and the viewport that frames it: the
/// one rule ``TraceBuilder/gpsTrace(_:name:description:geometryType:filter:screen:)`` and the
/// streaming GPS conversion share.
struct GPSTrackFrame {
    private(set) var envelope: Envelope?

    /// Widens the envelope to the fix (every fix, kept by the filters or not); returns the fix in
    /// Web Mercator, its elevation as z.
    @discardableResult
    mutating func add(_ f: GPSFix) -> Point {
        let p = GeometryEngine.projectGeographicToWebMercator(Point(x: f.longitude, y: f.latitude, z: f.elevation))
        if envelope == nil { envelope = Envelope(p) } else { envelope?.expand(toInclude: p) }
        return p
    }

    /// The viewport centred on the envelope with the track filling 90 % of `screen` (resolution
    /// rounded up to 0.001 m), or nil before any fix.
    func viewport(screen: ScreenSize) -> Viewport? {
        guard let e = envelope else { return nil }
        let w = max(e.xmax - e.xmin, 1)
        let hgt = max(e.ymax - e.ymin, 1)
        let res = max(w / (screen.width * 0.9), hgt / (screen.height * 0.9))
        return Viewport(center: Point((e.xmin + e.xmax) / 2, (e.ymin + e.ymax) / 2), resolution: (res * 1000).rounded(.up) / 1000)
    }
}

/// The trace event of each fix of a GPS track, in order: its time relative to the first timed fix
/// (never decreasing; a fix without time comes 1 s after the previous event), to the millisecond,
/// and the fix as a trace line holds it.
struct GPSEventClock {
    private var t0: Double?
    private var last = 0.0
    private var started = false

    /// The event for the next fix.
    mutating func entry(for f: GPSFix) -> TraceEntry {
        if t0 == nil, let ft = f.time { t0 = ft }
        var t: Double
        if let ft = f.time, let t0 { t = max(ft - t0, last) } else { t = started ? last + 1 : 0 }
        t = (t * 1000).rounded() / 1000
        last = t
        started = true
        let fix = GPSFix(
            time: f.time, latitude: f.latitude, longitude: f.longitude, elevation: f.elevation, hdop: f.hdop,
            horizontalAccuracy: f.horizontalAccuracy, speed: f.speed, segment: f.segment)
        return TraceEntry(t: t, .gps(fix))
    }
}
