import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MapSketchGeometry
@testable import MapSketchBench
import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchGolden

/// The report: its JSON (schema, round trip, errors), the other formats, and callgrind's
/// profiles.
@MainActor
@Suite struct BenchReportTests {
    static func sampleReport() throws -> BenchReport {
        let names = ["demo/demo", "gps/real-gpx-gpxpy-korita-zbevnica", "malformed/bad-touch-phase"]
        var r = BenchRunner(options: BenchOptions(warmup: 0, runs: 3)).run(BenchFixtures.corpus.filter { names.contains($0.name) })
        #expect(r.expectedFailures.map(\.trace) == ["malformed/bad-touch-phase"])
        // A trace that failed without declaring it, so every member is exercised.
        r.failures.append(
            BenchFailure(trace: "broken", error: InputError(file: "broken.trace.jsonl", line: 2, column: 36, message: "phase: expected began, moved, ended or cancelled")))
        // Counters as a build with them would fill them, so every member is exercised.
        r.counters = BenchCounters(allocations: true, instructions: true)
        r.shard = TraceSelection.Shard(k: 1, n: 1)
        r.pairID = "pair"
        for t in r.traces.indices {
            r.traces[t].allocations = [10, 10, 10]
            r.traces[t].bytes = [100, 100, 100]
            r.traces[t].instructions = [1000, 1000, 1000]
            for a in r.traces[t].attributed.indices {
                r.traces[t].attributed[a].allocations = 9
                r.traces[t].attributed[a].bytes = 90
                r.traces[t].attributed[a].instructions = 950
            }
            for k in r.traces[t].kinds.indices {
                for i in r.traces[t].kinds[k].runs.indices {
                    r.traces[t].kinds[k].runs[i].allocations = 2
                    r.traces[t].kinds[k].runs[i].bytes = 64
                    r.traces[t].kinds[k].runs[i].instructions = 500
                }
            }
        }
        return r
    }

    @Test func theJSONReportValidatesAgainstItsSchemaAndReadsBack() throws {
        let report = try Self.sampleReport()
        #expect(report.failures.count == 1 && report.expectedFailures.count == 1)
        let schema = try JSONParser.parse(Fixtures.string("docs/bench-report.schema.json"))
        let value = try JSONParser.parse(report.jsonText)
        #expect(JSONSchemaValidator(schema: schema).violations(of: value) == [])
        let plain = BenchRunner(options: BenchOptions(warmup: 0, runs: 1)).run(BenchFixtures.corpus.filter { $0.name == "demo/demo" })
        #expect(JSONSchemaValidator(schema: schema).violations(of: try JSONParser.parse(plain.jsonText)) == [])
        let back = try BenchReport.decode(report.jsonText, file: "r.json")
        #expect(try BenchReport.decode(back.jsonText, file: "r.json") == back)
        #expect(back.traces.map(\.name) == report.traces.map(\.name))
        #expect(back.shard == report.shard && back.pairID == "pair" && back.clock == report.clock && back.build == report.build)
        #expect(back.traces.map { $0.kinds.map(\.instructions) } == report.traces.map { $0.kinds.map(\.instructions) })
        #expect(back.traces.map { $0.kinds.map(\.timed) } == report.traces.map { $0.kinds.map(\.timed) })
        #expect(back.traces.map { $0.attributed.map(\.instructions) } == report.traces.map { $0.attributed.map(\.instructions) })
        #expect(plain.traces.allSatisfy { $0.kinds.allSatisfy { $0.timed != nil } }, "a measured report says how many operations were timed")
        #expect(back.failures == report.failures)
        #expect(back.expectedFailures == report.expectedFailures)
        // Each trace says what share its kinds hold, of time and of instructions.
        let demo = try #require(value["traces"]?.arrayValue?.first)
        #expect(demo["attributedFraction"]?["time"]?.doubleValue != nil)
        #expect(demo["attributedFraction"]?["instructions"]?.doubleValue == 0.95)
        #expect(demo["unattributed"]?[0]?["instructions"]?.int64Value == 50)
        // A report without expected failures may leave the member out.
        var without = try #require(value.objectValue)
        without["expectedFailures"] = nil
        #expect(JSONSchemaValidator(schema: schema).violations(of: .object(without)) == [])
        #expect(try BenchReport.decode(JSONWriter.string(.object(without)), file: "r.json").expectedFailures == [])
        // The validator does catch a bad document.
        var broken = try #require(value.objectValue)
        broken["schemaVersion"] = 1
        #expect(!JSONSchemaValidator(schema: schema).violations(of: .object(broken)).isEmpty)
        // The comparison member validates too.
        let c = try BenchComparison.compare(report, baseline: report, baselineFile: "b", metrics: [.p50, .total, .instructions], threshold: 0.05)
        #expect(JSONSchemaValidator(schema: schema).violations(of: try JSONParser.parse(BenchFormat.jsonText(report, comparison: c))) == [])
    }

