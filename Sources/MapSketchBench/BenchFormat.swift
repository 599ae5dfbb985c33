import MapSketchReplay
import MapSketch
import MapSketchGeometry
import MapSketchGolden

/// The outputs of a bench: a terminal table, Bencher's BMF, github-action-benchmark's
/// `customSmallerIsBetter`, Markdown for a pull request and JUnit XML. All are deterministic
/// functions of the report (and the comparison, when there is a baseline).
public enum BenchFormat {
    // MARK: Terminal table

    /// A table per trace: a summary line, then one row per operation kind (count, p50, p90, p99,
    /// max, throughput, allocations and bytes per operation, instructions per operation).
    /// - Complexity: O(t · k) for t traces and k kinds.
    public static func table(_ report: BenchReport) -> String {
        var s = ""
        let showAlloc = report.counters.allocations
        let showInstr = report.counters.instructions
        for t in report.traces {
            var line = "\(t.name): \(grouped(t.events)) events, \(rate(t.eventsPerSecond)) events/s, replay \(duration(t.total))"
            line += " (median of \(t.totalNanoseconds.count) run\(t.totalNanoseconds.count == 1 ? "" : "s")), set-up \(duration(median(t.setupNanoseconds) ?? 0))"
            if let a = t.allocations?.max() { line += ", \(grouped(Int(clamping: a))) allocations" }
            if let i = t.instructions.flatMap({ median($0) }) { line += ", \(grouped(Int(clamping: i))) instructions" }
            var shares: [String] = []
            if let f = t.attributedTimeFraction { shares.append("\(percent(f)) of the time") }
            if let f = t.attributedInstructionFraction { shares.append("\(percent(f)) of the instructions") }
            if !shares.isEmpty { line += "; kinds hold " + shares.joined(separator: " and ") }
            s += line + "\n"
            guard !t.kinds.isEmpty || !t.attributed.isEmpty else { continue }
            var header = pad("  kind", 30) + lpad("count", 9) + lpad("p50", 10) + lpad("p90", 10) + lpad("p99", 10) + lpad("max", 10) + lpad("ops/s", 10)
            if showAlloc { header += lpad("allocs/op", 11) + lpad("bytes/op", 10) }
            if showInstr { header += lpad("instr/op", 11) }
            s += header + "\n"
            for k in t.kinds {
                var row = pad("  " + k.kind.name, 30) + lpad(grouped(k.count), 9)
                if k.isBelowResolution(of: report.clock) {
                    let below = "< " + duration(report.clock.resolution)
                    row += lpad(below, 10) + lpad(below, 10) + lpad(duration(k.p99), 10)
                } else {
                    row += lpad(duration(k.p50), 10) + lpad(duration(k.p90), 10) + lpad(duration(k.p99), 10)
                }
                row += lpad(duration(k.max), 10) + lpad(rate(k.throughput), 10)
                if showAlloc {
                    row += lpad(perOp(k.allocations, k.count), 11) + lpad(perOp(k.bytes, k.count), 10)
                }
                if showInstr { row += lpad(perOp(k.instructions, k.count), 11) }
                s += row + "\n"
            }
            let rest = t.unattributed
            if !rest.isEmpty {
                var row = pad("  " + BenchKind.unattributedName, 30) + lpad("-", 9)
                row += lpad("total " + duration(median(rest.map(\.nanoseconds)) ?? 0), 40) + lpad("", 10) + lpad("", 10)
                if showAlloc {
                    row += lpad(rest.compactMap(\.allocations).max().map { grouped(Int(clamping: $0)) } ?? "-", 11)
                    row += lpad(rest.compactMap(\.bytes).max().map { grouped(Int(clamping: $0)) } ?? "-", 10)
                }
                if showInstr { row += lpad(median(rest.compactMap(\.instructions)).map { grouped(Int(clamping: $0)) } ?? "-", 11) }
                s += row + "\n"
            }
        }
        for f in report.failures { s += "FAILED \(f.trace): \(f.error)\n" }
        s += "\(report.traces.count) trace\(report.traces.count == 1 ? "" : "s") benched (\(report.warmup) warm-up, \(report.runs) measured run\(report.runs == 1 ? "" : "s") each)"
        if !report.failures.isEmpty { s += ", \(report.failures.count) not measured (input errors above)" }
        if !report.expectedFailures.isEmpty {
            s += ", \(report.expectedFailures.count) expected failure\(report.expectedFailures.count == 1 ? "" : "s") not measured (expect.error)"
        }
        s += "\n"
        s += "clock: \(report.clock.source), resolution \(duration(report.clock.resolution)); \(report.build.configuration) build \(report.build.version)\n"
        if let w = report.build.warning { s += "warning: \(w)\n" }
        for u in report.counters.unavailable { s += "unavailable: \(u)\n" }
        return s
    }

