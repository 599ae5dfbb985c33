import ArgumentParser
import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReplay

struct GPSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gps",
        abstract: "Replay a GPS track (.gpx, .gpx.gz, .nmea/.log, .geojson/.geojsonl) into a sketch and print the geometry.",
        discussion: """
            Fixes are filtered, projected into the map's spatial reference (Web Mercator) and appended through the \
            sketch's public API; each track segment becomes a part. A summary (fixes kept and dropped by reason, \
            parts, geodesic length) goes to stderr.
            """)

    @Argument(help: "The track file.")
    var track: String

    @Option(help: "Drop fixes closer than this many meters to the last kept one.")
    var minDistance: Double = 0

    @Option(help: "Drop fixes whose horizontal accuracy (m) is larger.")
    var maxAccuracy: Double?

    @Option(help: "Drop fixes whose HDOP is larger.")
    var maxHdop: Double?

    @Flag(help: "Keep exact repeats of the last kept fix.")
    var keepDuplicates = false

    @Flag(help: "Keep fixes whose time does not advance.")
    var keepOutOfOrder = false

    @OptionGroup var sketch: SketchTypeOption

    @OptionGroup var map: MapOutputOptions

    @Option(help: "Write the trace made from the track to this file (.trace.jsonl).")
    var saveTrace: String?

    func validate() throws {
        try NumericOption.check(minDistance, "min-distance", 0...(.greatestFiniteMagnitude), unit: "meters")
        if let maxAccuracy { try NumericOption.check(maxAccuracy, "max-accuracy", 0...(.greatestFiniteMagnitude), unit: "meters") }
        if let maxHdop { try NumericOption.check(maxHdop, "max-hdop", 0...(.greatestFiniteMagnitude)) }
    }

    /// Reads a track in the format its name says (``GPSFileReader/format(forFileName:)``).
    static func read(_ url: URL, file: String) throws(ExitCode) -> GPSTrack {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw CLI.fail("\(file): cannot read the file") }
        guard let format = GPSFileReader.format(forFileName: url.lastPathComponent) else {
            throw CLI.fail("\(file): expected a .gpx, .gpx.gz, .nmea, .log, .geojson or .geojsonl file")
        }
        do {
            return try GPSFileReader.read(bytes: Array(data), format: format, file: file)
        } catch {
            throw CLI.fail("\(error)")
        }
    }

    @MainActor
    mutating func run() async throws {
        let url = URL(fileURLWithPath: track)
        let file = CLI.display(url)
        let t = try Self.read(url, file: file)
        var filter = TraceHeader.defaultGPSFilter
        filter.minimumDistance = minDistance > 0 ? minDistance : nil
        filter.maximumAccuracy = maxAccuracy
        filter.maximumHDOP = maxHdop
        filter.dropDuplicates = !keepDuplicates
        filter.dropOutOfOrder = !keepOutOfOrder
        let trace = TraceBuilder.gpsTrace(t, name: file, description: "GPS track \(file)", geometryType: sketch.type.geometryType, filter: filter)
        if let saveTrace { try CLI.write(TraceEncoder.encode(trace), to: saveTrace) }
        let session = try CLI.input { () throws(TraceError) in try Replayer.replay(trace, name: file, file: file) }
        let out = session.output()
        try map.writeSVG(of: session)
        var summary = "\(file): \(t.fixes.count) fixes, \(t.segmentCount) segment(s), \(t.waypoints.count) waypoint(s)"
        if let gps = out.document["gps"] { summary += "\n  " + JSONWriter.string(gps) }
        CLI.printError(summary)
        if let g = out.geometry { map.print(g) }
    }
}
