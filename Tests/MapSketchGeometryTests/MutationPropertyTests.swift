import Foundation
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Hostile input, seeded: corpus geometries mutated as a fuzzer would (bytes flipped, inserted,
/// deleted, duplicated, truncated; numbers replaced by extremes) and fed to the codecs and the
/// geometry operations. Whatever the input, nothing crashes; a refusal is an error that says
/// where (line:column); anything produced is finite and reads back with the codecs' own readers.
@Suite struct MutationPropertyTests {
    /// Numbers a mutation puts in place of a number of the seed.
    static let extremes = [
        "1e308", "-1e308", "-0", "5e-324", "-5e-324", "NaN", "nan", "inf", "-Infinity", "1e400", "-1e99999",
        "2.2250738585072014e-308", "1.7976931348623157e308", "9007199254740993", "0.1e-400", "1e", "--1", "0x10",
    ]
    /// Bytes a mutation inserts: structure, control characters, a byte-order mark, UTF-8 lead bytes.
    static let insertions: [[UInt8]] = [
        [0], [0x1B], [0x0D], [0x0A], [0x0D, 0x0A], [0xEF, 0xBB, 0xBF], [0xFF], [0xC3], Array("{".utf8), Array("}".utf8),
        Array("[".utf8), Array("]".utf8), Array("(".utf8), Array(")".utf8), Array(",".utf8), Array("\"".utf8),
        Array(":".utf8), Array(" EMPTY".utf8), Array("\\".utf8), Array("\\u0000".utf8), Array("-".utf8), Array("e9".utf8),
    ]

    enum Codec: CaseIterable {
        case wkt, esriJSON, geoJSON
    }

    /// Seeds from the test corpus: WKT literals of the JTS tests, GeoJSON inputs and Esri JSON
    /// outputs of the arcgis-to-geojson cases, and the GDAL Esri JSON features' geometries —
    /// small ones (up to 600 bytes) so each mutation runs every operation quickly.
    static let seeds: [(Codec, String)] = {
        var out: [(Codec, String)] = []
        let keywords = ["POINT", "MULTIPOINT", "LINESTRING", "LINEARRING", "MULTILINESTRING", "POLYGON", "MULTIPOLYGON"]
        if let jts = try? JSONParser.parse(Fixtures.string("\(fixtureRoot)/jts/java_test_literals_extracted.json")),
            case .array(let cases)? = jts["cases"]
        {
            var seen = Set<String>()
            for c in cases {
                guard case .array(let args)? = c["args"] else { continue }
                for case .string(let s) in args where s.count <= 600 && seen.insert(s).inserted {
                    if keywords.contains(where: { s.uppercased().hasPrefix($0) }) { out.append((.wkt, s)) }
                }
            }
        }
        if let cases = try? JSONParser.parse(Fixtures.string("\(fixtureRoot)/esri-arcgis-to-geojson-utils/cases_extracted.json")),
            case .array(let list) = cases
        {
            for c in list {
                if let input = c["input"], input.objectValue?.contains("type") == true {
                    let s = JSONWriter.string(input)
                    if s.utf8.count <= 600 { out.append((.geoJSON, s)) }
                }
                if case .array(let checks)? = c["checks"] {
                    for check in checks {
                        if let e = check["expected"], let o = e.objectValue, ["x", "points", "paths", "rings", "xmin"].contains(where: o.contains) {
                            let s = JSONWriter.string(e)
                            if s.utf8.count <= 600 { out.append((.esriJSON, s)) }
                        }
                    }
                }
            }
        }
        for url in Fixtures.files(under: "\(fixtureRoot)/gdal-esrijson", suffix: ".json") {
            guard let v = try? JSONParser.parse(Fixtures.string("\(fixtureRoot)/gdal-esrijson/\(url.lastPathComponent)")),
                case .array(let features)? = v["features"]
            else { continue }
            for f in features {
                if let g = f["geometry"], g.objectValue != nil {
                    let s = JSONWriter.string(g)
                    if s.utf8.count <= 600 { out.append((.esriJSON, s)) }
                }
            }
        }
        // Hand-made: the reproducers' shapes, so every mutation family meets them too.
        out += [
            (.wkt, "POLYGON ((-1e308 -1e308, 1e308 -1e308, 1e308 1e308, -1e308 1e308, -1e308 -1e308))"),
            (.wkt, "POLYGON ((0 0, 5e-324 0, 0 5e-324, 0 0))"),
            (.wkt, "LINESTRING (0 0, 1e20 0)"),
            (.wkt, "POLYGON((0 4, 10 10, 19 2, 10 10, 2 1, 17 5, 1 1, 8 10, 14 12, 1 7, 0 4), (15 14, 11 9, 11 5, 2 6, 18 11, 15 14))"),
            (.esriJSON, #"{"x":1e300,"y":0}"#),
            (.esriJSON, #"{"rings":[[[170,10],[-170,10],[-170,-10],[170,-10],[170,10]]],"spatialReference":{"wkid":4326}}"#),
            (.geoJSON, #"{"type":"LineString","coordinates":[[179,0],[181,1],[-179,2]]}"#),
        ]
        // Only seeds that read (a few corpus literals are malformed on purpose, some GeoJSON
        // inputs are collections): mutations start from valid input.
        return out.filter { codec, text in
            switch codec {
            case .wkt: (try? WKT.decode(text)) != nil
            case .esriJSON: (try? EsriJSON.decode(text)) != nil
            case .geoJSON: (try? GeoJSON.decode(text)) != nil
            }
        }
    }()

    /// One mutation of `bytes`: a byte flipped, bytes inserted, deleted or duplicated, the text
    /// truncated, or a number replaced by an extreme.
    static func mutate(_ bytes: [UInt8], _ rng: inout SeededRandom) -> [UInt8] {
        var b = bytes
        guard !b.isEmpty else { return insertions[rng.int(in: 0...(insertions.count - 1))] }
        let at = rng.int(in: 0...(b.count - 1))
        switch rng.int(in: 0...6) {
        case 0: b[at] ^= UInt8(1 << rng.int(in: 0...7))
        case 1: b.insert(contentsOf: insertions[rng.int(in: 0...(insertions.count - 1))], at: at)
        case 2: b.removeSubrange(at..<min(b.count, at + rng.int(in: 1...8)))
        case 3:
            let end = min(b.count, at + rng.int(in: 1...24))
            b.insert(contentsOf: b[at..<end], at: end)
        case 4: b.removeSubrange(at...)
        default:
            // A number (a run of digits, signs, dots and exponents) replaced by an extreme.
            let numeric = Set("0123456789+-.eE".utf8)
            let starts = b.indices.filter { numeric.contains(b[$0]) && ($0 == 0 || !numeric.contains(b[$0 - 1])) }
            guard !starts.isEmpty else { return b }
            let s = starts[rng.int(in: 0...(starts.count - 1))]
            var e = s
            while e < b.count, numeric.contains(b[e]) { e += 1 }
            b.replaceSubrange(s..<e, with: Array(extremes[rng.int(in: 0...(extremes.count - 1))].utf8))
        }
        return b
    }

    /// Decodes `text` with `codec`; an error must be one that says where.
    static func decode(_ codec: Codec, _ text: String) -> SpatialGeometry? {
        do {
            switch codec {
            case .wkt: return SpatialGeometry(try WKT.decode(text))
            case .esriJSON: return try EsriJSON.decode(text)
            case .geoJSON: return try GeoJSON.decode(text)
            }
        } catch let e as WKTError {
            #expect(e.line >= 1 && e.column >= 1, "\(codec) \(text.debugDescription): \(e)")
            #expect(!e.found.contains("\u{0}") && !e.found.contains("\u{1B}") && e.found.count <= 48, "excerpt \(e.found.debugDescription)")
        } catch let e as JSONError {
            #expect(e.line != nil && e.column != nil, "\(codec) \(text.debugDescription): \(e) has no line:column")
            #expect(!e.description.contains("\u{0}") && !e.description.contains("\u{1B}"), "\(e.description.debugDescription)")
        } catch {
            Issue.record("\(codec) \(text.debugDescription): \(type(of: error)) \(error) is not a located input error")
        }
        return nil
    }

    /// Whether x and y of every vertex are finite and no z or m is infinite (NaN is a z or m
    /// without a value: WKT writes a missing z as `NaN`).
    static func isFinite(_ g: Geometry) -> Bool {
        if case .envelope = g { return g.isFinite }
        return g.parts.allSatisfy { part in
            part.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z?.isInfinite != true && $0.m?.isInfinite != true }
        }
    }

    /// `g` written by `codec` and read back: the same kind of geometry, finite when `g` is.
    static func rereads(_ g: Geometry, _ codec: Codec, _ context: String) {
        let text: String
        switch codec {
        case .wkt: text = WKT.encode(g)
        case .esriJSON: text = EsriJSON.encode(SpatialGeometry(g))
        case .geoJSON: text = GeoJSON.encode(wgs84: g)
        }
        guard let back = decode(codec, text) else {
            Issue.record("\(context): its \(codec) \(text.prefix(200).debugDescription) does not read back")
            return
        }
        #expect(isFinite(back.geometry), "\(context): \(text.prefix(200))")
    }

    /// Every operation on `g`: no crash; output finite and readable when the input is finite;
    /// simplify's output valid (Esri simple) and simplifying it again changes nothing.
    static func operate(_ g: Geometry, codec: Codec, _ context: String) {
        let finite = isFinite(g)
        _ = GeometryEngine.validate(g)
        _ = GeometryEngine.isSimple(g)
        let simple = GeometryEngine.simplify(g, spatialReference: nil)
        if finite {
            #expect(isFinite(simple), "simplify \(context)")
            rereads(simple, codec == .geoJSON ? .esriJSON : codec, "simplify \(context)")
            #expect(GeometryEngine.isValid(simple, mode: .esriSimple), "simplify \(context) → \(WKT.encode(simple).prefix(300))")
            #expect(GeometryEngine.simplify(simple, spatialReference: nil) == simple, "simplify twice \(context)")
        }
        for sr in [SpatialReference.wgs84, .webMercator] {
            if let n = try? GeometryEngine.normalizeCentralMeridian(g, spatialReference: sr), finite {
                #expect(isFinite(n), "normalize \(sr) \(context)")
                rereads(n, codec == .geoJSON ? .esriJSON : codec, "normalize \(sr) \(context)")
            }
        }
        for (from, to) in [(SpatialReference.wgs84, SpatialReference.webMercator), (.webMercator, .wgs84)] {
            if let p = try? GeometryEngine.project(g, from: from, to: to) {
                // Never a non-finite x or y, whatever the input; z and m pass through unchanged.
                #expect(p.parts.allSatisfy { $0.allSatisfy { $0.x.isFinite && $0.y.isFinite } }, "project \(from) → \(to) \(context)")
                if finite {
                    #expect(isFinite(p), "project \(from) → \(to) \(context)")
                    rereads(p, codec == .geoJSON ? .esriJSON : codec, "project \(context)")
                }
            }
        }
    }

    @Test func theSeedsAreReadAndCoverEveryCodec() {
        for codec in Codec.allCases {
            let n = Self.seeds.filter { $0.0 == codec }.count
            #expect(n >= 5, "\(codec): \(n) seeds")
        }
    }

    /// 2,500 mutants (1 to 3 mutations each) through the codecs and every operation.
    @Test func mutatedCorpusGeometriesNeverCrashAndErrorsSayWhere() {
        var rng = SeededRandom(seed: 0x12A)
        var decoded = 0, refused = 0
        for i in 0..<2_500 {
            let (codec, seed) = Self.seeds[i % Self.seeds.count]
            var bytes = Array(seed.utf8)
            for _ in 0..<rng.int(in: 1...3) { bytes = Self.mutate(bytes, &rng) }
            let text = String(decoding: bytes, as: UTF8.self)
            let context = "mutant \(i) of \(seed.prefix(60).debugDescription): \(text.prefix(300).debugDescription)"
            // The JSON layer on its own: a value or a located error.
            if codec != .wkt {
                do {
                    _ = try JSONParser.parse(text)
                } catch let e as JSONError {
                    #expect(e.line != nil, "\(context): \(e)")
                } catch {
                    Issue.record("\(context): \(error)")
                }
            }
            guard let g = Self.decode(codec, text) else {
                refused += 1
                continue
            }
            decoded += 1
            Self.operate(g.geometry, codec: codec, context)
        }
        // The mutations reach both sides: some mutants still read, most do not.
        #expect(decoded > 250 && refused > 250, "decoded \(decoded), refused \(refused)")
    }
}

/// What the mutation test found, pinned.
@Suite struct MutationFindingsTests {
    /// A ring spanning 0.001 and 1.8e308: snap rounding's coarsening test `cell > 4 * maxAbs`
    /// overflowed to infinity and never stopped, and rounds of tolerance splits went on
    /// without end. The tolerance is raised to 2^-48 of the largest coordinate; the result is
    /// finite and valid (here empty: at that resolution the everyday-sized ring is one point).
    @Test func simplifyOfARingReachingTheLargestDoubleEnds() throws {
        let g = try WKT.decode(
            "POLYGON((0 4, 10 10, 19 2, 10 10, 2 1, 17 5, 1 1, 8 10, 14 12, 1 7, 0 4), (15 14, 11 9, 11 1.7976931348623157e308, 2 6, 18 11, 15 14))")
        let s = GeometryEngine.simplify(g, spatialReference: nil)
        #expect(s.isFinite)
        #expect(GeometryEngine.isValid(s, mode: .esriSimple))
        #expect(GeometryEngine.simplify(s, spatialReference: nil) == s)
        // An everyday polygon keeps its 0.001 tolerance: a 0.0005 spike is snapped away.
        let small = try WKT.decode("POLYGON ((0 0, 10 0, 10 10, 5 10.0005, 0 10, 0 0))")
        #expect(GeometryEngine.simplify(small, spatialReference: nil).parts.first?.count == 5)
    }
}
