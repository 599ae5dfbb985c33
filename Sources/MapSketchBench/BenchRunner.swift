package import Foundation
package import MapSketchGeometry
public import MapSketchReplay
public import MapSketchGolden

/// How `mapsketch bench` measures each trace.
public struct BenchOptions: Hashable, Sendable {
    /// Replays per trace before measuring (caches, lazily built tables, the allocator's pools).
    public var warmup: Int
    /// Measured replays per trace.
    public var runs: Int
    /// Stop measuring a trace after this many seconds of measured runs (at least one run is made).
    public var timeBudget: Double?
    /// Count allocations when the counters are built in.
    public var countAllocations: Bool
    /// Time each operation by kind; when false, only whole replays are timed (and counted), with
    /// no probe in the model: a plain replay, the reference for the bench's own overhead.
    public var measureOperations: Bool
    /// Which operations have their latency read (every operation is counted either way).
    public var timing: BenchTiming
    /// A folder whose tree the traces' layer files may be in besides each trace's own folder tree
    /// (`--layer-root`; see ``TraceFiles``).
    package var layerRoot: URL?

    /// Options; the defaults are 1 warm-up and 5 measured runs, no time budget, allocations
    /// counted, operations measured, fast operations timed on a sample (``BenchTiming/automatic``).
    public init(
        warmup: Int = 1, runs: Int = 5, timeBudget: Double? = nil, countAllocations: Bool = true, measureOperations: Bool = true,
        timing: BenchTiming = .automatic
    ) {
        self.warmup = warmup
        self.runs = runs
        self.timeBudget = timeBudget
        self.countAllocations = countAllocations
        self.measureOperations = measureOperations
        self.timing = timing
    }
}

/// How often `mapsketch bench` reads the clock around an operation.
public enum BenchTiming: Hashable, Sendable {
    /// Every operation is timed.
    case everyOperation
    /// Every `n`-th operation of each kind is timed (counts and allocations stay exact for all).
    case every(Int)
    /// Per kind, from the run before: slow operations are all timed; fast ones every `n`-th, with
    /// `n` chosen so that reading the clock costs at most 2 % of the kind's time, keeping at least
    /// 200 timed operations per run (the default).
    case automatic
}

/// Measures traces in this process: each is parsed once, replayed `warmup` times, then measured
/// `runs` times on fresh model state (a new ``ReplaySession`` per run), with every operation
/// counted and timed by kind (``BenchKind``) and, when built in, its allocations counted.
///
/// Measuring does not change what a replay does: the session applies the same events through the
/// same calls; the bench only reads a clock and the allocation counters around them. The GPS
/// reads (`gps.read`) and renderer lookups it times are the trace reader's and the renderer's
/// own functions on the trace's own lines and graphics, run beside the replay.
///
/// `mapsketch bench` makes each measured run in a fresh process instead (`BenchSession`), so
/// that one process's memory layout does not bias every run; this runner is what each of those
/// processes runs, and what code that benches traces itself uses.
///
/// ```swift
/// let runner = BenchRunner(options: BenchOptions(runs: 5))
/// let report = runner.run(try TraceSelection(paths: ["Traces"]).cases())
/// print(BenchFormat.table(report))
/// ```
public struct BenchRunner {
    /// The options.
    public var options: BenchOptions
    /// The counters this process can measure (instructions come from a separate callgrind run).
    package let counters: BenchCounters
    /// The team's own code every replay installs, each registration measured as its kind
    /// `user.<name>` (``ReplayExtensions``).
    package let extensions: ReplayExtensions
    let recorder: BenchRecorder

    /// A runner; starts the allocation counters when they are built in and asked for.
    /// `extensions` are installed in every replay and measured as user kinds.
    public init(options: BenchOptions, extensions: ReplayExtensions = .none) {
        self.init(options: options, underCallgrind: false, extensions: extensions)
    }

    init(options: BenchOptions, underCallgrind: Bool, extensions: ReplayExtensions = .none) {
        self.options = options
        self.extensions = extensions
        let allocations = !underCallgrind && options.countAllocations && AllocationCounters.start()
        counters = BenchCounters(allocations: allocations, instructions: false)
        recorder = BenchRecorder(
            countsAllocations: allocations, underCallgrind: underCallgrind, timing: options.timing,
            userKinds: BenchKind.userKinds(of: extensions))
    }

    /// The clock this runner reads.
    package var clock: BenchClock { recorder.clock }

    /// A trace read for measuring, or why it is not measured.
    enum Prepared {
        /// Read and decoded: measure it.
        case trace(Trace, text: String)
        /// It cannot be measured.
        case failure(InputError)
        /// It fails as its header declares (`expect.error`): not measured, not an error.
        case expectedFailure(InputError)
    }

