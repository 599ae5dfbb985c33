package import MapSketchGeometry
package import MapSketchReaders

/// What a GPS file held, counted fix by fix as it is read (so a streaming reader can count
/// without keeping the fixes): fixes, those without a time, those with and without elevation, and
/// the NMEA reader's statistics for NMEA input.
package struct GPSReadCounts: Hashable, Sendable {
    /// Track and route points read.
    package var fixes = 0
    /// Fixes without a time (GPX points without `<time>`, NMEA fixes before any date).
    package var withoutTime = 0
    /// Fixes with an elevation.
    package var withElevation = 0
    /// Track segments the file declared.
    package var segments = 0
    /// Waypoints read (they never become vertices).
    package var waypoints = 0
    /// The NMEA reader's statistics (sentences with a bad checksum, of unused types, …), for NMEA input.
    package var nmea: NMEAReader.Statistics?

    /// Nothing read yet.
    package init() {}

    /// The counts of a whole track (and NMEA statistics, when the track is NMEA).
    /// - Complexity: O(n) in the fixes.
    package init(_ track: GPSTrack, nmea: NMEAReader.Statistics? = nil) {
        for f in track.fixes { note(f) }
        segments = track.segmentCount
        waypoints = track.waypoints.count
        self.nmea = nmea
    }

    /// Counts one fix.
    package mutating func note(_ fix: GPSFix) {
        fixes += 1
        if fix.time == nil { withoutTime += 1 }
        if fix.elevation != nil { withElevation += 1 }
    }
}

/// `n` and the noun, plural unless `n` is 1: `1 line`, `3 lines`.
func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

