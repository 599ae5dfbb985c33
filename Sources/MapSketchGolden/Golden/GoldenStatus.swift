package import MapSketchGeometry
import Foundation

/// The outcome of checking one case.
package enum GoldenStatus: Hashable, Sendable {
    /// Output matches the golden files byte for byte.
    case passed
    /// Output matches the golden files within the tolerance, but not byte for byte: the golden
    /// drifted (numbers differ in their last bits, or are written differently). A pass; `check`
    /// counts and lists these, and `--record drifted` rewrites them.
    case drifted(GoldenDrift)
    /// Output differs, the golden is missing or unreadable, the trace's declared expectation was
    /// not met, or (under `--strict`) a call was refused unexpectedly.
    case failed(GoldenFailure)
    /// The golden files were written. `changes` is the report of how the output differs from the
    /// golden it replaced (nil when there was none, or only the bytes changed).
    case recorded(changes: String?)
    /// Record mode ``RecordMode/all`` found the golden already up to date.
    case unchanged
    /// The trace cannot be read or set up (and does not declare that error): an input error,
    /// `file:line:column: what was expected`. Nothing is compared or recorded.
    case inputError(InputError)
}

/// How the output of a case that passed differs from its golden within the tolerance.
package struct GoldenDrift: Hashable, Sendable, CustomStringConvertible {
    /// How many numbers differ within the tolerance.
    package var numbers: Int
    /// The largest of their differences (0 when no number differs: the same values written
    /// differently, such as `2.0` for `2`).
    package var largest: Double

    /// Creates a drift.
    package init(numbers: Int, largest: Double) {
        self.numbers = numbers
        self.largest = largest
    }

    /// `3 numbers differ within the tolerance, the largest by 1.9e-09`, or, when no number
    /// differs, `the same values written differently`.
    package var description: String {
        guard numbers > 0 else { return "the same values written differently" }
        return "\(numbers) number\(numbers == 1 ? " differs" : "s differ") within the tolerance"
            + (numbers == 1 ? ", by " : ", the largest by ") + String(format: "%.2g", largest)
    }
}

/// Why a case failed, with what a report needs to show it.
package struct GoldenFailure: Hashable, Sendable, CustomStringConvertible {
    /// The readable report: the differences, or why there is nothing to compare.
    package var report: String
    /// How many numbers differ beyond the tolerance (0 when the documents were not compared).
    package var differingNumbers: Int
    /// The pictures of the mismatch, when the documents were compared.
    package var pictures: GoldenPictures?
    /// The actual event log around its first difference from the golden's (or its last
    /// entries), one entry per line.
    package var logExcerpt: String?

    /// A failure with a report only.
    package init(report: String, differingNumbers: Int = 0, pictures: GoldenPictures? = nil, logExcerpt: String? = nil) {
        self.report = report
        self.differingNumbers = differingNumbers
        self.pictures = pictures
        self.logExcerpt = logExcerpt
    }

    /// The report.
    package var description: String { report }
}

/// The three pictures of a golden mismatch, as SVG documents of the same size and frame.
package struct GoldenPictures: Hashable, Sendable {
    /// The expected sketch geometry alone.
    package var expected: String
    /// The actual sketch geometry alone.
    package var actual: String
    /// Both, with every changed vertex marked (`NAME.diff.svg`).
    package var overlay: String

    /// Creates the pictures.
    package init(expected: String, actual: String, overlay: String) {
        self.expected = expected
        self.actual = actual
        self.overlay = overlay
    }
}

/// One checked case.
package struct GoldenResult: Hashable, Sendable {
    /// The case.
    package var goldenCase: GoldenCase
    /// Its outcome.
    package var status: GoldenStatus
    /// Seconds spent replaying and comparing.
    package var seconds: Double
    /// Warnings that did not fail the case: refused calls the trace does not declare (each
    /// `file:line: …`). Under `--strict` they fail it instead.
    package var warnings: [String]

    /// Creates a result.
    package init(goldenCase: GoldenCase, status: GoldenStatus, seconds: Double, warnings: [String] = []) {
        self.goldenCase = goldenCase
        self.status = status
        self.seconds = seconds
        self.warnings = warnings
    }

    /// Whether the case failed.
    package var failed: Bool { if case .failed = status { true } else { false } }

    /// Whether the trace is an input error.
    package var isInputError: Bool { if case .inputError = status { true } else { false } }

    /// Whether golden files were written.
    package var recorded: Bool { if case .recorded = status { true } else { false } }

    /// How the output drifted from a golden it matches within the tolerance; nil unless the case
    /// passed that way.
    package var drift: GoldenDrift? { if case .drifted(let d) = status { d } else { nil } }
}