    @Test func aBaselineOfAnotherSchemaVersionIsAClearError() throws {
        let text = try Self.sampleReport().jsonText
        let v1 = text.replacingOccurrences(of: "\"schemaVersion\": 2", with: "\"schemaVersion\": 1")
        #expect(v1 != text)
        do {
            _ = try BenchReport.decode(v1, file: "old.json")
            Issue.record("a version 1 baseline was read")
        } catch {
            #expect(error.description.hasPrefix("old.json:3:"))
            #expect(error.message.contains("expected schema version 2, found 1"))
            #expect(error.message.contains("--save-baseline"))
        }
        do {
            _ = try BenchReport.decode("{\"trace\":\"x\"}", file: "golden.json")
            Issue.record("a golden file read as a baseline")
        } catch {
            #expect(error.message.contains("not a `mapsketch bench` report"))
        }
        do {
            _ = try BenchReport.decode(text.replacingOccurrences(of: "\"p50Ns\": ", with: "\"p50Ns\": \"x\", \"y\": "), file: "b.json")
            Issue.record("a mistyped member was accepted")
        } catch {
            #expect(error.message.contains("p50Ns: expected a number"))
            #expect(error.line > 1)
        }
    }

    // MARK: Formats

    static func slowedComparison() throws -> (BenchReport, BenchComparison) {
        let base = BenchFixtures.report(instructions: 1000, allocations: 10, p50s: [100, 100, 100, 100, 100], totals: [1, 1, 1, 1, 1])
        let slower = BenchFixtures.report(instructions: 2000, allocations: 10, p50s: [100, 100, 100, 100, 100], totals: [1, 1, 1, 1, 1])
        return (slower, try BenchComparison.compare(slower, baseline: base, baselineFile: "b", metrics: nil, threshold: 0.05))
    }

    @Test func bmfHasABenchmarkPerTraceAndKindWithMeasures() throws {
        let report = try Self.sampleReport()
        let v = try JSONParser.parse(BenchFormat.bmf(report))
        let o = try #require(v.objectValue)
        for t in report.traces {
            #expect(o[t.name]?["latency"]?["value"]?.doubleValue == t.total)
            #expect(o[t.name]?["throughput"]?["value"]?.doubleValue != nil)
            for k in t.kinds {
                let b = try #require(o["\(t.name)/\(k.kind.name)"])
                #expect(b["latency"]?["value"]?.doubleValue == k.p50)
                let lo = try #require(b["latency"]?["lower_value"]?.doubleValue)
                let hi = try #require(b["latency"]?["upper_value"]?.doubleValue)
                #expect(lo <= hi)
                #expect(b["instructions"]?["value"]?.doubleValue == 500)
                #expect(b["allocations"]?["value"]?.doubleValue == 2)
            }
        }
        #expect(o.count == report.traces.count + report.traces.reduce(0) { $0 + $1.kinds.count })
    }

    @Test func githubActionBenchmarkIsAnArrayOfNameUnitValue() throws {
        let report = try Self.sampleReport()
        let a = try #require(try JSONParser.parse(BenchFormat.githubActionBenchmark(report)).arrayValue)
        #expect(!a.isEmpty)
        for e in a {
            #expect(e["name"]?.stringValue?.isEmpty == false)
            #expect(["ns", "instructions", "allocations"].contains(e["unit"]?.stringValue ?? ""))
            #expect(e["value"]?.doubleValue != nil)
        }
        let names = a.compactMap { $0["name"]?.stringValue }
        #expect(Set(names).count == names.count)
        #expect(names.contains("demo/demo total"))
        #expect(names.contains("demo/demo gesture p50"))
    }

