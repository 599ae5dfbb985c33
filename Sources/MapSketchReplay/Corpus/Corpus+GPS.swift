import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReaders

extension Corpus {
    // MARK: gps/ — synthetic tracks for the filters, parts and polygons

    static func fix(_ lat: Double, _ lon: Double, time: Double? = nil, accuracy: Double? = nil, hdop: Double? = nil, segment: Int = 0) -> GPSFix {
        GPSFix(time: time, latitude: lat, longitude: lon, hdop: hdop, horizontalAccuracy: accuracy, segment: segment)
    }

    static func gpsHeader(_ name: String, _ description: String, _ type: GeometryType, center: (Double, Double), resolution: Double) -> TraceHeader {
        var h = TraceHeader()
        h.name = name
        h.description = description
        h.screen = ScreenSize(width: 600, height: 400)
        let m = GeometryEngine.projectGeographicToWebMercator(Point(x: center.1, y: center.0))
        // Rounded to the millimetre so the header reads well.
        let c = Point(x: (m.x * 1000).rounded() / 1000, y: (m.y * 1000).rounded() / 1000)
        h.viewport = Viewport(center: c, resolution: resolution)
        h.spatialReference = .webMercator
        h.sketch = TraceSketchSetup(geometryType: type)
        return h
    }

    static func gpsSynthetic() -> [(String, Trace)] {
        var t: [(String, Trace)] = []
        let t0 = 1_700_000_000.0
        // Each step ~11 m north (0.0001° latitude).
        func walk(_ n: Int, from: (Double, Double) = (46.05, 14.5), dlat: Double = 0.0001, dlon: Double = 0, segment: Int = 0, start: Double = 0) -> [GPSFix] {
            (0..<n).map { i in fix(from.0 + dlat * Double(i), from.1 + dlon * Double(i), time: t0 + start + Double(i), accuracy: 4, segment: segment) }
        }
        do {
            var s = TraceScript(header: gpsHeader("gps-walk-polyline", "GPS: ten fixes ~11 m apart become a ten-vertex polyline with its geodesic length (~100 m)", .polyline, center: (46.0505, 14.5), resolution: 0.5))
            for f in walk(10) { s.gps(f) }
            t.append(("gps/walk-polyline", s.trace))
        }
        do {
            var h = gpsHeader("gps-min-distance", "GPS filter: minDistance 25 m keeps every third fix of an 11 m-step walk", .polyline, center: (46.0505, 14.5), resolution: 0.5)
            h.gpsFilter.minimumDistance = 25
            var s = TraceScript(header: h)
            for f in walk(10) { s.gps(f) }
            t.append(("gps/filter-min-distance", s.trace))
        }
        do {
            var h = gpsHeader("gps-accuracy", "GPS filters: maxAccuracy 10 m drops a fix reported at 30 m; maxHDOP 3 drops one at HDOP 4", .polyline, center: (46.0505, 14.5), resolution: 0.5)
            h.gpsFilter.maximumAccuracy = 10
            h.gpsFilter.maximumHDOP = 3
            var s = TraceScript(header: h)
            var fixes = walk(8)
            fixes[2].horizontalAccuracy = 30
            fixes[5].horizontalAccuracy = nil
            fixes[5].hdop = 4
            fixes[6].horizontalAccuracy = nil
            fixes[6].hdop = 1
            for f in fixes { s.gps(f) }
            t.append(("gps/filter-accuracy", s.trace))
        }
        do {
            let h = gpsHeader("gps-duplicates-out-of-order", "GPS filters: a repeated fix and a fix earlier than the last accepted are dropped", .polyline, center: (46.0505, 14.5), resolution: 0.5)
            var s = TraceScript(header: h)
            var fixes = walk(6)
            fixes.insert(fixes[2], at: 3)
            var late = fixes[1]
            late.latitude += 0.00005
            late.time = (late.time ?? 0) - 0.5
            fixes.insert(late, at: 5)
            for f in fixes { s.gps(f) }
            t.append(("gps/filter-duplicates-out-of-order", s.trace))
        }
        do {
            var h = gpsHeader("gps-filters-off", "GPS filters off: duplicates and out-of-order fixes are kept", .polyline, center: (46.0505, 14.5), resolution: 0.5)
            h.gpsFilter.dropDuplicates = false
            h.gpsFilter.dropOutOfOrder = false
            var s = TraceScript(header: h)
            var fixes = walk(5)
            fixes.insert(fixes[2], at: 3)
            for f in fixes { s.gps(f) }
            t.append(("gps/filters-off", s.trace))
        }
        do {
            var s = TraceScript(header: gpsHeader("gps-segments-parts", "GPS: three track segments become three parts", .polyline, center: (46.0505, 14.5005), resolution: 1))
            for seg in 0..<3 { for f in walk(4, from: (46.05, 14.5 + 0.0005 * Double(seg)), segment: seg, start: Double(seg * 10)) { s.gps(f) } }
            t.append(("gps/segments-become-parts", s.trace))
        }
        do {
            var s = TraceScript(header: gpsHeader("gps-polygon", "GPS into a polygon: walking a ~110 m square gives a valid ring", .polygon, center: (46.0505, 14.50075), resolution: 0.5))
            let corners: [(Double, Double)] = [(46.05, 14.5), (46.051, 14.5), (46.051, 14.5015), (46.05, 14.5015)]
            var i = 0.0
            for c in corners {
                s.gps(fix(c.0, c.1, time: t0 + i, accuracy: 3))
                i += 30
            }
            t.append(("gps/polygon-square", s.trace))
        }
        do {
            var s = TraceScript(header: gpsHeader("gps-undo", "GPS appends are undoable steps: undo twice after five fixes leaves three vertices", .polyline, center: (46.0502, 14.5), resolution: 0.5))
            for f in walk(5) { s.gps(f) }
            s.call(.undo)
            s.call(.undo)
            t.append(("gps/undo-after-fixes", s.trace))
        }
        do {
            var h = gpsHeader("gps-antimeridian", "GPS across the antimeridian (179.9995°E → 179.9995°W) on a wrapping map", .polyline, center: (-16.5, 180), resolution: 1)
            h.options.wrapAround = true
            var s = TraceScript(header: h)
            for i in 0..<6 { s.gps(fix(-16.5, 179.9995 + 0.0002 * Double(i) - (179.9995 + 0.0002 * Double(i) > 180 ? 360 : 0), time: t0 + Double(i), accuracy: 5)) }
            t.append(("gps/antimeridian-crossing", s.trace))
        }
        do {
            var s = TraceScript(header: gpsHeader("gps-dropout", "GPS with a drop-out: a 60 s gap without fixes keeps one part; the geodesic length spans the gap", .polyline, center: (46.0505, 14.5), resolution: 0.5))
            for f in walk(4) { s.gps(f) }
            for f in walk(4, from: (46.0506, 14.5), start: 64) { s.gps(f) }
            t.append(("gps/dropout-gap", s.trace))
        }
        return t
    }

