import Foundation
import MapSketchGeometry
import MapSketchReplay
import MapSketchTestSupport
import MapSketchTesting
import Testing
@testable import MapSketchGolden

/// `assertGeometry` on a team's own geometry: the golden workflow of traces (tolerance, record
/// modes, pending files) for each format, and the default golden folder beside the test file.
@Suite struct AssertGeometryTests {
    let triangle = SpatialGeometry(
        .polygon(Polygon(rings: [[Point(0, 0), Point(0, 10), Point(10, 10), Point(0, 0)]])), spatialReference: .webMercator)

    /// The same triangle with one coordinate moved by `delta`.
    func moved(by delta: Double) -> SpatialGeometry {
        SpatialGeometry(
            .polygon(Polygon(rings: [[Point(0, 0), Point(0, 10 + delta), Point(10, 10), Point(0, 0)]])), spatialReference: .webMercator)
    }

    @Test func theCommittedGoldenBesideThisFilePasses() {
        // __Goldens__/AssertGeometryTests/triangle.esri.json, recorded once with MAPSKETCH_RECORD=missing.
        assertGeometry(triangle, named: "triangle")
        let folder = GoldenAssertion.goldenFolder(forTestFile: #filePath)
        #expect(folder.path.hasSuffix("Tests/MapSketchTestingTests/__Goldens__/AssertGeometryTests"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("triangle.esri.json").path))
    }

    @Test(arguments: GeometryGolden.Format.allCases) func eachFormatRecordsThenPassesThenFails(_ format: GeometryGolden.Format) throws {
        let dir = try MapsketchProcess.tempDir(prefix: "assert-geometry")
        let golden = GeometryGolden(name: "shape", folder: dir, format: format)
        // Missing: fails without a record mode, leaving the output; recorded with `missing`.
        let missing = GoldenAssertion.geometry(triangle, golden: golden, environment: [:])
        #expect(missing.message?.contains("no golden file shape.\(format.fileExtension)") == true)
        #expect(FileManager.default.fileExists(atPath: golden.actual.path))
        guard case .recorded = GoldenAssertion.geometry(triangle, golden: golden, environment: ["MAPSKETCH_RECORD": "missing"]) else {
            Issue.record("expected a recording")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: golden.actual.path))
        #expect(GoldenAssertion.geometry(triangle, golden: golden, environment: [:]) == .passed)
        // Beyond the tolerance: a failure with the difference and, for geometry formats, the picture.
        let failed = GoldenAssertion.geometry(moved(by: 0.5), golden: golden, environment: [:])
        let message = try #require(failed.message)
        #expect(message.contains("does not match its golden"))
        #expect(FileManager.default.fileExists(atPath: golden.actual.path))
        if format == .svg {
            #expect(message.contains("line "))
        } else {
            #expect(message.contains("differ"))
            #expect(message.contains("diff: \(golden.diffSVG.path)"))
        }
        // CI: no recording, and the message says so.
        let ci = GoldenAssertion.geometry(moved(by: 0.5), golden: golden, environment: ["MAPSKETCH_RECORD": "failed", "CI": "true"])
        #expect(ci.message?.contains("not recorded: CI is set") == true)
        // `failed` re-records; the next check passes and removes nothing it should keep.
        guard case .recorded = GoldenAssertion.geometry(moved(by: 0.5), golden: golden, record: .failed, environment: [:]) else {
            Issue.record("expected a recording")
            return
        }
        #expect(GoldenAssertion.geometry(moved(by: 0.5), golden: golden, environment: [:]) == .passed)
        #expect(!FileManager.default.fileExists(atPath: golden.diffSVG.path))
    }

    @Test(arguments: [GeometryGolden.Format.esriJSON, .wkt]) func numbersWithinTheToleranceMatch(_ format: GeometryGolden.Format) throws {
        let dir = try MapsketchProcess.tempDir(prefix: "assert-geometry")
        let golden = GeometryGolden(name: "shape", folder: dir, format: format)
        _ = GoldenAssertion.geometry(triangle, golden: golden, record: .all, environment: [:])
        // 1e-12 is within 1e-9 + 1e-9·|value|: the golden drifted, the check passes.
        #expect(GoldenAssertion.geometry(moved(by: 1e-12), golden: golden, environment: [:]) == .passed)
        // A looser tolerance of the caller's own.
        let loose = GeometryGolden(name: "shape", folder: dir, format: format, tolerance: GoldenTolerance(absolute: 1, relative: 0))
        #expect(GoldenAssertion.geometry(moved(by: 0.5), golden: loose, environment: [:]) == .passed)
        // `drifted` rewrites a golden that matches only within the tolerance.
        guard case .recorded = GoldenAssertion.geometry(moved(by: 1e-12), golden: golden, record: .drifted, environment: [:]) else {
            Issue.record("expected a recording")
            return
        }
    }

    @Test func aGeometryTheFormatCannotCarryFailsWithoutOfferingToRecordIt() throws {
        let dir = try MapsketchProcess.tempDir(prefix: "assert-geometry")
        // GeoJSON is WGS 84: a geometry without a spatial reference cannot be written as GeoJSON.
        let golden = GeometryGolden(name: "unreferenced", folder: dir, format: .geoJSON)
        for record in [RecordMode.never, .all] {
            let outcome = GoldenAssertion.geometry(SpatialGeometry(.point(Point(1, 2))), golden: golden, record: record, environment: [:])
            guard case .failed(let message) = outcome else { Issue.record("expected a failure, got \(outcome)"); continue }
            #expect(message.hasPrefix("unreferenced: the geometry cannot be written as geoJSON:"))
            #expect(!message.contains("MAPSKETCH_RECORD"))
        }
        #expect(!FileManager.default.fileExists(atPath: golden.expected.path))
        #expect(!FileManager.default.fileExists(atPath: golden.actual.path))
    }

    @Test func aFailureIsReportedAtTheCall() throws {
        let dir = try MapsketchProcess.tempDir(prefix: "assert-geometry")
        withKnownIssue {
            assertGeometry(triangle, named: "absent", as: .wkt, directory: dir, environment: [:])
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("no golden file absent.wkt") }
                && issue.sourceLocation?.fileName == "AssertGeometryTests.swift"
        }
    }
}
