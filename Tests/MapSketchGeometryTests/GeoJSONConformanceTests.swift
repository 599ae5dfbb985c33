import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Compares two JSON values: numbers within `tolerance` (integer and double alike), objects by
/// key set (JSON objects are unordered, as the upstream `deepEqual` treats them), arrays in order,
/// everything else exactly. Returns the first difference, or nil.
func jsonDifference(_ a: JSONValue, _ b: JSONValue, tolerance: Double = 1e-9, path: String = "") -> String? {
    if let x = a.doubleValue, let y = b.doubleValue {
        return abs(x - y) <= tolerance ? nil : "\(path): \(x) ≠ \(y)"
    }
    switch (a, b) {
    case (.array(let x), .array(let y)):
        guard x.count == y.count else { return "\(path): \(x.count) elements ≠ \(y.count)" }
        for k in x.indices {
            if let d = jsonDifference(x[k], y[k], tolerance: tolerance, path: "\(path)[\(k)]") { return d }
        }
        return nil
    case (.object(let x), .object(let y)):
        guard Set(x.keys) == Set(y.keys) else { return "\(path): keys \(x.keys.sorted()) ≠ \(y.keys.sorted())" }
        for k in x.keys {
            if let xv = x[k], let yv = y[k], let d = jsonDifference(xv, yv, tolerance: tolerance, path: "\(path).\(k)")
            {
                return d
            }
        }
        return nil
    default:
        return a == b ? nil : "\(path): \(JSONWriter.string(a)) ≠ \(JSONWriter.string(b))"
    }
}

/// The value at a dotted path such as `output.geometry.coordinates` (the first component names the root).
func jsonValue(at dotted: String, in root: JSONValue) -> JSONValue? {
    var v: JSONValue? = root
    for comp in dotted.split(separator: ".").dropFirst() {
        v = v?[String(comp)]
    }
    return v
}

let fixtureRoot = "Tests/MapSketchGeometryTests/Fixtures"

/// `f` with its coordinates declared WGS 84 longitude/latitude, as the reference converters
/// (arcgis-to-geojson-utils, pyesridump) write them: as they are, never projected — the explicit
/// statement GeoJSON output needs for input that names no spatial reference.
func asLongitudeLatitude(_ f: Feature) -> Feature {
    var f = f
    f.geometry = f.geometry.map { SpatialGeometry($0.geometry, spatialReference: .wgs84) }
    return f
}

@Suite("Conformance: esri/arcgis-to-geojson-utils")
struct ArcGISToGeoJSONUtilsConformance {
    /// Cases that do not pass, with the reason. The test asserts that exactly these fail.
    static let exceptions: [String: String] = [
        "should convert a GeoJSON MultiPolygon w/ holes to an ArcGIS Polygon":
            "upstream lists each polygon's rings in reverse (holes before their exterior); we keep GeoJSON order "
            + "(exterior, then its holes). Esri ring order carries no meaning; the rings match as a set.",
        "should close rings when converting a GeoJSON MultiPolygon w/ holes to an ArcGIS Polygon":
            "same ring-order difference as the previous case; the rings match as a set.",
        "should parse an ArcGIS MultiPolygon with holes to a GeoJSON MultiPolygon":
            "upstream attaches holes to their exterior in reverse order (it pops them off a stack); we keep input "
            + "order so Esri → GeoJSON → Esri keeps ring order. Same rings, same grouping.",
    ]

    struct Outcome {
        var passed: [String] = []
        var failed: [String: String] = [:]
    }

    static func convert(_ c: JSONObject) throws -> JSONValue {
        let function = c["function"]?.stringValue
        let idAttribute = c["id_attribute"]?.stringValue
        let input = try #require(c["input"])
        switch function {
        case "geojsonToArcGIS":
            let doc = try GeoJSON.decodeDocument(input, options: GeoJSON.DecodingOptions(dropDegenerateRings: true))
            func feature(_ f: Feature) -> JSONValue {
                var f = f.withIDInAttributes(idAttribute ?? "OBJECTID")
                if f.attributes == nil { f.attributes = JSONObject() }
                return EsriJSON.jsonValue(f)
            }
            switch doc {
            case .geometry(let g): return EsriJSON.jsonValue(g)
            case .geometryCollection(let gs): return .array(gs.map { EsriJSON.jsonValue($0) })
            case .feature(let f): return feature(f)
            case .featureCollection(let fs): return .array(fs.map(feature))
            }
        case "arcgisToGeoJSON", nil:
            let options = EsriJSON.DecodingOptions(dropDegenerateRings: true)
            let idFields = (idAttribute.map { [$0] } ?? []) + Feature.defaultIDFields
            let obj = try input.decodeObject()
            if obj.contains("features") {
                let fs = try EsriJSON.decodeFeatureSet(input, options: options)
                return try GeoJSON.jsonValue(.featureCollection(fs.features.map { asLongitudeLatitude($0.withID(fromAttributes: idFields)) }))
            }
            if obj.contains("geometry") || obj.contains("attributes") {
                let f = try EsriJSON.decodeFeature(input, options: options)
                return try GeoJSON.jsonValue(asLongitudeLatitude(f.withID(fromAttributes: idFields)))
            }
            return GeoJSON.jsonValue(wgs84: try EsriJSON.decodeGeometry(input, options: options).geometry)
        default:
            throw JSONError("unknown function \(function ?? "nil")")
        }
    }