    /// `0.953` as `95.3%`.
    static func percent(_ f: Double) -> String { decimal(f * 100, places: 1) + "%" }

    /// The comparison with a baseline, for the terminal: a summary line, every regression, and
    /// the traces only one side has.
    package static func comparisonSummary(_ c: BenchComparison, baselineFile: String) -> String {
        var s = "compared with \(baselineFile) (\(c.paired ? "paired runs" : "unpaired runs"), threshold \(decimal(c.threshold * 100, places: 2))%, "
        s += "false discovery rate \(decimal(c.fdr * 100, places: 2))%, metrics: \(c.metrics.map(\.rawValue).joined(separator: ", "))): "
        s += "\(c.changes.count) figures, \(c.tested) tested on wall clock"
        if c.belowResolution > 0 { s += " (\(c.belowResolution) below the clock's resolution, counters only)" }
        s += ", \(c.regressions.count) regression\(c.regressions.count == 1 ? "" : "s")\n"
        if let n = c.runsNeeded { s += "warning: \(runsWarning(c, n))\n" }
        if let d = c.drift {
            s += "unpaired: the new runs were \(driftText(d)) as a whole (the median over every figure), taken as the machine's, not the code's; every figure is judged relative to it\n"
        }
        if !c.kindShifts.isEmpty && !c.paired { s += "unpaired: \(kindsText(c))\n" }
        if let n = c.tracesNeeded { s += "warning: \(tracesWarning(c, n))\n" }
        for k in c.kindShifts where k.regressed { s += "REGRESSED KIND \(k)\n" }
        for r in c.regressions {
            s += "REGRESSION \(r)"
            if let ratio = r.ratioText { s += " \(ratio)" }
            if let p = r.pValue { s += " p=\(pText(p))" }
            s += "\n"
        }
        for t in c.newTraces { s += "new trace \(t): no baseline figures (its figures are above)\n" }
        for t in c.removedTraces { s += "removed trace \(t): in the baseline, not benched now\n" }
        for k in c.newKinds { s += "new kind \(k.trace) \(k.kind.name)\n" }
        for k in c.removedKinds { s += "removed kind \(k.trace) \(k.kind.name)\n" }
        return s
    }

    /// Why no wall-clock figure could be a regression, and the runs that would let one.
    static func runsWarning(_ c: BenchComparison, _ needed: Int) -> String {
        "with these runs no wall-clock figure can be significant among \(c.tested) tested at a false discovery rate of \(decimal(c.fdr * 100, places: 2))% (a rank test's smallest p-value depends on the runs only): use --runs \(needed) or more on both sides"
    }

    /// How an unpaired comparison judged wall clock: by kind, across traces.
    static func kindsText(_ c: BenchComparison) -> String {
        let r = c.kindShifts.filter(\.regressed).count
        return "wall clock judged a kind at a time across the traces that run it (a busier machine slows some figures and not others): \(c.kindShifts.count) kind\(c.kindShifts.count == 1 ? "" : "s") tested, \(r) slower"
    }

    /// Why no kind could regress unpaired, and the traces that would let one.
    static func tracesWarning(_ c: BenchComparison, _ needed: Int) -> String {
        "unpaired, no kind runs in enough traces to be judged on wall clock (it needs \(needed) or more at a false discovery rate of \(decimal(c.fdr * 100, places: 2))%): compare the two builds with --against, or gate the exact counters"
    }

