public import Foundation
public import MapSketchReplay

/// One trace of a corpus and its golden files.
public struct GoldenCase: Hashable, Sendable {
    /// The trace path relative to the corpus root, without `.trace.jsonl` (e.g. `interaction/tap`).
    public var name: String
    /// The trace file.
    public var trace: URL
    /// `NAME.expected.json` beside the trace.
    public var expected: URL { sibling("expected.json") }
    /// `NAME.expected.svg` beside the trace (compared only when it exists).
    package var expectedSVG: URL { sibling("expected.svg") }
    /// `NAME.actual.json`, written on a mismatch.
    package var actual: URL { sibling("actual.json") }
    /// `NAME.actual.svg`, written on an SVG mismatch.
    package var actualSVG: URL { sibling("actual.svg") }
    /// `NAME.diff.svg`: expected geometry (green) under actual (red), written on a mismatch.
    package var diffSVG: URL { sibling("diff.svg") }
    /// `NAME.actual.origin.json`: what the pending output was made from (`PendingOrigin`),
    /// written with it.
    package var actualOrigin: URL { sibling("actual.origin.json") }
    /// The trace's path as messages show it: relative to the current directory when inside it.
    package var displayPath: String { InputFile.displayPath(trace) }
    /// The files a check writes beside the golden on a mismatch: the pending actual output, its
    /// origin and the pictures.
    package var pendingFiles: [URL] { [actual, actualSVG, diffSVG, actualOrigin] }

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

/// Finds the traces of a corpus.
public enum GoldenCorpus {
    /// The suffix of trace files.
    package static let traceSuffix = ".trace.jsonl"

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
            let rel = relativePath(of: u, under: rootPath)
            out.append(GoldenCase(name: String(rel.dropLast(traceSuffix.count)), trace: u))
        }
        return out.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// `file`'s path relative to the folder at `rootPath` (a standardized path), without a
    /// leading `/`: `gps/real-gpx-visnjan.trace.jsonl`.
    static func relativePath(of file: URL, under rootPath: String) -> String {
        var rel = file.standardizedFileURL.path
        if rel.hasPrefix(rootPath) { rel = String(rel.dropFirst(rootPath.count)) }
        while rel.hasPrefix("/") { rel.removeFirst() }
        return rel
    }
}
