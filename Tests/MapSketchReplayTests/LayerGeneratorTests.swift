import Foundation
import MapSketch
import MapSketchGeometry
@testable import MapSketchReplay
import MapSketchTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `generate layer` (`LayerGenerator`): byte-identical files from a seed, the two formats holding
/// the same features; a trace editing a polygon with snapping over a generated layer; and the
/// memory a layer file costs the replay, measured in a child process.
@MainActor
@Suite(.serialized) struct LayerGeneratorTests {
    static func bytes(_ g: LayerGenerator, count: Int, seed: UInt64, _ format: TraceLayerSource.Format) throws -> [UInt8] {
        var out: [UInt8] = []
        try g.generate(count: count, seed: seed, format: format) { out += $0 }
        return out
    }

    @Test(arguments: LayerGenerator.Shape.allCases)
    func theSameSeedGivesTheSameBytesAndBothFormatsTheSameFeatures(_ shape: LayerGenerator.Shape) throws {
        let g = LayerGenerator(shape: shape)
        let a = try Self.bytes(g, count: 3000, seed: 42, .featureCollection)
        #expect(a == (try Self.bytes(g, count: 3000, seed: 42, .featureCollection)))
        #expect(a != (try Self.bytes(g, count: 3000, seed: 43, .featureCollection)))
        #expect(a.count > 64 * 1024, "written in several chunks")
        let collection = try a.withUnsafeBytes { try GeoJSON.decodeColumns($0) }
        #expect(collection.count == 3000)
        let lines = try Self.bytes(g, count: 3000, seed: 42, .lines)
        var reader = GeoJSONFeatureReader()
        for line in lines.split(separator: UInt8(ascii: "\n")) { try Array(line).withUnsafeBytes { try reader.read($0) } }
        let fromLines = reader.take()
        #expect(fromLines.geometry == collection.geometry)
        #expect(fromLines.fields == collection.fields)
        #expect(collection.field(named: "id")?.integers == Array(1...3000))
        #expect(Set(try #require(collection.field(named: "kind")).strings).isSubset(of: LayerGenerator.kinds))
        #expect(collection.field(named: "rank")?.integers.allSatisfy { (1...5).contains($0) } == true)
        for r in 0..<collection.count {
            #expect(collection.geometry[r].type == (shape == .point ? .point : shape == .polyline ? .polyline : .polygon))
        }
        if shape == .polygon {
            // Simple rings (star-shaped around their centre), so the sketch's validation and
            // snapping see ordinary polygons.
            for r in 0..<100 {
                guard case .polygon(let p) = collection.geometry[r] else { continue }
                #expect(p.rings.count == 1 && (4...8).contains(p.rings[0].count), "row \(r)")
            }
        }
        #expect(try Self.bytes(g, count: 0, seed: 1, .featureCollection) == Array("{\"type\":\"FeatureCollection\",\"features\":[\n]}\n".utf8))
    }

    /// A polygon edited with snapping on over a generated layer of 20,000 polygons: each tap, a
    /// few points off a vertex of the first feature, adds that vertex exactly.
    @Test func aPolygonSnapsToTheVerticesOfAGeneratedLayer() throws {
        let dir = try MapsketchProcess.tempDir(prefix: "generated-layer")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try Self.bytes(LayerGenerator(shape: .polygon), count: 20_000, seed: 9, .lines)
        try Data(bytes).write(to: dir.appendingPathComponent("generated.geojsonl"))
        var first = GeoJSONFeatureReader()
        try Array(bytes.prefix { $0 != UInt8(ascii: "\n") }).withUnsafeBytes { try first.read($0) }
        guard case .polygon(let ring)? = first.take().geometry.first, let vertices = ring.rings.first, vertices.count >= 4 else {
            Issue.record("the first feature is not a polygon")
            return
        }
        let projected = try vertices.map { v -> Point in
            guard case .point(let p?) = try GeometryEngine.project(.point(v), from: .wgs84, to: .webMercator) else { throw CocoaError(.coderInvalidValue) }
            return p
        }
        var h = TraceHeader()
        h.sketch = TraceSketchSetup(geometryType: .polygon)
        h.viewport = Viewport(center: projected[0], resolution: 1)
        h.vertexHitTolerance = 0
        var snap = SnapSettings(isEnabled: true)
        snap.layers = [SnapLayerSource(name: "generated")]
        h.options.snapping = snap
        var layer = TraceGraphicsLayer(name: "generated", renderer: .simple(.simpleFill(SimpleFillSymbol())))
        layer.source = TraceLayerSource(path: "generated.geojsonl")
        layer.calloutsEnabled = false
        h.layers = [layer]
        var s = TraceScript(header: h)
        let picked = [0, 1, 2]
        for k in picked {
            s.tap(projected[k].x - projected[0].x + 200 + 3, 200 - (projected[k].y - projected[0].y) - 2)
        }
        let url = dir.appendingPathComponent("edit.trace.jsonl")
        try Data(TraceEncoder.encode(s.trace).utf8).write(to: url)
        let session = try Replayer.replay(try Replayer.load(url), name: "edit", file: "edit.trace.jsonl")
        #expect(session.graphicsLayers["generated"]?.layer.count == 20_000)
        guard case .polygon(let drawn)? = session.sketch?.geometry else {
            Issue.record("no polygon sketch")
            return
        }
        #expect(drawn.rings.first == picked.map { projected[$0] }, "each vertex snapped onto the layer's")
        let log = session.output().json
        #expect(log.components(separatedBy: "\"layer\": \"generated\"").count - 1 >= picked.count, "snaps logged against the layer")
    }

