public import MapSketchReplay
public import Foundation
public import MapSketchGeometry

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

/// Measures traces: each is parsed once, replayed `warmup` times, then measured `runs` times on
/// fresh model state (a new ``ReplaySession`` per run), with every operation timed by kind
/// (``BenchOperation``) and, when built in, its allocations counted.
///
/// Measuring does not change what a replay does: the session applies the same events through the
/// same calls; the bench only reads a clock and the allocation counters around them. The GPS
/// reads (`gps.read`) and renderer lookups it times are the trace reader's and the renderer's
/// own functions on the trace's own lines and graphics, run beside the replay.
///
/// ```swift
/// let runner = BenchRunner(options: BenchOptions(runs: 5))
/// let report = runner.run(try TraceSelection(paths: ["Traces"]).cases())
/// print(BenchFormat.table(report))
/// ```
@MainActor
public struct BenchRunner {
    /// The options.
    public var options: BenchOptions
    /// The counters this process can measure (instructions come from a separate callgrind run).
    public let counters: BenchCounters
    let recorder: BenchRecorder

    /// A runner; starts the allocation counters when they are built in and asked for.
    public init(options: BenchOptions) {
        self.init(options: options, underCallgrind: false)
    }

    /// A runner for the child process `--instrument callgrind` starts: no clock, no allocation
    /// counters; each measured run inside the region callgrind collects.
    public static func underCallgrind(options: BenchOptions) -> BenchRunner {
        BenchRunner(options: options, underCallgrind: true)
    }

    init(options: BenchOptions, underCallgrind: Bool) {
        self.options = options
        let allocations = !underCallgrind && options.countAllocations && AllocationCounters.start()
        counters = BenchCounters(allocations: allocations, instructions: false)
        recorder = BenchRecorder(countsAllocations: allocations, underCallgrind: underCallgrind, timing: options.timing)
    }

    /// Measures every trace in order. A trace that fails to parse or to set up is reported in
    /// ``BenchReport/failures`` and not measured — unless its header declares that error
    /// (`expect.error`, as the malformed corpus does): it is then an expected failure
    /// (``BenchReport/expectedFailures``), not measured either. A trace that declares an error
    /// but reads and sets up is a failure: it is not the trace it says it is.
    /// - Parameter progress: called before each trace with its 0-based position and name.
    /// - Complexity: O(t · (warmup + runs)) replays of t traces.
    public func run(_ cases: [GoldenCase], progress: (Int, String) -> Void = { _, _ in }) -> BenchReport {
        var traces: [BenchTraceResult] = []
        var failures: [BenchFailure] = []
        var expectedFailures: [BenchFailure] = []
        for (i, c) in cases.enumerated() {
            progress(i, c.name)
            let file = display(c.trace)
            var text: String?
            do throws(InputError) {
                let t = try Replayer.text(of: c.trace, displayName: file)
                text = t
                let trace = try TraceDecoder.decode(t, file: file)
                if let expected = trace.header.expect.error {
                    do throws(ReplayError) {
                        _ = try ReplaySession(trace: trace, name: c.name)
                    } catch {
                        throw InputError(file: file, line: error.line, column: 1, message: error.message)
                    }
                    failures.append(
                        BenchFailure(
                            trace: c.name,
                            error: InputError(
                                file: file, line: 1, column: 1,
                                message: "expected the trace to fail with an error containing \"\(expected)\" (expect.error), but it reads and sets up")))
                    continue
                }
                traces.append(try measure(trace, name: c.name, file: file, source: c.trace))
            } catch {
                if let text, let declared = TraceExpectation.declared(inTraceText: Substring(text)), declared.matches(error) {
                    expectedFailures.append(BenchFailure(trace: c.name, error: error))
                } else {
                    failures.append(BenchFailure(trace: c.name, error: error))
                }
            }
        }
        return BenchReport(
            warmup: options.warmup, runs: options.runs, counters: counters, traces: traces, failures: failures, expectedFailures: expectedFailures)
    }

    /// Measures one parsed trace.
    /// - Parameters:
    ///   - source: the trace file, whose GPS lines `gps.read` decodes again (nil: not timed).
    /// - Throws: ``InputError`` (`file:line:1`) when the header cannot be set up.
    public func measure(_ trace: Trace, name: String, file: String, source: URL? = nil) throws(InputError) -> BenchTraceResult {
        try measureKeepingOutput(trace, name: name, file: file, source: source).result
    }

    /// ``measure(_:name:file:source:)``, also returning the last measured run's output (tests
    /// compare it with a plain replay's).
    func measureKeepingOutput(
        _ trace: Trace, name: String, file: String, source: URL?
    ) throws(InputError) -> (result: BenchTraceResult, output: ReplayOutput) {
        let gpsLines = options.measureOperations ? source.map { Self.gpsLines(of: trace, in: $0) } ?? [] : []
        let probe = options.measureOperations ? recorder : nil
        var totals: [UInt64] = []
        var setups: [UInt64] = []
        var allocations: [UInt64] = []
        var bytes: [UInt64] = []
        var output: ReplayOutput?
        let budgetStart = monotonicNanoseconds()
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
            func replay() {
                a0 = AllocationCounters.read()
                t0 = monotonicNanoseconds()
                do {
                    session = try ReplaySession(trace: trace, name: name, probe: probe)
                } catch {
                    failure = error
                    return
                }
                t1 = monotonicNanoseconds()
                session?.run()
                t2 = monotonicNanoseconds()
                a1 = AllocationCounters.read()
                // Under callgrind the reads count inside the measured region, after the replay.
                if recorder.underCallgrind { readGPSLines() }
            }
            if recorder.underCallgrind && measured { BenchRegion.region(replay) } else { replay() }
            let a = a1 - a0
            if let failure { throw InputError(file: file, line: failure.line, column: 1, message: failure.message) }
            guard measured else {
                recorder.discardRun()
                continue
            }
            recorder.endRun()
            totals.append(t2 &- t1)
            setups.append(t1 &- t0)
            allocations.append(a.count)
            bytes.append(a.bytes)
            if i == options.warmup + max(options.runs, 1) - 1, let session { output = session.output() }
            if let budget = options.timeBudget, Double(monotonicNanoseconds() &- budgetStart) / 1e9 >= budget {
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
            kinds: recorder.finishTrace())
        return (result, output ?? ReplayOutput(document: .null, geometry: nil))
    }

    /// The GPS events' lines of the trace file: (line number, text).
    static func gpsLines(of trace: Trace, in url: URL) -> [(Int, String)] {
        let wanted = trace.events.compactMap { e -> Int? in if case .gps = e.event { e.line } else { nil } }
        guard !wanted.isEmpty, let data = FileManager.default.contents(atPath: url.path) else { return [] }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        return wanted.compactMap { n in
            guard n >= 1, n <= lines.count else { return nil }
            return (n, String(decoding: lines[n - 1], as: UTF8.self))
        }
    }

    /// Decodes one trace line as the trace reader does; returns its line number (or -1).
    static func decodeLine(_ text: String, line: Int) -> Int {
        (try? JSONParser.decode(text) { try TraceDecoder.decodeEvent($0, line: line) })?.line ?? -1
    }

    private func display(_ url: URL) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let p = url.standardizedFileURL.path
        return p.hasPrefix(cwd + "/") ? String(p.dropFirst(cwd.count + 1)) : p
    }
}
