import ArgumentParser
import Foundation
import MapSketch
import MapSketchGeometry
@_spi(MapSketchInternal) import MapSketchReplay
@_spi(MapSketchInternal) import MapSketchReaders

/// The GPS track formats of `--in`.
enum GPSFormatName: String, ExpressibleByArgument, CaseIterable {
    case gpx, nmea, geojsonl

    var format: GPSFormat {
        switch self {
        case .gpx: .gpx
        case .nmea: .nmea
        case .geojsonl: .geoJSONLines
        }
    }
}

struct GPSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gps",
        abstract: "Replay a GPS track (GPX, NMEA 0183 or GeoJSON Lines, optionally gzip) into a sketch and print the geometry.",
        discussion: """
            The track is a file, a FIFO, or standard input (- or /dev/stdin); its format comes from --in, else from its \
            content, else from its name (.gpx, .gpx.gz, .nmea/.log, .geojson/.geojsonl). It is read as a stream, on a \
            second thread a few thousand fixes ahead of the conversion: memory holds the sketch's vertices, not the file. Fixes are filtered, projected into the map's spatial reference \
            (Web Mercator) and appended through the sketch's public API; each track segment becomes a part. A summary \
            (fixes kept and dropped by reason, parts, geodesic length) goes to stderr; the geometry to stdout as it is \
            written. Elevations become heights only when every kept fix has one: otherwise the track is written 2-D in \
            every format, with a warning giving the count. A line needs two vertices and a ring three: a part left \
            with fewer (--min-distance may leave one fix) is an error, exit 2, never a one-point LINESTRING. GeoJSON \
            output is WGS 84 longitude/latitude, projected from the map's Web Mercator.
            """)

    @Argument(help: "The track file, or - for standard input.")
    var track: String

    @Option(name: .customLong("in"), help: "The track's format (default: from the content, else the name).")
    var inputFormat: GPSFormatName?

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

    @Flag(
        help: ArgumentHelp(
            "On a damaged or truncated track, keep the fixes read before the damage.",
            discussion: "Reading stops at the first error, which is printed as a warning with its file:line:column; without this flag that error exits 2."))
    var keepPartial = false

    @OptionGroup var sketch: SketchTypeOption

    @OptionGroup var map: MapOutputOptions

    @Option(help: "Write the trace made from the track to this file (.trace.jsonl).")
    var saveTrace: String?

    func validate() throws {
        try NumericOption.check(minDistance, "min-distance", 0...(.greatestFiniteMagnitude), unit: "meters")
        if let maxAccuracy { try NumericOption.check(maxAccuracy, "max-accuracy", 0...(.greatestFiniteMagnitude), unit: "meters") }
        if let maxHdop { try NumericOption.check(maxHdop, "max-hdop", 0...(.greatestFiniteMagnitude)) }
    }

    /// Opens the track for streaming: `-` is standard input; a path may be a file or a FIFO.
    /// Exits 2 saying why it cannot be read or is no GPS format.
    func open() throws(ExitCode) -> (reader: GPSTrackReader, file: String) {
        do {
            if track == "-" {
                return (try GPSFileReader.open(FileByteSource(standardInputNamed: "<stdin>"), format: inputFormat?.format), "<stdin>")
            }
            let file = CLI.display(URL(fileURLWithPath: track))
            let source = try FileByteSource(path: track, file: file)
            return (try GPSFileReader.open(source, fileName: file, format: inputFormat?.format), file)
        } catch {
            throw CLI.fail("\(error)")
        }
    }

    /// The next batch of fixes; at a reading error, with --keep-partial nil (the end) after a
    /// warning naming where reading stopped, else exit 2 naming it (and how many fixes came before).
    func next(_ prefetch: GPSPrefetchingReader, file: String, kept: Int) throws -> [GPSFix]? {
        do {
            return try prefetch.next()
        } catch let e as ReaderError {
            // The file itself could not be read: nothing to keep.
            if case .unreadable = e.kind { throw CLI.fail("\(e)") }
            if keepPartial {
                CLI.printError(
                    "warning: \(e)\n  reading stopped there (--keep-partial): kept the \(kept) fix\(kept == 1 ? "" : "es") read before it")
                return nil
            }
            if kept > 0 {
                CLI.printError(
                    "mapsketch: \(e)\n  \(kept) fix\(kept == 1 ? " was" : "es were") read before it: --keep-partial keeps \(kept == 1 ? "it" : "them")")
                throw ExitCode(2)
            }
            throw CLI.fail("\(e)")
        }
    }

    @MainActor
    mutating func run() async throws {
        let (reader, file) = try open()
        var filter = TraceHeader.defaultGPSFilter
        filter.minimumDistance = minDistance > 0 ? minDistance : nil
        filter.maximumAccuracy = maxAccuracy
        filter.maximumHDOP = maxHdop
        filter.dropDuplicates = !keepDuplicates
        filter.dropOutOfOrder = !keepOutOfOrder
        let conversion = try CLI.input { () throws(TraceError) in
            try GPSConversion(name: file, description: "GPS track \(file)", geometryType: sketch.type.geometryType, filter: filter)
        }
        var counts = GPSReadCounts()
        let prefetch = GPSPrefetchingReader(reader)
        var summary: GPSPrefetchingReader.Summary?
        let saver: TraceFileWriter?
        do {
            saver = try saveTrace.map { path throws(OutputError) in try TraceFileWriter(URL(fileURLWithPath: path)) }
            // Read and parsed on a second thread, a few batches ahead: the same fixes in the same
            // order, and a reading error only after every fix before it, as reading here would.
            while let batch = try next(prefetch, file: file, kept: counts.fixes) {
                for fix in batch {
                    counts.note(fix)
                    let entry = conversion.add(fix)
                    try saver?.append(entry)
                }
            }
            conversion.finish()
            try saver?.commit(header: conversion.header)
            summary = prefetch.summary
        } catch let e as ExitCode {
            prefetch.cancel()
            throw e
        } catch {
            prefetch.cancel()
            throw CLI.fail("\(error)")
        }
        counts.segments = summary?.segmentCount ?? 0
        counts.waypoints = summary?.waypoints.count ?? 0
        counts.nmea = summary?.nmeaStatistics
        // Every count, by reason, on stderr; the geometry alone on stdout.
        let session = conversion.session
        let report = GPSReport(
            file: file, counts: counts, gps: conversion.report, geometryType: session.sketch?.geometryType.rawValue,
            store: session.sketch?.vertices)
        for line in report.lines { CLI.printError(line) }
        for w in report.warnings { CLI.printError("warning: \(w)") }
        if let why = report.noUsableFix ?? report.cannotWrite { throw CLI.fail("\(file): \(why)") }
        try map.writeSVG(of: session, defaultStyle: .track)
        if let vertices = session.sketch?.vertices {
            try map.print(vertices, spatialReference: session.mapView.spatialReference)
        }
    }
}
