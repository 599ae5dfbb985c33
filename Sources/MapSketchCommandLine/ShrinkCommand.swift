import ArgumentParser
import Foundation
import MapSketchReplay
import MapSketchGolden


struct ShrinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shrink",
        abstract: "Reduce a trace to a minimal one that still shows an outcome.",
        discussion: """
            Delta debugging over the trace's events (a finger's began…ended goes or stays whole; calls and GPS fixes \
            one by one), then the header's graphics layers, their graphics and the sketch's initial vertices, until \
            nothing more can go. Outcomes: failing (the replay differs from the golden beside the trace at the same \
            place with the same value), error (the same read or set-up error), refused (a call refused with the same \
            message), crash (`mapsketch replay` of the candidate dies of a signal, in a child process), \
            exit:"COMMAND" (the shell command exits non-zero; the candidate's path is $1 and $MAPSKETCH_TRACE). \
            Deterministic; progress goes to standard error.
            """)

    @Argument(help: "The trace to shrink.")
    var trace: String

    @Option(help: ArgumentHelp("What the result must still show: failing, error, refused, crash or exit:\"COMMAND\".", valueName: "outcome"))
    var until: ShrinkOutcome

    @Option(name: .shortAndLong, help: "The minimal trace to write (default: stdout).")
    var output: String?

    @Option(help: "Seconds one child process may run (crash, exit:) before it is stopped and counts as not showing the outcome.")
    var timeout: Double = 60

    func validate() throws {
        try NumericOption.check(timeout, "timeout", 0.1...86_400, unit: "seconds")
    }

    @MainActor
    mutating func run() async throws {
        let url = URL(fileURLWithPath: trace)
        var job = TraceShrink(file: url, displayName: CLI.display(url), outcome: until, executable: CLI.executable)
        job.timeout = timeout
        let start = ContinuousClock.now
        let result: TraceShrink.Result
        do {
            result = try job.run { CLI.printError("shrink: " + $0) }
        } catch {
            throw CLI.fail(error.description)
        }
        try CLI.emit(result.text, to: output)
        CLI.printError(
            "shrink: \(result.before) → \(result.after) in \(result.tests) tests, \(CLI.milliseconds(ContinuousClock.now - start)) ms\(output.map { "; wrote \($0)" } ?? "")")
    }
}

extension CLI {
    /// This executable (for the child processes that replay a candidate).
    static var executable: URL {
        Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    }
}
