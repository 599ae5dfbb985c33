import Foundation
import MapSketchReplay
import MapSketchGeometry
import MapSketchReaders
package import MapSketchGolden

/// How `mapsketch bench` measures: each measured run of each trace in a fresh process, and, with a
/// second build (`--against`), the two builds' runs made alternately, side by side.
///
/// A process's memory layout (where the allocator put things, which cache sets they share) can
/// make one process consistently faster or slower than another at the same operation. Were all
/// of a build's runs made in one process, that bias would look like a difference between builds.
/// So the bench makes its runs in rounds: each round cuts its traces into ``processesPerRound``
/// parts and, for each part, starts a worker process per build (`BenchWorker`), has it replay
/// the part's traces (warm-up replays, then one measured run each), and ends it; each run records
/// its process (``BenchTraceResult/processes``). Across processes a layout's bias becomes noise
/// that the statistics see, not a shift they mistake for a regression.
///
/// With two builds, each trace of a round is measured by both, one right after the other, in
/// alternating order (ABBA: a trace measured A then B in one round is measured B then A in the
/// next, and neighbouring traces alternate too), so a load that comes and goes on the machine
/// falls on both builds alike and neither gains from going first; run `r` of one build and run `r`
/// of the other are a pair, compared by a paired test (``BenchComparison``). Two builds make an
/// even number of rounds, so each goes first as often as second.
package struct BenchSession {
    /// One build to measure: a `mapsketch` executable.
    package struct Build: Hashable, Sendable {
        /// The executable's path.
        package var executable: String
        /// How reports name it (`this build`, or the path given to `--against`).
        package var label: String

        /// Creates a build.
        package init(executable: String, label: String) {
            self.executable = executable
            self.label = label
        }
    }

    /// Why a session could not measure.
    package struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// What went wrong.
        package var description: String
    }

    /// What each run measures (warm-up, timing, operations); `runs` is the number of rounds.
    package var options: BenchOptions
    /// Replays per trace under callgrind, when instructions are counted.
    package var instrumentRuns: Int
    /// How many worker processes (of each build) share a round's traces out among them.
    package var processesPerRound: Int

    /// The fewest worker processes a build's runs are made in by default, when it is measured
    /// alone (``defaultProcessesPerRound(runs:builds:)``).
    package static let defaultProcesses = 30

    /// A session.
    package init(options: BenchOptions, instrumentRuns: Int = 1, processesPerRound: Int = 1) {
        self.options = options
        self.instrumentRuns = instrumentRuns
        self.processesPerRound = processesPerRound
    }

    /// Processes per round by default. A build measured alone is compared later with a saved
    /// report, unpaired, and there a kind is judged over the processes that measured it (what a
    /// process draws moves every trace it measures alike): enough per round for
    /// ``defaultProcesses`` in all. Two builds measured together are compared run by run, where
    /// more processes only cost time (about 50 ms each): one per round.
    package static func defaultProcessesPerRound(runs: Int, builds: Int) -> Int {
        builds == 2 ? 1 : Swift.max(1, (defaultProcesses + Swift.max(runs, 1) - 1) / Swift.max(runs, 1))
    }

    /// Measures `cases` with each of `builds` (one or two), and returns a report per build, in
    /// the order of `builds`. With two builds the reports share a pair id.
    /// - Parameters:
    ///   - valgrind: when given, instruction counts are added (`Callgrind`).
    ///   - progress: called with a line of progress at each step.
    /// - Throws: ``Failure`` when a build cannot start its worker or does not speak this bench's
    ///   worker protocol, or when callgrind fails.
    @MainActor
    package func run(
        _ cases: [GoldenCase], builds: [Build], valgrind: String? = nil, shard: TraceSelection.Shard? = nil,
        progress: (String) -> Void = { _ in }
    ) throws(Failure) -> [BenchReport] {
        precondition(builds.count == 1 || builds.count == 2, "one build, or two to compare")
        let paths = cases.map(\.trace.path)
        let setup = BenchWorker.Setup(
            warmup: options.warmup, timing: options.timing, measureOperations: options.measureOperations, traces: paths,
            layerRoot: options.layerRoot?.path)
        var results = Array(repeating: Array(repeating: [BenchTraceResult](), count: cases.count), count: builds.count)
        var failures = Array(repeating: [Int: BenchFailure](), count: builds.count)
        var expected = Array(repeating: [Int: BenchFailure](), count: builds.count)
        var hellos: [BenchWorker.Hello] = []
        let start = Date()
        var rounds = 0
        let planned = builds.count == 2 ? (Swift.max(options.runs, 2) + 1) / 2 * 2 : Swift.max(options.runs, 1)
        if planned != options.runs { progress("\(planned) rounds: two builds take turns going first, so the rounds are even") }
        let copies = FileManager.default.temporaryDirectory.appendingPathComponent("mapsketch-bench-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: copies) }
        var processes = 0
        for round in 0..<planned {
            for part in Self.parts(of: Self.traceOrder(count: cases.count, round: round), count: processesPerRound) {
                let traces = part.filter { t in builds.indices.allSatisfy { failures[$0][t] == nil && expected[$0][t] == nil } }
                guard !traces.isEmpty || hellos.isEmpty else { continue }
                let process = processes
                processes += 1
                let workers = try builds.indices.map { b throws(Failure) in
                    try WorkerProcess(
                        builds[b], executable: Self.freshCopy(of: builds[b], at: copies.appendingPathComponent("\(process % 10)/\(b)")), setup)
                }
                if hellos.isEmpty { hellos = workers.map(\.hello) }
                for t in traces {
                    // Each trace alternates which build goes first from round to round (and
                    // neighbouring traces differ), so going first or second weighs on both alike.
                    let order = builds.count == 2 && (round + t) % 2 == 1 ? [1, 0] : Array(builds.indices)
                    for b in order {
                        switch try workers[b].run(t) {
                        case .measured(var r):
                            r.name = cases[t].name
                            r.processes = [process]
                            results[b][t].append(r)
                        case .failure(let e): failures[b][t] = BenchFailure(trace: cases[t].name, error: e)
                        case .expectedFailure(let e): expected[b][t] = BenchFailure(trace: cases[t].name, error: e)
                        }
                    }
                }
                for w in workers { w.finish() }
            }
            rounds = round + 1
            progress("round \(rounds)/\(planned): \(cases.count) trace(s), \(Int(Date().timeIntervalSince(start))) s")
            if let budget = options.timeBudget, Date().timeIntervalSince(start) >= budget, builds.count == 1 || rounds % 2 == 0 { break }
        }
        let pairID = builds.count == 2 ? UUID().uuidString.lowercased() : nil
        var reports: [BenchReport] = []
        for b in builds.indices {
            let h = hellos[b]
            let traces = cases.indices.compactMap { t in Self.merge(results[b][t]) }
            reports.append(
                BenchReport(
                    warmup: options.warmup, runs: rounds, counters: BenchCounters(allocations: h.allocations, instructions: false),
                    clock: h.clock, build: BenchBuild(version: h.version, configuration: h.configuration), shard: shard, traces: traces,
                    failures: failures[b].sorted { $0.key < $1.key }.map(\.value),
                    expectedFailures: expected[b].sorted { $0.key < $1.key }.map(\.value), pairID: pairID))
        }
        if let valgrind {
            for b in builds.indices {
                progress("callgrind (\(builds[b].label)): \(reports[b].traces.count) trace(s) × \(instrumentRuns) run(s)…")
                reports[b] = try withInstructions(
                    reports[b], cases: cases, build: builds[b], userKinds: hellos[b].userKinds, valgrind: valgrind, progress: progress)
            }
        }
        return reports
    }

    /// The order a round measures the traces in: a permutation drawn from the round's number, so
    /// the same on every bench, different from round to round. A worker runs the traces one after
    /// another, and what a trace's set-up and first operations cost depends on what ran just before
    /// it (caches, the heap): two builds whose code differs elsewhere were seen to set up a third of
    /// the corpus 10–50 % apart in a fixed order — with equal instruction counts — and not at all
    /// when each trace ran alone. Drawn anew each round, a neighbour's effect is noise both builds
    /// share, not a bias on one trace.
    /// - Complexity: O(n).
    static func traceOrder(count: Int, round: Int) -> [Int] {
        var order = Array(0..<count)
        var rng = SplitMix64(seed: 0x6d61_7073_6b65_7463 &+ UInt64(round))
        order.shuffle(using: &rng)
        return order
    }

    /// A round's traces in the order measured, cut into `count` parts as even as they can be (no
    /// more parts than traces, and one, empty, for no trace), each measured by a worker process
    /// of its own.
    /// - Complexity: O(n).
    static func parts(of order: [Int], count: Int) -> [ArraySlice<Int>] {
        let count = Swift.max(1, Swift.min(count, order.count))
        return (0..<count).map { i in order[(i * order.count / count)..<((i + 1) * order.count / count)] }
    }

    /// jemalloc's settings for a measuring process (`MALLOC_CONF`; other allocators ignore it):
    /// memory freed stays with the process instead of going back to the system after a few
    /// seconds, so whether an operation faults pages in does not depend on how long ago the one
    /// before it ran (a run made later on a busier machine would otherwise set a trace up up to
    /// 60 % slower), and under callgrind nothing happens on a timer.
    static let allocatorConfiguration = "dirty_decay_ms:-1,muzzy_decay_ms:-1"

    /// A fresh copy of a build's executable for one round, at `folder/mapsketch` (every build's
    /// path as long as the others'): an executable's code lies where the system first loaded its
    /// file, and two copies of one build can differ by several per cent in some operation only
    /// because of where their code lies; a new copy each round makes that a chance of the round,
    /// not a lasting difference between builds. Falls back to the executable itself.
    static func freshCopy(of build: Build, at folder: URL) -> String {
        let copy = folder.appendingPathComponent("mapsketch")
        try? FileManager.default.removeItem(at: folder)
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
            (try? FileManager.default.copyItem(atPath: build.executable, toPath: copy.path)) != nil
        else { return build.executable }
        return copy.path
    }

    /// One trace's single-run results merged into one result of all its runs.
    static func merge(_ runs: [BenchTraceResult]) -> BenchTraceResult? {
        guard var out = runs.first else { return nil }
        for r in runs.dropFirst() {
            out.totalNanoseconds += r.totalNanoseconds
            out.setupNanoseconds += r.setupNanoseconds
            if let a = r.allocations { out.allocations = (out.allocations ?? []) + a }
            if let b = r.bytes { out.bytes = (out.bytes ?? []) + b }
            if let p = r.processes { out.processes = (out.processes ?? []) + p }
            out.attributed += r.attributed
            for k in r.kinds {
                if let i = out.kinds.firstIndex(where: { $0.kind == k.kind }) {
                    out.kinds[i].runs += k.runs
                } else {
                    out.kinds.append(k)
                }
            }
        }
        out.kinds.sort { $0.kind < $1.kind }
        return out
    }

    /// Whether the header (first line) of trace `text` has a layer read from a file.
    static func namesLayerFiles(_ text: String) -> Bool {
        let first = text.prefix { $0 != "\n" && $0 != "\r" }
        guard let header = try? JSONParser.decode(String(first), { try TraceDecoder.decodeHeader($0) }) else { return false }
        return header.layers.contains { $0.source != nil }
    }

    /// `report` with the instruction counts of its traces, measured under callgrind by `build`.
    @MainActor
    private func withInstructions(
        _ report: BenchReport, cases: [GoldenCase], build: Build, userKinds: [String], valgrind: String, progress: (String) -> Void
    ) throws(Failure) -> BenchReport {
        let measured = cases.filter { report.trace($0.name) != nil }
        var texts: [String] = []
        var files: [TraceFiles?] = []
        for c in measured {
            guard let data = FileManager.default.contents(atPath: c.trace.path) else {
                throw Failure(description: "\(c.trace.path): cannot read the trace again for callgrind")
            }
            let text = String(decoding: data, as: UTF8.self)
            texts.append(text)
            // Only a trace that names layer files is told where it lies: the server reads them.
            files.append(Self.namesLayerFiles(text) ? TraceFiles(trace: c.trace, layerRoot: options.layerRoot) : nil)
        }
        let counted: [[Callgrind.Run]]
        do {
            counted = try Callgrind.measure(
                texts, files: files, valgrind: valgrind, executable: build.executable, warmup: Swift.max(options.warmup, 1), runs: instrumentRuns,
                userKinds: userKinds
            ) { n in
                if n % 25 == 0 || n == texts.count { progress("callgrind (\(build.label)): \(n)/\(texts.count) traces") }
            }
        } catch {
            throw Failure(description: "--instrument callgrind (\(build.label)): \(error)")
        }
        var out = report
        out.counters.instructions = true
        for (i, c) in measured.enumerated() {
            guard let t = out.traces.firstIndex(where: { $0.name == c.name }) else { continue }
            out.traces[t] = Self.adding(counted[i], to: out.traces[t])
        }
        return out
    }

    /// A trace's figures with callgrind's runs added: its instructions, its attributed share's
    /// and each kind's (the first runs get them when callgrind made fewer runs than the clock).
    static func adding(_ runs: [Callgrind.Run], to trace: BenchTraceResult) -> BenchTraceResult {
        var out = trace
        out.instructions = runs.map(\.total)
        for r in out.attributed.indices where r < runs.count { out.attributed[r].instructions = runs[r].attributed }
        for k in out.kinds.indices {
            let kind = out.kinds[k].kind
            for r in out.kinds[k].runs.indices where r < runs.count { out.kinds[k].runs[r].instructions = runs[r].kinds[kind] ?? 0 }
        }
        return out
    }
}

