package import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReplay

/// What a shrunk trace must still show (`mapsketch shrink --until OUTCOME`).
package enum ShrinkOutcome: Hashable, Sendable, CustomStringConvertible {
    /// The trace fails its golden check the same way: its replay differs from the golden
    /// (`NAME.expected.json` beside the original) at the same place with the same actual value
    /// (see <doc:RecordViewShrink>).
    case failing
    /// The trace cannot be read or set up, with the same message (its line and column may move).
    case error
    /// The model refuses a call of the same name with the same message (numbers aside).
    case refused
    /// `mapsketch replay` of the trace, in a child process, dies of a signal.
    case crash
    /// The shell command exits non-zero; it gets the candidate trace's path as `$1` and in
    /// `MAPSKETCH_TRACE`.
    case exit(command: String)

    /// Parses `failing`, `error`, `refused`, `crash` or `exit:COMMAND`.
    package init?(argument: String) {
        switch argument {
        case "failing": self = .failing
        case "error": self = .error
        case "refused": self = .refused
        case "crash": self = .crash
        default:
            guard argument.hasPrefix("exit:"), argument.count > 5 else { return nil }
            self = .exit(command: String(argument.dropFirst(5)))
        }
    }

    package var description: String {
        switch self {
        case .failing: "failing"
        case .error: "error"
        case .refused: "refused"
        case .crash: "crash"
        case .exit(let c): "exit:\(c)"
        }
    }
}

/// A trace that cannot be shrunk: it cannot be read, or it does not show the outcome to begin with.
package struct ShrinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file.
    package var description: String
    /// Creates an error.
    package init(_ d: String) { description = d }
}

