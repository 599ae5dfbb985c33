import Foundation
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The hardening reproducers end to end: the built `mapsketch geometry` (built beside the test
/// bundle by `swift build --build-tests`), fed on standard input as a user would.
@Suite(.serialized) struct GeometryCommandTests {
    typealias Run = MapsketchProcess.Run

    static var executable: URL { MapsketchProcess.executable }

    /// Runs `mapsketch geometry ARGS` with `input` on standard input (or the file at `stdinPath`).
    /// Input goes through a file, not a pipe: the tool stops reading at the first bad byte, and
    /// writing the rest into a pipe would kill the test with SIGPIPE.
    func geometry(_ args: [String], input: String = "", stdinPath: String? = nil) throws -> Run {
        let exe = Self.executable
        try #require(FileManager.default.isExecutableFile(atPath: exe.path), "build the mapsketch executable first")
        var temporary: URL?
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        let path: String
        if let stdinPath {
            path = stdinPath
        } else {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("geometry-\(UUID().uuidString).in")
            try Data(input.utf8).write(to: url)
            temporary = url
            path = url.path
        }
        let p = Process()
        p.executableURL = exe
        p.arguments = ["geometry"] + args
        p.standardInput = FileHandle(forReadingAtPath: path)
        return try MapsketchProcess.collect(p)
    }

    @Test func farPointsNormalizeAndWorldWideSegmentsAreRefused() throws {
        let point = try geometry(["normalize", "--sr", "4326"], input: #"{"x":1e300,"y":0}"# + "\n")
        #expect(point.code == 0, "\(point.err)")
        #expect(point.out == #"{"x":0,"y":0,"spatialReference":{"wkid":4326}}"# + "\n")
        let mercator = try geometry(["normalize", "--sr", "3857"], input: #"{"x":3.7e26,"y":0}"#)
        #expect(mercator.code == 0, "\(mercator.err)")
        let line = try geometry(["normalize", "--sr", "4326"], input: "LINESTRING (0 0, 1e8 0)\n")
        #expect(line.code == 2)
        #expect(line.err.contains("<stdin>:1:1: normalizeCentralMeridian: part 0 vertex 0: expected a segment at most one world width (360)"))
        let far = try geometry(["normalize", "--sr", "4326"], input: "LINESTRING (0 0, 1e20 0)\n")
        #expect(far.code == 2 && far.out.isEmpty)
    }

    @Test func extremePolygonsSimplifyAndValidate() throws {
        for wkt in ["POLYGON ((-1e308 -1e308, 1e308 -1e308, 1e308 1e308, -1e308 1e308, -1e308 -1e308))",
                    "POLYGON ((0 0, 5e-324 0, 0 5e-324, 0 0))"] {
            let v = try geometry(["validate"], input: wkt)
            #expect(v.code == 0 && v.out == "{\"valid\":true}\n", "\(wkt): \(v.out) \(v.err)")
            let s = try geometry(["simplify"], input: wkt)
            #expect(s.code == 0, "\(wkt): \(s.err)")
        }
    }

    @Test func deepWKTStopsAt512Levels() throws {
        let deep = String(repeating: "GEOMETRYCOLLECTION (", count: 50_000) + "POINT (1 2)" + String(repeating: ")", count: 50_000)
        let r = try geometry(["convert"], input: deep)
        #expect(r.code == 2)
        #expect(r.err == "mapsketch: <stdin>:1:10260: expected at most 512 levels of nested parentheses, found '(' at level 513\n")
    }

    @Test func devZeroStopsAtTheFirstByte() throws {
        let r = try geometry(["convert"], stdinPath: "/dev/zero")
        #expect(r.code == 2)
        #expect(r.err.hasPrefix(#"mapsketch: <stdin>:1:1: expected a geometry keyword (POINT, LINESTRING, POLYGON, …), found '\u0000"#))
    }

    @Test func windowsLineEndsAndByteOrderMarks() throws {
        let lines = try geometry(["convert", "--format", "wkt"], input: "{\"x\":1,\"y\":2}\r\n{\"x\":3,\"y\":4}\r\n")
        #expect(lines.code == 0 && lines.out == "POINT (1 2)\nPOINT (3 4)\n", "\(lines.err)")
        let wkt = try geometry(["convert"], input: "\u{FEFF}POLYGON ((0 0,\r\n 0 1, 1 1,\r\n 0 0))\r\n")
        #expect(wkt.code == 0 && wkt.out == "POLYGON ((0 0, 0 1, 1 1, 0 0))\n", "\(wkt.err)")
    }

    @Test func projectRefusesOutOfDomainInput() throws {
        let lon = try geometry(["project", "--sr", "4326", "--to", "3857"], input: "POINT (1e308 0)")
        #expect(lon.code == 2 && lon.out.isEmpty)
        #expect(lon.err.contains("<stdin>:1:1: project: part 0 vertex 0: expected a finite longitude"))
        let lat = try geometry(["project", "--sr", "4326", "--to", "3857", "--format", "esrijson"], input: #"{"x":10,"y":95}"#)
        #expect(lat.code == 2 && !lat.out.contains("null"))
        #expect(lat.err.contains("expected a latitude within -90…90, found latitude 95"))
    }

    @Test func simplifyLeavesNoSliverOfTheReport() throws {
        let r = try geometry(["simplify", "--format", "esrijson"], input:
            "POLYGON((0 4, 10 10, 19 2, 10 10, 2 1, 17 5, 1 1, 8 10, 14 12, 1 7, 0 4), (15 14, 11 9, 11 5, 2 6, 18 11, 15 14))")
        #expect(r.code == 0, "\(r.err)")
        guard case .polygon(let pg) = try EsriJSON.decode(r.out).geometry else {
            Issue.record("expected a polygon")
            return
        }
        let vertices = pg.rings.flatMap { $0 }
        for (i, a) in vertices.enumerated() {
            for b in vertices[(i + 1)...] where !(a.x == b.x && a.y == b.y) {
                #expect(hypot(a.x - b.x, a.y - b.y) >= 0.001, "\(a) and \(b)")
            }
        }
        #expect(GeometryEngine.isValid(.polygon(pg), mode: .esriSimple))
    }

    /// The fidelity issue's polygon: `simplify --in wkt --sr 3857` wrote an area of 1826.6603
    /// where the rings' odd-even area is 1826.6560, moving a crossing onto another 0.77 mm
    /// away; the output's area is now the odd-even area to 1e-9 relative.
    @Test func simplifyKeepsTheOddEvenAreaOfTheIssuesPolygon() throws {
        let r = try geometry(["simplify", "--in", "wkt", "--sr", "3857"], input: Self.fidelityPolygon)
        #expect(r.code == 0, "\(r.err)")
        let out = try WKT.decode(r.out.trimmingCharacters(in: .newlines))
        var area = 0.0
        if case .polygon(let pg) = out {
            for ring in pg.rings {
                for i in ring.indices {
                    let a = ring[i], b = ring[(i + 1) % ring.count]
                    area -= (a.x * b.y - b.x * a.y) / 2
                }
            }
        }
        // The rings as stored (exteriors clockwise, holes counter-clockwise): the area is minus
        // the shoelace sum.
        #expect(abs(area - 1826.6559764558507) <= 1e-9 * 1826.656, "area \(area): \(r.out)")
    }

    static let fidelityPolygon =
        "POLYGON((5.043201 22.936234, 5.043201 22.936234, 65.944142 67.9471, 61.096134 7.157808, 97.137208 31.652416, 53.813171 57.102255, 65.210023 58.665971, 16.820063 46.087548, 7.364356 17.477338, 2.507875 50.295161, 5.043201 22.936234), (46.855357 94.519183, 0.724938 57.604464, 60.380003 32.561624, 70.607532 49.947002, 10.815175 58.900436, 46.855357 94.519183))"

    @Test func controlCharactersAreEscapedInErrors() throws {
        let r = try geometry(["convert"], input: "POINT (1 \u{1B}[2J2)")
        #expect(r.code == 2)
        #expect(!r.err.contains("\u{1B}"))
        #expect(r.err.contains(#"found '\u001B[2J2)'"#))
    }
}
