import Foundation
import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchGolden

@Suite struct TraceSelectionTests {
    @Test func globMatchesLikeAShellWithStarsCrossingFolders() {
        let yes: [(String, String)] = [
            ("*", "gps/real-gpx-visnjan"), ("gps/*", "gps/real-gpx-visnjan"), ("*visnjan", "gps/real-gpx-visnjan"),
            ("gps/real-???-visnjan", "gps/real-gpx-visnjan"), ("*/real-[gn]*", "gps/real-nmea-hemi"),
            ("*/real-[a-h]*", "gps/real-gpx-x"), ("*/real-[!n]*", "gps/real-gpx-x"), ("a*b*c", "aXbYc"),
            ("", ""), ("[", "["), ("a[b", "a[b"),
        ]
        for (p, n) in yes { #expect(TraceSelection.glob(p, matches: n), "\(p) ~ \(n)") }
        let no: [(String, String)] = [
            ("gps", "gps/real"), ("gps/*x", "gps/real"), ("?", ""), ("*/real-[!g]*", "gps/real-gpx-x"),
            ("*/real-[h-z]*", "gps/real-gpx-x"), ("a*b*c", "aXbY"), ("", "a"),
        ]
        for (p, n) in no { #expect(!TraceSelection.glob(p, matches: n), "\(p) !~ \(n)") }
    }

    /// A folder with a/one, a/two, b/three traces.
    func corpus() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("selection-\(UUID().uuidString)")
        for name in ["a/one", "a/two", "b/three"] {
            let u = dir.appendingPathComponent(name + ".trace.jsonl")
            try FileManager.default.createDirectory(at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}\n".utf8).write(to: u)
        }
        try Data("x".utf8).write(to: dir.appendingPathComponent("a/notes.txt"))
        return dir
    }

    @Test func foldersFilesFiltersAndShards() throws {
        let dir = try corpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try TraceSelection(paths: [dir.path]).cases().map(\.name) == ["a/one", "a/two", "b/three"])
        #expect(try TraceSelection(paths: [dir.path], filters: ["a/*"]).cases().map(\.name) == ["a/one", "a/two"])
        #expect(try TraceSelection(paths: [dir.path], filters: ["*three", "*one"]).cases().map(\.name) == ["a/one", "b/three"])
        // A file is named as in its own folder (its file name); listing it again, or its folder too,
        // selects it once.
        let file = dir.appendingPathComponent("b/three.trace.jsonl").path
        let one = try TraceSelection(paths: [file, file]).cases()
        #expect(one.map(\.name) == ["three"])
        #expect(try TraceSelection(paths: [dir.appendingPathComponent("b").path]).cases().map(\.name) == ["three"])
        #expect(one.first?.expected.lastPathComponent == "three.expected.json")
        #expect(try TraceSelection(paths: [dir.path, file]).cases().count == 3)
        // Shards split the filtered selection and cover it exactly once; a trace's shard depends on
        // its name only, not on the other traces selected.
        for n in 1...4 {
            let shards = (1...n).map { k in (try? TraceSelection(paths: [dir.path], shard: .init(k: k, n: n)).cases().map(\.name)) ?? [] }
            #expect(shards.flatMap { $0 }.sorted() == ["a/one", "a/two", "b/three"], "\(n) shards")
            for k in 1...n {
                let alone = (try? TraceSelection(paths: [dir.path], filters: ["a/one"], shard: .init(k: k, n: n)).cases().map(\.name)) ?? []
                #expect(alone == (shards[k - 1].contains("a/one") ? ["a/one"] : []), "a/one in shard \(k)/\(n)")
            }
        }
    }

    @Test func twoTracesOfOneNameAreAnError() throws {
        let dir = try corpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            at: dir.appendingPathComponent("a/one.trace.jsonl"), to: dir.appendingPathComponent("b/one.trace.jsonl"))
        let a = dir.appendingPathComponent("a/one.trace.jsonl").path
        let b = dir.appendingPathComponent("b/one.trace.jsonl").path
        #expect(throws: OutputError.self) { try TraceSelection(paths: [a, b]).cases() }
        do {
            _ = try TraceSelection(paths: [a, b]).cases()
        } catch {
            #expect(error.description.contains("two traces are named \"one\""), "\(error)")
        }
        // In their common folder they have different names.
        #expect(try TraceSelection(paths: [dir.path]).cases().map(\.name).contains("b/one"))
    }

    @Test func badSelectionsSayWhy() throws {
        let dir = try corpus()
        defer { try? FileManager.default.removeItem(at: dir) }
        func message(_ s: TraceSelection) -> String {
            do {
                _ = try s.cases()
                return ""
            } catch { return error.description }
        }
        #expect(message(TraceSelection(paths: [dir.appendingPathComponent("missing").path])).contains("not found"))
        #expect(message(TraceSelection(paths: [dir.appendingPathComponent("a/notes.txt").path])).contains("expected a trace file"))
        let empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(message(TraceSelection(paths: [empty.path])).contains("no traces"))
        #expect(!message(TraceSelection(paths: [empty.path])).contains("it holds"))
        // Traces saved without ".trace" in their names: the error names them and the fix.
        let misnamed = dir.appendingPathComponent("misnamed")
        try FileManager.default.createDirectory(at: misnamed.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for name in ["walk.jsonl", "sub/pinch.jsonl", "notes.txt"] {
            try Data("{}\n".utf8).write(to: misnamed.appendingPathComponent(name))
        }
        let hint = message(TraceSelection(paths: [misnamed.path]))
        #expect(hint.contains("no traces"))
        #expect(hint.contains("it holds 2 .jsonl files (sub/pinch.jsonl, walk.jsonl)"), "\(hint)")
        #expect(hint.contains("rename sub/pinch.jsonl to sub/pinch.trace.jsonl"), "\(hint)")
        #expect(!hint.contains("notes.txt"))
        let file = message(TraceSelection(paths: [misnamed.appendingPathComponent("walk.jsonl").path]))
        #expect(file.contains("expected a trace file"))
        #expect(file.contains("rename it to walk.trace.jsonl"), "\(file)")
        #expect(message(TraceSelection(paths: [dir.path], filters: ["zzz*"])).contains("no trace matches --filter zzz*"))
    }

    @Test func shardsParseOnlyInRange() {
        #expect(TraceSelection.Shard("2/4") == TraceSelection.Shard(k: 2, n: 4))
        for bad in ["0/4", "5/4", "1/0", "1", "a/b", "1/2/3", "/2", "-1/2"] { #expect(TraceSelection.Shard(bad) == nil, "\(bad)") }
    }
}