    /// A ratio with 3 decimals; an unbounded one as `∞` or `0`.
    static func ratio(_ x: Double) -> String { x.isFinite ? decimal(x, places: 3) : (x > 0 ? "∞" : "0") }

    /// A drift as `3.1% slower` or `0.4% faster`.
    static func driftText(_ d: Double) -> String {
        d >= 1 ? decimal((d - 1) * 100, places: 1) + "% slower" : decimal((1 - d) * 100, places: 1) + "% faster"
    }

    /// A p-value for people: 4 decimals, or `< 0.0001`.
    static func pText(_ p: Double) -> String { p < 0.0001 ? "< 0.0001" : decimal(p, places: 4) }

    // MARK: Machine formats

    /// Bencher Metric Format: `{benchmark: {measure: {value, lower_value, upper_value}}}`, one
    /// benchmark per trace (`latency` = the median run's replay time, `throughput` = events/s)
    /// and per trace and kind (`trace/kind`: `latency` = p50 in ns with the runs' lowest and highest
    /// p50 as bounds, `throughput` = operations/s, and `instructions`, `allocations`, `bytes` per
    /// run when measured).
    package static func bmf(_ report: BenchReport) -> String {
        var o = JSONObject()
        for t in report.traces {
            var m: JSONObject = ["latency": bmfValue(t.total, t.totalNanoseconds), "throughput": ["value": .number(round3(t.eventsPerSecond))]]
            if let i = t.instructions.flatMap({ median($0) }) { m["instructions"] = ["value": .number(Double(i))] }
            if let a = t.allocations?.max() { m["allocations"] = ["value": .number(Double(a))] }
            if let b = t.bytes?.max() { m["bytes"] = ["value": .number(Double(b))] }
            o[t.name] = .object(m)
            for k in t.kinds {
                var km: JSONObject = ["latency": bmfValue(k.p50, k.runs.map(\.p50)), "throughput": ["value": .number(round3(k.throughput))]]
                if let i = k.instructions { km["instructions"] = ["value": .number(Double(i))] }
                if let a = k.allocations { km["allocations"] = ["value": .number(Double(a))] }
                if let b = k.bytes { km["bytes"] = ["value": .number(Double(b))] }
                o["\(t.name)/\(k.kind.name)"] = .object(km)
            }
        }
        return JSONWriter.string(.object(o), style: .pretty) + "\n"
    }

    private static func bmfValue(_ value: Double, _ runs: [Double]) -> JSONValue {
        var v: JSONObject = ["value": .number(value)]
        if let lo = runs.min(), let hi = runs.max() {
            v["lower_value"] = .number(lo)
            v["upper_value"] = .number(hi)
        }
        return .object(v)
    }

    /// github-action-benchmark's `customSmallerIsBetter`: an array of `{name, unit, value}`
    /// (plus `extra`), one entry per trace (`NAME total`, ns) and per trace, kind and figure
    /// (`NAME KIND p50` in ns, and `instructions`, `allocations` when measured).
    package static func githubActionBenchmark(_ report: BenchReport) -> String {
        var a: [JSONValue] = []
        func entry(_ name: String, _ unit: String, _ value: Double, _ extra: String? = nil) {
            var o: JSONObject = ["name": .string(name), "unit": .string(unit), "value": .number(value)]
            if let extra { o["extra"] = .string(extra) }
            a.append(.object(o))
        }
        for t in report.traces {
            entry("\(t.name) total", "ns", t.total, "\(t.events) events, \(t.totalNanoseconds.count) runs")
            if let i = t.instructions.flatMap({ median($0) }) { entry("\(t.name) instructions", "instructions", Double(i)) }
            if let al = t.allocations?.max() { entry("\(t.name) allocations", "allocations", Double(al)) }
            for k in t.kinds {
                entry("\(t.name) \(k.kind.name) p50", "ns", k.p50, "count \(k.count), p90 \(duration(k.p90)), p99 \(duration(k.p99)), max \(duration(k.max))")
                if let i = k.instructions { entry("\(t.name) \(k.kind.name) instructions", "instructions", Double(i)) }
                if let al = k.allocations { entry("\(t.name) \(k.kind.name) allocations", "allocations", Double(al)) }
            }
        }
        return JSONWriter.string(.array(a), style: .pretty) + "\n"
    }

