import MapSketch
import MapSketchReplay

/// JUnit XML for CI systems: one `<testcase>` per trace — a `<failure>` holding the diff of a
/// failed case, an `<error>` holding the input error of a trace that cannot be read, a
/// `<system-err>` holding the warnings (refused calls) of a passing one, a `<system-out>` saying
/// how a case that passed within the tolerance drifted from its golden. The suite's `drifted`
/// property counts those.
package enum JUnitReport {
    /// The XML text (deterministic apart from the durations it reports).
    /// - Complexity: O(n) in the number of results and the size of their reports.
    package static func xml(suite: String, results: [GoldenResult]) -> String {
        let drifted = results.filter { $0.drift != nil }.count
        var doc = JUnitDocument(suite: suite, properties: [("drifted", "\(drifted)")], time: results.reduce(0) { $0 + $1.seconds })
        for r in results {
            let name = r.goldenCase.name
            let folder = name.split(separator: "/").dropLast().joined(separator: ".")
            let leaf = name.split(separator: "/").last.map(String.init) ?? name
            var c = JUnitDocument.TestCase(classname: folder.isEmpty ? suite : "\(suite).\(folder)", name: leaf, time: r.seconds)
            switch r.status {
            case .failed(let failure):
                let first = failure.report.split(separator: "\n").first.map(String.init) ?? "golden mismatch"
                c.outcome = .failure(message: first, type: "GoldenMismatch", text: failure.report)
            case .inputError(let e):
                c.outcome = .error(message: e.description, type: "InputError", text: e.description)
            case .drifted(let drift):
                c.systemOut = "passed within the tolerance, not byte for byte: \(drift.description)"
            case .passed, .recorded, .unchanged: break
            }
            if !r.warnings.isEmpty { c.systemErr = r.warnings.joined(separator: "\n") }
            doc.cases.append(c)
        }
        return doc.xml
    }
}