/// Shrinks a trace file until an outcome (`mapsketch shrink`): reads it, checks that it shows the
/// outcome, reduces it with `TraceShrinker` (or line by line when the outcome is an error the
/// file's text causes before it is a trace) and returns the smallest trace's text.
///
/// The in-process outcomes (`failing`, `error`, `refused`) replay each candidate in this process;
/// `crash` and `exit:` run a child process per candidate, with the candidate written to a
/// temporary folder that is removed at the end.
@MainActor
package struct TraceShrink {
    /// What a shrink produced.
    package struct Result: Sendable {
        /// The smallest trace found, as its file's text.
        package var text: String
        /// `12 events, 1 layer, …` before and after.
        package var before: String
        /// The same for the result.
        package var after: String
        /// How many candidates were tested.
        package var tests: Int
    }

    /// The original trace file.
    package var file: URL
    /// Its name in messages.
    package var displayName: String
    /// What the result must still show.
    package var outcome: ShrinkOutcome
    /// The `mapsketch` executable that `crash` runs `replay` with.
    package var executable: URL?
    /// The most seconds one child process may run (`crash`, `exit:`); one that runs longer is
    /// stopped and counts as not showing the outcome.
    package var timeout: Double = 60

    /// A shrink of `file` until `outcome`.
    package init(file: URL, displayName: String, outcome: ShrinkOutcome, executable: URL? = nil) {
        self.file = file
        self.displayName = displayName
        self.outcome = outcome
        self.executable = executable
    }

    /// Runs the shrink; `progress` gets one line per round and reduction.
    /// - Throws: `ShrinkError` when the file cannot be read or does not show the outcome.
    package func run(progress: (String) -> Void = { _ in }) throws(ShrinkError) -> Result {
        let text: String
        do {
            text = try Replayer.text(of: file, displayName: displayName)
        } catch {
            throw ShrinkError(error.description)
        }
        let name = String(file.lastPathComponent.replacingOccurrences(of: GoldenCorpus.traceSuffix, with: ""))
        let trace: Trace
        do {
            trace = try TraceDecoder.decode(text, file: displayName)
        } catch {
            guard outcome == .error else {
                throw ShrinkError("\(error.description)\n(the trace cannot be read: shrink it with --until error)")
            }
            return try shrinkLines(text, error: error, progress: progress)
        }
        let test = try predicate(for: trace, name: name)
        guard test(trace) else {
            throw ShrinkError("\(displayName): the trace (as re-encoded) does not show the outcome \(outcome)")
        }
        var shrinker = TraceShrinker(trace: trace)
        progress("shrinking \(displayName) until \(outcome): \(shrinker.describe(trace))")
        let small = shrinker.run(progress: progress, test: test)
        return Result(
            text: TraceEncoder.encode(small), before: shrinker.describe(trace), after: shrinker.describe(small), tests: shrinker.tests + 1)
    }

    /// The test a candidate must pass, after checking what the original shows.
    private func predicate(for trace: Trace, name: String) throws(ShrinkError) -> (Trace) -> Bool {
        switch outcome {
        case .error:
            guard let message = Self.setupError(trace, name: name) else {
                throw ShrinkError("\(displayName): the trace reads and sets up: it shows no error (--until error)")
            }
            return { Self.setupError($0, name: name) == message }
        case .refused:
            guard let target = Self.refusals(trace, name: name).first(where: { !trace.header.expect.refusedCalls.contains($0.line) })
                ?? Self.refusals(trace, name: name).first
            else {
                throw ShrinkError("\(displayName): the model refuses no call of this trace (--until refused)")
            }
            let key = Self.refusalKey(target)
            return { Self.refusals($0, name: name).contains { Self.refusalKey($0) == key } }
        case .failing:
            let failure = try GoldenFailureSignature(trace: trace, name: name, file: file, displayName: displayName)
            return { failure.matches(Self.document($0, name: name)) }
        case .crash:
            guard let executable else { throw ShrinkError("--until crash needs the mapsketch executable") }
            let runner = try ShrinkProcess(timeout: timeout)
            return { runner.crashes(executable: executable, text: TraceEncoder.encode($0)) }
        case .exit(let command):
            let runner = try ShrinkProcess(timeout: timeout)
            return { runner.fails(command: command, text: TraceEncoder.encode($0)) }
        }
    }

    /// The message of the error setting the trace up fails with, without its location; nil when
    /// it sets up.
    static func setupError(_ trace: Trace, name: String) -> String? {
        do {
            _ = try ReplaySession(trace: trace, name: name)
            return nil
        } catch {
            return error.message
        }
    }

    /// Every call the model refuses replaying `trace` (declared or not), in order.
    static func refusals(_ trace: Trace, name: String) -> [RefusedEvent] {
        var t = trace
        t.header.expect.refusedCalls = []
        guard let session = try? ReplaySession(trace: t, name: name) else { return [] }
        session.run()
        return session.refusals.unexpected
    }

    /// A refusal's call and message with every run of digits as `#` (an index or a count may
    /// change as the trace shrinks; what was refused and why may not).
    static func refusalKey(_ r: RefusedEvent) -> String {
        var s = r.call + ": "
        var inDigits = false
        for c in r.message {
            if c.isASCII, c.isNumber {
                if !inDigits { s.append("#") }
                inDigits = true
            } else {
                s.append(c)
                inDigits = false
            }
        }
        return s
    }

    /// The output document of replaying `trace` to its end; nil when it cannot be set up.
    static func document(_ trace: Trace, name: String) -> JSONValue? {
        guard let session = try? ReplaySession(trace: trace, name: name) else { return nil }
        session.run()
        return session.output().document
    }

    /// Shrinks the text's lines after the first (the header stays) while decoding fails with the
    /// same message.
    private func shrinkLines(_ text: String, error: TraceError, progress: (String) -> Void) throws(ShrinkError) -> Result {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let header = lines.first ?? ""
        let rest = Array(lines.dropFirst())
        let file = displayName
        func message(_ kept: [Int]) -> String? {
            let candidate = ([header] + kept.map { rest[$0] }).joined(separator: "\n") + "\n"
            do {
                _ = try TraceDecoder.decode(candidate, file: file)
                return nil
            } catch {
                return error.message
            }
        }
        progress("shrinking \(displayName) until error (\(error.message)): \(lines.count) lines, the header kept")
        var dd = DeltaDebugging()
        let kept = dd.minimize(count: rest.count, reduced: { left in progress("  lines: \(left + 1) of \(lines.count) left") }) {
            message($0) == error.message
        }
        let out = ([header] + kept.map { rest[$0] }).joined(separator: "\n") + "\n"
        return Result(text: out, before: "\(lines.count) lines", after: "\(kept.count + 1) lines", tests: dd.tests)
    }
}
