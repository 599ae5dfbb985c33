package import Foundation
import MapSketchGeometry
package import MapSketchReplay

/// Checks traces against their golden files, or records them.
///
/// What a run writes depends on its ``RecordMode``: `never` compares only (a missing or differing
/// golden fails, and the output is left beside it as a pending `NAME.actual.json` with the
/// pictures of the difference and its `PendingOrigin`); `missing` also records goldens that do
/// not exist (an empty `NAME.expected.svg` counts as missing: it asks for an SVG golden);
/// `failed` also re-records goldens that differ; `drifted` rewrites only the goldens that match
/// within the tolerance but not byte for byte; `all` rewrites every golden whose bytes differ. A
/// trace that cannot be read or set up is an input error in every mode and is never recorded,
/// unless it declares that error. Every write is atomic.
package struct GoldenRunner: Sendable {
    /// When goldens are written.
    package var record: RecordMode
    /// Whether refused calls the trace does not declare fail the case (else they are warnings).
    package var strict: Bool
    /// The program a pending output's origin names (`PendingOrigin.producer`), e.g.
    /// `mapsketch 0.4.0-dev`.
    package var producer: String
    /// The team's own code every replay installs (none by default).
    package var extensions: ReplayExtensions = .none
    /// A folder whose tree the traces' layer files may be in besides each trace's folder tree
    /// (`--layer-root`, see ``TraceFiles``).
    package var layerRoot: URL?

    /// Creates a runner. The tolerance of each comparison is the trace's own (its header's
    /// `expect.tolerance`, else ``GoldenTolerance/standard``).
    package init(record: RecordMode = .never, strict: Bool = false, producer: String = "MapSketchReplay") {
        self.record = record
        self.strict = strict
        self.producer = producer
    }

    /// Replays one case and checks (or records) it, timing both.
    /// - Complexity: that of the replay, plus O(n) in the size of the output.
    @MainActor
    package func run(_ c: GoldenCase) -> GoldenResult {
        let start = ContinuousClock.now
        let r = Replayer.rendering(for: c, extensions: extensions, layerRoot: layerRoot)
        let status = check(c, rendering: r)
        let d = (ContinuousClock.now - start).components
        let seconds = Double(d.seconds) + Double(d.attoseconds) * 1e-18
        let warnings = strict || r.problem != nil ? [] : r.refusals.messages(file: c.displayPath)
        return GoldenResult(goldenCase: c, status: status, seconds: seconds, warnings: warnings)
    }

    /// Checks (or records) one case given what replaying it produced.
    /// - Complexity: O(n) in the size of the output.
    package func check(_ c: GoldenCase, rendering r: GoldenRendering) -> GoldenStatus {
        switch r.problem {
        case .inputError(let e)?: return .inputError(e)
        case .unmetExpectation(let why)?: return .failed(GoldenFailure(report: why + "\n"))
        case nil: break
        }
        let refused = strict && !r.refusals.asDeclared ? r.refusals.messages(file: c.displayPath) : []
        let fm = FileManager.default
        let actual: JSONValue
        do {
            actual = try JSONParser.parse(r.json)
        } catch {
            return .failed(GoldenFailure(report: "\(c.name): the replay output is not JSON: \(error)\n"))
        }
        let expectedText: String
        switch GoldenText.read(c.expected) {
        case .text(let text): expectedText = text
        case .unreadable(let why):
            if record.recordsFailures && refused.isEmpty {
                return write(c, r, changes: "the golden was not readable: \(why)")
            }
            return .failed(
                GoldenFailure(
                    report: "\(c.expected.lastPathComponent): cannot read the golden file: \(why)\n" + strictReport(refused)))
        case .missing:
            if record.recordsMissing && refused.isEmpty { return write(c, r, changes: nil) }
            var report = "\(c.name): no golden file \(c.expected.lastPathComponent)\n"
            report += strictReport(refused)
            do {
                try writePending(c, r, svg: false, diff: nil)
                report +=
                    "  the output is in \(c.actual.lastPathComponent): review it, then accept it with `mapsketch accept \(c.displayPath)`"
                report += " (or record every missing golden with `mapsketch check \(c.displayPath) --record missing`)\n"
            } catch {
                report += "  could not write the actual output: \(error)\n"
            }
            let picture = GoldenOverlay.Input(
                name: c.name, expected: .null, actual: actual, tolerance: r.tolerance, differingNumbers: 0,
                spatialReference: r.spatialReference)
            let pictures = GoldenPictures(
                expected: GoldenOverlay.picture(picture, .expected), actual: GoldenOverlay.picture(picture, .actual),
                overlay: GoldenOverlay.picture(picture, .overlay))
            return .failed(
                GoldenFailure(
                    report: report, pictures: pictures, logExcerpt: Self.logExcerpt(expected: nil, actual: actual)))
        }
        let expected: JSONValue
        do {
            expected = try JSONParser.parse(expectedText)
        } catch {
            if record.recordsFailures && refused.isEmpty {
                return write(c, r, changes: "the golden was not readable: \(error)")
            }
            return .failed(
                GoldenFailure(
                    report: "\(c.expected.lastPathComponent): cannot read the golden: \(error)\n"
                        + strictReport(refused)))
        }
        var report = ""
        let comparison = GoldenComparison.compare(expected: expected, actual: actual, tolerance: r.tolerance)
        if !comparison.matches {
            report += GoldenComparison.report(
                file: c.expected.lastPathComponent, comparison.differences, total: comparison.total)
        }
        let svg = compareSVG(c, r)
        if comparison.matches, svg.emptyGolden, record.recordsMissing, refused.isEmpty {
            return write(c, r, changes: nil, json: false)
        }
        if let line = svg.report { report += line }
        if report.isEmpty {
            let drifted = expectedText != r.json
            if drifted, record.recordsDrift, refused.isEmpty {
                return write(c, r, changes: nil)
            }
            for stale in c.pendingFiles { try? fm.removeItem(at: stale) }
            if !refused.isEmpty { return .failed(GoldenFailure(report: strictReport(refused))) }
            if drifted {
                return .drifted(GoldenDrift(numbers: comparison.driftingNumbers, largest: comparison.largestDrift))
            }
            return record == .all ? .unchanged : .passed
        }
        if record.recordsFailures && refused.isEmpty { return write(c, r, changes: report) }
        report += strictReport(refused)
        let picture = GoldenOverlay.Input(
            name: c.name, expected: expected, actual: actual, tolerance: r.tolerance,
            differingNumbers: comparison.differingNumbers, spatialReference: r.spatialReference)
        let pictures = GoldenPictures(
            expected: GoldenOverlay.picture(picture, .expected), actual: GoldenOverlay.picture(picture, .actual),
            overlay: GoldenOverlay.picture(picture, .overlay))
        let svgWritten = svg.differs && r.svg != nil
        do {
            try writePending(c, r, svg: svgWritten, diff: pictures.overlay)
            report +=
                "  wrote \(c.actual.lastPathComponent)\(svgWritten ? ", \(c.actualSVG.lastPathComponent)" : "") and \(c.diffSVG.lastPathComponent)"
            report += "; accept the new output with `mapsketch accept \(c.displayPath)`\n"
        } catch {
            report += "  could not write the actual output: \(error)\n"
        }
        return .failed(
            GoldenFailure(
                report: report, differingNumbers: comparison.differingNumbers, pictures: pictures,
                logExcerpt: Self.logExcerpt(expected: expected, actual: actual)))
    }

    /// How the SVG golden of `c` compares with the rendering: not there (nothing to compare),
    /// the same, different (`report` says where), or empty — an SVG golden asked for and not yet
    /// recorded, which the record modes that record missing goldens fill in.
    private func compareSVG(_ c: GoldenCase, _ r: GoldenRendering) -> (report: String?, differs: Bool, emptyGolden: Bool) {
        guard let expectedSVG = try? String(contentsOf: c.expectedSVG, encoding: .utf8) else { return (nil, false, false) }
        let name = c.expectedSVG.lastPathComponent
        guard let svg = r.svg else { return ("\(name): the replay rendered no SVG\n", true, false) }
        if expectedSVG.isEmpty {
            return (
                "\(name) is empty: an SVG golden is asked for and not recorded yet; record it with `mapsketch check \(c.displayPath) --record missing`, or accept the pending \(c.actualSVG.lastPathComponent)\n",
                true, true
            )
        }
        guard let line = GoldenText.firstDifference(expected: expectedSVG, actual: svg) else { return (nil, false, false) }
        return ("\(name): \(line)\n", true, false)
    }

    /// Writes the pending output of `c` — `NAME.actual.json`, with `svg` `NAME.actual.svg`, and
    /// `diff` as `NAME.diff.svg` — and its `PendingOrigin`.
    private func writePending(_ c: GoldenCase, _ r: GoldenRendering, svg: Bool, diff: String?) throws(OutputError) {
        let digest = r.traceDigest ?? PendingOrigin.digest(ofFile: c.trace) ?? "unknown"
        try PendingOrigin(traceDigest: digest, producer: producer).write(for: c)
        try AtomicFile.write(r.json, to: c.actual)
        if svg, let text = r.svg { try AtomicFile.write(text, to: c.actualSVG) }
        if let diff { try AtomicFile.write(diff, to: c.diffSVG) }
    }

    private func strictReport(_ refused: [String]) -> String {
        guard !refused.isEmpty else { return "" }
        return "refused calls the trace does not declare (--strict):\n" + refused.map { "  \($0)\n" }.joined()
    }

    /// Writes the goldens from `r` (the JSON golden unless `json` is false; the SVG golden only
    /// when one exists) and removes the pending actual output and pictures.
    private func write(_ c: GoldenCase, _ r: GoldenRendering, changes: String?, json: Bool = true) -> GoldenStatus {
        let fm = FileManager.default
        do {
            if json { try AtomicFile.write(r.json, to: c.expected) }
            if let svg = r.svg, fm.fileExists(atPath: c.expectedSVG.path),
                (try? String(contentsOf: c.expectedSVG, encoding: .utf8)) != svg
            {
                try AtomicFile.write(svg, to: c.expectedSVG)
            }
            for stale in c.pendingFiles { try? fm.removeItem(at: stale) }
            return .recorded(changes: changes)
        } catch {
            return .failed(GoldenFailure(report: "\(c.name): cannot record: \(error)\n"))
        }
    }

    /// The actual log around the first entry that differs from the expected log (three before,
    /// four after, the differing one marked `>`), or its last eight entries when the logs agree.
    static func logExcerpt(expected: JSONValue?, actual: JSONValue) -> String? {
        guard let log = actual["log"]?.arrayValue else { return nil }
        guard !log.isEmpty else {
            return "   (no entries: GPS appends and other counted-only events are in \"counts\")\n"
        }
        let old = expected?["log"]?.arrayValue ?? []
        var first: Int?
        for i in 0..<max(log.count, old.count) where i >= log.count || i >= old.count || log[i] != old[i] {
            first = i
            break
        }
        let center = first ?? log.count - 1
        let lo = max(0, (first == nil ? log.count - 8 : center - 3))
        let hi = min(log.count, first == nil ? log.count : center + 5)
        var s = ""
        if lo > 0 { s += "   … \(lo) earlier entries\n" }
        for i in lo..<hi {
            s += (i == first ? " > " : "   ") + "[\(i)] " + JSONWriter.string(log[i]) + "\n"
            if i == first, i < old.count { s += "   expected [\(i)] " + JSONWriter.string(old[i]) + "\n" }
        }
        if let first, first >= log.count, first < old.count {
            s += " > [\(first)] (no entry; expected " + JSONWriter.string(old[first]) + ")\n"
        }
        if hi < log.count { s += "   … \(log.count - hi) later entries\n" }
        return s
    }
}
