import Foundation
import Testing
#if canImport(XCTest)
import XCTest
#endif

/// Reports an assertion's outcome to the test framework that runs the caller: Swift Testing when
/// a Swift Testing test is running (an issue at the caller's source location; a recording is a
/// warning), else XCTest (`XCTFail` at the caller's file and line; a recording is printed).
enum TestReporter {
    /// Where the assertion was called.
    struct Location {
        var fileID: StaticString
        var filePath: StaticString
        var line: UInt
        var column: UInt

        var sourceLocation: SourceLocation {
            SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
        }
    }

    /// The framework that runs the current test.
    enum Framework: Equatable {
        case swiftTesting, xcTest
    }

    /// Swift Testing when one of its tests is running on this task, else XCTest.
    static var framework: Framework { Test.current != nil ? .swiftTesting : .xcTest }

    static func report(_ outcome: GoldenAssertion.Outcome, at location: Location) {
        switch outcome {
        case .passed: return
        case .failed(let message): fail(message, at: location)
        case .recorded(let message): note(message, at: location)
        }
    }

    static func fail(_ message: String, at location: Location) {
        switch framework {
        case .swiftTesting:
            Issue.record(Comment(rawValue: message), sourceLocation: location.sourceLocation)
        case .xcTest:
            #if canImport(XCTest)
            XCTFail(message, file: location.filePath, line: location.line)
            #else
            FileHandle.standardError.write(Data("\(location.filePath):\(location.line): error: \(message)\n".utf8))
            #endif
        }
    }

    static func note(_ message: String, at location: Location) {
        switch framework {
        case .swiftTesting:
            Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: location.sourceLocation)
        case .xcTest:
            FileHandle.standardError.write(Data("\(location.filePath):\(location.line): warning: \(message)\n".utf8))
        }
    }
}
