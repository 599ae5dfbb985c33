import Foundation
import MapSketch
import MapSketchGeometry
@testable import MapSketchReplay
import MapSketchTestSupport
import Testing

/// A header layer's features read from a file beside the trace (`source`): GeoJSON
/// FeatureCollection and GeoJSON Lines, attributes carried, WGS 84 projected into the map, the
/// folder rule and `layerRoot`, errors located in the trace or in the layer file, the generator.
@MainActor
@Suite struct LayerFileTests {
    static let features = [
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[14.5,46.05]},"properties":{"name":"well","depth":12,"ok":true}}"#,
        #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[14.5,46.05],[14.501,46.051]]},"properties":{"name":"path","depth":2.5}}"#,
        #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[14.5,46.05],[14.502,46.05],[14.502,46.052],[14.5,46.05]]]},"properties":{"name":"field","owner":null}}"#,
    ]
    static var collection: String { #"{"type":"FeatureCollection","features":["# + "\n" + features.joined(separator: ",\n") + "\n]}\n" }

    /// A folder holding `sub/t.trace.jsonl` whose header has layer "parcels" read from `source`.
    @MainActor
    struct Folder {
        let url: URL
        var trace: URL { url.appendingPathComponent("sub/t.trace.jsonl") }

        init(source: String, configure: (inout TraceHeader) -> Void = { _ in }) throws {
            url = try MapsketchProcess.tempDir(prefix: "layers")
            try FileManager.default.createDirectory(at: url.appendingPathComponent("sub"), withIntermediateDirectories: true)
            var h = TraceHeader()
            h.sketch = TraceSketchSetup(geometryType: .polygon)
            var l = TraceGraphicsLayer(name: "parcels", renderer: .simple(.simpleMarker(SimpleMarkerSymbol())))
            l.source = TraceLayerSource(path: source)
            h.layers = [l]
            configure(&h)
            try Data(TraceEncoder.encode(Trace(header: h)).utf8).write(to: trace)
        }

        func write(_ path: String, _ text: String) throws {
            let u = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: u)
        }

        /// The trace read from its file (as `replay` and `check` read it), `root` its layer root.
        func load(root: URL? = nil) throws -> Trace {
            var t = try Replayer.load(trace, displayName: "sub/t.trace.jsonl")
            t.files?.layerRoot = root
            return t
        }

        /// The error setting the trace up gives, or "no error".
        func error(root: URL? = nil) throws -> String {
            do {
                _ = try Replayer.replay(try load(root: root), name: "t", file: "sub/t.trace.jsonl")
                return "no error"
            } catch {
                return "\(error)"
            }
        }

        /// The column of the header's `source` member, as the decoder locates it.
        func sourceColumn() throws -> Int {
            let first = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")[0]
            return try #require(JSONParser.location(of: [.key("layers"), .index(0), .key("source")], in: String(first))?.column)
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    /// Each graphic of layer "parcels": geometry and attributes.
    static func graphics(_ session: ReplaySession) throws -> [Graphic] {
        let l = try #require(session.graphicsLayers["parcels"])
        return try l.ids.indices.map { try #require(l.layer.graphic(l.ids[$0])) }
    }

    @Test func aFeatureCollectionBesideTheTraceFillsTheLayerWithItsAttributesProjected() throws {
        let f = try Folder(source: "parcels.geojson")
        defer { f.remove() }
        try f.write("sub/parcels.geojson", Self.collection)
        let session = try Replayer.replay(try f.load(), name: "t", file: "t")
        let g = try Self.graphics(session)
        #expect(g.count == 3)
        // A field is typed by its column: "depth" holds 12 and 2.5, so it holds doubles.
        #expect(g[0].attributes == ["name": .string("well"), "depth": .double(12), "ok": .bool(true)])
        #expect(g[1].attributes == ["name": .string("path"), "depth": .double(2.5)])
        #expect(g[2].attributes == ["name": .string("field"), "owner": .null])
        // WGS 84 (RFC 7946) projected into the map's Web Mercator, as the geometry engine does.
        let expected = try GeometryEngine.project(.point(Point(14.5, 46.05)), from: .wgs84, to: .webMercator)
        #expect(g[0].geometry == expected)
        #expect(g[2].geometry.type == .polygon && g[1].geometry.type == .polyline)
        // The renderer applies and the layer answers hit tests at a feature.
        let l = try #require(session.graphicsLayers["parcels"])
        #expect(l.layer.count == 3 && l.layer.renderer != nil)
        guard case .point(let p?) = expected else { return }
        #expect(l.layer.hitTest(mapPoint: p, tolerance: 1, resolution: 1, maxResults: 5).contains(l.ids[0]))
        // The output counts the layer's graphics.
        let output = session.output().json
        #expect(output.contains("\"parcels\": 3"), "\(output)")
    }

    @Test func geoJSONLinesGiveTheSameLayer() throws {
        let a = try Folder(source: "parcels.geojson")
        defer { a.remove() }
        try a.write("sub/parcels.geojson", Self.collection)
        let expected = try Self.graphics(try Replayer.replay(try a.load(), name: "t", file: "t"))
        for ext in ["geojsonl", "geojsons", "ndjson"] {
            let b = try Folder(source: "layers/parcels.\(ext)")
            defer { b.remove() }
            // A blank line, a record separator (RFC 8142), CR LF line ends.
            let text = Self.features[0] + "\r\n\r\n\u{1E}" + Self.features[1] + "\r\n" + Self.features[2]
            try b.write("sub/layers/parcels.\(ext)", text)
            #expect(try Self.graphics(try Replayer.replay(try b.load(), name: "t", file: "t")) == expected, "\(ext)")
        }
    }

    @Test func aPathOutOfTheTracesFolderIsRefusedAtItsMemberUnlessTheRootAllowsIt() throws {
        let f = try Folder(source: "../outside.geojson")
        defer { f.remove() }
        try f.write("outside.geojson", Self.collection)
        let column = try f.sourceColumn()
        let e = try f.error()
        #expect(e.hasPrefix("sub/t.trace.jsonl:1:\(column): layers: layer \"parcels\": source \"../outside.geojson\" leaves the trace's folder (sub)"), "\(e)")
        #expect(e.contains("--layer-root"))
        // The column points at the member.
        let line = try String(contentsOf: f.trace, encoding: .utf8).split(separator: "\n")[0]
        #expect(line.utf8.dropFirst(column - 1).starts(with: #""../outside.geojson""#.utf8))
        // Allowed under --layer-root.
        #expect(try f.error(root: f.url) == "no error")
        #expect(try Self.graphics(try Replayer.replay(try f.load(root: f.url), name: "t", file: "t")).count == 3)
        // A root that does not hold the file does not help.
        #expect(try f.error(root: f.url.appendingPathComponent("sub")).contains("leaves the trace's folder"))
    }

    @Test func absolutePathsAndLinksOutOfTheFolderAreRefusedToo() throws {
        let outside = try MapsketchProcess.tempDir(prefix: "outside")
        defer { try? FileManager.default.removeItem(at: outside) }
        try Data(Self.collection.utf8).write(to: outside.appendingPathComponent("o.geojson"))
        let a = try Folder(source: outside.appendingPathComponent("o.geojson").path)
        defer { a.remove() }
        #expect(try a.error().contains("leaves the trace's folder"))
        #expect(try a.error(root: outside) == "no error")
        // A link inside the folder to a file outside it.
        let b = try Folder(source: "link.geojson")
        defer { b.remove() }
        try FileManager.default.createSymbolicLink(
            at: b.url.appendingPathComponent("sub/link.geojson"), withDestinationURL: outside.appendingPathComponent("o.geojson"))
        #expect(try b.error().contains("source \"link.geojson\" leaves the trace's folder"))
        #expect(try b.error(root: outside) == "no error")
    }

    @Test func errorsInTheLayerFileAreLocatedInIt() throws {
        let f = try Folder(source: "p.geojsonl")
        defer { f.remove() }
        let column = try f.sourceColumn()
        let prefix = "sub/t.trace.jsonl:1:\(column): layers: layer \"parcels\": "
        try f.write("sub/p.geojsonl", Self.features[0] + "\n" + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[14.5,"x"]}}"#)
        var e = try f.error()
        #expect(e == prefix + "sub/p.geojsonl:2:66: geometry.coordinates[1]: expected a number, found a string", "\(e)")
        try f.write("sub/p.geojsonl", "\n\u{1E}{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\"")
        e = try f.error()
        #expect(e == prefix + "sub/p.geojsonl:2:46: expected ',' or '}' after object member, found end of input", "\(e)")
        try f.write("sub/p.geojsonl", #"{"type":"FeatureCollection","features":[]}"#)
        #expect(try f.error() == prefix + #"sub/p.geojsonl:1:9: type: expected a Feature, found "FeatureCollection""#)
        let g = try Folder(source: "p.geojson")
        defer { g.remove() }
        try g.write("sub/p.geojson", Self.collection.replacingOccurrences(of: "[14.502,46.052]", with: "[14.502]"))
        e = try g.error()
        #expect(e.hasPrefix("sub/t.trace.jsonl:1:\(try g.sourceColumn()): layers: layer \"parcels\": sub/p.geojson:4:"), "\(e)")
        #expect(e.contains("features[2].geometry.coordinates[0][2]"), "\(e)")
        try g.write("sub/p.geojson", #"{"type":"FeatureCollection","features":[],"crs":{"type":"name","properties":{"name":"EPSG:3857"}}}"#)
        #expect(try g.error().contains("expected WGS 84 longitude/latitude (RFC 7946), found a legacy \"crs\" member"))
        try FileManager.default.removeItem(at: g.url.appendingPathComponent("sub/p.geojson"))
        #expect(try g.error().contains("sub/p.geojson:1:1: cannot open the file"))
    }

    @Test func theDecoderChecksTheSourceAndKeepsWhereItIs() throws {
        func header(_ layer: String) -> String {
            #"{"t":0,"type":"header","format":"mapsketch-trace","version":1,"layers":["# + layer + "]}\n"
        }
        let t = try TraceDecoder.decode(header(#"{"name":"a","source":"x/p.ndjson"}"#), file: "s.trace.jsonl")
        let s = try #require(t.header.layers[0].source)
        #expect(s.path == "x/p.ndjson" && s.format == .lines && s.line == 1 && s.column == 94)
        #expect(try TraceDecoder.decode(TraceEncoder.encode(t), file: "s.trace.jsonl").header == t.header, "round trip")
        #expect(t.files == nil, "read from text: no file to resolve layers against")
        do {
            _ = try TraceDecoder.decode(header(#"{"name":"a","source":"p.shp"}"#), file: "s.trace.jsonl")
            Issue.record("no error")
        } catch {
            #expect("\(error)".hasPrefix(#"s.trace.jsonl:1:94: layers[0].source: expected a layer file ending .geojson, .json"#), "\(error)")
        }
        let call = #"{"t":1,"type":"addGraphicsLayer","layer":{"name":"b","source":"p.geojson"}}"#
        do {
            _ = try TraceDecoder.decode(header(#"{"name":"a"}"#) + call + "\n", file: "s.trace.jsonl")
            Issue.record("no error")
        } catch {
            #expect("\(error)".contains("s.trace.jsonl:2:") && "\(error)".contains("is read only for the header's layers"), "\(error)")
        }
        // A trace read from text cannot name a layer file.
        do {
            _ = try ReplaySession(trace: t, name: "s")
            Issue.record("no error")
        } catch {
            #expect(error.description == #"1:94: layers: layer "a": source "x/p.ndjson" is resolved against the trace's folder, and this trace was not read from a file"#)
        }
    }

    @Test func graphicsAddedToALayerFileLayerAreInTheMapsSpatialReference() throws {
        let f = try Folder(source: "parcels.geojson") { h in
            h.layers[0].graphics = [TraceGraphic(geometry: .point(Point(1_000, 2_000)))]
        }
        defer { f.remove() }
        try f.write("sub/parcels.geojson", Self.collection)
        let g = try Self.graphics(try Replayer.replay(try f.load(), name: "t", file: "t"))
        // Projected into the layer's WGS 84 and back by the layer: the same point, not taken for
        // degrees (which would put it far from (1000, 2000)).
        guard case .point(let p?) = g[3].geometry else {
            Issue.record("not a point")
            return
        }
        #expect(g.count == 4 && abs(p.x - 1_000) < 1e-6 && abs(p.y - 2_000) < 1e-6, "\(p)")
    }
}
