public import ArgumentParser
import Foundation
public import MapSketchBench
import MapSketchReplay

/// What `--instrument` runs the bench under.
enum BenchInstrument: String, ExpressibleByArgument, CaseIterable {
    case callgrind
}

/// The machine-readable formats of `--format`.
enum BenchOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, bmf
    case githubActionBenchmark = "github-action-benchmark"
}

extension BenchMetric: ExpressibleByArgument {}

/// A threshold such as `5%` or `0.5%` (a plain number is a percentage too).
struct BenchThreshold: ExpressibleByArgument {
    var fraction: Double

    init?(argument: String) {
        let text = argument.hasSuffix("%") ? String(argument.dropLast()) : argument
        guard let v = Double(text), v.isFinite, v >= 0 else { return nil }
        fraction = v / 100
    }

    init(fraction: Double) { self.fraction = fraction }

    var defaultValueDescription: String { "5%" }
}

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure traces (files or folders): latency per operation kind, allocations and instructions; compare with a baseline.",
        discussion: """
            Each trace is parsed once, replayed --warmup times, then measured --runs times on fresh model state. \
            Per operation kind (gesture, mapHitTest, sketchHitTest, select, vertexInsert/vertexMove interactive and \
            programmatic, vertexRemove.programmatic, undo, redo, rendererLookup.simple/classBreaks/uniqueValue, \
            gps.read/filter/project/append): count, p50/p90/p99/max latency (HDR histogram) and throughput; per trace: \
            events/s and the replay's total. Allocation counts and bytes need a build with --traits AllocationCounters \
            (jemalloc); instruction counts need --instrument callgrind (valgrind).

            --baseline compares with a saved report: by default only the exact counters (instructions, allocations, \
            bytes) are gated; wall-clock metrics (--metric p50 …) are gated only when the median moved by more than the \
            threshold and a Mann-Whitney U test over the runs says the change is real (p < 0.05; at least 4 runs on \
            both sides).

            Exit codes: 0 ok; 1 a regression against the baseline; 2 a usage or input error (a trace that fails to \
            parse or set up is reported as file:line:column, left out, and makes the exit status 2 at the end).
            """)

    @OptionGroup var select: TraceSelectionOptions

    @Option(help: "Replays per trace before measuring.")
    var warmup: Int = 1

    @Option(help: "Measured replays per trace.")
    var runs: Int = 5

    @Option(help: ArgumentHelp("Stop measuring a trace after this many seconds of runs (at least one run).", valueName: "seconds"))
    var timeBudget: Double?

    @Option(help: "Also count instructions: re-run the measured replays under valgrind's callgrind.")
    var instrument: BenchInstrument?

    @Option(help: ArgumentHelp("Measured replays per trace under callgrind (instruction counts repeat exactly, so 1 is usually enough).", valueName: "n"))
    var instrumentRuns: Int = 1

    @Option(help: ArgumentHelp("Write every figure to this file, as a baseline for --baseline.", valueName: "file"))
    var saveBaseline: String?

    @Option(help: ArgumentHelp("Compare with this saved report; exit 1 on a regression.", valueName: "file"))
    var baseline: String?

    @Option(help: ArgumentHelp("The increase --baseline allows, e.g. 5% or 0.5%.", valueName: "percent"))
    var threshold: BenchThreshold = BenchThreshold(fraction: 0.05)

    @Option(
        name: .customLong("metric"),
        help: ArgumentHelp(
            "A metric to gate (repeatable): instructions, allocations, bytes, p50, p90, p99, max, mean, total (default: the exact counters measured).",
            valueName: "metric"))
    var metrics: [BenchMetric] = []

    @Option(help: ArgumentHelp("Write the JSON report (schema mapsketch-bench, version 1) to this file.", valueName: "file"))
    var json: String?

    @Option(help: "What goes to standard output (or --output): table, json, bmf (Bencher Metric Format), github-action-benchmark (customSmallerIsBetter).")
    var format: BenchOutputFormat = .table

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the --format output to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Write a Markdown summary (for a pull request or a job summary) to this file.", valueName: "file"))
    var markdown: String?

    @Option(help: ArgumentHelp("Write JUnit XML (each regression a failure) to this file.", valueName: "file"))
    var junit: String?

    @Flag(help: "Time whole replays only, with no per-operation measurement: a plain replay, to see the bench's own overhead.")
    var totalsOnly = false

    @Option(
        help: ArgumentHelp(
            "Time every N-th operation of each kind (1: every operation). By default fast kinds are timed on a sample, so that reading the clock costs at most 2 % of their time; counts and allocations always cover every operation.",
            valueName: "n"))
    var timeEvery: Int?

    @Flag(help: "Never show the progress bar (it shows only on a terminal, and never with CI=true).")
    var noProgress = false

    @Flag(help: .hidden)
    var callgrindChild = false

    func validate() throws {
        if warmup < 0 { throw ValidationError("--warmup must be 0 or more, found \(warmup)") }
        if runs < 1 { throw ValidationError("--runs must be 1 or more, found \(runs)") }
        if instrumentRuns < 1 { throw ValidationError("--instrument-runs must be 1 or more, found \(instrumentRuns)") }
        if let timeBudget, !(timeBudget > 0) { throw ValidationError("--time-budget must be a positive number of seconds") }
        if let timeEvery, timeEvery < 1 { throw ValidationError("--time-every must be 1 or more, found \(timeEvery)") }
        if !metrics.isEmpty && baseline == nil { throw ValidationError("--metric needs --baseline") }
    }

    @MainActor
    mutating func run() async throws {
        if callgrindChild {
            runCallgrindChild()
            return
        }
        let valgrind: String?
        if instrument == .callgrind {
            guard let v = Callgrind.locateValgrind() else { throw CLI.fail(Callgrind.missingMessage) }
            valgrind = v
        } else {
            valgrind = nil
        }
        // Read the baseline first: a bad one should fail before minutes of measuring.
        var base: BenchReport?
        if let baseline {
            guard let data = FileManager.default.contents(atPath: baseline) else { throw CLI.fail("\(baseline): cannot read the baseline file") }
            do {
                base = try BenchReport.decode(String(decoding: data, as: UTF8.self), file: baseline)
            } catch {
                throw CLI.fail(error.description)
            }
        }
        let cases = try select.cases()
        let runner = BenchRunner(options: BenchOptions(
                warmup: warmup, runs: runs, timeBudget: timeBudget, measureOperations: !totalsOnly,
                timing: timeEvery.map { $0 == 1 ? .everyOperation : .every($0) } ?? .automatic))
        let progress = ProgressBar(enabled: !noProgress && CLI.stderrIsTerminal && ProcessInfo.processInfo.environment["CI"] != "true")
        var report = runner.run(cases) { i, name in progress.show(i, cases.count, name) }
        progress.end()
        if let valgrind {
            report = try withInstructions(report, cases: cases, valgrind: valgrind, progress: progress)
        }
        for f in report.failures { CLI.printError("mapsketch: \(f.error)") }
        var comparison: BenchComparison?
        if let base, let baseline {
            do {
                comparison = try BenchComparison.compare(
                    report, baseline: base, baselineFile: baseline, metrics: metrics.isEmpty ? nil : metrics, threshold: threshold.fraction)
            } catch {
                throw CLI.fail(error.description)
            }
        }
        let table = BenchFormat.table(report) + (comparison.map { BenchFormat.comparisonSummary($0, baselineFile: baseline ?? "") } ?? "")
        let primary: String
        switch format {
        case .table: primary = table
        case .json: primary = report.jsonText
        case .bmf: primary = BenchFormat.bmf(report)
        case .githubActionBenchmark: primary = BenchFormat.githubActionBenchmark(report)
        }
        if let output {
            try CLI.write(primary, to: output)
            if format != .table { print(table, terminator: "") }
        } else {
            print(primary, terminator: "")
            // Machine output owns standard output; the people's table goes to standard error.
            if format != .table { FileHandle.standardError.write(Data(table.utf8)) }
        }
        if let json { try CLI.write(report.jsonText, to: json) }
        if let saveBaseline { try CLI.write(report.jsonText, to: saveBaseline) }
        if let markdown { try CLI.write(BenchFormat.markdown(report, comparison: comparison, baselineFile: baseline), to: markdown) }
        if let junit { try CLI.write(BenchFormat.junit(report, comparison: comparison), to: junit) }
        if !report.failures.isEmpty { throw ExitCode(2) }
        if let comparison, !comparison.regressions.isEmpty { throw ExitCode(1) }
    }

    /// Re-runs the measured traces under callgrind and adds the instruction counts.
    @MainActor
    private func withInstructions(_ report: BenchReport, cases: [GoldenCase], valgrind: String, progress: ProgressBar) throws(ExitCode) -> BenchReport {
        let measured = cases.filter { c in report.trace(c.name) != nil }
        guard !measured.isEmpty else { return report }
        let runs = instrumentRuns
        if progress.enabled { CLI.progress("callgrind: \(measured.count) trace(s) × \(runs) run(s)…") }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let child = ["bench", "--callgrind-child", "--warmup", "\(max(warmup, 1))", "--runs", "\(runs)"] + measured.map(\.trace.path)
        let counted: [Callgrind.Run]
        do {
            counted = try Callgrind.run(valgrind: valgrind, executable: executable, childArguments: child, expectedRuns: measured.count * runs)
        } catch {
            progress.end()
            throw CLI.fail("--instrument callgrind: \(error)")
        }
        progress.end()
        var out = report
        out.counters.instructions = true
        for (i, c) in measured.enumerated() {
            guard let t = out.traces.firstIndex(where: { $0.name == c.name }) else { continue }
            let slice = Array(counted[(i * runs)..<((i + 1) * runs)])
            out.traces[t].instructions = slice.map(\.total)
            // Instruction counts go with the first runs (callgrind may make fewer runs than the clock).
            for k in out.traces[t].kinds.indices {
                let kind = out.traces[t].kinds[k].kind
                for r in out.traces[t].kinds[k].runs.indices where r < slice.count {
                    out.traces[t].kinds[k].runs[r].instructions = slice[r].kinds[kind] ?? 0
                }
            }
        }
        return out
    }

    /// Under callgrind: replay the given trace files (in order, no selection) with the measured
    /// region marked; the parent reads the profiles.
    @MainActor
    private func runCallgrindChild() {
        let runner = BenchRunner.underCallgrind(options: BenchOptions(warmup: warmup, runs: runs, countAllocations: false))
        let cases = select.paths.map { GoldenCase(name: $0, trace: URL(fileURLWithPath: $0)) }
        _ = runner.run(cases)
    }
}

/// A one-line progress bar on standard error: `[#####.....] 12/177 gps/real-…`.
@MainActor
final class ProgressBar {
    let enabled: Bool
    init(enabled: Bool) { self.enabled = enabled }

    func show(_ i: Int, _ n: Int, _ name: String) {
        guard enabled, n > 0 else { return }
        let width = 24
        let done = i * width / n
        CLI.progress("[" + String(repeating: "#", count: done) + String(repeating: ".", count: width - done) + "] \(i + 1)/\(n) \(name)")
    }

    func end() {
        if enabled { CLI.endProgress() }
    }
}
