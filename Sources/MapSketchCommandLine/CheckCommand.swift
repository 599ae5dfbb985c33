import ArgumentParser
import Foundation
import MapSketchReplay
import MapSketchGolden

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Replay traces (files or folders) and compare each with its golden files.",
        discussion: """
            Numbers match within the trace's tolerance (its header's expect.tolerance; by default 1e-9 absolute + \
            1e-9 relative); structure, strings and key order exactly; a geometry's vertices are aligned, so a \
            removed vertex is one difference. A trace that passes within the tolerance but not byte for byte has \
            drifted: the summary counts these (`231 passed (40 within tolerance)`) and --verbose lists them.

            SVG goldens are opt-in: create an empty NAME.expected.svg beside a trace to ask for one (the map's SVG \
            at the end, or at the header's options.svgStep), then record it with --record missing; from then on it \
            is compared exactly. A mismatch prints a diff and leaves the output beside the golden as \
            NAME.actual.json (with NAME.actual.origin.json, the digest of the trace it came from), with \
            NAME.diff.svg marking every changed vertex; review and accept it with `mapsketch accept`.

            Record modes, as snapshot-testing tools have them: never (compare only), missing (record goldens that \
            do not exist), failed (also re-record goldens that differ), drifted (rewrite only the goldens that \
            passed within the tolerance but not byte for byte), all (rewrite every golden). MAPSKETCH_RECORD \
            sets the mode when --record is not given. With CI set (CI=true), nothing is ever recorded. A trace that \
            cannot be read or set up is an input error, reported as FILE:LINE:COLUMN and never recorded — unless \
            its header declares that error (expect.error).

            Exit status: 0 when every trace passes or is recorded, 1 when any fails, 2 when any is an input error \
            (or on a usage error).
            """)

    @OptionGroup var select: TraceSelectionOptions

    @OptionGroup var layerRoot: LayerRootOption

    @Option(help: ArgumentHelp("When to write golden files (default: never, or MAPSKETCH_RECORD).", valueName: "mode"))
    var record: RecordMode?

    @Flag(help: "Record every golden: the same as --record all.")
    var update = false

    @Flag(help: "Fail a trace when the model refuses a call its header does not declare in expect.refusedCalls.")
    var strict = false

    @Flag(help: "Remove obsolete goldens: golden and pending files whose trace is gone.")
    var prune = false

    @Option(help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write an HTML page showing every failing trace to this file.", valueName: "file"))
    var html: String?

    @Flag(help: "List the traces that passed within the tolerance but not byte for byte.")
    var verbose = false

    func validate() throws {
        if update, let record, record != .all {
            throw ValidationError(
                "--update records every golden; it cannot be combined with --record \(record.rawValue)")
        }
    }

    @MainActor
    mutating func run() async throws {
        let selection = select.selection
        let cases = try select.cases()
        for stale in GoldenCorpus.removeStaleTemporaryFiles(besides: cases) {
            CLI.printError("mapsketch: removed \(CLI.display(stale)), a temporary file a killed run left")
        }
        let resolved: (mode: RecordMode, note: String?)
        do {
            resolved = try RecordMode.resolve(requested: update ? .all : record)
        } catch {
            throw CLI.fail(error.description)
        }
        if let note = resolved.note { CLI.printError("mapsketch: \(note)") }
        var runner = GoldenRunner(record: resolved.mode, strict: strict, producer: "mapsketch \(CLI.version)")
        runner.extensions = CLI.extensions
        runner.layerRoot = layerRoot.url
        var results: [GoldenResult] = []
        var report = GoldenHTMLReport()
        var failures: [String] = []
        let start = ContinuousClock.now
        for (i, c) in cases.enumerated() {
            CLI.progress(
                "[\(i + 1)/\(cases.count)] \(c.name)" + (failures.isEmpty ? "" : " — \(failures.count) failed"))
            var r = runner.run(c)
            for w in r.warnings {
                CLI.endProgress()
                CLI.printError("warning: \(w)")
            }
            switch r.status {
            case .inputError(let e):
                CLI.endProgress()
                CLI.printError("input error: \(e)")
            case .failed(let f):
                failures.append("FAIL \(c.name)\n\(f.report)" + (f.report.hasSuffix("\n") ? "" : "\n"))
            case .recorded(let changes):
                CLI.endProgress()
                var text = "recorded \(c.name)\n" + (changes ?? "")
                if !text.hasSuffix("\n") { text += "\n" }
                print(text, terminator: "")
            case .passed, .drifted, .unchanged: break
            }
            if html != nil { report.add(r) }
            // The report holds what it shows; the results keep only what the summary and JUnit need.
            if case .failed(var f) = r.status {
                f.pictures = nil
                f.logExcerpt = nil
                r.status = .failed(f)
            }
            results.append(r)
        }
        CLI.endProgress()
        for f in failures { print(f, terminator: "") }

        let inputErrors = results.compactMap { r -> String? in
            if case .inputError(let e) = r.status { e.description } else { nil }
        }
        let failed = results.filter(\.failed)
        var recap = ""
        if !inputErrors.isEmpty {
            recap += "input errors (fix the trace; nothing was compared or recorded):\n"
            for e in inputErrors { recap += "  \(e)\n" }
        }
        if !failed.isEmpty {
            recap += "failed:\n"
            for r in failed { recap += "  \(r.goldenCase.name)\n" }
        }
        // One pass over the statuses (a filter over `drift` crashes the 6.3 optimiser's copy
        // propagation in release builds).
        var drifted: [(name: String, drift: GoldenDrift)] = []
        for r in results {
            if case .drifted(let d) = r.status { drifted.append((r.goldenCase.name, d)) }
        }
        if verbose, !drifted.isEmpty {
            recap +=
                "passed within the tolerance, not byte for byte (rewrite these goldens with `--record drifted`):\n"
            for d in drifted { recap += "  \(d.name): \(d.drift.description)\n" }
        }
        print(recap, terminator: "")
        try reportObsolete(selection)

        let ms = CLI.milliseconds(ContinuousClock.now - start)
        let recorded = results.filter(\.recorded).count
        var line =
            "\(results.count) trace\(results.count == 1 ? "" : "s") in \(selection.paths.map { CLI.display(URL(fileURLWithPath: $0)) }.joined(separator: " "))"
        if let shard = selection.shard { line += " (shard \(shard))" }
        line +=
            ": \(results.count - failed.count - inputErrors.count - recorded) \(resolved.mode == .all ? "unchanged" : "passed")"
        if !drifted.isEmpty { line += " (\(drifted.count) within tolerance)" }
        if recorded > 0 || resolved.mode != .never { line += ", \(recorded) recorded" }
        line += ", \(failed.count) failed"
        if !inputErrors.isEmpty { line += ", \(inputErrors.count) input error\(inputErrors.count == 1 ? "" : "s")" }
        line += ", \(ms) ms"
        print(line)
        if let junit { try CLI.write(JUnitReport.xml(suite: "mapsketch-check", results: results), to: junit) }
        if let html { try CLI.write(report.html(summary: line), to: html) }
        if !inputErrors.isEmpty { throw ExitCode(2) }
        if !failed.isEmpty { throw ExitCode(1) }
    }

    /// Lists the goldens whose trace is gone (once per sharded run: in shard 1), and removes them
    /// with --prune.
    private func reportObsolete(_ selection: TraceSelection) throws(ExitCode) {
        if let shard = selection.shard, shard.k != 1 { return }
        let obsolete: [ObsoleteGolden]
        do {
            obsolete = try selection.obsoleteGoldens()
        } catch {
            throw CLI.fail(error.description)
        }
        guard !obsolete.isEmpty else { return }
        let ci = RecordMode.isCI()
        print(
            prune && !ci
                ? "pruned obsolete goldens (no trace):"
                : "obsolete goldens (no trace)" + (prune ? "; not pruned: CI is set" : "; remove them with --prune")
                    + ":")
        for o in obsolete {
            print("  \(o.name): " + o.files.map(\.lastPathComponent).joined(separator: ", "))
            if prune && !ci {
                for f in o.files {
                    do {
                        try FileManager.default.removeItem(at: f)
                    } catch {
                        throw CLI.fail("\(CLI.display(f)): cannot remove: \(error.localizedDescription)")
                    }
                }
            }
        }
    }
}
