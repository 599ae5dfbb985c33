import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReplay

/// How a trace fails its golden, in a form a smaller trace can show too: the first difference
/// from the golden in what the replay leaves (the sketch, the map, the GPS report), with the
/// actual value there; or, when only the event log differs, the first log entry that differs.
///
/// The members that count what happened — `eventsApplied`, `counts`, the undo and redo depths,
/// `geometryChanged` — change with every event removed, so they are no signature. A candidate
/// fails the same way when its replay differs from the golden at the same place with the same
/// actual value (or, for a log entry, when its log holds that entry and it differs from the golden).
@MainActor
struct GoldenFailureSignature {
    let golden: JSONValue
    let tolerance: GoldenTolerance
    let path: String?
    let actual: String?
    let logEntry: JSONValue?

    init(trace: Trace, name: String, file: URL, displayName: String) throws(ShrinkError) {
        let c = GoldenCase(name: name, trace: file)
        guard case .text(let text) = GoldenText.read(c.expected), let golden = try? JSONParser.parse(text) else {
            throw ShrinkError("\(displayName): no readable golden \(c.expected.lastPathComponent) beside it (--until failing compares with it)")
        }
        guard let document = TraceShrink.document(trace, name: name) else {
            throw ShrinkError("\(displayName): the trace cannot be set up (shrink it with --until error)")
        }
        self.golden = golden
        tolerance = trace.header.expect.tolerance ?? .standard
        let differences = GoldenComparison.differences(expected: golden, actual: document, tolerance: tolerance, limit: 10_000)
        guard let first = differences.first else {
            throw ShrinkError("\(displayName): the trace passes its golden \(c.expected.lastPathComponent): it shows no failure")
        }
        if let d = differences.first(where: { !Self.isBookkeeping($0.path) && !$0.path.hasPrefix("log") }) {
            path = d.path
            actual = d.actual
            logEntry = nil
        } else if first.path.hasPrefix("log["), let index = Int(first.path.dropFirst(4).prefix { $0.isNumber }),
            let entry = document["log"]?.arrayValue?[safe: index]
        {
            path = nil
            actual = nil
            logEntry = entry
        } else {
            path = first.path
            actual = first.actual
            logEntry = nil
        }
    }

    /// Members that count what happened rather than what it left.
    static func isBookkeeping(_ path: String) -> Bool {
        ["eventsApplied", "trace", "description", "sketch.undoDepth", "sketch.redoDepth", "sketch.geometryChanged"].contains(path)
            || path.hasPrefix("counts")
    }

    /// Whether a candidate's output document fails the same way.
    func matches(_ document: JSONValue?) -> Bool {
        guard let document else { return false }
        if let logEntry {
            guard document["log"]?.arrayValue?.contains(logEntry) == true else { return false }
            return !GoldenComparison.compare(expected: golden, actual: document, tolerance: tolerance, limit: 1).matches
        }
        return GoldenComparison.differences(expected: golden, actual: document, tolerance: tolerance, limit: 10_000)
            .contains { $0.path == path && $0.actual == actual }
    }
}

extension Array {
    fileprivate subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