    /// Runs one check; returns a failure description or nil.
    static func check(_ check: JSONObject, output: JSONValue, input: JSONValue) -> String? {
        let path = check["path"]?.stringValue ?? ""
        let expected = check["expected"] ?? .null
        // `assert.equal(true, !('id' in output))` was extracted as path "true", expected "!('id' in output".
        if path == "true", let s = expected.stringValue, s.hasPrefix("!('") {
            let key = String(s.dropFirst(3).prefix { $0 != "'" })
            return output[key] == nil ? nil : "output has a \"\(key)\" member"
        }
        // `assert.equal(original, JSON.stringify(input))`: the source must come through unchanged;
        // for value types we check that decoding and re-encoding the input gives the input back.
        if path == "original" {
            guard let reencoded = try? EsriJSON.jsonValue(EsriJSON.decodeFeature(input)) else {
                return "input did not decode"
            }
            return jsonDifference(reencoded, input).map { "input changed: \($0)" }
        }
        let actual = jsonValue(at: path, in: output) ?? .null
        return jsonDifference(actual, expected, path: path)
    }

    @Test func everyCase() throws {
        let cases = try JSONParser.parse(
            Fixtures.string("\(fixtureRoot)/esri-arcgis-to-geojson-utils/cases_extracted.json"))
        let list = try #require(cases.arrayValue)
        #expect(list.count == 47)
        var outcome = Outcome()
        for c in list {
            let obj = try c.decodeObject()
            let name = try #require(obj["name"]?.stringValue)
            var failure: String?
            do {
                let output = try Self.convert(obj)
                for chk in try #require(obj["checks"]?.arrayValue) {
                    if let f = Self.check(try chk.decodeObject(), output: output, input: obj["input"] ?? .null) {
                        failure = f
                        break
                    }
                }
            } catch {
                failure = "threw \(error)"
            }
            if let failure { outcome.failed[name] = failure } else { outcome.passed.append(name) }
        }
        print(
            "esri-arcgis-to-geojson-utils: \(outcome.passed.count)/\(list.count) cases pass; documented exceptions: \(Self.exceptions.count)"
        )
        for (name, why) in outcome.failed.sorted(by: { $0.key < $1.key }) { print("  ✗ \(name): \(why)") }
        #expect(Set(outcome.failed.keys) == Set(Self.exceptions.keys), "unexpected failures: \(outcome.failed)")
        #expect(outcome.passed.count == list.count - Self.exceptions.count)
    }

    /// The ring-order exceptions still produce the same rings, grouped the same way.
    @Test func exceptionsMatchUpToRingOrder() throws {
        let cases = try JSONParser.parse(
            Fixtures.string("\(fixtureRoot)/esri-arcgis-to-geojson-utils/cases_extracted.json"))
        for c in try #require(cases.arrayValue) {
            let obj = try c.decodeObject()
            guard let name = obj["name"]?.stringValue, Self.exceptions[name] != nil else { continue }
            let output = try Self.convert(obj)
            let chk = try #require(obj["checks"]?[0]?.objectValue)
            let expected = try #require(chk["expected"])
            let actual = try #require(jsonValue(at: chk["path"]?.stringValue ?? "output", in: output))
            if obj["function"]?.stringValue == "geojsonToArcGIS" {
                // Esri rings as a multiset.
                let a = try #require(actual["rings"]?.arrayValue).map { JSONWriter.string($0) }.sorted()
                let e = try #require(expected["rings"]?.arrayValue).map { JSONWriter.string(normalizeNumbers($0)) }
                    .sorted()
                #expect(a == e, "\(name)")
            } else {
                // GeoJSON MultiPolygon: each polygon's exterior first, holes as a multiset.
                let a = try #require(actual.arrayValue)
                let e = try #require(expected.arrayValue)
                #expect(a.count == e.count)
                for (pa, pe) in zip(a, e) {
                    let ra = try #require(pa.arrayValue), re = try #require(pe.arrayValue)
                    #expect(jsonDifference(ra[0], re[0]) == nil)
                    #expect(
                        ra.dropFirst().map { JSONWriter.string($0) }.sorted()
                            == re.dropFirst().map { JSONWriter.string(normalizeNumbers($0)) }.sorted())
                }
            }
        }
    }
}

