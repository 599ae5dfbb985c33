public import Foundation
import MapSketchGeometry

/// One trace of a corpus and its golden files.
public struct GoldenCase: Hashable, Sendable {
    /// The trace path relative to the corpus root, without `.trace.jsonl` (e.g. `interaction/tap`).
    public var name: String
    /// The trace file.
    public var trace: URL
    /// `NAME.expected.json` beside the trace.
    public var expected: URL { sibling("expected.json") }
    /// `NAME.expected.svg` beside the trace (compared only when it exists).
    public var expectedSVG: URL { sibling("expected.svg") }
    /// `NAME.actual.json`, written on a mismatch.
    public var actual: URL { sibling("actual.json") }
    /// `NAME.actual.svg`, written on an SVG mismatch.
    public var actualSVG: URL { sibling("actual.svg") }
    /// `NAME.diff.svg`: expected geometry (green) under actual (red), written on a mismatch.
    public var diffSVG: URL { sibling("diff.svg") }

    /// Creates a case for a trace file.
    public init(name: String, trace: URL) {
        self.name = name
        self.trace = trace
    }

    private func sibling(_ suffix: String) -> URL {
        let base = String(trace.lastPathComponent.dropLast(GoldenCorpus.traceSuffix.count))
        return trace.deletingLastPathComponent().appendingPathComponent("\(base).\(suffix)")
    }
}

/// What replaying one trace produced, as the texts golden files hold.
public struct GoldenRendering: Sendable {
    /// The output document (pretty JSON, newline-terminated).
    public var json: String
    /// The SVG of the map, when rendered.
    public var svg: String?

    /// Creates a rendering.
    public init(json: String, svg: String? = nil) {
        self.json = json
        self.svg = svg
    }
}

/// The outcome of checking one case.
public enum GoldenStatus: Hashable, Sendable {
    /// Output matches the golden files.
    case passed
    /// Output differs, or the golden is missing or unreadable: a readable report.
    case failed(String)
    /// The golden files were (re)written (`--update`).
    case recorded
    /// `--update` found the golden already up to date.
    case unchanged
}

/// One checked case.
public struct GoldenResult: Hashable, Sendable {
    /// The case.
    public var goldenCase: GoldenCase
    /// Its outcome.
    public var status: GoldenStatus
    /// Seconds spent replaying and comparing.
    public var seconds: Double

    /// Creates a result.
    public init(goldenCase: GoldenCase, status: GoldenStatus, seconds: Double) {
        self.goldenCase = goldenCase
        self.status = status
        self.seconds = seconds
    }

    /// Whether the case failed.
    public var failed: Bool { if case .failed = status { true } else { false } }
}

/// Finds the traces of a corpus.
public enum GoldenCorpus {
    /// The suffix of trace files.
    public static let traceSuffix = ".trace.jsonl"

    /// Every `*.trace.jsonl` under `root` (recursively), sorted by relative path.
    /// - Throws: ``OutputError`` when `root` is not a readable folder.
    /// - Complexity: O(f log f) for f files under the root.
    public static func cases(under root: URL) throws(OutputError) -> [GoldenCase] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDir), isDir.boolValue else {
            throw OutputError(path: root.path, message: "expected a folder of *.trace.jsonl files")
        }
        guard let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw OutputError(path: root.path, message: "cannot list the folder")
        }
        let rootPath = root.standardizedFileURL.path
        var out: [GoldenCase] = []
        for case let u as URL in e where u.lastPathComponent.hasSuffix(traceSuffix) {
            var rel = u.standardizedFileURL.path
            if rel.hasPrefix(rootPath) { rel = String(rel.dropFirst(rootPath.count)) }
            while rel.hasPrefix("/") { rel.removeFirst() }
            out.append(GoldenCase(name: String(rel.dropLast(traceSuffix.count)), trace: u))
        }
        return out.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// The cases of shard `k` of `n` (1-based): every n-th case starting at the k-th, so shards
    /// are balanced across folders and together cover the corpus exactly once.
    public static func shard(_ cases: [GoldenCase], k: Int, n: Int) -> [GoldenCase] {
        guard n > 1 else { return cases }
        return cases.enumerated().filter { $0.offset % n == k - 1 }.map(\.element)
    }
}

/// Checks traces against their golden files, or records them.
///
/// Goldens are written only in record mode ``RecordMode/all`` (the `--update` flag or
/// `MAPSKETCH_RECORD=1`), never as a side effect of a missing file. Every write is atomic.
public struct GoldenRunner: Sendable {
    /// When goldens are written.
    public var record: RecordMode
    /// The numeric tolerance.
    public var tolerance: GoldenTolerance

    /// Creates a runner.
    public init(record: RecordMode = .never, tolerance: GoldenTolerance = .standard) {
        self.record = record
        self.tolerance = tolerance
    }

    /// Checks (or records) one case given what replaying it produced.
    /// - Complexity: O(n) in the size of the output.
    public func check(_ c: GoldenCase, rendering r: GoldenRendering) -> GoldenStatus {
        switch record {
        case .never: return compare(c, rendering: r)
        case .missing, .failed: return .failed("\(c.name): record mode \"\(record.rawValue)\" is not available; use never or all\n")
        case .all: return recordAll(c, rendering: r)
        }
    }

