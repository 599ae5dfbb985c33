import MapSketch

/// JUnit XML for CI systems: one `<testcase>` per trace — a `<failure>` holding the diff of a
/// failed case, an `<error>` holding the input error of a trace that cannot be read, a
/// `<system-err>` holding the warnings (refused calls) of a passing one, a `<system-out>` saying
/// how a case that passed within the tolerance drifted from its golden. The suite's `drifted`
/// property counts those.
public enum JUnitReport {
    /// The XML text (deterministic apart from the durations it reports).
    /// - Complexity: O(n) in the number of results and the size of their reports.
    public static func xml(suite: String, results: [GoldenResult]) -> String {
        let failures = results.filter(\.failed).count
        let errors = results.filter(\.isInputError).count
        let drifted = results.filter { $0.drift != nil }.count
        let total = results.reduce(0) { $0 + $1.seconds }
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        s +=
            "<testsuites tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(seconds(total))\">\n"
        s +=
            "  <testsuite name=\"\(XMLEscaping.escape(suite))\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\" time=\"\(seconds(total))\">\n"
        s += "    <properties>\n      <property name=\"drifted\" value=\"\(drifted)\"/>\n    </properties>\n"
        for r in results {
            let name = r.goldenCase.name
            let folder = name.split(separator: "/").dropLast().joined(separator: ".")
            let leaf = name.split(separator: "/").last.map(String.init) ?? name
            s +=
                "    <testcase classname=\"\(XMLEscaping.escape(folder.isEmpty ? suite : "\(suite).\(folder)"))\" name=\"\(XMLEscaping.escape(leaf))\" time=\"\(seconds(r.seconds))\""
            var body = ""
            switch r.status {
            case .failed(let failure):
                let first = failure.report.split(separator: "\n").first.map(String.init) ?? "golden mismatch"
                body +=
                    "      <failure message=\"\(XMLEscaping.escape(first))\" type=\"GoldenMismatch\">\(XMLEscaping.escape(failure.report))</failure>\n"
            case .inputError(let e):
                body +=
                    "      <error message=\"\(XMLEscaping.escape(e.description))\" type=\"InputError\">\(XMLEscaping.escape(e.description))</error>\n"
            case .drifted(let drift):
                body +=
                    "      <system-out>passed within the tolerance, not byte for byte: \(XMLEscaping.escape(drift.description))</system-out>\n"
            case .passed, .recorded, .unchanged: break
            }
            if !r.warnings.isEmpty {
                body += "      <system-err>\(XMLEscaping.escape(r.warnings.joined(separator: "\n")))</system-err>\n"
            }
            s += body.isEmpty ? "/>\n" : ">\n" + body + "    </testcase>\n"
        }
        s += "  </testsuite>\n</testsuites>\n"
        return s
    }

    static func seconds(_ d: Double) -> String {
        let ms = Int((d * 1000).rounded())
        let frac = ms % 1000
        return "\(ms / 1000)." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)"
    }
}
