import ArgumentParser
import Foundation
import MapSketchReplay

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Replay traces (files or folders) and compare each with its golden files.",
        discussion: """
            Numbers match within 1e-9 absolute + 1e-9 relative; structure, strings and key order exactly; SVG goldens \
            (NAME.expected.svg, when present) exactly. A mismatch prints a diff and writes NAME.actual.json and \
            NAME.diff.svg (expected in green under actual in red) beside the golden. Goldens are written only with \
            --update (or MAPSKETCH_RECORD=1), atomically. Exit 1 when any trace fails.
            """)

    @OptionGroup var select: TraceSelectionOptions

    @Flag(help: "Record the golden files instead of comparing.")
    var update = false

    @Option(help: "Write a JUnit XML report to this file.")
    var junit: String?

    @MainActor
    mutating func run() async throws {
        let selection = select.selection
        let cases = try select.cases()
        for stale in GoldenCorpus.removeStaleTemporaryFiles(besides: cases) {
            CLI.printError("mapsketch: removed \(CLI.display(stale)), a temporary file a killed run left")
        }
        let record: RecordMode = update ? .all : .requested()
        let runner = GoldenRunner(record: record)
        var results: [GoldenResult] = []
        let start = ContinuousClock.now
        for (i, c) in cases.enumerated() {
            CLI.progress("[\(i + 1)/\(cases.count)] \(c.name)")
            let t0 = ContinuousClock.now
            let status = runner.check(c, rendering: Replayer.rendering(for: c))
            let seconds = Double(CLI.milliseconds(ContinuousClock.now - t0)) / 1000
            results.append(GoldenResult(goldenCase: c, status: status, seconds: seconds))
            switch status {
            case .failed(let report):
                CLI.endProgress()
                print("FAIL \(c.name)\n\(report)", terminator: report.hasSuffix("\n") ? "" : "\n")
            case .recorded:
                CLI.endProgress()
                print("recorded \(c.name)")
            case .passed, .unchanged: break
            }
        }
        CLI.endProgress()
        let failed = results.filter(\.failed).count
        let ms = CLI.milliseconds(ContinuousClock.now - start)
        let recorded = results.filter { $0.status == .recorded }.count
        var line = "\(results.count) trace\(results.count == 1 ? "" : "s") in \(selection.paths.map { CLI.display(URL(fileURLWithPath: $0)) }.joined(separator: " "))"
        if let shard = selection.shard { line += " (shard \(shard))" }
        line += record == .all ? ": \(recorded) recorded, \(results.count - recorded - failed) unchanged" : ": \(results.count - failed) passed"
        line += ", \(failed) failed, \(ms) ms"
        print(line)
        if let junit { try CLI.write(JUnitReport.xml(suite: "mapsketch-check", results: results), to: junit) }
        if failed > 0 { throw ExitCode(1) }
    }
}
