public import Foundation
package import MapSketchGeometry
public import MapSketchReplay

/// A golden file of one geometry, checked or recorded by the golden workflow of traces: the same
/// tolerance (``GoldenTolerance``), record modes (``RecordMode``), pending files and atomic
/// writes as `mapsketch check`, for a geometry that a team's own code produced.
///
/// The golden is `NAME.EXT` in ``folder`` (`EXT` by ``Format``). On a mismatch the output is left
/// beside it as `NAME.actual.EXT`, with `NAME.diff.svg` marking every changed vertex; a match
/// removes them. The JSON formats and WKT are compared as numbers within the tolerance, with
/// structure exact (WKT through the Esri JSON of both geometries); SVG exactly, line by line.
public struct GeometryGolden: Hashable, Sendable {
    /// How the golden file holds the geometry.
    public enum Format: String, Hashable, Sendable, CaseIterable {
        /// Esri JSON, pretty printed, with the spatial reference (`NAME.esri.json`).
        case esriJSON
        /// GeoJSON in WGS 84 longitude/latitude, pretty printed (`NAME.geojson`); the geometry
        /// must have a spatial reference that projects to WGS 84.
        case geoJSON
        /// OGC well-known text, without a spatial reference (`NAME.wkt`).
        case wkt
        /// An SVG picture of the geometry with its start and end marked and a scale bar
        /// (`NAME.svg`), compared exactly.
        case svg

        /// The codec of a geometry format; nil for SVG, which is compared as text.
        var codec: GeometryFormat? {
            switch self {
            case .esriJSON: .esriJSON
            case .geoJSON: .geoJSON
            case .wkt: .wkt
            case .svg: nil
            }
        }

        /// The file name extension: `esri.json`, `geojson`, `wkt`, `svg`.
        public var fileExtension: String {
            switch self {
            case .esriJSON: "esri.json"
            case .geoJSON: "geojson"
            case .wkt: "wkt"
            case .svg: "svg"
            }
        }
    }

    /// The golden's name (the file name without extension).
    public var name: String
    /// The folder the golden and its pending files are in.
    package var folder: URL
    /// The file format.
    public var format: Format
    /// How close numbers must be (not used for SVG, which is compared exactly).
    public var tolerance: GoldenTolerance

    /// A golden `name` in `folder`.
    public init(name: String, folder: URL, format: Format, tolerance: GoldenTolerance = .standard) {
        self.name = name
        self.folder = folder
        self.format = format
        self.tolerance = tolerance
    }

    /// `NAME.EXT`.
    package var expected: URL { folder.appendingPathComponent("\(name).\(format.fileExtension)") }
    /// `NAME.actual.EXT`: the output, left on a mismatch.
    package var actual: URL { folder.appendingPathComponent("\(name).actual.\(format.fileExtension)") }
    /// `NAME.diff.svg`: expected geometry (green) under actual (red), left on a mismatch.
    package var diffSVG: URL { folder.appendingPathComponent("\(name).diff.svg") }
    /// The files a mismatch leaves beside the golden.
    package var pendingFiles: [URL] { [actual, diffSVG] }

    /// The golden text of `geometry` in ``format`` (newline-terminated).
    /// - Throws: ``GeoJSONOutputError`` for GeoJSON when the geometry cannot be projected to WGS 84.
    package func text(of geometry: SpatialGeometry) throws(GeoJSONOutputError) -> String {
        switch format {
        case .esriJSON: EsriJSON.encode(geometry, style: .pretty) + "\n"
        case .geoJSON: try GeoJSON.encode(geometry, options: GeoJSON.EncodingOptions(style: .pretty)) + "\n"
        case .wkt: WKT.encode(geometry.geometry) + "\n"
        case .svg:
            GoldenOverlay.picture(
                GoldenOverlay.Input(
                    name: name, expected: nil, actual: geometry.geometry, tolerance: tolerance,
                    spatialReference: geometry.spatialReference), .actual)
        }
    }

    /// Checks `geometry` against the golden, or records it, as `record` says (the caller resolves
    /// the mode: ``RecordMode/resolve(requested:environment:)``).
    /// - Complexity: O(n) in the size of the texts.
    package func check(_ geometry: SpatialGeometry, record: RecordMode) -> GoldenStatus {
        let text: String
        do {
            text = try self.text(of: geometry)
        } catch {
            return .failed(GoldenFailure(report: "\(name): the geometry cannot be written as \(format.rawValue): \(error)\n"))
        }
        return check(text: text, record: record)
    }

