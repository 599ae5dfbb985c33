public import Foundation
public import MapSketchGeometry
public import MapSketchReplay
public import MapSketchGolden

/// Replays the trace at `trace` and checks it against its golden files exactly as `mapsketch
/// check` does, reporting a mismatch as a test failure at the call: the differences, the event
/// log around the first one, and the paths of the pending output and of `NAME.diff.svg`.
///
/// Works under Swift Testing (an issue recorded at the call) and XCTest (`XCTFail`). Record modes
/// are those of `mapsketch check --record`: `record`, else the environment variable
/// `MAPSKETCH_RECORD` (`never`, `missing`, `failed`, `drifted`, `all`); nothing is ever recorded
/// when `CI` is set, which the failure says. A recorded golden is a warning, not a failure.
///
/// ```swift
/// @Test @MainActor func walk() {
///     assertReplay(URL(fileURLWithPath: "Traces/walk.trace.jsonl"), extensions: .team)
/// }
/// ```
/// - Parameters:
///   - trace: the trace file (`NAME.trace.jsonl`, its goldens beside it).
///   - extensions: the team's own code to install in the replay.
///   - strict: fail when the model refuses a call the trace does not declare (`check --strict`).
///   - record: the record mode; nil reads `MAPSKETCH_RECORD` from `environment`.
///   - environment: where `MAPSKETCH_RECORD` and `CI` are read (the process's by default).
@MainActor
public func assertReplay(
    _ trace: URL, extensions: ReplayExtensions = .none, strict: Bool = false, record: RecordMode? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let outcome = GoldenAssertion.replay(trace, extensions: extensions, strict: strict, record: record, environment: environment)
    TestReporter.report(outcome, at: TestReporter.Location(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// ``assertReplay(_:extensions:strict:record:environment:fileID:filePath:line:column:)-(URL,_,_,_,_,_,_,_,_)``
/// for a trace path: absolute, or relative to the root of the package the calling test file is in
/// (``GoldenAssertion/traceURL(_:testFile:)``).
@MainActor
public func assertReplay(
    _ trace: String, extensions: ReplayExtensions = .none, strict: Bool = false, record: RecordMode? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertReplay(
        GoldenAssertion.traceURL(trace, testFile: "\(filePath)"), extensions: extensions, strict: strict, record: record,
        environment: environment, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Checks a geometry the team's code produced against its golden file, with the workflow of trace
/// goldens (``GeometryGolden``): numbers within `tolerance`, the record modes of
/// `MAPSKETCH_RECORD` (never on CI), `NAME.actual.EXT` and `NAME.diff.svg` left on a mismatch,
/// atomic writes. A mismatch is a test failure at the call (Swift Testing or XCTest).
///
/// The golden is `NAME.EXT` (`EXT`: `esri.json`, `geojson`, `wkt` or `svg`) in `directory`, by
/// default `__Goldens__/<TestFile>/` beside the calling test file
/// (``GoldenAssertion/goldenFolder(forTestFile:)``).
public func assertGeometry(
    _ geometry: SpatialGeometry, named name: String, as format: GeometryGolden.Format = .esriJSON, directory: URL? = nil,
    tolerance: GoldenTolerance = .standard, record: RecordMode? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let folder = directory ?? GoldenAssertion.goldenFolder(forTestFile: "\(filePath)")
    let golden = GeometryGolden(name: name, folder: folder, format: format, tolerance: tolerance)
    let outcome = GoldenAssertion.geometry(geometry, golden: golden, record: record, environment: environment)
    TestReporter.report(outcome, at: TestReporter.Location(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// ``assertGeometry(_:named:as:directory:tolerance:record:environment:fileID:filePath:line:column:)``
/// for a geometry without a spatial reference.
public func assertGeometry(
    _ geometry: Geometry, named name: String, as format: GeometryGolden.Format = .esriJSON, directory: URL? = nil,
    tolerance: GoldenTolerance = .standard, record: RecordMode? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertGeometry(
        SpatialGeometry(geometry), named: name, as: format, directory: directory, tolerance: tolerance, record: record,
        environment: environment, fileID: fileID, filePath: filePath, line: line, column: column)
}