/// A running worker (`BenchWorker`) of one build.
@MainActor
private final class WorkerProcess {
    let process = Process()
    let input: FileHandle
    let output: LineReader
    let build: BenchSession.Build
    private(set) var hello: BenchWorker.Hello

    init(_ build: BenchSession.Build, executable: String, _ setup: BenchWorker.Setup) throws(BenchSession.Failure) {
        self.build = build
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = setup.arguments
        var environment = ProcessInfo.processInfo.environment
        environment["MALLOC_CONF"] = BenchSession.allocatorConfiguration
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        do {
            try process.run()
        } catch {
            throw BenchSession.Failure(description: "\(build.label): cannot start \(build.executable): \(error.localizedDescription)")
        }
        input = stdin.fileHandleForWriting
        output = LineReader(stdout.fileHandleForReading.fileDescriptor)
        let first = output.next()
        guard let first, let v = try? JSONParser.parse(first), let h = BenchWorker.Hello(v) else {
            try? input.close()
            process.waitUntilExit()
            let seen = first.map { "it said: \($0.prefix(200))" } ?? "it exited with status \(process.terminationStatus) without a word"
            throw BenchSession.Failure(
                description:
                    "\(build.label) (\(build.executable)) does not speak this bench's worker protocol (version \(BenchWorker.protocolVersion)); \(seen). Build both from versions of MapSketch whose `bench` has --against")
        }
        hello = h
    }

