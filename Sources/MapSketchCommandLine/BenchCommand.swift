import ArgumentParser
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

/// The options a comparison takes, shared by `bench` and `bench compare`.
struct BenchComparisonOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The increase a figure may show before it is a regression, e.g. 5% or 0.5%.", valueName: "percent"))
    var threshold: BenchThreshold = BenchThreshold(fraction: 0.05)

    @Option(
        name: .customLong("metric"),
        help: ArgumentHelp(
            "A metric to gate (repeatable): instructions, allocations, bytes, p50, p90, p99, max, mean, total (default: the exact counters measured; with --against, also p50 and total).",
            valueName: "metric"))
    var metrics: [BenchMetric] = []

    @Option(help: ArgumentHelp("The false discovery rate held across the wall-clock figures of a comparison (Benjamini–Hochberg).", valueName: "q"))
    var fdr: Double = BenchComparison.defaultFDR

    @Option(help: ArgumentHelp("Write a Markdown summary (for a pull request or a job summary) to this file.", valueName: "file"))
    var markdown: String?

    @Option(help: ArgumentHelp("Write JUnit XML (each regression a failure; new and removed traces skipped) to this file.", valueName: "file"))
    var junit: String?

    func validate() throws {
        guard fdr > 0, fdr < 1 else { throw ValidationError("--fdr must be a rate between 0 and 1 (exclusive), found \(fdr)") }
    }

    /// Compares, or exits 2 with the comparison's error.
    func compare(_ current: BenchReport, with baseline: BenchReport, file: String, defaultMetrics: [BenchMetric]?) throws(ExitCode) -> BenchComparison {
        do {
            return try BenchComparison.compare(
                current, baseline: baseline, baselineFile: file, metrics: metrics.isEmpty ? defaultMetrics : metrics,
                threshold: threshold.fraction, fdr: fdr)
        } catch {
            throw CLI.fail(error.description)
        }
    }

    /// Writes the Markdown and JUnit files asked for.
    func writeFiles(_ report: BenchReport, _ comparison: BenchComparison?, baselineFile: String?) throws(ExitCode) {
        if let markdown { try CLI.write(BenchFormat.markdown(report, comparison: comparison, baselineFile: baselineFile), to: markdown) }
        if let junit { try CLI.write(BenchFormat.junit(report, comparison: comparison), to: junit) }
    }
}

/// Reads a saved bench report, or exits 2 saying why it cannot.
func readBenchReport(_ path: String, what: String) throws(ExitCode) -> BenchReport {
    guard let data = FileManager.default.contents(atPath: path) else { throw CLI.fail("\(path): cannot read the \(what) file") }
    do {
        return try BenchReport.decode(String(decoding: data, as: UTF8.self), file: path)
    } catch {
        throw CLI.fail(error.description)
    }
}