    #if os(Linux)
        /// The peak resident memory (KB) of `mapsketch args`, run as a child with its output
        /// discarded (`wait4`'s `ru_maxrss`: this child's alone, whatever else the tests run).
        static func peakKilobytes(_ args: [String]) throws -> Int {
            let exe = MapsketchProcess.executable.path
            var argv: [UnsafeMutablePointer<CChar>?] = ([exe] + args).map { strdup($0) } + [nil]
            defer { for a in argv { free(a) } }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            var pid = pid_t()
            guard posix_spawn(&pid, exe, &actions, nil, &argv, environ) == 0 else { throw CocoaError(.executableLoad) }
            var status: Int32 = 0
            var usage = rusage()
            guard wait4(pid, &status, 0, &usage) == pid, status == 0 else { throw CocoaError(.executableRuntimeMismatch) }
            return usage.ru_maxrss
        }

        /// Memory grows with the layer kept, not with the file read: 150,000 points read from a
        /// GeoJSON FeatureCollection (about 21 MB) cost the replay's peak resident memory about 100
        /// bytes each in a debug build (the layer, its index and one batch of 65,536 being read;
        /// `scripts/layer-memory.sh` measures a million, about 90 bytes each in a release build);
        /// holding the file's text, or every feature's value tree, would cost 138 bytes and more
        /// each on top.
        @Test func aLayerFileCostsWhatTheLayerKeepsNotWhatTheFileHolds() throws {
            let dir = try MapsketchProcess.tempDir(prefix: "layer-memory")
            defer { try? FileManager.default.removeItem(at: dir) }
            let n = 150_000
            let file = dir.appendingPathComponent("points.geojson")
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            let handle = try FileHandle(forWritingTo: file)
            try LayerGenerator(shape: .point).generate(count: n, seed: 3, format: .featureCollection) { chunk in
                try handle.write(contentsOf: Data(chunk))
            }
            try handle.close()
            try Data(#"{"type":"FeatureCollection","features":[]}"#.utf8).write(to: dir.appendingPathComponent("empty.geojson"))
            for source in ["points", "empty"] {
                var h = TraceHeader()
                var l = TraceGraphicsLayer(name: "points", renderer: .simple(.simpleMarker(SimpleMarkerSymbol())))
                l.source = TraceLayerSource(path: "\(source).geojson")
                h.layers = [l]
                try Data(TraceEncoder.encode(Trace(header: h)).utf8).write(to: dir.appendingPathComponent("\(source).trace.jsonl"))
            }
            let base = try Self.peakKilobytes(["replay", dir.appendingPathComponent("empty.trace.jsonl").path])
            let peak = try Self.peakKilobytes(["replay", dir.appendingPathComponent("points.trace.jsonl").path])
            let perFeature = Double(peak - base) * 1024 / Double(n)
            let fileBytesPerFeature = Double((try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0) / Double(n)
            #expect(fileBytesPerFeature > 130)
            #expect(perFeature < 140, "peak \(peak) KB over \(base) KB: \(perFeature) bytes per feature")
        }
    #endif
}

/// `generate layer`, `--layer-root` and the bench's `layer.load` through the built executable.
@Suite(.serialized) struct LayerCLITests {
    func run(_ args: [String], in cwd: URL = Fixtures.packageRoot) throws -> MapsketchProcess.Run {
        try MapsketchProcess.run(args, in: cwd)
    }

    @Test func generateLayerWritesTheSameFileForTheSameSeed() throws {
        let dir = try MapsketchProcess.tempDir(prefix: "generate-layer")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, seed, format) in [("a.geojson", "5", "geojson"), ("b.geojson", "5", "geojson"), ("c.geojson", "6", "geojson"), ("d.geojsonl", "5", "geojsonl")] {
            let r = try run(["generate", "layer", "--features", "500", "--seed", seed, "--geometry", "polyline", "--format", format, "-o", dir.appendingPathComponent(name).path])
            #expect(r.code == 0, "\(r.err)")
        }
        let a = try Data(contentsOf: dir.appendingPathComponent("a.geojson"))
        #expect(a == (try Data(contentsOf: dir.appendingPathComponent("b.geojson"))))
        #expect(a != (try Data(contentsOf: dir.appendingPathComponent("c.geojson"))))
        let lines = try String(contentsOf: dir.appendingPathComponent("d.geojsonl"), encoding: .utf8)
        #expect(lines.split(separator: "\n").count == 500 && lines.hasPrefix(#"{"type":"Feature","geometry":{"type":"LineString""#))
        // Standard output gives the same bytes as the file.
        let out = try run(["generate", "layer", "--features", "500", "--seed", "5", "--geometry", "polyline"])
        #expect(Data(out.out.utf8) == a)
        // The committed corpus layer is what the command makes.
        let corpus = try run(["generate", "layer", "--features", "300", "--seed", "2026", "--geometry", "polygon"])
        #expect(Data(corpus.out.utf8) == (try Data(contentsOf: Fixtures.url("Traces/snapping/parcels.geojson"))))
        let bad = try run(["generate", "layer", "--features", "-1", "--seed", "1"])
        #expect(bad.code != 0 && bad.err.contains("features"))
        let help = try run(["help", "generate"])
        #expect(help.out.contains("generate layer --features N --seed S") && help.out.contains("--geometry") && help.out.contains("geojsonl"))
    }

    @Test func replayCheckAndBenchTakeTheLayerRoot() throws {
        let dir = try MapsketchProcess.tempDir(prefix: "layer-root")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("traces"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.url("Traces/snapping/parcels.geojson"), to: dir.appendingPathComponent("parcels.geojson"))
        let text = try String(contentsOf: Fixtures.url("Traces/snapping/layer-file-parcels.trace.jsonl"), encoding: .utf8)
            .replacingOccurrences(of: #""source":"parcels.geojson""#, with: #""source":"../parcels.geojson""#)
        try Data(text.utf8).write(to: dir.appendingPathComponent("traces/t.trace.jsonl"))
        try FileManager.default.copyItem(
            at: Fixtures.url("Traces/snapping/layer-file-parcels.expected.json"), to: dir.appendingPathComponent("traces/t.expected.json"))
        let refused = try run(["replay", "traces/t.trace.jsonl"], in: dir)
        #expect(refused.code == 2 && refused.err.contains("traces/t.trace.jsonl:1:") && refused.err.contains("leaves the trace's folder"), "\(refused.err)")
        let replayed = try run(["replay", "traces/t.trace.jsonl", "--layer-root", "."], in: dir)
        #expect(replayed.code == 0 && replayed.out.contains("\"rings\""), "\(replayed.err)")
        let unchecked = try run(["check", "traces"], in: dir)
        #expect(unchecked.code == 2, "\(unchecked.out)\(unchecked.err)")
        // The output names the trace by its file name: t, not layer-file-parcels.
        let golden = try String(contentsOf: dir.appendingPathComponent("traces/t.expected.json"), encoding: .utf8)
        try Data(golden.replacingOccurrences(of: "\"layer-file-parcels\"", with: "\"t\"").utf8).write(to: dir.appendingPathComponent("traces/t.expected.json"))
        let checked = try run(["check", "traces", "--layer-root", "."], in: dir)
        #expect(checked.code == 0, "\(checked.out)\(checked.err)")
        let benched = try run(["bench", "traces", "--layer-root", ".", "--runs", "1", "--warmup", "0", "--format", "json", "--no-progress"], in: dir)
        #expect(benched.code == 0 && benched.out.contains("\"layer.load\""), "\(benched.err)")
        let help = try run(["help", "bench"])
        #expect(help.out.contains("layer.load: ") && help.out.contains("--layer-root"))
    }
}
