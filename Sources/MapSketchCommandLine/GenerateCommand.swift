import ArgumentParser
import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReplay
import MapSketchReaders

/// What `generate` makes.
enum GenerateKind: String, ExpressibleByArgument, CaseIterable {
    case taps, holds, drags, pans, pinches, walk, gps, antimeridian, layer
}

/// The features of `generate layer`.
enum LayerShapeName: String, ExpressibleByArgument, CaseIterable {
    case point, polyline, polygon
}

/// The file format of `generate layer`.
enum LayerFormatName: String, ExpressibleByArgument, CaseIterable {
    case geojson, geojsonl

    var format: TraceLayerSource.Format { self == .geojson ? .featureCollection : .lines }
}

struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a seeded synthetic trace (same seed → byte-identical trace).",
        discussion: """
            Kinds: taps, holds, drags, pans, pinches (one gesture kind), walk (a random mixture of gestures), \
            gps (a noisy GPS track with optional drop-outs), antimeridian (an eastbound track crossing 180°), \
            layer (a layer file for a trace's layer "source", not a trace).

            `generate layer --features N --seed S [--geometry point|polyline|polygon] [--format geojson|geojsonl]` \
            writes N features in WGS 84 around 14.5° E 46.05° N (a 0.2° × 0.1° box), each with the properties id \
            (1, 2, …), kind (residential, commercial, park, water or road) and rank (1 to 5): a GeoJSON \
            FeatureCollection, or GeoJSON Lines (one Feature per line). The same seed gives a byte-identical file; \
            the file is written as it is made, so a million features need no more memory than ten.
            """)

    @Argument(help: "What to generate (see the kinds above).")
    var kind: GenerateKind

    @Option(help: "The random seed.")
    var seed: UInt64

    @Option(help: "How many gestures (touch kinds) or fixes (GPS kinds).")
    var count: Int = 50

    @OptionGroup var sketch: SketchTypeOption

    @Option(help: "Screen width in points (touch kinds).")
    var width: Double = 390

    @Option(help: "Screen height in points (touch kinds).")
    var height: Double = 844

    @Option(help: "GPS noise in meters (GPS kinds).")
    var noise: Double = 3

    @Option(help: "Probability that a GPS drop-out starts at a fix (GPS kinds).")
    var dropout: Double = 0

    @Option(help: "How many features (layer).")
    var features: Int = 1000

    @Option(help: "The features' geometry (layer).")
    var geometry: LayerShapeName = .point

    @Option(help: "The layer file's format (layer): geojson (a FeatureCollection) or geojsonl (one Feature per line).")
    var format: LayerFormatName = .geojson

    @Option(name: .shortAndLong, help: "The trace (or layer) file to write (default: stdout).")
    var output: String?

    /// The most features a generated layer holds (it is written as it is made).
    static let maximumFeatures = 100_000_000

    /// The most gestures (touch kinds) and fixes (GPS kinds) one trace holds: the trace is built
    /// in memory before it is written.
    static let maximumGestures = 100_000
    static let maximumFixes = 1_000_000
    /// The largest screen side in points, and the largest GPS noise in meters.
    static let maximumScreenSide = 100_000.0
    static let maximumNoise = 100_000.0

    func validate() throws {
        let gps = kind == .gps || kind == .antimeridian
        try NumericOption.check(count, "count", 0...(gps ? Self.maximumFixes : Self.maximumGestures), unit: gps ? "fixes" : "gestures")
        try NumericOption.check(width, "width", 1...Self.maximumScreenSide, unit: "points")
        try NumericOption.check(height, "height", 1...Self.maximumScreenSide, unit: "points")
        try NumericOption.check(noise, "noise", 0...Self.maximumNoise, unit: "meters")
        try NumericOption.check(dropout, "dropout", 0...1, unit: "a probability")
        try NumericOption.check(features, "features", 0...Self.maximumFeatures, unit: "features")
    }

    mutating func run() async throws {
        if kind == .layer { return try writeLayer() }
        let trace: Trace
        let name = "generated-\(kind.rawValue)-seed\(seed)"
        switch kind {
        case .gps, .antimeridian:
            var g = kind == .gps ? GPSTrackGenerator(latitude: 46.05, longitude: 14.5) : GPSTrackGenerator.antimeridianCrossing()
            g.noise = noise
            g.dropoutProbability = dropout
            let fixes = g.generate(count: count, seed: seed)
            var t = TraceBuilder.gpsTrace(
                GPSTrack(fixes: fixes, segmentCount: fixes.isEmpty ? 0 : 1), name: name,
                description: "Generated \(kind.rawValue) track: \(count) steps, noise \(noise) m, drop-out \(dropout), seed \(seed)",
                geometryType: sketch.type.geometryType)
            if kind == .antimeridian { t.header.options.wrapAround = true }
            trace = t
        default:
            let screen = ScreenSize(width: width, height: height)
            let gen = TouchGenerator(screen: screen)
            let events: [TouchEvent]
            switch kind {
            case .taps: events = gen.generate(.tap, count: count, seed: seed)
            case .holds: events = gen.generate(.hold, count: count, seed: seed)
            case .drags: events = gen.generate(.drag, count: count, seed: seed)
            case .pans: events = gen.generate(.pan, count: count, seed: seed)
            case .pinches: events = gen.generate(.pinch, count: count, seed: seed)
            default: events = gen.randomWalk(count: count, seed: seed)
            }
            trace = TraceBuilder.touchTrace(
                events, name: name, description: "Generated \(kind.rawValue): \(count) gestures on a \(JSONWriter.format(width))×\(JSONWriter.format(height)) pt screen, seed \(seed)",
                screen: screen, geometryType: sketch.type.geometryType)
        }
        try CLI.emit(TraceEncoder.encode(trace), to: output)
    }

    /// Writes the layer file, a chunk at a time, to --output (atomically) or standard output.
    private func writeLayer() throws(ExitCode) {
        let generator = LayerGenerator(shape: LayerGenerator.Shape(rawValue: geometry.rawValue) ?? .point)
        do {
            if let output {
                let writer = try AtomicFileWriter(URL(fileURLWithPath: output))
                try generator.generate(count: features, seed: seed, format: format.format) { chunk in
                    let failure = chunk.withUnsafeBytes { b -> OutputError? in
                        do throws(OutputError) {
                            try writer.write(b)
                            return nil
                        } catch {
                            return error
                        }
                    }
                    if let failure { throw failure }
                }
                try writer.commit()
            } else {
                try generator.generate(count: features, seed: seed, format: format.format) { chunk in
                    try FileHandle.standardOutput.write(contentsOf: Data(chunk))
                }
            }
        } catch let e as OutputError {
            throw CLI.fail(e.description)
        } catch {
            throw CLI.fail("\(output ?? "<stdout>"): cannot write the layer: \(error)")
        }
    }
}