    @Test func markdownPutsRegressionsFirstAndSaysHowItCompared() throws {
        let (report, c) = try Self.slowedComparison()
        let md = BenchFormat.markdown(report, comparison: c, baselineFile: "main.json")
        #expect(md.contains("**3 regressions**"))
        #expect(md.contains("unpaired runs") && md.contains("false discovery rate 5.00%") && md.contains("tested on wall clock"))
        let rows = md.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| |") }
        #expect(rows.first?.hasPrefix("| ❌ | t | total | instructions | 10,000 | 20,000 | +100.0% |") == true, "\(rows)")
        #expect(rows.dropFirst().first?.hasPrefix("| ❌ | t | undo | instructions | 1,000 | 2,000 | +100.0% |") == true)
        #expect(md.contains("<details>"))  // the unchanged figures are folded
        let plain = BenchFormat.markdown(try Self.sampleReport(), comparison: nil)
        #expect(plain.contains("| demo/demo | gesture |"))
        #expect(plain.contains("| demo/demo | unattributed |"))
        #expect(plain.contains("Not measured"))
    }

    @Test func junitHasAFailurePerRegressionAndSaysHowItCompared() throws {
        let (report, c) = try Self.slowedComparison()
        let xml = BenchFormat.junit(report, comparison: c)
        let doc = try XMLDocument(data: Data(xml.utf8))
        let cases = try doc.nodes(forXPath: "//testcase")
        let failures = try doc.nodes(forXPath: "//testcase/failure")
        #expect(cases.count == c.changes.count)
        #expect(failures.count == c.regressions.count)
        #expect(try doc.nodes(forXPath: "/testsuites/@failures").first?.stringValue == "\(c.regressions.count)")
        let msg = try #require(try doc.nodes(forXPath: "//failure/@message").first?.stringValue)
        #expect(msg == "t total instructions: 10,000 → 20,000 (+100.0%)")
        #expect(try doc.nodes(forXPath: "//property[@name='testedOnWallClock']/@value").first?.stringValue == "0")
        #expect(try doc.nodes(forXPath: "//property[@name='pairing']/@value").first?.stringValue == "unpaired")
        let junit = try XMLDocument(data: Data(BenchFormat.junit(try Self.sampleReport(), comparison: nil).utf8))
        #expect(try junit.nodes(forXPath: "//testcase/error").count == 1)
        #expect(try junit.nodes(forXPath: "//testcase[@name='malformed/bad-touch-phase']/skipped").count == 1)
        #expect(try junit.nodes(forXPath: "/testsuites/@skipped").first?.stringValue == "1")
    }