    /// Checks an output text already in ``format`` against the golden, or records it.
    /// - Complexity: O(n) in the size of the texts.
    package func check(text: String, record: RecordMode) -> GoldenStatus {
        let file = expected.lastPathComponent
        let expectedText: String
        switch GoldenText.read(expected) {
        case .text(let t): expectedText = t
        case .missing:
            if record.recordsMissing { return write(text, changes: nil) }
            return failure("\(name): no golden file \(file)\n", text: text, diff: nil)
        case .unreadable(let why):
            if record.recordsFailures { return write(text, changes: "the golden was not readable: \(why)") }
            return failure("\(file): cannot read the golden file: \(why)\n", text: text, diff: nil)
        }
        let compared = compare(expected: expectedText, actual: text)
        if let report = compared.report {
            if record.recordsFailures { return write(text, changes: report) }
            return failure(report, text: text, diff: compared.diff)
        }
        let drifted = expectedText != text
        if drifted, record.recordsDrift { return write(text, changes: nil) }
        for stale in pendingFiles { try? FileManager.default.removeItem(at: stale) }
        if drifted { return .drifted(GoldenDrift(numbers: compared.drift.numbers, largest: compared.drift.largest)) }
        return record == .all ? .unchanged : .passed
    }

    /// How the texts differ: nil `report` when they match (within the tolerance), with the drift of
    /// the numbers; else the report, and the diff picture when both texts decode.
    private func compare(expected e: String, actual a: String) -> (report: String?, diff: String?, drift: (numbers: Int, largest: Double)) {
        let file = expected.lastPathComponent
        guard let codec = format.codec else {
            return (GoldenText.firstDifference(expected: e, actual: a).map { "\(file): \($0)\n" }, nil, (0, 0))
        }
        let old: SpatialGeometry
        let new: SpatialGeometry
        do {
            old = try codec.decode(e)
        } catch {
            return ("\(file): cannot read the golden: \(error)\n", nil, (0, 0))
        }
        do {
            new = try codec.decode(a)
        } catch {
            return ("\(name): the output does not decode as \(format.rawValue): \(error)\n", nil, (0, 0))
        }
        let oldValue: JSONValue
        let newValue: JSONValue
        if format == .wkt {
            // WKT is text: its numbers are compared through the Esri JSON of both geometries.
            oldValue = EsriJSON.jsonValue(old)
            newValue = EsriJSON.jsonValue(new)
        } else {
            oldValue = (try? JSONParser.parse(e)) ?? .null
            newValue = (try? JSONParser.parse(a)) ?? .null
        }
        let c = GoldenComparison.compare(expected: oldValue, actual: newValue, tolerance: tolerance)
        guard !c.matches else { return (nil, nil, (c.driftingNumbers, c.largestDrift)) }
        var report = GoldenComparison.report(file: file, c.differences, total: c.total)
        if format == .wkt, let line = GoldenText.firstDifference(expected: e, actual: a) { report += "  text: \(line)\n" }
        let diff = GoldenOverlay.picture(
            GoldenOverlay.Input(
                name: name, expected: old.geometry, actual: new.geometry, tolerance: tolerance, differingNumbers: c.differingNumbers,
                spatialReference: new.spatialReference), .overlay)
        return (report, diff, (0, 0))
    }

    /// A failure: the output is left as ``actual`` (and the picture as ``diffSVG``), which the
    /// report names.
    private func failure(_ report: String, text: String, diff: String?) -> GoldenStatus {
        var report = report
        do {
            try AtomicFile.write(text, to: actual)
            if let diff {
                try AtomicFile.write(diff, to: diffSVG)
            } else {
                try? FileManager.default.removeItem(at: diffSVG)
            }
            report += "  wrote \(actual.lastPathComponent)\(diff != nil ? " and \(diffSVG.lastPathComponent)" : "")\n"
        } catch {
            report += "  could not write the actual output: \(error)\n"
        }
        return .failed(GoldenFailure(report: report))
    }

    /// Records the golden (atomically) and removes the pending files.
    private func write(_ text: String, changes: String?) -> GoldenStatus {
        do {
            try AtomicFile.write(text, to: expected)
        } catch {
            return .failed(GoldenFailure(report: "\(name): cannot record: \(error)\n"))
        }
        for stale in pendingFiles { try? FileManager.default.removeItem(at: stale) }
        return .recorded(changes: changes)
    }
}