    /// Compares `r` with the goldens; on a mismatch writes the actual output and the overlay.
    private func compare(_ c: GoldenCase, rendering r: GoldenRendering) -> GoldenStatus {
        let fm = FileManager.default
        let expectedText: String
        switch GoldenText.read(c.expected) {
        case .text(let text): expectedText = text
        case .missing:
            return .failed(
                "\(c.name): no golden file \(c.expected.lastPathComponent); replay it, review the output, then record it with `mapsketch check --update`\n")
        case .unreadable(let why): return .failed("\(c.expected.lastPathComponent): cannot read the golden file: \(why)\n")
        }
        var report = ""
        let expected: JSONValue
        do {
            expected = try JSONParser.parse(expectedText)
        } catch {
            return .failed("\(c.expected.lastPathComponent):\(error)\n")
        }
        let actual: JSONValue
        do {
            actual = try JSONParser.parse(r.json)
        } catch {
            return .failed("\(c.name): the replay output is not JSON: \(error)\n")
        }
        let diffs = GoldenComparison.differences(expected: expected, actual: actual, tolerance: tolerance)
        if !diffs.isEmpty { report += GoldenComparison.report(file: c.expected.lastPathComponent, diffs) }
        var svgMismatch = false
        if let expectedSVG = try? String(contentsOf: c.expectedSVG, encoding: .utf8) {
            if let svg = r.svg {
                if let line = GoldenText.firstDifference(expected: expectedSVG, actual: svg) {
                    svgMismatch = true
                    report += "\(c.expectedSVG.lastPathComponent): \(line)\n"
                }
            } else {
                svgMismatch = true
                report += "\(c.expectedSVG.lastPathComponent): the replay rendered no SVG\n"
            }
        }
        if report.isEmpty {
            for stale in [c.actual, c.actualSVG, c.diffSVG] { try? fm.removeItem(at: stale) }
            return .passed
        }
        do {
            try AtomicFile.write(r.json, to: c.actual)
            if svgMismatch, let svg = r.svg { try AtomicFile.write(svg, to: c.actualSVG) }
            try AtomicFile.write(GoldenOverlay.svg(expected: expected, actual: actual), to: c.diffSVG)
            report += "  wrote \(c.actual.lastPathComponent)\(svgMismatch && r.svg != nil ? ", \(c.actualSVG.lastPathComponent)" : "") and \(c.diffSVG.lastPathComponent)\n"
        } catch {
            report += "  could not write the actual output: \(error)\n"
        }
        return .failed(report)
    }

    /// Writes the goldens that differ from `r` and removes stale actual and diff files.
    private func recordAll(_ c: GoldenCase, rendering r: GoldenRendering) -> GoldenStatus {
        let fm = FileManager.default
        do {
            var changed = false
            if (try? String(contentsOf: c.expected, encoding: .utf8)) != r.json {
                try AtomicFile.write(r.json, to: c.expected)
                changed = true
            }
            if let svg = r.svg, (try? String(contentsOf: c.expectedSVG, encoding: .utf8)) != svg,
                fm.fileExists(atPath: c.expectedSVG.path)
            {
                try AtomicFile.write(svg, to: c.expectedSVG)
                changed = true
            }
            for stale in [c.actual, c.actualSVG, c.diffSVG] { try? fm.removeItem(at: stale) }
            return changed ? .recorded : .unchanged
        } catch {
            return .failed("\(c.name): cannot record: \(error)")
        }
    }
}

/// Line-based comparison of texts that must match exactly (SVG), and reading golden files.
package enum GoldenText {
    /// What reading a golden file found.
    package enum Contents: Hashable, Sendable {
        case text(String)
        case missing
        /// It exists but cannot be used: why (not UTF-8 at line:column, a folder, the system's reason).
        case unreadable(String)
    }

    /// Reads a golden file, telling a missing file from one that is not UTF-8 or cannot be read.
    /// - Complexity: O(n) in the file's size.
    package static func read(_ url: URL) -> Contents {
        let source: FileByteSource
        do {
            source = try FileByteSource(path: url.path, file: url.lastPathComponent)
        } catch let e as ReaderError {
            if case .unreadable(let reason) = e.kind { return reason == "not found" ? .missing : .unreadable(reason) }
            return .unreadable(e.message)
        } catch {
            return .unreadable("\(error)")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        do {
            while true {
                let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
                if n == 0 { break }
                bytes += chunk[0..<n]
            }
        } catch let e as ReaderError {
            return .unreadable(e.message)
        } catch {
            return .unreadable("\(error)")
        }
        if let text = String(validating: bytes, as: UTF8.self) { return .text(text) }
        let valid = bytes.withUnsafeBufferPointer { ByteScan.validUTF8Prefix($0) }
        let line = 1 + bytes[..<valid].filter { $0 == ASCII.lf }.count
        let column = valid - (bytes[..<valid].lastIndex(of: ASCII.lf).map { $0 + 1 } ?? 0) + 1
        return .unreadable("not UTF-8 text (line \(line), column \(column): byte 0x\(String(bytes[valid], radix: 16)))")
    }

    /// The first differing line as `line N: expected … / actual …`, or nil when equal.
    package static func firstDifference(expected: String, actual: String) -> String? {
        guard expected != actual else { return nil }
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(e.count, a.count) {
            let x = i < e.count ? String(e[i]) : "(end of file)"
            let y = i < a.count ? String(a[i]) : "(end of file)"
            if x != y {
                func clip(_ s: String) -> String { s.count <= 160 ? s : String(s.prefix(157)) + "…" }
                return "line \(i + 1) differs\n    - expected \(clip(x))\n    + actual   \(clip(y))"
            }
        }
        return "texts differ"
    }
}
