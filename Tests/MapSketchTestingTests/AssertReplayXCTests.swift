#if canImport(XCTest)
import Foundation
import MapSketchGeometry
import MapSketchTestSupport
import MapSketchTesting
import XCTest

/// `assertReplay` and `assertGeometry` in an XCTest test case: a pass records nothing, a failure
/// is one XCTest failure at the assertion's file and line with the message Swift Testing shows.
final class AssertReplayXCTests: XCTestCase {
    /// The failures the assertions under test recorded (the test's own assertions are not kept).
    private var captured: [(description: String, file: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            captured.append((description, filePath, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    /// A copy of the insert-vertex trace and its golden, the golden's middle vertex moved by `dy`.
    private func traceCopy(movingGoldenBy dy: Int) throws -> URL {
        let dir = try MapsketchProcess.tempDir(prefix: "assert-replay-xctest")
        let trace = dir.appendingPathComponent("insert-vertex.trace.jsonl")
        try FileManager.default.copyItem(at: Fixtures.url("Traces/programmatic/insert-vertex.trace.jsonl"), to: trace)
        let golden = try Fixtures.string("Traces/programmatic/insert-vertex.expected.json")
        try golden.replacingOccurrences(of: "[50, 50]", with: "[50, \(50 + dy)]")
            .write(to: dir.appendingPathComponent("insert-vertex.expected.json"), atomically: true, encoding: .utf8)
        return trace
    }

    func testAMatchingTraceRecordsNoFailure() throws {
        let trace = try traceCopy(movingGoldenBy: 0)
        capturing = true
        MainActor.assumeIsolated { assertReplay(trace, environment: [:]) }
        capturing = false
        XCTAssertTrue(captured.isEmpty, "\(captured)")
    }

    func testAMismatchIsOneFailureAtTheCallWithTheDiff() throws {
        let trace = try traceCopy(movingGoldenBy: 1)
        capturing = true
        let line = #line + 1
        MainActor.assumeIsolated { assertReplay(trace, environment: [:]) }
        capturing = false
        XCTAssertEqual(captured.count, 1)
        let failure = try XCTUnwrap(captured.first)
        XCTAssertEqual(failure.line, line)
        XCTAssertTrue(failure.file.hasSuffix("AssertReplayXCTests.swift"), failure.file)
        XCTAssertTrue(failure.description.contains("- expected [50,51]"), failure.description)
        XCTAssertTrue(failure.description.contains("+ actual   [50,50]"), failure.description)
        XCTAssertTrue(failure.description.contains("insert-vertex.diff.svg"), failure.description)
    }

    func testAGeometryMismatchIsAFailureToo() throws {
        let dir = try MapsketchProcess.tempDir(prefix: "assert-geometry-xctest")
        capturing = true
        assertGeometry(Geometry.point(Point(1, 2)), named: "absent", as: .wkt, directory: dir, environment: [:])
        capturing = false
        XCTAssertEqual(captured.count, 1)
        XCTAssertTrue(captured.first?.description.contains("no golden file absent.wkt") == true, "\(captured)")
    }
}
#endif
