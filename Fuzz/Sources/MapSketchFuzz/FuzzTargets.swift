import MapSketch
import MapSketchGeometry
import MapSketchReaders
@_spi(MapSketchInternal) import MapSketchReplay

// What every target checks, beyond "no crash, no sanitizer report":
// - an error says where: line and column ≥ 1, a message of at most `maximumMessage` characters
//   with no raw control character (NUL, ESC, …) echoed from the input;
// - what a reader accepts, the tool's own writers write and its own readers read back (a GPS
//   track becomes a trace that decodes; a geometry re-encodes to text that decodes).
// A broken rule is a crash (`fatalError`) so that libFuzzer saves the input.

/// The longest error message an input may cause (excerpts of the input are cut).
let maximumMessage = 1_000

/// The fuzz targets, by the name `run.sh` and `MAPSKETCH_FUZZ_TARGET` use.
enum FuzzTarget: String, CaseIterable {
    case trace, gpx, gpxgz, nmea, geojsonl, getevent, wkt, esrijson, geojson, geometry

    /// Runs one input.
    @MainActor
    func run(_ bytes: [UInt8]) {
        switch self {
        case .trace: fuzzTrace(bytes)
        case .gpx: fuzzGPS(bytes, format: .gpx)
        case .gpxgz: fuzzGPS(bytes, format: nil)
        case .nmea: fuzzGPS(bytes, format: .nmea)
        case .geojsonl: fuzzGPS(bytes, format: .geoJSONLines)
        case .getevent: fuzzGetevent(bytes)
        case .wkt: fuzzWKT(bytes)
        case .esrijson: fuzzEsriJSON(bytes)
        case .geojson: fuzzGeoJSON(bytes)
        case .geometry: fuzzGeometry(bytes)
        }
    }
}

/// Fails unless `message` is a located, short, printable error text.
func checkMessage(_ message: String, line: Int, column: Int, _ what: String) {
    guard line >= 1, column >= 1 else { fatalError("\(what): error without a location: \(line):\(column): \(message)") }
    guard !message.isEmpty, message.count <= maximumMessage else {
        fatalError("\(what): error message of \(message.count) characters: \(message.prefix(200))…")
    }
    for u in message.unicodeScalars where u.value < 0x20 && u != "\n" || u.value == 0x7F {
        fatalError("\(what): raw control character U+\(String(u.value, radix: 16)) in the error: \(message.prefix(200))")
    }
}

func checkError(_ error: any Error, _ what: String) {
    if let e = error as? ReaderError {
        checkMessage(e.message, line: e.line, column: e.column, what)
    } else if let e = error as? TraceError {
        checkMessage(e.message, line: e.line, column: e.column, what)
    } else {
        // Codec errors (JSON, WKT) carry their position in the description; require a bounded,
        // printable text.
        checkMessage("\(error)", line: 1, column: 1, what)
    }
}

@MainActor
func fuzzTrace(_ bytes: [UInt8]) {
    let trace: Trace
    do {
        trace = try TraceDecoder.decode(source: MemoryByteSource(bytes), file: "fuzz.trace.jsonl")
    } catch {
        return checkError(error, "trace")
    }
    // What the decoder accepts, the encoder writes and the decoder reads back, the same.
    let text = TraceEncoder.encode(trace)
    do {
        let again = try TraceDecoder.decode(text, file: "re-encoded")
        guard TraceEncoder.encode(again) == text else { fatalError("trace: re-encoding changes the trace:\n\(text.prefix(2000))") }
    } catch {
        fatalError("trace: the decoder rejects what the encoder wrote: \(error)\n\(text.prefix(2000))")
    }
    // Replaying it must not crash either (bounded: the fuzzer keeps inputs small).
    if trace.eventCount <= 200, let session = try? Replayer.replay(trace, name: "fuzz", file: "fuzz") {
        _ = session.output()
    }
}

