import MapSketchReplay
import MapSketchGeometry
public import Foundation

/// Real data from the project's corpus, `Traces/` at the repository root (the same files the
/// tests replay), and long GPS logs made from it for throughput runs.
public enum TraceData {
    /// The repository root: three folders above this source file
    /// (`Benchmarks/Sources/BenchmarkSupport/`).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The bytes of `Traces/<relativePath>`; traps with the path when the file is missing
    /// (benchmark setup: a missing corpus file is a broken checkout, not input).
    public static func bytes(_ relativePath: String) -> [UInt8] {
        let url = root.appendingPathComponent("Traces").appendingPathComponent(relativePath)
        guard let data = try? Data(contentsOf: url) else { preconditionFailure("cannot read \(url.path)") }
        return [UInt8](data)
    }

    /// The track points (latitude, longitude, elevation) of a real GPX file, in order: a plain
    /// scan for `lat`/`lon` attributes and `<ele>`, independent of the reader under test.
    public static func gpxTrackPoints(_ relativePath: String) -> [(lat: Double, lon: Double, ele: Double)] {
        guard let text = String(bytes: bytes(relativePath), encoding: .utf8) else {
            preconditionFailure("\(relativePath) is not UTF-8")
        }
        var out: [(Double, Double, Double)] = []
        for chunk in text.components(separatedBy: "<trkpt").dropFirst() {
            guard let lat = attribute("lat", in: chunk), let lon = attribute("lon", in: chunk) else { continue }
            var ele = 0.0
            if let a = chunk.range(of: "<ele>"), let b = chunk.range(of: "</ele>"), a.upperBound < b.lowerBound {
                ele = Double(chunk[a.upperBound..<b.lowerBound].trimmingCharacters(in: .whitespaces)) ?? 0
            }
            out.append((lat, lon, ele))
        }
        precondition(out.count > 1, "\(relativePath) has no track")
        return out
    }

    private static func attribute(_ name: String, in s: String) -> Double? {
        guard let r = s.range(of: "\(name)=\"") else { return nil }
        let rest = s[r.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return Double(rest[..<end])
    }

    /// `count` fixes walking a real track forth and back (so the walk is continuous), one a
    /// second from 2024-05-01T00:00:00Z, with a seeded jitter of about a metre.
    public static func longTrack(_ count: Int, from relativePath: String = "real/gpx/gpxpy/korita-zbevnica.gpx")
        -> [(lat: Double, lon: Double, ele: Double, t: Int)]
    {
        let base = gpxTrackPoints(relativePath)
        var rng = SplitMix64(seed: 99)
        let period = 2 * (base.count - 1)
        return (0..<count).map { i in
            let k = i % period
            let p = base[k < base.count ? k : period - k]
            return (p.lat + rng.double(-1e-5, 1e-5), p.lon + rng.double(-1e-5, 1e-5), p.ele, i)
        }
    }

    /// An NMEA 0183 log of `count` fixes (GGA then RMC per second, valid checksums, CRLF), as a
    /// u-blox receiver writes it; RMC dates roll over at midnight.
    public static func nmeaLog(_ count: Int) -> [UInt8] {
        var out = ""
        out.reserveCapacity(count * 150)
        for f in longTrack(count) {
            let day = 1 + f.t / 86_400
            let s = f.t % 86_400
            let hms = String(format: "%02d%02d%02d.00", s / 3_600, s / 60 % 60, s % 60)
            let (lat, ns) = nmeaAngle(f.lat, degreeDigits: 2, positive: "N", negative: "S")
            let (lon, ew) = nmeaAngle(f.lon, degreeDigits: 3, positive: "E", negative: "W")
            out += sentence("GPGGA,\(hms),\(lat),\(ns),\(lon),\(ew),1,09,0.9,\(String(format: "%.1f", f.ele)),M,47.0,M,,")
            out += sentence("GPRMC,\(hms),A,\(lat),\(ns),\(lon),\(ew),2.5,87.3,\(String(format: "%02d", day))0524,,,A")
        }
        return Array(out.utf8)
    }

    /// A GPX 1.1 document with one track of `count` points (lat, lon, ele, time), as a GPS
    /// logger writes it.
    public static func gpxDocument(_ count: Int) -> [UInt8] {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="MapSketch benchmarks" xmlns="http://www.topografix.com/GPX/1/1">
              <trk><name>korita-zbevnica, forth and back</name><trkseg>

            """
        out.reserveCapacity(count * 120)
        for f in longTrack(count) {
            let day = 1 + f.t / 86_400
            let s = f.t % 86_400
            let time = String(format: "2024-05-%02dT%02d:%02d:%02dZ", day, s / 3_600, s / 60 % 60, s % 60)
            out += "      <trkpt lat=\"\(String(format: "%.7f", f.lat))\" lon=\"\(String(format: "%.7f", f.lon))\">"
            out += "<ele>\(String(format: "%.1f", f.ele))</ele><time>\(time)</time></trkpt>\n"
        }
        out += "    </trkseg></trk>\n</gpx>\n"
        return Array(out.utf8)
    }

    static func nmeaAngle(_ v: Double, degreeDigits: Int, positive: String, negative: String) -> (String, String) {
        let a = abs(v)
        let d = Int(a)
        let m = (a - Double(d)) * 60
        let text = String(format: "%0\(degreeDigits)d%08.5f", d, m)
        return (text, v < 0 ? negative : positive)
    }

    static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$\(body)*\(String(format: "%02X", sum))\r\n"
    }
}
