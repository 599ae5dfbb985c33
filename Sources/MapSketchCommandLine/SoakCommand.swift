import ArgumentParser
import Foundation
import MapSketchReplay

struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Drive the model with random operations on a map of many graphics, checking its invariants and sampling memory.",
        discussion: """
            A seeded mixture of touch gestures, programmatic edits, undo/redo bursts, snapping, transforms, tool strokes, \
            hit tests and graphics added and removed, on a map of --graphics graphics with a polygon sketch on top. The \
            whole model is checked every minute (a broken invariant stops the process naming the rule); resident memory \
            is printed every --sample seconds, written to --csv as it goes and plotted to --svg at the end.
            Exit codes: 0 ok; 1 resident memory grew more than --max-growth percent per 10 minutes after the warm-up.
            Build it in release (`swift build -c release`): a debug build checks after every operation and is far slower.
            """)

    @Option(help: "How long to run, in minutes.")
    var minutes: Double = 10

    @Option(help: "The random seed.")
    var seed: UInt64 = 1

    @Option(help: "How many graphics the map holds.")
    var graphics: Int = 1_000_000

    @Option(help: "Seconds between memory samples.")
    var sample: Double = 10

    @Option(help: "Minutes of warm-up left out of the steady state (default: a sixth of the run, at most 5).")
    var warmUp: Double?

    @Option(help: "The largest steady-state growth of resident memory accepted, in percent per 10 minutes.")
    var maxGrowth: Double = 1

    @Option(help: "Where to write the samples as CSV (written as they are taken).")
    var csv: String = "soak.csv"

    @Option(help: "Where to write the SVG plot of resident memory.")
    var svg: String = "soak.svg"

    func validate() throws {
        try NumericOption.check(minutes, "minutes", 0...10_080, unit: "minutes")
        try NumericOption.check(graphics, "graphics", 0...50_000_000, unit: "graphics")
        try NumericOption.check(sample, "sample", 0.1...3_600, unit: "seconds")
        try NumericOption.check(maxGrowth, "max-growth", 0...Double.greatestFiniteMagnitude, unit: "percent")
        if let warmUp { try NumericOption.check(warmUp, "warm-up", 0...10_080, unit: "minutes") }
    }

    @MainActor
    mutating func run() async throws {
        let setupStart = ContinuousClock.now
        let soak = try SoakRun(SoakSettings(seed: seed, graphics: graphics))
        print("soak: \(graphics) graphics loaded in \(ContinuousClock.now - setupStart); running \(minutes) min, seed \(seed)")
        guard let out = FileHandle(forWritingAtPath: csv) ?? create(csv) else { throw CLI.fail("\(csv): cannot be written") }
        out.truncateFile(atOffset: 0)
        out.write(Data((SoakReport.csvHeader + "\n").utf8))
        print("minutes  operations  rss MiB  graphics  sketch vertices")
        soak.run(seconds: minutes * 60, sampleEvery: sample) { s in
            out.write(Data((SoakReport.csvLine(s) + "\n").utf8))
            let rss = s.residentBytes.map { String(format: "%8.1f", Double($0) / 1_048_576) } ?? "       ?"
            print(String(format: "%7.2f  %10d  ", s.seconds / 60, s.operations) + rss + String(format: "  %8d  %15d", s.graphics, s.sketchVertices))
        }
        soak.checkInvariants()
        try? out.close()
        let report = SoakReport(samples: soak.samples, warmUp: (warmUp ?? min(5, minutes / 6)) * 60)
        do {
            try report.svg.write(toFile: svg, atomically: true, encoding: .utf8)
        } catch {
            throw CLI.fail("\(svg): cannot be written (\(error.localizedDescription))")
        }
        let t = soak.tally
        print("operations: \(t.operations) (" + t.byKind.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ") + ")")
        print("refused edits: \(t.refused); graphics added \(t.graphicsAdded), removed \(t.graphicsRemoved); sketch resets \(t.sketchResets); full invariant checks \(t.fullChecks), all passed")
        print("wrote \(csv) and \(svg)")
        if let peaks = report.steadyPeaks {
            print(String(format: "steady-state peak resident memory: %.1f MiB first, %.1f MiB last", Double(peaks.first) / 1_048_576, Double(peaks.last) / 1_048_576))
        }
        guard let growth = report.growthPercentPer10Minutes else {
            print("steady-state growth: not measured (too short a run after the warm-up)")
            return
        }
        print(String(format: "steady-state growth: %+.2f %% per 10 min (limit %.2f %%)", growth, maxGrowth))
        if growth > maxGrowth {
            CLI.printError("mapsketch: resident memory grew \(String(format: "%.2f", growth)) % per 10 minutes after the warm-up, more than \(maxGrowth) %")
            throw ExitCode(1)
        }
    }

    /// Creates `path` empty and opens it for writing.
    private func create(_ path: String) -> FileHandle? {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
        return FileHandle(forWritingAtPath: path)
    }
}