func fuzzGPS(_ bytes: [UInt8], format: GPSFormat?) {
    let track: GPSTrack
    do {
        let reader = try GPSFileReader.open(MemoryByteSource(bytes), fileName: "fuzz", format: format)
        track = try reader.readRemaining()
    } catch {
        return checkError(error, "\(format?.rawValue ?? "sniffed") track")
    }
    for f in track.fixes {
        guard f.latitude.isFinite, f.longitude.isFinite, abs(f.latitude) <= 90, abs(f.longitude) <= 180 else {
            fatalError("GPS: a fix out of range was accepted: \(f)")
        }
    }
    // The track's trace is one the tool's own trace reader accepts.
    let trace = TraceBuilder.gpsTrace(track, name: "fuzz", description: "fuzz")
    let text = TraceEncoder.encode(trace)
    do {
        _ = try TraceDecoder.decode(text, file: "fuzz.trace.jsonl")
    } catch {
        fatalError("GPS: the trace made from an accepted track is rejected: \(error)\n\(text.prefix(2000))")
    }
}

func fuzzGetevent(_ bytes: [UInt8]) {
    do {
        _ = try GeteventReader.read(bytes: bytes, file: "fuzz.txt")
    } catch {
        checkError(error, "getevent")
    }
}

/// The text of an input for the text codecs (invalid UTF-8 is the JSON layer's and WKT's own
/// business: they get the bytes as the command line would, replaced).
func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

func fuzzWKT(_ bytes: [UInt8]) {
    let g: Geometry
    do {
        g = try WKT.decode(text(bytes))
    } catch {
        return checkError(error, "WKT")
    }
    let out = WKT.encode(g)
    do { _ = try WKT.decode(out) } catch { fatalError("WKT: the reader rejects what the writer wrote: \(error)\n\(out.prefix(2000))") }
}

func fuzzEsriJSON(_ bytes: [UInt8]) {
    let g: SpatialGeometry
    do {
        g = try EsriJSON.decode(text(bytes))
    } catch {
        return checkError(error, "Esri JSON")
    }
    let out = EsriJSON.encode(g)
    do { _ = try EsriJSON.decode(out) } catch { fatalError("Esri JSON: the reader rejects what the writer wrote: \(error)\n\(out.prefix(2000))") }
}

func fuzzGeoJSON(_ bytes: [UInt8]) {
    let g: SpatialGeometry
    do {
        g = try GeoJSON.decode(text(bytes))
    } catch {
        return checkError(error, "GeoJSON")
    }
    // The writer and reader round trip, whatever the spatial reference a `crs` member named
    // (GeoJSON output of one that cannot be projected is an error, checked by the tests).
    let out = GeoJSON.encode(wgs84: g.geometry)
    do { _ = try GeoJSON.decode(out) } catch { fatalError("GeoJSON: the reader rejects what the writer wrote: \(error)\n\(out.prefix(2000))") }
}

/// GeometryEngine on decoded geometry: simplify, validate, normalize, project — the first byte
/// picks the input codec (WKT, Esri JSON, GeoJSON), the rest is the text.
func fuzzGeometry(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let body = text(Array(bytes.dropFirst()))
    let g: Geometry
    do {
        switch first % 3 {
        case 0: g = try WKT.decode(body)
        case 1: g = try EsriJSON.decode(body).geometry
        default: g = try GeoJSON.decode(body).geometry
        }
    } catch {
        return
    }
    guard g.pointCount <= 5_000 else { return }
    let simplified = GeometryEngine.simplify(g)
    _ = GeometryEngine.validate(g)
    _ = GeometryEngine.validate(simplified)
    for sr in [SpatialReference.wgs84, .webMercator] {
        if let n = try? GeometryEngine.normalizeCentralMeridian(g, spatialReference: sr) { _ = WKT.encode(n) }
    }
    if let p = try? GeometryEngine.project(g, from: .wgs84, to: .webMercator) { _ = WKT.encode(p) }
    if let p = try? GeometryEngine.project(g, from: .webMercator, to: .wgs84) { _ = WKT.encode(p) }
    let out = WKT.encode(simplified)
    do { _ = try WKT.decode(out) } catch { fatalError("simplify: WKT rejects the simplified geometry: \(error)\n\(out.prefix(2000))") }
}
