public import MapSketchGeometry

/// How close two numbers in a golden comparison must be.
///
/// Two numbers a and b match when |a − b| ≤ ``absolute`` + ``relative`` · max(|a|, |b|).
/// Everything else — object keys, array lengths, strings, booleans, nulls, the kind of each value —
/// must match exactly.
public struct GoldenTolerance: Hashable, Sendable, CustomStringConvertible {
    /// The absolute part (map units, meters, seconds, points: whatever the number measures).
    public var absolute: Double
    /// The relative part.
    public var relative: Double

    /// Creates a tolerance.
    public init(absolute: Double, relative: Double) {
        self.absolute = absolute
        self.relative = relative
    }

    /// The tolerance `check` uses: 1e-9 absolute plus 1e-9 relative, which absorbs last-digit
    /// differences of floating-point libraries and nothing a person could see.
    public static let standard = GoldenTolerance(absolute: 1e-9, relative: 1e-9)

    /// Whether two numbers match.
    @inlinable
    public func matches(_ a: Double, _ b: Double) -> Bool {
        if a == b { return true }
        return abs(a - b) <= absolute + relative * max(abs(a), abs(b))
    }

    public var description: String { "±(\(absolute) + \(relative)·|value|)" }
}

/// One difference between an expected and an actual JSON document.
public struct GoldenDifference: Hashable, Sendable, CustomStringConvertible {
    /// Where, as `events[3].x`; empty for the root.
    public var path: String
    /// The expected value, compactly printed (nil when the actual has something extra).
    public var expected: String?
    /// The actual value, compactly printed (nil when something expected is missing).
    public var actual: String?
    /// Why they differ.
    public var reason: String

    /// Creates a difference.
    public init(path: String, expected: String?, actual: String?, reason: String) {
        self.path = path
        self.expected = expected
        self.actual = actual
        self.reason = reason
    }

    public var description: String {
        var s = "  at \(path.isEmpty ? "(root)" : path): \(reason)\n"
        if let expected { s += "    - expected \(expected)\n" }
        if let actual { s += "    + actual   \(actual)\n" }
        return s
    }
}

/// Compares replay outputs with their golden files: numbers within a tolerance, structure exactly.
public enum GoldenComparison {
    /// The differences between `expected` and `actual`, in document order.
    ///
    /// Object members are compared by key: a key missing on either side is a difference, and so
    /// is a different member order (the writer is deterministic, so a new order means changed code).
    /// - Complexity: O(n) in the size of the documents.
    public static func differences(
        expected: JSONValue, actual: JSONValue, tolerance: GoldenTolerance = .standard, limit: Int = 50
    ) -> [GoldenDifference] {
        var out: [GoldenDifference] = []
        var path: [JSONPathComponent] = []
        compare(expected, actual, tolerance, &path, &out, limit)
        return out
    }

    private static func short(_ v: JSONValue) -> String {
        let s = JSONWriter.string(v)
        return s.count <= 120 ? s : String(s.prefix(117)) + "…"
    }

    private static func compare(
        _ e: JSONValue, _ a: JSONValue, _ tol: GoldenTolerance, _ path: inout [JSONPathComponent],
        _ out: inout [GoldenDifference], _ limit: Int
    ) {
        guard out.count < limit else { return }
        func differ(_ reason: String) {
            out.append(GoldenDifference(path: JSONError.render(path), expected: short(e), actual: short(a), reason: reason))
        }
        switch (e, a) {
        case (.integer, .integer), (.integer, .number), (.number, .integer), (.number, .number):
            guard let x = e.doubleValue, let y = a.doubleValue else { return }
            if !tol.matches(x, y) {
                differ("numbers differ by \(JSONWriter.format(abs(x - y))), beyond the tolerance \(tol)")
            }
        case (.array(let x), .array(let y)):
            for i in 0..<min(x.count, y.count) {
                path.append(.index(i))
                compare(x[i], y[i], tol, &path, &out, limit)
                path.removeLast()
            }
            if x.count != y.count, out.count < limit {
                out.append(
                    GoldenDifference(
                        path: JSONError.render(path),
                        expected: x.count > y.count ? "… " + short(x[y.count]) + (x.count > y.count + 1 ? " and \(x.count - y.count - 1) more" : "") : nil,
                        actual: y.count > x.count ? "… " + short(y[x.count]) + (y.count > x.count + 1 ? " and \(y.count - x.count - 1) more" : "") : nil,
                        reason: "expected \(x.count) elements, found \(y.count)"))
            }
        case (.object(let x), .object(let y)):
            for (k, v) in x {
                path.append(.key(k))
                if let w = y[k] {
                    compare(v, w, tol, &path, &out, limit)
                } else if out.count < limit {
                    out.append(GoldenDifference(path: JSONError.render(path), expected: short(v), actual: nil, reason: "missing member"))
                }
                path.removeLast()
            }
            for (k, w) in y where x[k] == nil && out.count < limit {
                path.append(.key(k))
                out.append(GoldenDifference(path: JSONError.render(path), expected: nil, actual: short(w), reason: "unexpected member"))
                path.removeLast()
            }
            if out.isEmpty, x.keys != y.keys, Set(x.keys) == Set(y.keys) {
                differ("members in another order")
            }
        default:
            if e != a {
                differ(e.kindDescription == a.kindDescription ? "values differ" : "expected \(e.kindDescription), found \(a.kindDescription)")
            }
        }
    }

    /// How many numbers differ beyond `tolerance`, and how many other differences there are
    /// (missing or unexpected members, arrays of another length, other strings, booleans, kinds
    /// or member order), without the limit of ``differences(expected:actual:tolerance:limit:)``
    /// and without building a report.
    /// - Complexity: O(n) in the size of the documents.
    public static func count(
        expected: JSONValue, actual: JSONValue, tolerance: GoldenTolerance = .standard
    ) -> (numbers: Int, other: Int) {
        var numbers = 0
        var other = 0
        func walk(_ e: JSONValue, _ a: JSONValue) {
            switch (e, a) {
            case (.integer, .integer), (.integer, .number), (.number, .integer), (.number, .number):
                if let x = e.doubleValue, let y = a.doubleValue, !tolerance.matches(x, y) { numbers += 1 }
            case (.array(let x), .array(let y)):
                for i in 0..<min(x.count, y.count) { walk(x[i], y[i]) }
                if x.count != y.count { other += 1 }
            case (.object(let x), .object(let y)):
                for (k, v) in x {
                    if let w = y[k] { walk(v, w) } else { other += 1 }
                }
                for (k, _) in y where x[k] == nil { other += 1 }
                if x.keys != y.keys, Set(x.keys) == Set(y.keys) { other += 1 }
            default:
                if e != a { other += 1 }
            }
        }
        walk(expected, actual)
        return (numbers, other)
    }

    /// A readable report of the differences, headed by the golden file's name and how many
    /// differences there are (`total`, when known, else the listed ones).
    public static func report(file: String, _ diffs: [GoldenDifference], limit: Int = 50, total: Int? = nil) -> String {
        let n = total ?? diffs.count
        var s = "\(file): \(total == nil && diffs.count >= limit ? "\(limit)+" : "\(n)") difference\(n == 1 ? "" : "s")"
        if diffs.count < n { s += " (the first \(diffs.count) shown)" }
        s += "\n"
        for d in diffs { s += d.description }
        return s
    }
}