    // MARK: Markdown

    /// Markdown for a pull-request comment or a job summary. With a comparison: a summary (how
    /// the runs were compared, how many figures were tested), a table of the regressions and the
    /// figures that moved past the threshold, the new and removed traces, the unchanged figures
    /// folded away; without: the results per trace and kind, with each trace's unattributed row.
    package static func markdown(_ report: BenchReport, comparison: BenchComparison?, baselineFile: String? = nil) -> String {
        var s = "## mapsketch bench\n\n"
        s += "\(report.traces.count) trace\(report.traces.count == 1 ? "" : "s"), \(report.runs) measured run\(report.runs == 1 ? "" : "s") each"
        if !report.failures.isEmpty { s += ", \(report.failures.count) not measured" }
        if !report.expectedFailures.isEmpty {
            s += ", \(report.expectedFailures.count) expected failure\(report.expectedFailures.count == 1 ? "" : "s") not measured"
        }
        s += "; \(report.build.configuration) build, \(report.clock.source) with a resolution of \(duration(report.clock.resolution)).\n"
        if let w = report.build.warning { s += "\n⚠️ **\(w.prefix(1).uppercased() + w.dropFirst())**.\n" }
        if let c = comparison {
            s += "Compared with `\(baselineFile ?? "baseline")` (\(c.paired ? "paired runs" : "unpaired runs"), threshold \(decimal(c.threshold * 100, places: 2))%, "
            s += "false discovery rate \(decimal(c.fdr * 100, places: 2))%, metrics: \(c.metrics.map(\.rawValue).joined(separator: ", ")); "
            s += "\(c.changes.count) figures, \(c.tested) tested on wall clock): "
            s += c.regressions.isEmpty ? "**no regression**.\n\n" : "**\(c.regressions.count) regression\(c.regressions.count == 1 ? "" : "s")**.\n\n"
            if let n = c.runsNeeded { s += "⚠️ \(runsWarning(c, n)).\n\n" }
            let threshold = c.threshold
            let moved = c.changes.filter { !$0.regressed && abs($0.change) > threshold }
            let still = c.changes.filter { !$0.regressed && abs($0.change) <= threshold }
            if let d = c.drift { s += "Unpaired: the new runs were \(driftText(d)) as a whole, taken as the machine's; every figure is judged relative to it.\n\n" }
            if !c.kindShifts.isEmpty {
                if !c.paired { s += "Unpaired: \(kindsText(c)).\n\n" }
                let slower = c.kindShifts.filter(\.regressed)
                if !slower.isEmpty {
                    let processes = slower.contains { $0.processes != nil }
                    s += "| kind | metric | slower in | median ratio [95 % CI] |" + (processes ? " over the processes [95 % CI] |" : "") + "\n"
                    s += "|---|---|---|---|" + (processes ? "---|" : "") + "\n"
                    for k in slower {
                        s += "| \(k.row) | \(k.metric.rawValue) | \(k.slower) of \(k.traces) | \(k.intervalText) |"
                        if processes {
                            s += " \(k.processes.map { "\($0.old) + \($0.new): " + BenchKindShift.interval($0.ratio, $0.ratioLow, $0.ratioHigh) } ?? "") |"
                        }
                        s += "\n"
                    }
                    s += "\n"
                }
            }
            if let n = c.tracesNeeded { s += "⚠️ \(tracesWarning(c, n)).\n\n" }
            let head = "| | trace | row | metric | baseline | current | change | ratio [95 % CI] | p |\n|---|---|---|---|---|---|---|---|---|\n"
            func row(_ ch: BenchChange, _ mark: String) -> String {
                "| \(mark) | \(cell(ch.trace)) | \(ch.row) | \(ch.metric.rawValue) | \(figure(ch.old, ch.metric)) | \(figure(ch.new, ch.metric)) | \(ch.changeText) | \(ch.ratioText ?? "") | \(ch.pValue.map(pText) ?? "") |\n"
            }
            if !c.regressions.isEmpty || !moved.isEmpty {
                s += head
                for ch in c.regressions { s += row(ch, "❌") }
                for ch in moved { s += row(ch, ch.change < 0 ? "✅" : "➖") }
                s += "\n"
            }
            if !c.newTraces.isEmpty || !c.removedTraces.isEmpty {
                s += "| | trace | |\n|---|---|---|\n"
                for t in c.newTraces {
                    let figures = report.trace(t).map { "\(duration($0.total)) replay, \($0.kinds.count) kinds" } ?? ""
                    s += "| 🆕 | \(cell(t)) | new: no baseline figures (\(figures)) |\n"
                }
                for t in c.removedTraces { s += "| 🗑️ | \(cell(t)) | removed: in the baseline, not benched now |\n" }
                s += "\n"
            }
            if !still.isEmpty {
                s += "<details><summary>\(still.count) figures within ±\(decimal(threshold * 100, places: 2))%</summary>\n\n" + head
                for ch in still { s += row(ch, "") }
                s += "\n</details>\n"
            }
        } else {
            s += "\n| trace | kind | count | p50 | p90 | p99 | allocations | instructions |\n|---|---|---|---|---|---|---|---|\n"
            for t in report.traces {
                s += "| \(cell(t.name)) | total (\(t.events) events) | 1 | \(duration(t.total)) | | | \(t.allocations?.max().map { grouped(Int(clamping: $0)) } ?? "") | \(t.instructions.flatMap { median($0) }.map { grouped(Int(clamping: $0)) } ?? "") |\n"
                for k in t.kinds {
                    s += "| \(cell(t.name)) | \(k.kind.name) | \(k.count) | \(duration(k.p50)) | \(duration(k.p90)) | \(duration(k.p99)) | \(k.allocations.map { grouped(Int(clamping: $0)) } ?? "") | \(k.instructions.map { grouped(Int(clamping: $0)) } ?? "") |\n"
                }
                let rest = t.unattributed
                if !rest.isEmpty {
                    s += "| \(cell(t.name)) | \(BenchKind.unattributedName) | | \(duration(median(rest.map(\.nanoseconds)) ?? 0)) | | | \(rest.compactMap(\.allocations).max().map { grouped(Int(clamping: $0)) } ?? "") | \(median(rest.compactMap(\.instructions)).map { grouped(Int(clamping: $0)) } ?? "") |\n"
                }
            }
        }
        if !report.failures.isEmpty {
            s += "\nNot measured:\n\n"
            for f in report.failures { s += "- `\(f.error)`\n" }
        }
        for u in report.counters.unavailable { s += "\n_Unavailable: \(u)._\n" }
        return s
    }