    @Test func theTableHasARowPerKindAndTheUnattributedRow() throws {
        let report = try Self.sampleReport()
        let table = BenchFormat.table(report)
        for t in report.traces {
            #expect(table.contains("\(t.name): \(BenchFormat.grouped(t.events)) events"))
            for k in t.kinds { #expect(table.contains("  " + k.kind.name + " ")) }
        }
        #expect(table.contains("  unattributed "))
        #expect(table.contains("kinds hold ") && table.contains("95.0% of the instructions"))
        #expect(table.contains("instr/op") && table.contains("allocs/op"))
        #expect(table.contains("FAILED broken: broken.trace.jsonl:2:36: "))
        #expect(table.contains("1 expected failure not measured (expect.error)"))
        #expect(table.contains("clock: \(report.clock.source), resolution "))
        // A debug build says its figures are a debug build's (see aDebugBuildSaysSo…).
        var debug = report
        debug.build.configuration = "debug"
        #expect(BenchFormat.table(debug).contains("warning: a debug build measured"))
        // A kind below the clock's resolution says so rather than print the step's interpolation.
        var fast = BenchFixtures.report(instructions: 1, allocations: 1, p50s: [3, 4, 3], totals: [1, 1, 1])
        fast.counters = BenchCounters(allocations: false, instructions: false)
        #expect(BenchFormat.table(fast).contains("< 10 ns"))
    }

    @Test func aDebugBuildIsRecordedAndSaysSoInTheTextAndTheMarkdown() throws {
        // Measured from code in this test build, which is a debug build (`swift test`).
        let measured = BenchRunner(options: BenchOptions(warmup: 0, runs: 1)).run(BenchFixtures.corpus.filter { $0.name == "demo/demo" })
        #expect(measured.build.configuration == "debug" && measured.build.isDebug)
        let warning = "a debug build measured: its figures are many times a release build's"
        #expect(BenchFormat.table(measured).contains("warning: " + warning))
        let markdown = BenchFormat.markdown(measured, comparison: nil)
        #expect(markdown.contains("⚠️ **A debug build measured: its figures are many times a release build's"))
        // It survives the JSON document, and a release build's report warns of nothing.
        let read = try BenchReport.decode(measured.jsonText, file: "r.json")
        #expect(read.build.isDebug)
        var release = measured
        release.build.configuration = "release"
        #expect(!release.build.isDebug && release.build.warning == nil)
        #expect(!BenchFormat.table(release).contains("debug build"))
        #expect(!BenchFormat.markdown(release, comparison: nil).contains("debug build"))
    }

    @Test func durationsAndCountsReadWell() {
        #expect(BenchFormat.duration(850) == "850 ns")
        #expect(BenchFormat.duration(12_345) == "12.3 µs")
        #expect(BenchFormat.duration(9_999) == "10.0 µs")
        #expect(BenchFormat.duration(4_560_000) == "4.56 ms")
        #expect(BenchFormat.duration(1_230_000_000) == "1.23 s")
        #expect(BenchFormat.grouped(1_234_567) == "1,234,567")
        #expect(BenchFormat.decimal(-0.04, places: 1) == "0.0")
        #expect(BenchFormat.pText(0.00001) == "< 0.0001")
    }

    // MARK: Callgrind

    @Test func callgrindProfilesGiveTheTotalTheAttributedShareAndEachKindsInclusiveCost() {
        let undo = BenchKind.undo.order
        let gesture = BenchKind.gesture.order
        let profile = """
            # callgrind format
            version: 1
            creator: callgrind-3.19.0
            positions: line
            events: Ir
            summary: 5000
            fn=mapsketch_bench_region
            0 10
            cfn=mapsketch_bench_attributed
            calls=3 0
            0 800
            fn=mapsketch_bench_attributed
            0 6
            cfn=mapsketch_bench_kind_\(undo)
            calls=1 0
            0 300
            cfn=mapsketch_bench_kind_\(gesture)
            calls=2 0
            0 494
            fn=mapsketch_bench_kind_\(undo)
            0 5
            cfn=$s9MapSketch11SketchLayerC4undoSbyF
            calls=1 0
            0 295
            fn=mapsketch_bench_kind_\(gesture)
            0 494
            totals: 5000
            """
        let run = Callgrind.parse(profile)
        #expect(run.total == 5000)
        #expect(run.attributed == 800)
        #expect(run.kinds[.undo] == 300)  // own 5 + the call's 295
        #expect(run.kinds[.gesture] == 494)
        #expect(Callgrind.kind(inFunction: "mapsketch_bench_kind_\(BenchKind.rendererClassBreaks.order)") == .rendererClassBreaks)
        #expect(Callgrind.kind(inFunction: "mapsketch_bench_kind_127") == nil, "a slot no kind uses")
        #expect(Callgrind.kind(inFunction: "$s9MapSketch4undo") == nil)
    }

    @Test func callgrindRunsTheServerWithCollectionOnlyInTheRegionAndNoPathOfTheUsers() {
        let args = Callgrind.arguments(warmup: 1, runs: 2)
        #expect(args.contains("--collect-atstart=no"))
        #expect(args.contains("--toggle-collect=mapsketch_bench_region"))
        #expect(args.contains("--dump-after=mapsketch_bench_region"))
        #expect(Array(args.suffix(4)) == ["./mapsketch", "bench-callgrind-server", "1", "2"])
        #expect(CallgrindServer.selected(by: ["bench-callgrind-server", "1", "2"])! == (1, 2))
        #expect(CallgrindServer.selected(by: ["bench-callgrind-server", "1"]) == nil)
        #expect(Callgrind.locateValgrind(path: "/nonexistent") == nil)
        #expect(Callgrind.missingMessage.contains("apt-get install valgrind"))
    }

    @Test func theCallgrindMarkersRunTheirBodyOnce() {
        // The markers are C functions called with the Swift calling convention; each runs its
        // body exactly once, whatever the slot (one out of range runs it unmarked).
        var calls = 0
        BenchRegion.region { calls += 1 }
        for slot in [0, 5, BenchKind.builtIn.count - 1, 127, 500, -1] {
            BenchRegion.operation(slot, outermost: true) { calls += 1 }
            BenchRegion.operation(slot, outermost: false) { calls += 10 }
        }
        #expect(calls == 1 + 6 * 11)
    }

    @Test func theWorkerProtocolIsSpokenBothWays() {
        let setup = BenchWorker.Setup(warmup: 2, timing: .every(4), measureOperations: false, traces: ["a.trace.jsonl", "b"])
        let args = setup.arguments
        #expect(args.prefix(5) == ["bench-worker", "\(BenchWorker.protocolVersion)", "2", "4", "totals"])
        #expect(BenchWorker.Setup(arguments: args) == setup)
        #expect(BenchWorker.Setup.requestedProtocol(in: ["bench-worker", "9", "1"]) == 9)
        #expect(BenchWorker.Setup(arguments: ["bench-worker", "1", "-1", "auto", "operations"]) == nil)
        #expect(BenchWorker.Hello(["mapsketchBenchWorker": 99, "version": "x"]) == nil)
    }

    @Test func runsOfOneTraceMergeInOrder() {
        var one = BenchFixtures.report(instructions: 1, allocations: 1, p50s: [100], totals: [1000]).traces[0]
        var two = BenchFixtures.report(instructions: 1, allocations: 1, p50s: [120], totals: [1200]).traces[0]
        one.processes = [3]
        two.processes = [9]
        let merged = BenchSession.merge([one, two])
        #expect(merged?.totalNanoseconds == [1000, 1200])
        #expect(merged?.processes == [3, 9])
        #expect(merged?.kinds.first?.runs.map(\.p50) == [100, 120])
        #expect(merged?.attributed.count == 2)
        #expect(BenchSession.merge([]) == nil)
    }

    @Test func aRoundsTracesAreSharedOutEvenlyAmongProcesses() {
        let order = BenchSession.traceOrder(count: 213, round: 2)
        let parts = BenchSession.parts(of: order, count: 6)
        #expect(parts.count == 6)
        #expect(parts.allSatisfy { $0.count == 35 || $0.count == 36 }, "\(parts.map(\.count))")
        #expect(Array(parts.joined()) == order, "every trace once, in the round's order")
        #expect(BenchSession.parts(of: order, count: 1).map(Array.init) == [order])
        #expect(BenchSession.parts(of: [4, 1, 0], count: 7).map(Array.init) == [[4], [1], [0]], "no more parts than traces")
        #expect(BenchSession.parts(of: [], count: 5).map(\.count) == [0], "one process, to say hello")
        // Alone, enough processes a round for 30 in all; beside another build, one.
        #expect(BenchSession.defaultProcessesPerRound(runs: 5, builds: 1) == 6)
        #expect(BenchSession.defaultProcessesPerRound(runs: 20, builds: 1) == 2)
        #expect(BenchSession.defaultProcessesPerRound(runs: 40, builds: 1) == 1)
        #expect(BenchSession.defaultProcessesPerRound(runs: 5, builds: 2) == 1)
    }

    @Test func eachRunSaysItsProcessAndAReportThatMiscountsIsRefused() throws {
        var report = BenchFixtures.report(instructions: 1, allocations: 1, p50s: [100, 110, 120], totals: [1, 2, 3])
        report.traces[0].processes = [0, 4, 8]
        let text = report.jsonText
        let schema = try JSONParser.parse(Fixtures.string("docs/bench-report.schema.json"))
        #expect(JSONSchemaValidator(schema: schema).violations(of: try JSONParser.parse(text)) == [])
        #expect(try BenchReport.decode(text, file: "r.json").traces[0].processes == [0, 4, 8])
        let short = text.replacingOccurrences(of: "\"processes\": [0, 4, 8]", with: "\"processes\": [0, 4]")
        #expect(short != text)
        do {
            _ = try BenchReport.decode(short, file: "b.json")
            Issue.record("two processes for three runs were accepted")
        } catch {
            #expect(error.description.hasPrefix("b.json:"))
            #expect(error.message.contains("processes: expected one process number per measured run (3, as totalNs has), found 2"), "\(error)")
        }
    }

    @Test func eachRoundMeasuresTheTracesInItsOwnOrder() {
        let rounds = (0..<8).map { BenchSession.traceOrder(count: 50, round: $0) }
        for order in rounds { #expect(order.sorted() == Array(0..<50), "a permutation") }
        #expect(BenchSession.traceOrder(count: 50, round: 3) == rounds[3], "the same on every bench")
        #expect(Set(rounds).count == 8, "a new order each round")
        // No trace keeps the same predecessor in every round.
        var predecessors: [Int: Set<Int>] = [:]
        for order in rounds { for (a, b) in zip(order, order.dropFirst()) { predecessors[b, default: []].insert(a) } }
        #expect(predecessors.values.allSatisfy { $0.count > 1 })
        #expect(BenchSession.traceOrder(count: 0, round: 0).isEmpty && BenchSession.traceOrder(count: 1, round: 5) == [0])
    }
}