/// Re-types whole-number doubles as integers so texts compare equal (`100.0` → `100`).
func normalizeNumbers(_ v: JSONValue) -> JSONValue {
    switch v {
    case .number(let d): return JSONValue.number(d)
    case .integer(let i): return .number(Double(i))
    case .array(let a): return .array(a.map(normalizeNumbers))
    case .object(let o): return .object(JSONObject(o.map { ($0, normalizeNumbers($1)) }))
    default: return v
    }
}

@Suite("Conformance: openaddresses/pyesridump esri2geojson")
struct PyEsriDumpConformance {
    /// Cases that do not pass (keyed "test_name#n" for the n-th case of that test), with the reason.
    static let exceptions: [String: String] = [
        "test_point#2":
            "pyesridump turns a one-point multipoint into a GeoJSON Point; we keep the geometry type (MultiPoint), "
            + "so a round trip gives back a multipoint.",
        "test_skip_bad_ring#1":
            "every ring of this case has zero area (each goes out and back along the same line); pyesridump's "
            + "winding test drops the first ring and calls the rest exteriors and holes by their sign, we keep "
            + "every ring (zero-area rings count as exteriors, as in arcgis-to-geojson-utils).",
    ]

    @Test func everyCase() throws {
        let cases = try JSONParser.parse(Fixtures.string("\(fixtureRoot)/pyesridump/esri2geojson_cases_extracted.json"))
        let list = try #require(cases.arrayValue)
        #expect(list.count == 16)
        // pyesridump writes rings in their Esri winding (it does not reorient), so its expectations
        // are compared with GeoJSON written `.asStored`; grouping of holes is still ours.
        let encoding = GeoJSON.EncodingOptions(ringOrientation: .asStored)
        var counts: [String: Int] = [:]
        var passed: [String] = []
        var failed: [String: String] = [:]
        for c in list {
            let obj = try c.decodeObject()
            let test = try #require(obj["test"]?.stringValue)
            counts[test, default: 0] += 1
            let key = "\(test)#\(counts[test] ?? 0)"
            do {
                let f = try EsriJSON.decodeFeature(
                    try #require(obj["esrijson"]), options: EsriJSON.DecodingOptions(dropDegenerateRings: true))
                let out = try GeoJSON.jsonValue(asLongitudeLatitude(f), options: encoding)
                if let d = jsonDifference(out, try #require(obj["geojson"])) {
                    failed[key] = d
                } else {
                    passed.append(key)
                }
            } catch {
                failed[key] = "threw \(error)"
            }
        }
        print(
            "pyesridump esri2geojson: \(passed.count)/\(list.count) cases pass; documented exceptions: \(Self.exceptions.count)"
        )
        for (k, why) in failed.sorted(by: { $0.key < $1.key }) { print("  ✗ \(k): \(why)") }
        #expect(Set(failed.keys) == Set(Self.exceptions.keys), "unexpected failures: \(failed)")
    }

    /// With the default (RFC 7946) orientation the same cases give the same rings, each reversed.
    @Test func rfcOrientationReversesEveryRing() throws {
        let esri =
            #"{"geometry": {"rings": [[[1, 1], [1, 4], [4, 4], [4, 1]], [[2, 2], [3, 2], [3, 3], [2, 3], [2, 2]]]}}"#
        let f = try EsriJSON.decodeFeature(JSONParser.parse(esri))
        let out = try GeoJSON.jsonValue(asLongitudeLatitude(f))
        let expected = try JSONParser.parse(
            #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[1,1],[4,1],[4,4],[1,4],[1,1]],[[2,2],[2,3],[3,3],[3,2],[2,2]]]},"properties":null}"#
        )
        #expect(jsonDifference(out, expected) == nil)
    }
}
