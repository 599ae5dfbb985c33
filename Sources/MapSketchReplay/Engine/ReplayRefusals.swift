/// An event of a trace the model refused — a call with an index out of range, an unknown layer, a
/// geometry of the wrong type, a GPS fix it cannot project. The replay logs it as an `error`
/// event and goes on.
package struct RefusedEvent: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based trace line (0 when the trace was built in code).
    package var line: Int
    /// The call's name (its `type` in the trace), or `gps` for a fix.
    package var call: String
    /// Why the model refused it.
    package var message: String

    /// Creates a refused event.
    package init(line: Int, call: String, message: String) {
        self.line = line
        self.call = call
        self.message = message
    }

    /// `line N: CALL refused: message`.
    package var description: String { "line \(line): \(call) refused: \(message)" }
}

/// The refused events of a replay, checked against the lines the trace declares in
/// `expect.refusedCalls`: what `replay` and `check` report, and what `--strict` fails on.
///
/// Memory is bounded: the first ``keptLimit`` unexpected refusals are kept, the rest counted.
package struct ReplayRefusals: Hashable, Sendable {
    /// How many unexpected refusals are kept with their message.
    package static let keptLimit = 100

    /// Refused events on lines the trace does not declare, in order (the first ``keptLimit``).
    package private(set) var unexpected: [RefusedEvent] = []
    /// How many refused events were not declared (may exceed `unexpected.count`).
    package private(set) var unexpectedCount = 0
    /// Declared lines whose call was refused, as declared.
    package private(set) var expectedRefused: Set<Int> = []
    /// The lines the trace declares (`expect.refusedCalls`).
    package let declared: Set<Int>

    /// Refusals checked against the declared lines.
    package init(declared: [Int]) { self.declared = Set(declared) }

    /// Notes a refused event.
    mutating func note(_ e: RefusedEvent) {
        if declared.contains(e.line) {
            expectedRefused.insert(e.line)
            return
        }
        unexpectedCount += 1
        if unexpected.count < Self.keptLimit { unexpected.append(e) }
    }

    /// Declared lines whose call the model applied instead of refusing, ascending.
    package var applied: [Int] { declared.subtracting(expectedRefused).sorted() }

    /// Whether every refusal was declared and every declared line was refused.
    package var asDeclared: Bool { unexpectedCount == 0 && applied.isEmpty }

    /// One line per surprise, each starting with `file:LINE: ` — unexpected refusals (after the
    /// first ``keptLimit``, a count), then declared lines that were not refused.
    package func messages(file: String) -> [String] {
        var out = unexpected.map { "\(file):\($0.line): \($0.call) refused: \($0.message)" }
        if unexpectedCount > unexpected.count {
            out.append("\(file): … and \(unexpectedCount - unexpected.count) more refused events")
        }
        for line in applied {
            out.append(
                "\(file):\(line): expected the model to refuse this call (expect.refusedCalls), but it was applied")
        }
        return out
    }
}
