public import Foundation
public import MapSketchGeometry
public import MapSketchReplay
public import MapSketchGolden

/// The golden checks behind ``assertReplay(_:extensions:strict:record:environment:fileID:filePath:line:column:)-(URL,_,_,_,_,_,_,_,_)``
/// and ``assertGeometry(_:named:as:directory:tolerance:record:environment:fileID:filePath:line:column:)``,
/// without a test framework: what a check found and the message a test reports. For a team that
/// reports through another assertion library (Nimble, a custom `expect`).
public enum GoldenAssertion {
    /// What a golden assertion found.
    public enum Outcome: Hashable, Sendable {
        /// The output matches the golden (byte for byte, or within the tolerance).
        case passed
        /// The golden was written (the record mode asked for it): a note, not a failure.
        case recorded(String)
        /// The check failed: the message says why (the differences, the pending files, how to
        /// accept them).
        case failed(String)

        /// The message of a failure or a recording; nil for a pass.
        public var message: String? {
            switch self {
            case .passed: nil
            case .recorded(let m), .failed(let m): m
            }
        }
    }

    /// The environment variable that chooses the record mode, as for `mapsketch check`.
    package static let recordVariable = "MAPSKETCH_RECORD"

    /// Replays the trace at `trace` and checks it against its golden files exactly as
    /// `mapsketch check TRACE` does: the trace's tolerance, the record mode (`record`, else
    /// `MAPSKETCH_RECORD` in `environment`; never on CI), the pending `NAME.actual.json` and
    /// `NAME.diff.svg` left on a mismatch.
    @MainActor
    public static func replay(
        _ trace: URL, extensions: ReplayExtensions = .none, strict: Bool = false, record: RecordMode? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Outcome {
        let resolved: (mode: RecordMode, note: String?)
        do {
            resolved = try RecordMode.resolve(requested: record, environment: environment)
        } catch {
            return .failed(modeMessage(error))
        }
        let base = trace.lastPathComponent.hasSuffix(GoldenCorpus.traceSuffix)
            ? String(trace.lastPathComponent.dropLast(GoldenCorpus.traceSuffix.count)) : trace.lastPathComponent
        let c = GoldenCase(name: base, trace: trace.standardizedFileURL)
        var runner = GoldenRunner(record: resolved.mode, strict: strict, producer: "MapSketchTesting")
        runner.extensions = extensions
        let result = runner.run(c)
        var message: String
        switch result.status {
        case .passed, .drifted, .unchanged: return .passed
        case .recorded(let changes):
            return .recorded("recorded \(c.expected.path)" + (changes.map { "\n" + $0 } ?? ""))
        case .inputError(let e):
            return .failed("\(c.displayPath): input error (nothing was compared or recorded): \(e)")
        case .failed(let f):
            message = "\(c.displayPath) does not match its golden \(c.expected.lastPathComponent)\n" + f.report
            if !message.hasSuffix("\n") { message += "\n" }
            if let log = f.logExcerpt { message += "the log around its first difference:\n" + log }
            if FileManager.default.fileExists(atPath: c.diffSVG.path) { message += "diff: \(c.diffSVG.path)\n" }
        }
        for w in result.warnings { message += "warning: \(w)\n" }
        message += recordHint(resolved.note, accept: "`mapsketch accept \(c.displayPath)`")
        return .failed(message)
    }

    /// Checks `geometry` against the golden `golden`, or records it, as ``replay(_:extensions:strict:record:environment:)``
    /// checks a trace: the same tolerance, record modes, pending files and atomic writes.
    public static func geometry(
        _ geometry: SpatialGeometry, golden: GeometryGolden, record: RecordMode? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Outcome {
        let resolved: (mode: RecordMode, note: String?)
        do {
            resolved = try RecordMode.resolve(requested: record, environment: environment)
        } catch {
            return .failed(modeMessage(error))
        }
        // A geometry the format cannot carry is the caller's to fix: no golden to record.
        let text: String
        do {
            text = try golden.text(of: geometry)
        } catch {
            return .failed("\(golden.name): the geometry cannot be written as \(golden.format.rawValue): \(error)\n")
        }
        switch golden.check(text: text, record: resolved.mode) {
        case .passed, .drifted, .unchanged: return .passed
        case .inputError(let e): return .failed("\(golden.name): \(e)\n")
        case .recorded(let changes):
            return .recorded("recorded \(golden.expected.path)" + (changes.map { "\n" + $0 } ?? ""))
        case .failed(let f):
            var message = "\(golden.name) does not match its golden \(golden.expected.path)\n" + f.report
            if !message.hasSuffix("\n") { message += "\n" }
            if FileManager.default.fileExists(atPath: golden.diffSVG.path) { message += "diff: \(golden.diffSVG.path)\n" }
            return .failed(message + recordHint(resolved.note, accept: nil))
        }
    }

    /// The folder of a test file's geometry goldens: `__Goldens__/<file name without .swift>`
    /// beside it, as swift-snapshot-testing keeps `__Snapshots__`.
    package static func goldenFolder(forTestFile filePath: String) -> URL {
        let file = URL(fileURLWithPath: filePath)
        var base = file.lastPathComponent
        if base.hasSuffix(".swift") { base.removeLast(6) }
        return file.deletingLastPathComponent().appendingPathComponent("__Goldens__").appendingPathComponent(base)
    }

    /// A trace path as a test names it: an absolute path as it is; a relative one from the root of
    /// the package the test file is in (the nearest folder above it with a `Package.swift`), so
    /// `Traces/walk.trace.jsonl` means the same under `swift test` and in Xcode; from the test
    /// file's folder when no package is found.
    package static func traceURL(_ path: String, testFile filePath: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        let start = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        var folder = start
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder.appendingPathComponent(path)
            }
            folder.deleteLastPathComponent()
        }
        return start.appendingPathComponent(path)
    }

    /// The message of a record mode that cannot be read: the variable, what it may hold, what it held.
    static func modeMessage(_ error: OutputError) -> String {
        "\(error.description) (the record mode: \(RecordMode.allCases.map(\.rawValue).joined(separator: ", ")); unset it to compare only)"
    }

    /// How to accept a new output, and why nothing was recorded when CI overruled a record mode.
    static func recordHint(_ note: String?, accept: String?) -> String {
        if let note { return "not recorded: \(note)\n" }
        return "to accept the output as the new golden, run the tests again with \(recordVariable)=failed"
            + (accept.map { " (or \($0))" } ?? "") + "\n"
    }
}
