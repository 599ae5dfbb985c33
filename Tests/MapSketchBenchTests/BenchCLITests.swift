import Foundation
import MapSketchBench
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// `mapsketch bench` as a user runs it.
@Suite(.serialized) struct BenchCLITests {
    typealias Run = MapsketchProcess.Run

    static var executable: URL { MapsketchProcess.executable }

    func run(_ args: [String], in cwd: URL = Fixtures.packageRoot, env: [String: String] = [:]) throws -> Run {
        try MapsketchProcess.run(args, in: cwd, env: env)
    }

    func tempDir() throws -> URL { try MapsketchProcess.tempDir() }

    @Test func benchPrintsAPerKindTableAndWritesEveryOutput() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let f = { (n: String) in dir.appendingPathComponent(n).path }
        let r = try run([
            "bench", "Traces/demo", "Traces/programmatic", "--filter", "demo", "--filter", "renderer-*", "--warmup", "0", "--runs", "2",
            "--json", f("r.json"), "--markdown", f("r.md"), "--junit", f("r.xml"), "--save-baseline", f("base.json"),
        ])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("demo: 26 events"))
        #expect(r.out.contains("  kind "))
        #expect(r.out.contains("  gesture "))
        #expect(r.out.contains("  rendererLookup.classBreaks "))
        #expect(r.out.contains("3 traces benched (0 warm-up, 2 measured runs each)"))
        #expect(r.out.contains("  unattributed "))
        #expect(r.err.contains("bench: round 1/2") && r.err.contains("bench: round 2/2"), "a line per round: \(r.err)")
        #expect(!r.err.contains("\u{1B}["), "no progress bar when not on a terminal")
        let json = try JSONParser.parse(String(contentsOfFile: f("r.json"), encoding: .utf8))
        #expect(json["traces"]?.arrayValue?.count == 3)
        #expect(try String(contentsOfFile: f("base.json"), encoding: .utf8) == String(contentsOfFile: f("r.json"), encoding: .utf8))
        #expect(try String(contentsOfFile: f("r.md"), encoding: .utf8).hasPrefix("## mapsketch bench"))
        #expect(try String(contentsOfFile: f("r.xml"), encoding: .utf8).contains("<testsuite name=\"mapsketch-bench\" tests=\"3\""))
    }

    @Test func eachRoundsTracesAreSharedOutAmongTheProcessesAsked() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("r.json").path
        let r = try run([
            "bench", "Traces/demo", "Traces/programmatic", "--filter", "demo", "--filter", "renderer-*", "--warmup", "0", "--runs", "2",
            "--processes-per-round", "2", "--json", json,
        ])
        #expect(r.code == 0, "\(r.err)")
        let traces = try #require(try JSONParser.parse(String(contentsOfFile: json, encoding: .utf8))["traces"]?.arrayValue)
        let processes = traces.map { t in (t["processes"]?.arrayValue ?? []).compactMap(\.int64Value) }
        #expect(traces.count == 3 && processes.allSatisfy { $0.count == 2 }, "\(processes)")
        // Three traces, two processes a round, numbered in the order started.
        #expect(Set(processes.map { $0[0] }) == [0, 1] && Set(processes.map { $0[1] }) == [2, 3], "\(processes)")
        var measured: [Int64: Int] = [:]
        for p in processes.joined() { measured[p, default: 0] += 1 }
        #expect(measured.values.allSatisfy { $0 <= 2 }, "\(measured)")
        let zero = try run(["bench", "Traces/demo", "--runs", "1", "--processes-per-round", "0"])
        #expect(zero.code == 2 && zero.err.contains("--processes-per-round must be 1 or more, found 0"), "\(zero.err)")
        // Alone, by default enough processes for 30 in all: 3 traces, 2 runs, 3 processes a round.
        let byDefault = try run(["bench", "Traces/demo", "Traces/programmatic", "--filter", "demo", "--filter", "renderer-*", "--runs", "2", "--json", json])
        #expect(byDefault.code == 0, "\(byDefault.err)")
        let counted = try #require(try JSONParser.parse(String(contentsOfFile: json, encoding: .utf8))["traces"]?.arrayValue)
        #expect(Set(counted.flatMap { ($0["processes"]?.arrayValue ?? []).compactMap(\.int64Value) }) == Set(0..<6))
    }

    @Test func benchMachineFormatsOwnStandardOutput() throws {
        let bmf = try run(["bench", "Traces/demo", "--warmup", "0", "--runs", "1", "--format", "bmf"])
        #expect(bmf.code == 0, "\(bmf.err)")
        let o = try JSONParser.parse(bmf.out)
        #expect(o["demo"]?["latency"]?["value"] != nil)
        #expect(bmf.err.contains("demo: 26 events"), "the table goes to standard error")
        let gab = try run(["bench", "Traces/demo", "--warmup", "0", "--runs", "1", "--format", "github-action-benchmark"])
        #expect(gab.code == 0, "\(gab.err)")
        #expect(try JSONParser.parse(gab.out).arrayValue?.first?["unit"]?.stringValue == "ns")
    }

    @Test func benchAgainstASlowedBaselineExitsOneNamingTheRegression() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let md = dir.appendingPathComponent("pr.md").path
        let xml = dir.appendingPathComponent("j.xml").path
        let json = dir.appendingPathComponent("r.json").path
        let r = try run([
            "bench", "Tests/Fixtures/bench", "--runs", "5", "--baseline", "Tests/Fixtures/bench/slowed.baseline.json",
            "--metric", "total", "--metric", "p50", "--markdown", md, "--junit", xml, "--json", json,
        ])
        #expect(r.code == 1, "\(r.out)\(r.err)")
        // trace, kind, metric, old → new (change), in every one of the twelve traces
        let line = try #require(r.out.split(separator: "\n").first { $0.hasPrefix("REGRESSION slowed-01 total total: ") }, "\(r.out)")
        #expect(line.contains(" → ") && line.contains("%)") && line.contains(" p="))
        for i in 1...12 { #expect(r.out.contains(String(format: "REGRESSION slowed-%02d touch p50: ", i))) }
        // Unpaired, the verdict is the kind's across the traces.
        #expect(r.out.contains("REGRESSED KIND touch p50: slower in 12 of 12 traces"))
        #expect(r.out.contains("REGRESSED KIND total total: slower in 12 of 12 traces"))
        #expect(r.out.contains("unpaired runs") && r.out.contains("tested on wall clock"))
        let markdown = try String(contentsOfFile: md, encoding: .utf8)
        #expect(markdown.contains("| ❌ | slowed-01 | total | total |"))
        #expect(markdown.contains("| touch | p50 | 12 of 12 |"))
        #expect(try String(contentsOfFile: xml, encoding: .utf8).contains("<failure message=\"slowed-01 total total: "))
        // The JSON's comparison carries the kinds' verdicts, and validates against the schema.
        let value = try JSONParser.parse(try String(contentsOfFile: json, encoding: .utf8))
        let schema = try JSONParser.parse(Fixtures.string("docs/bench-report.schema.json"))
        #expect(JSONSchemaValidator(schema: schema).violations(of: value) == [])
        let kinds = try #require(value["comparison"]?["kinds"]?.arrayValue)
        #expect(kinds.contains { $0["row"]?.stringValue == "touch" && $0["regressed"]?.boolValue == true && $0["slower"]?.int64Value == 12 })
    }

    @Test func benchBaselineErrorsExitTwoAndSayWhy() throws {
        // This debug build has no allocation or instruction counters: nothing exact to compare.
        let none = try run(["bench", "Tests/Fixtures/bench", "--runs", "1", "--baseline", "Tests/Fixtures/bench/slowed.baseline.json"])
        if !none.out.contains("allocations") {
            #expect(none.code == 2)
            #expect(none.err.contains("Tests/Fixtures/bench/slowed.baseline.json: nothing to compare"))
        }
        let other = try run(["bench", "Traces/demo", "--runs", "1", "--baseline", "Tests/Fixtures/bench/slowed.baseline.json"])
        #expect(other.code == 2)
        #expect(other.err.contains("the baseline is for other traces"))
        let wall = try run(["bench", "Tests/Fixtures/bench", "--runs", "2", "--baseline", "Tests/Fixtures/bench/slowed.baseline.json", "--metric", "p50"])
        #expect(wall.code == 2)
        #expect(wall.err.contains("needs at least 3 runs"))
        let missing = try run(["bench", "Traces/demo", "--baseline", "nope.json"])
        #expect(missing.code == 2)
        #expect(missing.err.contains("nope.json: cannot read the baseline file"))
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let v2 = dir.appendingPathComponent("v2.json")
        let text = try String(contentsOfFile: "Tests/Fixtures/bench/slowed.baseline.json".isEmpty ? "" : Fixtures.url("Tests/Fixtures/bench/slowed.baseline.json").path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"schemaVersion\": 2", with: "\"schemaVersion\": 7").write(to: v2, atomically: true, encoding: .utf8)
        let old = try run(["bench", "Tests/Fixtures/bench", "--baseline", v2.path])
        #expect(old.code == 2)
        #expect(old.err.contains("v2.json:3:20: schemaVersion: expected schema version 2, found 7"), "\(old.err)")
    }

    @Test func benchReportsABadTraceWithItsLocationAndExitsTwoAfterMeasuringTheRest() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.trace.jsonl")
        try (#"{"t":0,"type":"header","format":"mapsketch-trace","version":1}"# + "\n" + #"{"t":0.1,"type":"touch","id":0,"phase":"sideways","x":1,"y":2}"# + "\n")
            .write(to: bad, atomically: true, encoding: .utf8)
        let r = try run(["bench", "Traces/demo", bad.path, "--warmup", "0", "--runs", "1"])
        #expect(r.code == 2)
        #expect(r.out.contains("demo: 26 events"))
        let located = r.err.split(separator: "\n").first { $0.contains("bad.trace.jsonl:") } ?? ""
        #expect(located.contains("bad.trace.jsonl:2:"), "file:line:column: message, found \(located)")
        #expect(located.contains("found \"sideways\""))
    }

    @Test func benchLeavesOutTracesThatFailAsTheyDeclareAndExitsZero() throws {
        let r = try run(["bench", "Traces/demo", "Traces/malformed", "--warmup", "0", "--runs", "1"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("demo: 26 events"))
        #expect(r.out.range(of: #"1 trace benched \(0 warm-up, 1 measured run each\), [0-9]+ expected failures not measured"#, options: .regularExpression) != nil, "\(r.out)")
        #expect(!r.err.contains("malformed/"), "an expected failure is not an error: \(r.err)")
    }

    @Test func benchCallgrindWithoutValgrindNamesThePackage() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let exe = Self.executable
        let p = Process()
        p.executableURL = exe
        p.arguments = ["bench", "Traces/demo", "--instrument", "callgrind"]
        p.currentDirectoryURL = Fixtures.packageRoot
        p.environment = ["PATH": dir.path]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 2)
        #expect(e.contains("valgrind") && e.contains("apt-get install valgrind"), "\(e)")
    }

    @Test func benchHelpListsEveryOption() throws {
        let r = try run(["help", "bench"])
        #expect(r.code == 0)
        for option in [
            "--filter", "--shard", "--warmup", "--runs", "--processes-per-round", "--time-budget", "--instrument", "--save-baseline", "--baseline", "--threshold",
            "--metric", "--json", "--format", "--output", "--markdown", "--junit", "--totals-only", "--time-every", "--no-progress",
            "--against", "--against-json", "--fdr",
        ] {
            #expect(r.out.contains(option), "help bench lacks \(option)")
        }
        // The kinds, listed from the kinds themselves.
        for kind in BenchKind.builtIn { #expect(r.out.contains("\(kind.name): "), "help bench lacks \(kind.name)") }
        #expect(r.out.contains("unattributed"))
        #expect(!r.out.contains("callgrind-server") && !r.out.contains("bench-worker"))
    }

    @Test func timeEveryTimesEveryNthOperationAndRefusesZero() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("r.json").path
        let trace = "Traces/synthetic/generated-drags-seed13.trace.jsonl"
        let r = try run(["bench", trace, "--runs", "1", "--warmup", "0", "--time-every", "10", "--json", json])
        #expect(r.code == 0, "\(r.err)")
        let report = try JSONParser.parse(String(contentsOfFile: json, encoding: .utf8))
        let gesture = try #require(report["traces"]?[0]?["kinds"]?.arrayValue?.first { $0["kind"]?.stringValue == "gesture" })
        let count = try #require(gesture["count"]?.int64Value)
        #expect(count > 1_000)
        #expect(gesture["runs"]?[0]?["timed"]?.int64Value == (count + 9) / 10)
        #expect(gesture["timed"]?.int64Value == (count + 9) / 10)
        let bad = try run(["bench", trace, "--time-every", "0"])
        #expect(bad.code != 0 && bad.err.contains("--time-every must be 1 or more, found 0"), "\(bad.err)")
    }

    // MARK: Paired runs of two builds

    @Test func againstItselfTheSameBuildReportsNoRegression() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let md = dir.appendingPathComponent("pr.md").path
        let json = dir.appendingPathComponent("r.json").path
        let other = dir.appendingPathComponent("other.json").path
        let r = try run([
            "bench", "Traces/demo", "Traces/programmatic", "--filter", "demo", "--filter", "undo*", "--runs", "4", "--against",
            Self.executable.path, "--markdown", md, "--json", json, "--against-json", other,
        ])
        #expect(r.code == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("compared with \(Self.executable.path) (paired runs"), "\(r.out)")
        #expect(r.out.contains(" 0 regressions"))
        #expect(try String(contentsOfFile: md, encoding: .utf8).contains("**no regression**"))
        // Both reports share a pair id, so `bench compare` pairs them too.
        let a = try JSONParser.parse(String(contentsOfFile: json, encoding: .utf8))
        let b = try JSONParser.parse(String(contentsOfFile: other, encoding: .utf8))
        #expect(a["pair"]?.stringValue != nil && a["pair"] == b["pair"])
        #expect(a["comparison"]?["paired"]?.boolValue == true)
        let compared = try run(["bench", "compare", other, json, "--metric", "p50"])
        #expect(compared.code == 0, "\(compared.out)\(compared.err)")
        #expect(compared.out.contains("paired runs"))
    }

    @Test func againstABinaryThatDoesNotSpeakTheProtocolExitsTwo() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fake = dir.appendingPathComponent("old-mapsketch")
        try "#!/bin/sh\necho \"Error: Unknown option '$1'\" >&2\nexit 64\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let r = try run(["bench", "Traces/demo", "--runs", "3", "--against", fake.path])
        #expect(r.code == 2, "\(r.out)\(r.err)")
        #expect(r.err.contains("does not speak this bench's worker protocol"), "\(r.err)")
        let missing = try run(["bench", "Traces/demo", "--against", dir.appendingPathComponent("nope").path])
        #expect(missing.code == 2 && missing.err.contains("--against needs an executable mapsketch"))
        let both = try run(["bench", "Traces/demo", "--against", fake.path, "--baseline", "x.json"])
        #expect(both.code == 2 && both.err.contains("not both"))
        // Another protocol version is refused by the worker itself.
        let worker = try run(["bench-worker", "99", "1", "auto", "operations", "Traces/demo/demo.trace.jsonl"])
        #expect(worker.code == 2 && worker.err.contains("protocol"))
    }

    // MARK: New and removed traces

    @Test func aTraceNewToTheBaselineIsReportedAndIsNoError() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let one = dir.appendingPathComponent("one")
        let two = dir.appendingPathComponent("two")
        for d in [one, two] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(at: Fixtures.url("Traces/demo/demo.trace.jsonl"), to: one.appendingPathComponent("demo.trace.jsonl"))
        try FileManager.default.copyItem(at: Fixtures.url("Traces/demo/demo.trace.jsonl"), to: two.appendingPathComponent("demo.trace.jsonl"))
        try FileManager.default.copyItem(
            at: Fixtures.url("Traces/programmatic/insert-vertex.trace.jsonl"), to: two.appendingPathComponent("added.trace.jsonl"))
        let base = dir.appendingPathComponent("base.json").path
        #expect(try run(["bench", one.path, "--runs", "3", "--save-baseline", base]).code == 0)
        let md = dir.appendingPathComponent("pr.md").path
        let xml = dir.appendingPathComponent("j.xml").path
        let json = dir.appendingPathComponent("r.json").path
        let r = try run(["bench", two.path, "--runs", "3", "--baseline", base, "--metric", "p50", "--markdown", md, "--junit", xml, "--json", json])
        #expect(r.code == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("new trace added"))
        #expect(try String(contentsOfFile: md, encoding: .utf8).contains("| 🆕 | added | new"))
        #expect(try String(contentsOfFile: xml, encoding: .utf8).contains(#"<skipped message="new trace"#))
        #expect(try JSONParser.parse(String(contentsOfFile: json, encoding: .utf8))["comparison"]?["newTraces"]?[0]?.stringValue == "added")
        // The other way round, it is removed.
        let saved = dir.appendingPathComponent("two.json").path
        #expect(try run(["bench", two.path, "--runs", "3", "--save-baseline", saved]).code == 0)
        let back = try run(["bench", one.path, "--runs", "3", "--baseline", saved, "--metric", "p50"])
        #expect(back.code == 0, "\(back.out)\(back.err)")
        #expect(back.out.contains("removed trace added"))
        // bench compare of the two saved reports says the same, without measuring.
        let compared = try run(["bench", "compare", saved, base, "--metric", "p50"])
        #expect(compared.code == 0 && compared.out.contains("removed trace added"), "\(compared.out)\(compared.err)")
    }

    // MARK: Counters that move only with the code

    @Test func aTracesNameAndCountsDoNotDependOnWhereItIsOrHowItIsGiven() throws {
        // Instruction counts need valgrind, which cannot run a sanitized build's executable.
        guard Callgrind.locateValgrind() != nil, SanitizerRuntime.active == nil else { return }
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let short = dir.appendingPathComponent("t")
        let long = dir.appendingPathComponent("a-much-longer-folder-name-than-the-other-one/and/deeper")
        for d in [short, long] {
            try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: Fixtures.url("Traces/programmatic/insert-vertex.trace.jsonl"), to: d.appendingPathComponent("x.trace.jsonl"))
        }
        var reports: [JSONValue] = []
        for given in [short.path, long.appendingPathComponent("x.trace.jsonl").path, long.path] {
            let json = dir.appendingPathComponent("r\(reports.count).json").path
            let r = try run(["bench", given, "--runs", "1", "--warmup", "1", "--instrument", "callgrind", "--json", json])
            #expect(r.code == 0, "\(r.err)")
            reports.append(try JSONParser.parse(String(contentsOfFile: json, encoding: .utf8)))
        }
        let names = reports.map { $0["traces"]?[0]?["name"]?.stringValue }
        #expect(names == ["x", "x", "x"])
        func counts(_ r: JSONValue) -> [String: Int64] {
            var out: [String: Int64] = ["total": r["traces"]?[0]?["instructions"]?[0]?.int64Value ?? -1]
            for k in r["traces"]?[0]?["kinds"]?.arrayValue ?? [] {
                out[k["kind"]?.stringValue ?? "?"] = k["instructions"]?.int64Value ?? -1
            }
            return out
        }
        let first = counts(reports[0])
        #expect(first.count > 3 && first.values.allSatisfy { $0 > 0 }, "\(first)")
        for r in reports.dropFirst() { #expect(counts(r) == first) }
    }
}

/// The test support's sanitizer detection agrees with what `scripts/sanitize.sh` says it built
/// (MAPSKETCH_SANITIZER; unset in a plain `swift test`, where nothing is detected).
@Suite struct SanitizerRuntimeTests {
    @Test func theDetectedSanitizerIsTheOneBuilt() {
        #expect(SanitizerRuntime.active == ProcessInfo.processInfo.environment["MAPSKETCH_SANITIZER"])
    }
}
