import Foundation
public import MapSketchReplay

/// Which traces a command works on: trace files and folders of them, narrowed by name patterns and
/// split into shards — what `mapsketch check` and `mapsketch bench` select with the same options.
///
/// A trace's name is its path relative to the folder it was found in, without the suffix: a
/// folder contributes every `*.trace.jsonl` under it (`gps/real-gpx-visnjan`), and a file given
/// on its own is named as if its folder had been given and only it chosen (`Traces/demo/demo.trace.jsonl`
/// is `demo`). So a trace has the same name given as a file or in its folder, wherever that folder
/// is, and reports and baselines made either way match. The result is sorted by name, without
/// duplicates (a file listed twice, or also inside a listed folder, is selected once); two
/// different files of one name are an error.
///
/// ```swift
/// let selection = TraceSelection(paths: ["Traces"], filters: ["gps/real-*"], shard: .init(k: 1, n: 4))
/// let cases = try selection.cases()
/// ```
public struct TraceSelection: Hashable, Sendable {
    /// One of `n` parts of a selection (1-based `k`).
    ///
    /// A trace's shard depends on its name only (a 64-bit FNV-1a hash of the name, modulo `n`):
    /// adding or removing other traces never moves it, so a shard's report can be compared with
    /// a baseline of the whole corpus, and a baseline trace of another shard is known not to
    /// belong here.
    public struct Shard: Hashable, Sendable, CustomStringConvertible {
        /// Which part, 1…n.
        public var k: Int
        /// How many parts.
        public var n: Int

        /// A shard; nil unless 1 ≤ k ≤ n.
        public init?(k: Int, n: Int) {
            guard n >= 1, (1...n).contains(k) else { return nil }
            self.k = k
            self.n = n
        }

        /// Parses `K/N`, e.g. `2/4`.
        public init?(_ text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
            self.init(k: k, n: n)
        }

        public var description: String { "\(k)/\(n)" }

        /// Whether the trace named `name` belongs to this shard.
        public func contains(_ name: String) -> Bool {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
            return h % UInt64(n) == UInt64(k - 1)
        }
    }

    /// Trace files (`*.trace.jsonl`) and folders.
    public var paths: [String]
    /// Glob patterns on trace names (`*` and `?` match any characters, `/` included; `[…]` a set);
    /// a trace is kept when any matches. Empty: every trace.
    public var filters: [String]
    /// The part of the selection to keep, after filtering.
    public var shard: Shard?

    /// A selection.
    public init(paths: [String], filters: [String] = [], shard: Shard? = nil) {
        self.paths = paths
        self.filters = filters
        self.shard = shard
    }

    /// The selected traces, sorted by name.
    /// - Throws: ``OutputError`` naming the path when a path does not exist, cannot be read, or is
    ///   a file that is not a trace; when a folder holds no trace; when the filters keep nothing.
    ///   (An empty shard is not an error: a corpus may have fewer traces than shards.)
    /// - Complexity: O(f log f) for f files under the folders.
    public func cases() throws(OutputError) -> [GoldenCase] {
        var out: [GoldenCase] = []
        var seen: Set<String> = []
        for path in paths {
            let url = URL(fileURLWithPath: path)
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else {
                throw OutputError(path: path, message: "not found: expected a trace file (*.trace.jsonl) or a folder of them")
            }
            let found: [GoldenCase]
            if isDir.boolValue {
                found = try GoldenCorpus.cases(under: url)
                if found.isEmpty {
                    throw OutputError(path: path, message: "no traces: the folder holds no *.trace.jsonl file" + Self.misnamedHint(under: url))
                }
            } else {
                guard url.lastPathComponent.hasSuffix(GoldenCorpus.traceSuffix) else {
                    var message = "expected a trace file (*.trace.jsonl) or a folder of them"
                    if url.pathExtension == "jsonl" {
                        message += "; a trace's file name must end in .trace.jsonl (rename it to \(Self.traceName(for: url.lastPathComponent)))"
                    }
                    throw OutputError(path: path, message: message)
                }
                guard FileManager.default.isReadableFile(atPath: url.path) else {
                    throw OutputError(path: path, message: "cannot read the file: permission denied")
                }
                found = [GoldenCase(name: String(url.lastPathComponent.dropLast(GoldenCorpus.traceSuffix.count)), trace: url)]
            }
            for c in found where seen.insert(c.trace.standardizedFileURL.path).inserted { out.append(c) }
        }
        if !filters.isEmpty {
            out = out.filter { c in filters.contains { Self.glob($0, matches: c.name) } }
            if out.isEmpty {
                throw OutputError(
                    path: paths.joined(separator: " "),
                    message: "no trace matches --filter \(filters.joined(separator: ", "))")
            }
        }
        out.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        for (a, b) in zip(out, out.dropFirst()) where a.name == b.name {
            throw OutputError(
                path: b.trace.path,
                message: "two traces are named \"\(a.name)\" (\(a.trace.path) and \(b.trace.path)): a trace's name is its path below the folder given, so give one folder that holds both")
        }
        if let shard { out = out.filter { shard.contains($0.name) } }
        return out
    }