/// `mapsketch bench`: measure traces; `mapsketch bench compare`: compare two saved reports.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure traces per operation kind, compare with a baseline or another build; or compare two saved reports.",
        discussion: """
            Each measured run is made in a fresh process: --warmup replays of the trace, then one measured replay on fresh \
            model state; --runs rounds of that, each round's traces shared out among --processes-per-round processes. With --against OTHER_BINARY (another build of mapsketch, e.g. the main \
            branch's) both builds are measured in the same rounds, one right after the other on each trace in alternating \
            order, and compared run by run with a paired test: the way to gate wall clock in CI. --baseline compares with a \
            saved report: by default only its exact counters (instructions, allocations, bytes), which do not depend on the \
            machine; never gate unpaired wall clock across machines.

            Under --against a wall-clock figure regresses when its runs say it is slower (a one-sided Wilcoxon signed-rank \
            test, run by run) after the false discovery rate across all tested figures is held at --fdr, when it grew by \
            more than --threshold with confidence (a figure whose kind is not slower across the traces must be \
            overwhelming on its own, and beyond the threshold over the median shift of its kind's other traces), and \
            by at least two steps of the clock per operation. Against a saved \
            baseline, wall clock is judged a kind at a time across the traces that run it (a sign test over the traces, the \
            machine's overall drift divided out): a busier machine slows some figures and not others, a change of the code \
            slows an operation wherever it runs. The kind must be slower over the worker processes as well (Welch's t on \
            each process's median over the kind's runs it made, the process's drift divided out): what a process draws \
            moves all the traces it measures. A kind whose median is below the clock's resolution is \
            gated on its counters only. A trace without baseline figures is reported as new, a baseline trace not benched as \
            removed: neither is an error.

            The kinds:
            \(BenchKind.builtIn.map { "  \($0.name): \($0.summary)" }.joined(separator: "\n"))
              \(BenchKind.unattributedName): what belongs to no kind (a row of its own in every output)

            `mapsketch bench compare OLD.json NEW.json` compares two saved reports without measuring.

            Allocation counts and bytes need a build with --traits AllocationCounters (jemalloc); instruction counts need \
            --instrument callgrind (valgrind). Exit codes: 0 ok; 1 a regression; 2 a usage or input error (a trace that \
            fails to parse or set up is reported as file:line:column, left out, and makes the exit status 2 at the end).
            """,
        subcommands: [BenchCompareCommand.self])

    @OptionGroup var select: TraceSelectionOptions

    @OptionGroup var layerRoot: LayerRootOption

    @Option(help: "Replays of a trace before each measured run.")
    var warmup: Int = 1

    @Option(help: ArgumentHelp("Measured runs per trace: rounds of fresh processes (default 20; with --against, 40).", valueName: "n"))
    var runs: Int?

    @Option(
        help: ArgumentHelp(
            "Worker processes that share each round's traces out (default: enough for \(BenchSession.defaultProcesses) in all; with --against, 1). Against a saved baseline a kind is judged over the processes.",
            valueName: "n"))
    var processesPerRound: Int?

    @Option(help: ArgumentHelp("Start no new round after this many seconds (at least one round is made).", valueName: "seconds"))
    var timeBudget: Double?

    @Option(help: "Also count instructions: measure the traces again under valgrind's callgrind.")
    var instrument: BenchInstrument?

    @Option(help: ArgumentHelp("Measured replays per trace under callgrind (instruction counts repeat exactly, so 1 is enough).", valueName: "n"))
    var instrumentRuns: Int = 1

    @Option(help: ArgumentHelp("Measure another build of mapsketch beside this one and compare run by run; exit 1 on a regression.", valueName: "binary"))
    var against: String?

    @Option(help: ArgumentHelp("With --against: write the other build's report to this file.", valueName: "file"))
    var againstJSON: String?

    @Option(help: ArgumentHelp("Write every figure to this file, as a baseline for --baseline.", valueName: "file"))
    var saveBaseline: String?

    @Option(help: ArgumentHelp("Compare with this saved report; exit 1 on a regression.", valueName: "file"))
    var baseline: String?

    @OptionGroup var comparison: BenchComparisonOptions

    @Option(help: ArgumentHelp("Write the JSON report (schema mapsketch-bench, version 2) to this file.", valueName: "file"))
    var json: String?

    @Option(help: "What goes to standard output (or --output): table, json, bmf (Bencher Metric Format), github-action-benchmark (customSmallerIsBetter).")
    var format: BenchOutputFormat = .table

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the --format output to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(help: "Time whole replays only, with no per-operation measurement: a plain replay, to see the bench's own overhead.")
    var totalsOnly = false

    @Option(
        help: ArgumentHelp(
            "Time every N-th operation of each kind (1: every operation). By default fast kinds are timed on a sample, so that reading the clock costs at most 2 % of their time; counts and allocations always cover every operation.",
            valueName: "n"))
    var timeEvery: Int?

    @Flag(help: "Print no progress lines.")
    var noProgress = false

    func validate() throws {
        if warmup < 0 { throw ValidationError("--warmup must be 0 or more, found \(warmup)") }
        if let runs, runs < 1 { throw ValidationError("--runs must be 1 or more, found \(runs)") }
        if let processesPerRound, processesPerRound < 1 {
            throw ValidationError("--processes-per-round must be 1 or more, found \(processesPerRound)")
        }
        if instrumentRuns < 1 { throw ValidationError("--instrument-runs must be 1 or more, found \(instrumentRuns)") }
        if let timeBudget, !(timeBudget > 0) { throw ValidationError("--time-budget must be a positive number of seconds") }
        if let timeEvery, timeEvery < 1 { throw ValidationError("--time-every must be 1 or more, found \(timeEvery)") }
        if !comparison.metrics.isEmpty && baseline == nil && against == nil { throw ValidationError("--metric needs --baseline or --against") }
        if baseline != nil && against != nil { throw ValidationError("give --baseline or --against, not both") }
        if againstJSON != nil && against == nil { throw ValidationError("--against-json needs --against") }
    }

    @MainActor
    func run() async throws {
        let valgrind: String?
        if instrument == .callgrind {
            guard let v = Callgrind.locateValgrind() else { throw CLI.fail(Callgrind.missingMessage) }
            valgrind = v
        } else {
            valgrind = nil
        }
        // Read the baseline and find the other build first: a bad one should fail before minutes of measuring.
        let base = try baseline.map { p throws(ExitCode) in try readBenchReport(p, what: "baseline") }
        var builds = [BenchSession.Build(executable: CLI.executablePath, label: "this build")]
        if let against {
            guard FileManager.default.isExecutableFile(atPath: against) else {
                throw CLI.fail("\(against): --against needs an executable mapsketch (another build of this tool)")
            }
            builds.insert(BenchSession.Build(executable: against, label: against), at: 0)
        }
        let cases = try select.cases()
        var options = BenchOptions(
            warmup: warmup, runs: runs ?? (against == nil ? 20 : 40), timeBudget: timeBudget, measureOperations: !totalsOnly,
            timing: timeEvery.map { $0 == 1 ? .everyOperation : .every($0) } ?? .automatic)
        options.layerRoot = layerRoot.url
        let session = BenchSession(
            options: options, instrumentRuns: instrumentRuns,
            processesPerRound: processesPerRound ?? BenchSession.defaultProcessesPerRound(runs: options.runs, builds: builds.count))
        let quiet = noProgress
        let reports: [BenchReport]
        do {
            reports = try session.run(cases, builds: builds, valgrind: valgrind, shard: select.shard) { line in
                if !quiet { CLI.printError("bench: " + line) }
            }
        } catch {
            throw CLI.fail(error.description)
        }
        let report = reports[reports.count - 1]
        for f in report.failures { CLI.printError("mapsketch: \(f.error)") }
        var result: BenchComparison?
        var baselineName: String?
        if let base, let baseline {
            result = try comparison.compare(report, with: base, file: baseline, defaultMetrics: nil)
            baselineName = baseline
        } else if let against {
            let other = reports[0]
            let exact = [BenchMetric.instructions, .allocations, .bytes].filter { m in
                m == .instructions ? report.counters.instructions && other.counters.instructions : report.counters.allocations && other.counters.allocations
            }
            result = try comparison.compare(report, with: other, file: against, defaultMetrics: [.p50, .total] + exact)
            baselineName = against
            if let againstJSON { try CLI.write(other.jsonText, to: againstJSON) }
        }
        let table = BenchFormat.table(report) + (result.map { BenchFormat.comparisonSummary($0, baselineFile: baselineName ?? "") } ?? "")
        let primary: String
        switch format {
        case .table: primary = table
        case .json: primary = BenchFormat.jsonText(report, comparison: result)
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
        if let json { try CLI.write(BenchFormat.jsonText(report, comparison: result), to: json) }
        if let saveBaseline { try CLI.write(report.jsonText, to: saveBaseline) }
        try comparison.writeFiles(report, result, baselineFile: baselineName)
        if !report.failures.isEmpty { throw ExitCode(2) }
        if let result, !result.regressions.isEmpty { throw ExitCode(1) }
    }
}