    /// Asks for one measured run of trace `i`.
    func run(_ i: Int) throws(BenchSession.Failure) -> BenchWorker.Answer {
        do {
            try input.write(contentsOf: Data("run \(i)\n".utf8))
        } catch {
            throw BenchSession.Failure(description: "\(build.label): its worker stopped taking work: \(error.localizedDescription)")
        }
        guard let line = output.next() else {
            process.waitUntilExit()
            throw BenchSession.Failure(
                description: "\(build.label): its worker exited with status \(process.terminationStatus) while measuring trace \(i + 1)")
        }
        do {
            return try BenchWorker.Answer(try JSONParser.parse(line))
        } catch {
            throw BenchSession.Failure(description: "\(build.label): its worker answered what is not a bench result: \(error)")
        }
    }

    /// Ends the worker.
    func finish() {
        try? input.close()
        process.waitUntilExit()
    }
}

/// Lines from a file descriptor, read with plain reads.
private final class LineReader {
    let fd: Int32
    var buffer: [UInt8] = []
    var start = 0

    init(_ fd: Int32) { self.fd = fd }

    /// The next line without its newline, or nil at the end.
    func next() -> String? {
        while true {
            if let nl = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[start..<nl], as: UTF8.self)
                start = nl + 1
                if start > POSIX.chunkBytes {
                    buffer.removeFirst(start)
                    start = 0
                }
                return line
            }
            var chunk = [UInt8](repeating: 0, count: POSIX.chunkBytes)
            let n = chunk.withUnsafeMutableBytes { b -> Int in
                guard let base = b.baseAddress else { return -1 }
                return read(fd, base, b.count)
            }
            if n <= 0 {
                guard start < buffer.count else { return nil }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                return line
            }
            buffer += chunk[0..<n]
        }
    }
}