    private static func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }

    // MARK: JUnit

    /// JUnit XML: a test case per compared figure (`classname` the trace, `name` row and metric),
    /// each regression a `<failure>`; a new or removed trace a skipped test case saying so; a
    /// trace that could not be measured an `<error>`. The suite's properties say how the runs were
    /// compared and how many figures were tested. Without a comparison, a passing test case per
    /// measured trace.
    package static func junit(_ report: BenchReport, comparison: BenchComparison?) -> String {
        let suite = "mapsketch-bench"
        var doc = JUnitDocument(suite: suite, properties: [("clock", "\(report.clock.source), resolution \(duration(report.clock.resolution))")], timePlaces: 6)
        func skip(_ name: String, _ message: String) {
            doc.cases.append(JUnitDocument.TestCase(classname: suite, name: name, outcome: .skipped(message: message)))
        }
        if let c = comparison {
            doc.properties += [
                ("pairing", c.paired ? "paired" : "unpaired"), ("threshold", decimal(c.threshold * 100, places: 2) + "%"),
                ("falseDiscoveryRate", decimal(c.fdr * 100, places: 2) + "%"), ("figures", "\(c.changes.count)"),
                ("testedOnWallClock", "\(c.tested)"), ("belowResolution", "\(c.belowResolution)"),
            ]
            if let d = c.drift { doc.properties.append(("drift", driftText(d))) }
            if !c.kindShifts.isEmpty { doc.properties.append(("kindsSlower", "\(c.kindShifts.filter(\.regressed).map { "\($0.row) \($0.metric.rawValue)" }.joined(separator: ", "))")) }
            for ch in c.changes {
                var x = JUnitDocument.TestCase(classname: suite + "." + ch.trace, name: ch.row + " " + ch.metric.rawValue)
                if ch.regressed {
                    let text = ch.description + (ch.ratioText.map { " " + $0 } ?? "") + (ch.pValue.map { " p=" + pText($0) } ?? "")
                    x.outcome = .failure(message: text, type: "BenchRegression", text: text)
                }
                doc.cases.append(x)
            }
            for t in c.newTraces { skip(t, "new trace: no baseline figures") }
            for t in c.removedTraces { skip(t, "removed trace: in the baseline, not benched now") }
        } else {
            for t in report.traces { doc.cases.append(JUnitDocument.TestCase(classname: suite, name: t.name, time: t.total / 1e9)) }
        }
        for f in report.failures {
            doc.cases.append(
                JUnitDocument.TestCase(classname: suite, name: f.trace, outcome: .error(message: f.error.description, type: "InputError", text: f.error.description)))
        }
        for f in report.expectedFailures { skip(f.trace, "expected failure (expect.error): " + f.error.description) }
        return doc.xml
    }

    // MARK: Numbers

    /// A metric's figure for people: durations with a unit, counts grouped by thousands.
    package static func figure(_ v: Double, _ m: BenchMetric) -> String {
        m.isExact ? grouped(Int(clamping: Int64(v.rounded()))) : duration(v)
    }

    /// A duration in nanoseconds as `850 ns`, `12.3 µs`, `4.56 ms` or `1.23 s`.
    package static func duration(_ ns: Double) -> String {
        if ns < 1_000 { return "\(Int(ns.rounded())) ns" }
        if ns < 1_000_000 { return sig3(ns / 1_000) + " µs" }
        if ns < 1_000_000_000 { return sig3(ns / 1_000_000) + " ms" }
        return sig3(ns / 1_000_000_000) + " s"
    }

    /// A rate per second as `850`, `12.3 k`, `4.56 M`.
    static func rate(_ r: Double) -> String {
        if r < 1_000 { return "\(Int(r.rounded()))" }
        if r < 1_000_000 { return sig3(r / 1_000) + " k" }
        return sig3(r / 1_000_000) + " M"
    }

    private static func sig3(_ x: Double) -> String {
        let places = x < 9.995 ? 2 : x < 99.95 ? 1 : 0
        return decimal(x, places: places)
    }

    /// `x` with exactly `places` decimals (no exponent).
    static func decimal(_ x: Double, places: Int) -> String {
        guard x.isFinite else { return x > 0 ? "∞" : "-∞" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let n = Int64((abs(x) * scale).rounded())
        let whole = n / Int64(scale)
        var frac = String(n % Int64(scale))
        while frac.count < places { frac = "0" + frac }
        return (x < 0 && n != 0 ? "-" : "") + "\(whole)" + (places > 0 ? "." + frac : "")
    }

    /// An integer with thin thousands separators: `1,234,567`.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    private static func perOp(_ total: UInt64?, _ count: Int) -> String {
        guard let total, count > 0 else { return "-" }
        let v = Double(total) / Double(count)
        return v >= 100 ? grouped(Int(v.rounded())) : decimal(v, places: v < 10 ? 2 : 1)
    }

    private static func round3(_ x: Double) -> Double { x.isFinite ? (x * 1000).rounded() / 1000 : 0 }

    private static func pad(_ s: String, _ w: Int) -> String { s.count >= w ? s + " " : s + String(repeating: " ", count: w - s.count) }
    private static func lpad(_ s: String, _ w: Int) -> String { s.count >= w ? " " + s : String(repeating: " ", count: w - s.count) + s }
}