struct BenchCompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two saved bench reports (--json or --save-baseline output) without measuring anything.",
        discussion: """
            The same comparison and outputs as `bench --baseline`: exact counters by default, wall clock with --metric. \
            Two reports saved from one `bench --against` job (--json and --against-json) are compared run by run; any other \
            two are compared as unpaired runs. Exit codes: 0 no regression; 1 a regression; 2 a usage or input error.
            """)

    @Argument(help: "The old report (the baseline).")
    var old: String

    @Argument(help: "The new report.")
    var new: String

    @OptionGroup var comparison: BenchComparisonOptions

    @Option(help: ArgumentHelp("Write the comparison as JSON (the new report with a `comparison` member) to this file.", valueName: "file"))
    var json: String?

    @MainActor
    func run() async throws {
        let base = try readBenchReport(old, what: "old report")
        let current = try readBenchReport(new, what: "new report")
        let result = try comparison.compare(current, with: base, file: old, defaultMetrics: nil)
        print(BenchFormat.comparisonSummary(result, baselineFile: old), terminator: "")
        if let json { try CLI.write(BenchFormat.jsonText(current, comparison: result), to: json) }
        try comparison.writeFiles(current, result, baselineFile: old)
        if !result.regressions.isEmpty { throw ExitCode(1) }
    }
}