    /// Reads and decodes a trace. A trace that declares an error (`expect.error`, as the malformed
    /// corpus does) is an expected failure when it fails that way, and a failure when it reads and
    /// sets up: it is not the trace it says it is.
    @MainActor
    static func prepare(_ url: URL, layerRoot: URL? = nil) -> Prepared {
        let file = display(url)
        var text: String?
        do throws(InputError) {
            let t = try Replayer.text(of: url, displayName: file)
            text = t
            return try prepare(text: t, file: file, files: TraceFiles(trace: url, displayName: file, layerRoot: layerRoot))
        } catch {
            if let text, let declared = TraceExpectation.declared(inTraceText: Substring(text)), declared.matches(error) {
                return .expectedFailure(error)
            }
            return .failure(error)
        }
    }

    /// ``prepare(_:)`` for a trace's text.
    @MainActor
    static func prepare(text: String, file: String, files: TraceFiles? = nil) throws(InputError) -> Prepared {
        var trace = try TraceDecoder.decode(text, file: file)
        trace.files = files
        guard let expected = trace.header.expect.error else { return .trace(trace, text: text) }
        do throws(ReplayError) {
            _ = try ReplaySession(trace: trace, name: "trace")
        } catch {
            throw InputError(file: file, line: error.line, column: error.column, message: error.message)
        }
        return .failure(
            InputError(
                file: file, line: 1, column: 1,
                message: "expected the trace to fail with an error containing \"\(expected)\" (expect.error), but it reads and sets up"))
    }

    /// Measures every trace in order, in this process. A trace that fails to parse or to set up
    /// is reported in ``BenchReport/failures`` and not measured — unless its header declares that
    /// error (``BenchReport/expectedFailures``).
    /// - Parameter progress: called before each trace with its 0-based position and name.
    /// - Complexity: O(t · (warmup + runs)) replays of t traces.
    @MainActor
    public func run(_ cases: [GoldenCase], progress: (Int, String) -> Void = { _, _ in }) -> BenchReport {
        var traces: [BenchTraceResult] = []
        var failures: [BenchFailure] = []
        var expectedFailures: [BenchFailure] = []
        for (i, c) in cases.enumerated() {
            progress(i, c.name)
            switch Self.prepare(c.trace, layerRoot: options.layerRoot) {
            case .trace(let trace, let text):
                do throws(InputError) {
                    traces.append(try measure(trace, name: c.name, file: Self.display(c.trace), text: text))
                } catch {
                    failures.append(BenchFailure(trace: c.name, error: error))
                }
            case .failure(let e): failures.append(BenchFailure(trace: c.name, error: e))
            case .expectedFailure(let e): expectedFailures.append(BenchFailure(trace: c.name, error: e))
            }
        }
        return BenchReport(
            warmup: options.warmup, runs: options.runs, counters: counters, clock: clock,
            build: BenchBuild(version: "library", configuration: BenchBuild.currentConfiguration), traces: traces, failures: failures,
            expectedFailures: expectedFailures)
    }

    /// Measures one parsed trace.
    /// - Parameters:
    ///   - text: the trace's text, whose GPS lines `gps.read` decodes again (nil: not timed).
    /// - Throws: ``InputError`` (`file:line:1`) when the header cannot be set up.
    @MainActor
    package func measure(_ trace: Trace, name: String, file: String, text: String? = nil) throws(InputError) -> BenchTraceResult {
        try measureKeepingOutput(trace, name: name, file: file, text: text).result
    }

