package import Foundation
import MapSketchGeometry
package import MapSketchReplay
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Golden files (and pending outputs) whose trace no longer exists.
package struct ObsoleteGolden: Hashable, Sendable {
    /// The name the trace had, relative to the folder given (e.g. `gps/old-track`).
    package var name: String
    /// The files, sorted by name.
    package var files: [URL]
}

extension TraceSelection {
    /// The suffixes of the files a golden case keeps beside its trace.
    static let goldenSuffixes = [
        ".expected.json", ".expected.svg", ".actual.json", ".actual.svg", ".diff.svg", ".actual.origin.json",
    ]

    /// The golden and pending files under the selection's folders whose `NAME.trace.jsonl` is
    /// gone, named as traces are and kept by the same filters. Trace files given one by one
    /// contribute none.
    /// - Throws: ``OutputError`` when a folder cannot be listed.
    /// - Complexity: O(f log f) for f files under the folders.
    package func obsoleteGoldens() throws(OutputError) -> [ObsoleteGolden] {
        var byName: [String: [URL]] = [:]
        for path in paths {
            let root = URL(fileURLWithPath: path)
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDir), isDir.boolValue else {
                continue
            }
            guard let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
                throw OutputError(path: path, message: "cannot list the folder")
            }
            let rootPath = root.standardizedFileURL.path
            for case let u as URL in e {
                let file = u.lastPathComponent
                guard let suffix = Self.goldenSuffixes.first(where: { file.hasSuffix($0) }) else { continue }
                let trace = u.deletingLastPathComponent().appendingPathComponent(
                    String(file.dropLast(suffix.count)) + GoldenCorpus.traceSuffix)
                if FileManager.default.fileExists(atPath: trace.path) { continue }
                let rel = GoldenCorpus.relativePath(of: u, under: rootPath)
                byName[String(rel.dropLast(suffix.count)), default: []].append(u)
            }
        }
        var out = byName.map { ObsoleteGolden(name: $0.key, files: $0.value.sorted { $0.path < $1.path }) }
        if !filters.isEmpty { out = out.filter { o in filters.contains { Self.glob($0, matches: o.name) } } }
        return out.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// The selected cases that have a pending output (`NAME.actual.json`) to review.
    /// - Throws: ``OutputError`` as ``cases()`` does.
    package func pendingCases() throws(OutputError) -> [GoldenCase] {
        try cases().filter { FileManager.default.fileExists(atPath: $0.actual.path) }
    }
}

/// Accepting and rejecting pending outputs: what `mapsketch accept` and its review do.
package enum GoldenAcceptance {
    /// Makes the pending output of `c` its golden: `NAME.actual.json` becomes
    /// `NAME.expected.json` (and `NAME.actual.svg` becomes `NAME.expected.svg`), each by one
    /// atomic rename, so a reader sees the old golden or the new one and never half of one; the
    /// diff picture and the origin are removed. Returns the goldens written.
    ///
    /// A pending output is accepted only while its trace is the one it was made from: one whose
    /// trace changed since (or whose `PendingOrigin` is missing) is stale and refused, as
    /// accepting it would make an old output the golden.
    /// - Throws: ``OutputError`` naming the file when there is no pending output, it is stale
    ///   (`stale: …; run check again`), it is not a JSON object (a golden must be one), or a
    ///   rename fails.
    @discardableResult
    package static func accept(_ c: GoldenCase) throws(OutputError) -> [URL] {
        guard let data = FileManager.default.contents(atPath: c.actual.path) else {
            throw OutputError(
                path: c.actual.path,
                message:
                    "no pending output to accept: `mapsketch check` writes one when the output differs from the golden or the golden is missing"
            )
        }
        if let stale = PendingOrigin.staleness(of: c) {
            throw OutputError(path: c.actual.path, message: stale + "; not accepted")
        }
        guard (try? JSONParser.parse(Array(data)))?.objectValue != nil else {
            throw OutputError(
                path: c.actual.path, message: "expected the output document (a JSON object); not accepted")
        }
        var written: [URL] = []
        try move(c.actual, to: c.expected)
        written.append(c.expected)
        if FileManager.default.fileExists(atPath: c.actualSVG.path) {
            try move(c.actualSVG, to: c.expectedSVG)
            written.append(c.expectedSVG)
        }
        try? FileManager.default.removeItem(at: c.diffSVG)
        try? FileManager.default.removeItem(at: c.actualOrigin)
        return written
    }

    /// Throws the pending output of `c` away: removes `NAME.actual.json`, `NAME.actual.svg`,
    /// `NAME.diff.svg` and `NAME.actual.origin.json`; the golden is untouched.
    package static func reject(_ c: GoldenCase) {
        for f in c.pendingFiles { try? FileManager.default.removeItem(at: f) }
    }

    private static func move(_ from: URL, to: URL) throws(OutputError) {
        guard rename(from.path, to.path) == 0 else {
            throw OutputError(
                path: to.path, message: "cannot rename \(from.lastPathComponent) into place (errno \(errno))")
        }
    }
}

extension GoldenCase {
    /// The case a name given on the command line means: a trace file (`….trace.jsonl`), one of
    /// its golden or pending files (`….actual.json`, `….expected.json`, `….diff.svg`), its path
    /// without suffix, or a name as `check` prints it, relative to `root`.
    /// - Throws: ``OutputError`` naming what was looked for when no trace exists.
    package static func named(_ name: String, root: String = "Traces") throws(OutputError) -> GoldenCase {
        var base = name
        for suffix in [GoldenCorpus.traceSuffix] + TraceSelection.goldenSuffixes where base.hasSuffix(suffix) {
            base = String(base.dropLast(suffix.count))
            break
        }
        let candidates = [base + GoldenCorpus.traceSuffix, root + "/" + base + GoldenCorpus.traceSuffix]
        for path in candidates where FileManager.default.fileExists(atPath: path) {
            return GoldenCase(name: base, trace: URL(fileURLWithPath: path))
        }
        throw OutputError(path: name, message: "no trace found (looked for \(candidates.joined(separator: " and ")))")
    }
}
