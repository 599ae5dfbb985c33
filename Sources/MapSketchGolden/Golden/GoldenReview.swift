import Foundation
import MapSketchGeometry
import MapSketchReplay

/// Reviews pending outputs one by one, as `cargo insta review` does: for each case, shows how its
/// pending `NAME.actual.json` differs from its golden and asks whether to accept it (it becomes
/// the golden, atomically), reject it (it is removed), skip it (it stays pending) or quit.
///
/// A stale pending output — its trace changed since `check` wrote it (`PendingOrigin`) — is
/// shown as stale and cannot be accepted: the answer `a` is refused and asked again.
///
/// Input and output are injected so the dialogue runs the same on a terminal and in a test.
///
/// ```swift
/// var review = GoldenReview(cases: pending, read: { readLine() }, write: { print($0, terminator: "") })
/// let summary = review.run()
/// ```
package struct GoldenReview {
    /// What the reviewer answered for one case.
    package enum Choice: String, Hashable, Sendable {
        /// Make the pending output the golden.
        case accept
        /// Remove the pending output.
        case reject
        /// Leave it pending.
        case skip
        /// Stop reviewing (the rest stay pending).
        case quit

        /// The choice an answer means: `a`/`accept`, `r`/`reject`, `s`/`skip` or an empty line,
        /// `q`/`quit`; nil for anything else.
        package init?(answer: String) {
            switch answer.trimmingCharacters(in: .whitespaces).lowercased() {
            case "a", "accept", "y", "yes": self = .accept
            case "r", "reject": self = .reject
            case "s", "skip", "", "n", "no": self = .skip
            case "q", "quit": self = .quit
            default: return nil
            }
        }
    }

    /// How a review ended.
    package struct Summary: Hashable, Sendable {
        /// Cases whose pending output became the golden.
        package var accepted: [String] = []
        /// Cases whose pending output was removed.
        package var rejected: [String] = []
        /// Cases left pending (skipped, or not reached before quitting).
        package var skipped: [String] = []
        /// Accepts that failed, with why.
        package var errors: [String] = []
    }

    /// The cases to review, in order.
    package var cases: [GoldenCase]
    /// Reads one answer; nil at the end of the input (which quits).
    package var read: () -> String?
    /// Writes text (no newline added).
    package var write: (String) -> Void

    /// A review of `cases`.
    package init(cases: [GoldenCase], read: @escaping () -> String?, write: @escaping (String) -> Void) {
        self.cases = cases
        self.read = read
        self.write = write
    }

    /// Runs the dialogue over every case that still has a pending output.
    /// - Complexity: O(n) in the size of the documents reviewed.
    package mutating func run() -> Summary {
        var summary = Summary()
        let pending = cases.filter { FileManager.default.fileExists(atPath: $0.actual.path) }
        for (i, c) in pending.enumerated() {
            write("\n[\(i + 1)/\(pending.count)] \(c.displayPath)\n")
            let stale = PendingOrigin.staleness(of: c)
            if let stale { write("  \(stale)\n") }
            write(Self.describe(c))
            var choice: Choice?
            while choice == nil {
                write(
                    stale == nil
                        ? "accept this output as the golden? [a]ccept, [r]eject, [s]kip, [q]uit: "
                        : "this output is stale: [r]eject, [s]kip, [q]uit: ")
                guard let answer = read() else {
                    choice = .quit
                    write("\n")
                    break
                }
                choice = Choice(answer: answer)
                if choice == nil {
                    write(stale == nil ? "please answer a, r, s or q\n" : "please answer r, s or q\n")
                } else if choice == .accept, stale != nil {
                    write("a stale output cannot be accepted: run check again, then accept\n")
                    choice = nil
                }
            }
            switch choice ?? .quit {
            case .accept:
                do {
                    try GoldenAcceptance.accept(c)
                    summary.accepted.append(c.name)
                    write("accepted \(c.name)\n")
                } catch {
                    summary.errors.append("\(error)")
                    write("could not accept: \(error)\n")
                }
            case .reject:
                GoldenAcceptance.reject(c)
                summary.rejected.append(c.name)
                write("rejected \(c.name) (pending output removed)\n")
            case .skip:
                summary.skipped.append(c.name)
            case .quit:
                summary.skipped += pending[i...].map(\.name)
                return summary
            }
        }
        return summary
    }

    /// How the pending output of `c` differs from its golden (with the trace's tolerance), or
    /// that it would be a new golden.
    static func describe(_ c: GoldenCase) -> String {
        guard let actualText = try? String(contentsOf: c.actual, encoding: .utf8),
            let actual = try? JSONParser.parse(actualText)
        else {
            return "  the pending output is not JSON; it cannot be accepted\n"
        }
        guard let expectedText = try? String(contentsOf: c.expected, encoding: .utf8) else {
            let lines = actualText.split(separator: "\n", omittingEmptySubsequences: false)
            var s = "  new golden (no \(c.expected.lastPathComponent) yet), \(lines.count) lines:\n"
            for l in lines.prefix(30) { s += "    " + l + "\n" }
            if lines.count > 30 { s += "    … \(lines.count - 30) more lines\n" }
            return s
        }
        guard let expected = try? JSONParser.parse(expectedText) else {
            return "  the golden is not JSON; the pending output would replace it\n"
        }
        let traceText = (try? String(contentsOf: c.trace, encoding: .utf8)) ?? ""
        let tolerance = TraceExpectation.declared(inTraceText: Substring(traceText))?.tolerance ?? .standard
        let comparison = GoldenComparison.compare(expected: expected, actual: actual, tolerance: tolerance)
        if comparison.matches { return "  same as the golden within the tolerance \(tolerance)\n" }
        var s = GoldenComparison.report(
            file: c.expected.lastPathComponent, comparison.differences, total: comparison.total)
        if FileManager.default.fileExists(atPath: c.diffSVG.path) {
            s += "  picture: \(InputFile.displayPath(c.diffSVG))\n"
        }
        return s
    }
}