    /// ``measure(_:name:file:text:)``, also returning the last measured run's output (tests
    /// compare it with a plain replay's).
    @MainActor
    func measureKeepingOutput(
        _ trace: Trace, name: String, file: String, text: String?
    ) throws(InputError) -> (result: BenchTraceResult, output: ReplayOutput) {
        let gpsLines = options.measureOperations ? text.map { Self.gpsLines(of: trace, in: $0) } ?? [] : []
        let probe = options.measureOperations ? recorder : nil
        let recorder = recorder
        var totals: [Double] = []
        var setups: [Double] = []
        var allocations: [UInt64] = []
        var bytes: [UInt64] = []
        var output: ReplayOutput?
        let budgetStart = BenchClock.monotonicNanoseconds()
        func readGPSLines() {
            for (line, text) in gpsLines {
                recorder.measure(.gpsRead) { recorder.keep(Self.decodeLine(text, line: line)) }
            }
        }
        for i in 0..<(options.warmup + max(options.runs, 1)) {
            let measured = i >= options.warmup
            var session: ReplaySession?
            var failure: ReplayError?
            var a0 = AllocationSnapshot()
            var a1 = AllocationSnapshot()
            var t0: UInt64 = 0
            var t1: UInt64 = 0
            var t2: UInt64 = 0
            func setUp() {
                do throws(ReplayError) {
                    session = try recorder.measure(.setup) { () throws(ReplayError) in
                        try ReplaySession(trace: trace, name: name, probe: probe, extensions: extensions)
                    }
                } catch {
                    failure = error
                }
            }
            if recorder.underCallgrind {
                // Only the replay inside the region: no clock, no counters.
                let body = {
                    setUp()
                    session?.run()
                    if measured { readGPSLines() }
                }
                if measured { BenchRegion.region(body) } else { body() }
            } else {
                a0 = AllocationCounters.read()
                t0 = BenchClock.monotonicNanoseconds()
                setUp()
                t1 = BenchClock.monotonicNanoseconds()
                session?.run()
                t2 = BenchClock.monotonicNanoseconds()
                a1 = AllocationCounters.read()
            }
            if let failure { throw InputError(file: file, line: failure.line, column: failure.column, message: failure.message) }
            guard measured else {
                recorder.discardRun()
                continue
            }
            recorder.endRun()
            let a = a1 - a0
            totals.append(Double(t2 &- t1))
            setups.append(Double(t1 &- t0))
            allocations.append(a.count)
            bytes.append(a.bytes)
            if i == options.warmup + max(options.runs, 1) - 1, let session { output = session.output() }
            if let budget = options.timeBudget, Double(BenchClock.monotonicNanoseconds() &- budgetStart) / 1e9 >= budget {
                if let session { output = session.output() }
                break
            }
        }
        // With the clock, `gps.read` is timed in passes of its own after the replays (one per
        // measured run, after a warm-up pass): decoding thousands of lines between two replays
        // would leave the next one with cold caches and inflate its total.
        if !recorder.underCallgrind && !gpsLines.isEmpty {
            if options.warmup > 0 {
                readGPSLines()
                recorder.discardRun()
            }
            for run in 0..<totals.count {
                readGPSLines()
                recorder.endRun(mergingInto: run)
            }
        }
        let result = BenchTraceResult(
            name: name, events: trace.events.count, totalNanoseconds: totals, setupNanoseconds: setups,
            allocations: counters.allocations ? allocations : nil, bytes: counters.allocations ? bytes : nil,
            attributed: [], kinds: [])
        let kinds = BenchKind.builtIn + recorder.userKinds
        return (Self.withRuns(recorder.finishTrace(), of: result, kinds: kinds, allocations: counters.allocations), output ?? ReplayOutput(document: .null, geometry: nil))
    }

    /// `result` with the kinds and the attributed share of the recorder's runs.
    static func withRuns(
        _ runs: [(kinds: [BenchKindRun], attributed: BenchAttributed)], of result: BenchTraceResult,
        kinds: [BenchKind] = BenchKind.builtIn, allocations: Bool
    ) -> BenchTraceResult {
        var out = result
        out.attributed = runs.map {
            BenchAttributedRun(
                nanoseconds: $0.attributed.nanoseconds, allocations: allocations ? $0.attributed.allocations : nil,
                bytes: allocations ? $0.attributed.bytes : nil)
        }
        // A kind's slot is its position: the built-in kinds, then the user kinds.
        out.kinds = kinds.enumerated().compactMap { slot, kind in
            guard runs.allSatisfy({ slot < $0.kinds.count }) else { return nil }
            let perRun = runs.map { $0.kinds[slot] }
            guard perRun.contains(where: { $0.count > 0 }) else { return nil }
            return BenchKindResult(
                kind: kind,
                runs: perRun.map {
                    BenchKindResult.Run(
                        count: $0.count, p50: $0.p50, p90: $0.p90, p99: $0.p99, max: $0.max,
                        mean: $0.timed > 0 ? $0.timedNanoseconds / Double($0.timed) : 0,
                        allocations: allocations ? $0.allocations : nil, bytes: allocations ? $0.bytes : nil, timed: $0.timed)
                })
        }
        return out
    }

    /// The GPS events' lines of the trace text: (line number, text).
    static func gpsLines(of trace: Trace, in text: String) -> [(Int, String)] {
        let wanted = trace.events.compactMap { e -> Int? in if case .gps = e.event { e.line } else { nil } }
        guard !wanted.isEmpty else { return [] }
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        return wanted.compactMap { n in
            guard n >= 1, n <= lines.count else { return nil }
            return (n, String(decoding: lines[n - 1], as: UTF8.self))
        }
    }

    /// Decodes one trace line as the trace reader does; returns its line number (or -1).
    static func decodeLine(_ text: String, line: Int) -> Int {
        (try? JSONParser.decode(text) { try TraceDecoder.decodeEvent($0, line: line) })?.line ?? -1
    }

    /// A path as reports show it: relative to the current folder when inside it.
    static func display(_ url: URL) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let p = url.standardizedFileURL.path
        return p.hasPrefix(cwd + "/") ? String(p.dropFirst(cwd.count + 1)) : p
    }
}
