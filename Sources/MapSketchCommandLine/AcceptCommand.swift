import ArgumentParser
import Foundation
import MapSketchReplay
import MapSketchGolden

/// `mapsketch accept`: pending outputs become goldens, named or reviewed one by one.
struct AcceptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept",
        abstract: "Make pending outputs (NAME.actual.json, left by check) the golden files, one by one.",
        discussion: """
            Each NAME is a trace file, one of its golden or pending files, or its name as check prints it \
            (looked up under --root). Every name is resolved before anything is written; each golden is then \
            replaced by one atomic rename (NAME.actual.json → NAME.expected.json, NAME.actual.svg → \
            NAME.expected.svg) and NAME.diff.svg is removed.

            A pending output whose trace changed since check wrote it is stale and never accepted (its \
            NAME.actual.origin.json records the digest of the trace it came from): run check again.

            Without a name, on a terminal, every pending output under --root is shown with its differences and \
            you answer a (accept), r (reject: remove the pending output), s (skip) or q (quit). Without a \
            terminal, give trace names or --all.
            """)

    @Argument(help: "Traces whose pending output to accept.")
    var names: [String] = []

    @Option(help: ArgumentHelp("The folder names are looked up in and reviewed.", valueName: "folder"))
    var root = "Traces"

    @Flag(help: "Accept every pending output under --root without asking.")
    var all = false

    func validate() throws {
        if all && !names.isEmpty { throw ValidationError("give names or --all, not both") }
    }

    mutating func run() async throws {
        if !names.isEmpty {
            var cases: [GoldenCase] = []
            var problems: [String] = []
            for name in names {
                do {
                    let c = try GoldenCase.named(name, root: root)
                    if !FileManager.default.fileExists(atPath: c.actual.path) {
                        problems.append(
                            "\(name): no pending output (\(CLI.display(c.actual)) does not exist): check writes one when the output differs or the golden is missing"
                        )
                    } else if let stale = PendingOrigin.staleness(of: c) {
                        problems.append("\(name): \(stale)")
                    } else {
                        cases.append(c)
                    }
                } catch {
                    problems.append(error.description)
                }
            }
            guard problems.isEmpty else {
                for p in problems { CLI.printError("mapsketch: \(p)") }
                throw CLI.fail("nothing accepted")
            }
            try accept(cases)
            return
        }
        let interactive = isatty(0) == 1 && isatty(1) == 1
        let pending: [GoldenCase]
        do {
            pending = try TraceSelection(paths: [root]).pendingCases()
        } catch {
            guard all || interactive else {
                throw CLI.fail(
                    "give trace names or --all (the one-by-one review needs a terminal); no pending outputs to list: \(error.description)"
                )
            }
            throw CLI.fail("\(error.description) (--root names the folder of traces to look in)")
        }
        if pending.isEmpty {
            print("no pending output under \(root)")
            return
        }
        if all {
            let stale = pending.compactMap { c in PendingOrigin.staleness(of: c).map { "\(c.displayPath): \($0)" } }
            guard stale.isEmpty else {
                for s in stale { CLI.printError("mapsketch: \(s)") }
                throw CLI.fail("nothing accepted")
            }
            try accept(pending)
            return
        }
        guard interactive else {
            CLI.printError("pending outputs under \(root):")
            for c in pending { CLI.printError("  \(c.displayPath)") }
            throw CLI.fail("give trace names or --all (the one-by-one review needs a terminal)")
        }
        var review = GoldenReview(
            cases: pending, read: { readLine(strippingNewline: true) },
            write: { text in FileHandle.standardOutput.write(Data(text.utf8)) })
        let summary = review.run()
        print(
            "\(summary.accepted.count) accepted, \(summary.rejected.count) rejected, \(summary.skipped.count) left pending"
        )
        if !summary.errors.isEmpty { throw ExitCode(2) }
    }

    private func accept(_ cases: [GoldenCase]) throws(ExitCode) {
        for c in cases {
            do {
                let written = try GoldenAcceptance.accept(c)
                print("accepted \(c.displayPath): " + written.map { CLI.display($0) }.joined(separator: ", "))
            } catch {
                throw CLI.fail(error.description)
            }
        }
    }
}