    // MARK: gps/real-… — the real GPX and NMEA files

    /// One gps/real-… trace per GPX and NMEA file under real/, embedding its fixes.
    static func realGPS(root: URL, skipped: (String) -> Void) -> [Entry] {
        var out: [Entry] = []
        for u in files(root, "real/gpx", suffixes: [".gpx", ".gpx.gz"]) + files(root, "real/nmea", suffixes: [".log", ".nmea"]) {
            let rel = u.path.replacingOccurrences(of: root.path + "/", with: "")
            let bytes = Array((try? Data(contentsOf: u)) ?? Data())
            let track: GPSTrack
            do {
                track = try GPSFileReader.read(bytes: bytes, fileName: u.lastPathComponent)
            } catch {
                // A file the reader refuses: record the refusal as a malformed trace's expectation.
                skipped("\(rel): \(error)")
                continue
            }
            let base = slug(u.deletingLastPathComponent().lastPathComponent + "-" + u.lastPathComponent.replacingOccurrences(of: ".gz", with: "").replacingOccurrences(of: ".gpx", with: "").replacingOccurrences(of: ".log", with: ""))
            let kind = rel.hasPrefix("real/gpx") ? "gpx" : "nmea"
            let trace = TraceBuilder.gpsTrace(
                track, name: "\(kind)-\(base)", description: "Real \(kind.uppercased()) file \(rel) (\(track.fixes.count) fixes, \(track.segmentCount) segment(s)) replayed into a polyline sketch")
            out.append(Entry(path: "gps/real-\(kind)-\(base)", text: TraceEncoder.encode(trace)))
        }
        return out
    }
}
