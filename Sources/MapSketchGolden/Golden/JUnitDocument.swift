import MapSketch
import MapSketchReplay

/// The one JUnit XML writer: `mapsketch check`'s report (a test case per trace) and
/// `mapsketch bench`'s (a test case per compared figure) are both made of these cases.
package struct JUnitDocument {
    /// What became of a test case.
    package enum Outcome {
        case passed
        /// A `<failure>`: what a check found wrong.
        case failure(message: String, type: String, text: String)
        /// An `<error>`: what kept the case from running.
        case error(message: String, type: String, text: String)
        /// A `<skipped>` case, saying why.
        case skipped(message: String)
    }

    /// One `<testcase>`.
    package struct TestCase {
        package var classname: String
        package var name: String
        /// Seconds, when the case has a duration.
        package var time: Double?
        package var outcome: Outcome = .passed
        /// `<system-out>` and `<system-err>` text, when there is some.
        package var systemOut: String?
        package var systemErr: String?

        package init(
            classname: String, name: String, time: Double? = nil, outcome: Outcome = .passed, systemOut: String? = nil,
            systemErr: String? = nil
        ) {
            self.classname = classname
            self.name = name
            self.time = time
            self.outcome = outcome
            self.systemOut = systemOut
            self.systemErr = systemErr
        }
    }

    package var suite: String
    package var properties: [(name: String, value: String)] = []
    package var cases: [TestCase] = []
    /// The suite's duration in seconds, when it has one.
    package var time: Double?
    /// Decimal places of the durations.
    package var timePlaces = 3

    package init(suite: String, properties: [(name: String, value: String)] = [], time: Double? = nil, timePlaces: Int = 3) {
        self.suite = suite
        self.properties = properties
        self.time = time
        self.timePlaces = timePlaces
    }

    /// The XML text: deterministic for the same cases.
    /// - Complexity: O(n) in the size of the cases' text.
    package var xml: String {
        var failures = 0, errors = 0, skipped = 0
        for c in cases {
            switch c.outcome {
            case .failure: failures += 1
            case .error: errors += 1
            case .skipped: skipped += 1
            case .passed: break
            }
        }
        let e = XMLEscaping.escape
        let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\"" + (time.map { " time=\"\(seconds($0))\"" } ?? "")
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        s += "<testsuites \(counts)>\n"
        s += "  <testsuite name=\"\(e(suite))\" \(counts)>\n"
        if !properties.isEmpty {
            s += "    <properties>\n"
            for p in properties { s += "      <property name=\"\(e(p.name))\" value=\"\(e(p.value))\"/>\n" }
            s += "    </properties>\n"
        }
        for c in cases {
            s += "    <testcase classname=\"\(e(c.classname))\" name=\"\(e(c.name))\"" + (c.time.map { " time=\"\(seconds($0))\"" } ?? "")
            var body = ""
            switch c.outcome {
            case .passed: break
            case .failure(let message, let type, let text): body += "      <failure message=\"\(e(message))\" type=\"\(e(type))\">\(e(text))</failure>\n"
            case .error(let message, let type, let text): body += "      <error message=\"\(e(message))\" type=\"\(e(type))\">\(e(text))</error>\n"
            case .skipped(let message): body += "      <skipped message=\"\(e(message))\"/>\n"
            }
            if let out = c.systemOut { body += "      <system-out>\(e(out))</system-out>\n" }
            if let err = c.systemErr { body += "      <system-err>\(e(err))</system-err>\n" }
            s += body.isEmpty ? "/>\n" : ">\n" + body + "    </testcase>\n"
        }
        s += "  </testsuite>\n</testsuites>\n"
        return s
    }

    /// Seconds with `timePlaces` decimals, without a locale or floating-point formatting.
    func seconds(_ d: Double) -> String {
        var scale = 1
        for _ in 0..<timePlaces { scale *= 10 }
        let units = Int((Swift.max(0, d) * Double(scale)).rounded())
        let frac = String(units % scale)
        return "\(units / scale)" + (timePlaces > 0 ? "." + String(repeating: "0", count: timePlaces - frac.count) + frac : "")
    }
}