    /// For a folder without traces: the `.jsonl` files under it (traces saved without the
    /// `.trace` in their name are the usual cause), as "; it holds 2 .jsonl files (a.jsonl,
    /// b.jsonl): a trace's file name must end in .trace.jsonl", or "" when there are none. Names at
    /// most three, sorted; looks at no more than 10,000 entries.
    static func misnamedHint(under folder: URL) -> String {
        guard let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return "" }
        let rootPath = folder.standardizedFileURL.path
        var names: [String] = []
        var visited = 0
        for case let u as URL in e {
            visited += 1
            if visited > 10_000 { break }
            guard u.pathExtension == "jsonl" else { continue }
            names.append(GoldenCorpus.relativePath(of: u, under: rootPath))
        }
        guard !names.isEmpty else { return "" }
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
        let count = names.count == 1 ? "1 .jsonl file" : "\(names.count) .jsonl files"
        return "; it holds \(count) (\(shown)): a trace's file name must end in .trace.jsonl"
            + " (rename \(names[0]) to \(traceName(for: names[0])))"
    }

    /// `walk.jsonl` → `walk.trace.jsonl` (the name a trace file needs).
    static func traceName(for jsonl: String) -> String {
        String(jsonl.dropLast(".jsonl".count)) + GoldenCorpus.traceSuffix
    }

    /// Whether `name` matches the glob `pattern`: `*` any run of characters (`/` included), `?` one
    /// character, `[abc]` / `[a-z]` / `[!a]` a set; everything else literally.
    /// - Complexity: O(p · n) for pattern and name lengths p and n.
    package static func glob(_ pattern: String, matches name: String) -> Bool {
        let p = Array(pattern.unicodeScalars)
        let s = Array(name.unicodeScalars)
        var pi = 0
        var si = 0
        var star: Int?
        var mark = 0
        while si < s.count {
            if pi < p.count, p[pi] == "*" {
                star = pi
                mark = si
                pi += 1
            } else if pi < p.count, let (matched, next) = matchOne(p, pi, s[si]), matched {
                pi = next
                si += 1
            } else if let st = star {
                pi = st + 1
                mark += 1
                si = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }

    /// Whether the pattern element at `i` matches `c`, and the index after the element; nil for a
    /// `*` (handled by the caller).
    private static func matchOne(_ p: [Unicode.Scalar], _ i: Int, _ c: Unicode.Scalar) -> (Bool, Int)? {
        switch p[i] {
        case "?": return (true, i + 1)
        case "[":
            var j = i + 1
            let negate = j < p.count && (p[j] == "!" || p[j] == "^")
            if negate { j += 1 }
            var matched = false
            var first = true
            while j < p.count, p[j] != "]" || first {
                first = false
                if j + 2 < p.count, p[j + 1] == "-", p[j + 2] != "]" {
                    if p[j] <= c && c <= p[j + 2] { matched = true }
                    j += 3
                } else {
                    if p[j] == c { matched = true }
                    j += 1
                }
            }
            guard j < p.count else { return (p[i] == c, i + 1) }  // no closing ']': a literal '['
            return (matched != negate, j + 1)
        default:
            return (p[i] == c, i + 1)
        }
    }
}