/// The report `mapsketch gps` prints about a track: what was read and skipped, by reason; what
/// was done with fixes without a time; what the filters dropped; and the result — its parts,
/// vertices, length and validity — with a warning for each problem, and the reason when no
/// usable fix remained or the result cannot be written. Nothing is dropped or changed without
/// a line saying so.
///
/// Heights: the track is written 3-D only when every kept fix has an elevation; when only some
/// do, it is written 2-D in every format, with a warning giving the count.
/// A line needs two vertices and a ring three: a polyline part of one kept fix, or a polygon
/// ring of fewer than three, has no valid text in any format, and is an error
/// (``cannotWrite``), never a one-point `LINESTRING`.
package struct GPSReport: Hashable, Sendable {
    /// The lines of the report, the first naming the file.
    package var lines: [String]
    /// Problems with the result (a self-intersecting polygon, an invalid part, elevations only
    /// some kept fixes have), each a sentence.
    package var warnings: [String]
    /// Why the track gave no vertex at all (then the command exits 2); nil when it gave some.
    package var noUsableFix: String?
    /// Why the result cannot be written as its type — a polyline part with one vertex, a
    /// polygon ring with fewer than three (then the command exits 2); nil when it can.
    package var cannotWrite: String?

    /// The report for `file` from the read counts and the replay's output (its `gps` and
    /// `sketch` sections and final geometry).
    /// - Complexity: O(n) in the vertices (the validity check).
    package init(file: String, counts: GPSReadCounts, output: ReplayOutput) {
        self.init(
            file: file, counts: counts, gps: output.document["gps"],
            geometryType: output.document["sketch"]?["geometryType"]?.stringValue, geometry: output.geometry?.geometry)
    }

    /// The report for `file` from the read counts, the GPS section of the output (`gps`), and
    /// the sketch's type and geometry (nil without a sketch): what a streaming conversion has
    /// without building the whole output document.
    /// - Complexity: O(n) in the vertices (the validity check).
    package init(file: String, counts: GPSReadCounts, gps: JSONValue?, geometryType: String?, geometry: Geometry?) {
        self.init(
            file: file, counts: counts, gps: gps, geometryType: geometryType,
            result: geometry.map { g in
                Result(
                    type: g.type, partSizes: g.parts.map(\.count), dimensions: WrittenDimensions(g), validate: { GeometryEngine.validate(g) })
            })
    }

    /// The report from the sketch's vertex store, without copying its vertices into a geometry
    /// when they are valid: a multipoint or polyline whose coordinates are finite and whose
    /// paths each have two distinct vertices is valid (what `GeometryEngine.validate` checks of
    /// them), proven in one pass; anything else is validated on the assembled geometry.
    /// - Complexity: O(n) in the vertices; memory O(1) for a valid multipoint or polyline.
    package init(file: String, counts: GPSReadCounts, gps: JSONValue?, geometryType: String?, store: VertexStore?) {
        self.init(
            file: file, counts: counts, gps: gps, geometryType: geometryType,
            result: store.map { store in
                let sizes = store.parts.map(\.count), dimensions = WrittenDimensions(store)
                if Self.provenValid(store) { return Result(type: store.type, partSizes: sizes, dimensions: dimensions, validate: { [] }) }
                let g = store.geometry
                return Result(type: g.type, partSizes: g.parts.map(\.count), dimensions: dimensions, validate: { GeometryEngine.validate(g) })
            })
    }

    /// What the report needs of the result: its type, its parts' sizes, which of z and m it is
    /// written with, and its validity (computed only when asked).
    private struct Result {
        var type: GeometryType
        var partSizes: [Int]
        var dimensions: WrittenDimensions
        var validate: () -> [ValidationIssue]
        var vertices: Int { partSizes.reduce(0, +) }
    }

    /// Why a geometry of `type` with parts of `sizes` vertices has no valid text: the first part
    /// of a polyline with one vertex, or of a polygon with fewer than three; nil when none.
    static func cannotWrite(_ type: GeometryType, partSizes sizes: [Int], dropped: Int) -> String? {
        let (least, noun, what) = type == .polygon ? (3, "ring", "a ring") : (2, "part", "a line")
        guard type == .polyline || type == .polygon, let first = sizes.firstIndex(where: { $0 > 0 && $0 < least }) else { return nil }
        let others = sizes.filter { $0 > 0 && $0 < least }.count - 1
        let n = sizes[first]
        var why = "the \(type.rawValue) cannot be written: its \(noun) \(first)"
        if others > 0 { why += " (and \(others) more)" }
        why += " has only \(n) \(n == 1 ? "vertex" : "vertices"), and \(what) needs at least \(least)"
        if dropped > 0 { why += " (the filters dropped \(dropped) \(dropped == 1 ? "fix" : "fixes"))" }
        return why + "; keep more fixes, or write them as points with --type multipoint"
    }

    /// Whether `store` is a multipoint or polyline that `GeometryEngine.validate` passes, by its
    /// rules for those types (finite x and y; two distinct vertices in each non-empty path).
    static func provenValid(_ store: VertexStore) -> Bool {
        guard store.type == .multipoint || store.type == .polyline else { return false }
        for part in store.parts {
            var first: Point?
            var distinct = false
            for p in part {
                guard p.x.isFinite && p.y.isFinite else { return false }
                if let f = first { if !distinct && !f.equals2D(p) { distinct = true } } else { first = p }
            }
            if store.type == .polyline, first != nil, !distinct { return false }
        }
        return true
    }

    private init(file: String, counts: GPSReadCounts, gps: JSONValue?, geometryType: String?, result: Result?) {
        var lines = [
            "\(file): \(counts.fixes) fix\(counts.fixes == 1 ? "" : "es"), \(counts.segments) segment\(counts.segments == 1 ? "" : "s"), \(counts.waypoints) waypoint\(counts.waypoints == 1 ? "" : "s")"
        ]
        var warnings: [String] = []
        if let s = counts.nmea {
            var read = "  read: \(count(s.lines, "line")), \(count(s.sentences, "sentence")) accepted"
            var skipped: [String] = []
            if s.badChecksum > 0 { skipped.append("\(s.badChecksum) with a bad checksum") }
            if s.unsupported > 0 { skipped.append("\(s.unsupported) of types not used (GSV, proprietary, …)") }
            if s.truncated > 0 { skipped.append("\(s.truncated) cut off mid-way") }
            if s.noFix > 0 { skipped.append("\(s.noFix) reporting no fix") }
            if s.ignoredLines > 0 { skipped.append("\(count(s.ignoredLines, "line")) without a sentence") }
            if !skipped.isEmpty { read += "; skipped: " + skipped.joined(separator: ", ") }
            if s.withoutChecksum > 0 { read += "; \(s.withoutChecksum) accepted without a checksum" }
            lines.append(read)
        }
        if counts.withoutTime > 0 {
            lines.append(
                "  time: \(counts.withoutTime) fix\(counts.withoutTime == 1 ? "" : "es") without a time: kept in file order, "
                    + "each placed 1 s after the previous fix on the replay clock, not checked by the out-of-order filter"
            )
        }
        let noElevation = counts.fixes - counts.withElevation
        if counts.withElevation > 0, noElevation > 0 {
            lines.append("  elevation: \(noElevation) of \(counts.fixes) fixes read have none")
        }
        let appended = gps?["appended"]?.int64Value ?? 0
        if let dropped = gps?["dropped"]?.objectValue {
            let kept = "  filters: \(appended) appended"
            lines.append(
                dropped.isEmpty
                    ? kept + ", none dropped"
                    : kept + "; dropped: "
                        + zip(dropped.keys, dropped.values).map { "\(JSONWriter.string($1)) \($0)" }.joined(
                            separator: ", "))
        }
        if appended > 0, let geometryType, let g = result {
            let parts = g.partSizes.count
            var line = "  result: \(geometryType), \(parts) part\(parts == 1 ? "" : "s"), \(g.vertices) \(g.vertices == 1 ? "vertex" : "vertices")"
            if let length = gps?["geodesicLength"] { line += ", \(JSONWriter.string(length)) m geodesic length" }
            let issues = g.validate()
            line += issues.isEmpty ? ", valid" : ", not valid"
            lines.append(line)
            for issue in issues.prefix(10) {
                warnings.append("the \(g.type.rawValue) is not valid: \(issue.description)")
            }
            if issues.count > 10 { warnings.append("… and \(issues.count - 10) more validity issues") }
            let missing = g.dimensions.missingZ
            if missing > 0 {
                warnings.append(
                    "\(missing) of \(g.vertices) kept fixes \(missing == 1 ? "has" : "have") no elevation: the track is written 2-D "
                        + "(with heights only when every kept fix has one)")
            }
        }
        let dropped = gps?["dropped"]?.objectValue.map { $0.values.reduce(0) { $0 + Int($1.int64Value ?? 0) } } ?? 0
        cannotWrite = appended > 0 ? result.flatMap { Self.cannotWrite($0.type, partSizes: $0.partSizes, dropped: dropped) } : nil
        self.lines = lines
        self.warnings = warnings
        if appended > 0 {
            noUsableFix = nil
        } else if counts.fixes == 0 {
            var why = "no usable fix: the file holds no track or route point"
            if let s = counts.nmea {
                var reasons: [String] = []
                if s.badChecksum > 0 {
                    reasons.append("\(s.badChecksum) sentence\(s.badChecksum == 1 ? "" : "s") with a bad checksum")
                }
                if s.noFix > 0 { reasons.append("\(s.noFix) reporting no fix") }
                if s.unsupported > 0 { reasons.append("\(s.unsupported) of types not used") }
                if s.truncated > 0 { reasons.append("\(s.truncated) cut off") }
                if s.ignoredLines > 0 { reasons.append("\(count(s.ignoredLines, "line")) without a sentence") }
                why =
                    "no usable fix: no NMEA sentence gave a position"
                    + (reasons.isEmpty
                        ? " (\(count(s.lines, "line")) read)" : " (" + reasons.joined(separator: ", ") + ")")
            } else if counts.waypoints > 0 {
                why += " (\(counts.waypoints) waypoint\(counts.waypoints == 1 ? "" : "s"), which never become vertices)"
            }
            noUsableFix = why
        } else {
            noUsableFix = "no usable fix: all \(counts.fixes) fixes were dropped by the filters (see above)"
        }
    }
}
