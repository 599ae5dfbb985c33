package import MapSketchGeometry
package import MapSketchReplay

/// One difference between an expected and an actual JSON document.
package struct GoldenDifference: Hashable, Sendable, CustomStringConvertible {
    /// Where, as `events[3].x`; empty for the root.
    package var path: String
    /// The expected value, compactly printed (nil when the actual has something extra).
    package var expected: String?
    /// The actual value, compactly printed (nil when something expected is missing).
    package var actual: String?
    /// Why they differ.
    package var reason: String

    /// Creates a difference.
    package init(path: String, expected: String?, actual: String?, reason: String) {
        self.path = path
        self.expected = expected
        self.actual = actual
        self.reason = reason
    }

    package var description: String {
        var s = "  at \(path.isEmpty ? "(root)" : path): \(reason)\n"
        if let expected { s += "    - expected \(expected)\n" }
        if let actual { s += "    + actual   \(actual)\n" }
        return s
    }
}

/// What comparing an expected document with an actual one found.
package struct GoldenComparisonResult: Hashable, Sendable {
    /// The first differences, in document order (at most the limit asked for).
    package var differences: [GoldenDifference] = []
    /// How many differences there are in all (what a full report would list).
    package var total = 0
    /// How many numbers differ beyond the tolerance (a moved vertex counts its differing
    /// coordinates).
    package var differingNumbers = 0
    /// How many numbers differ within the tolerance: the drift of a golden that still matches.
    package var driftingNumbers = 0
    /// The largest difference among the numbers that differ within the tolerance (0 when none).
    package var largestDrift = 0.0

    /// Whether the documents match within the tolerance.
    package var matches: Bool { total == 0 }
}

/// Compares replay outputs with their golden files: numbers within a tolerance, structure exactly.
package enum GoldenComparison {
    /// Compares two documents in one walk: the first `limit` differences in document order, how
    /// many there are, and the numbers that differ within the tolerance.
    ///
    /// Object members are compared by key: a key missing on either side is a difference, and so
    /// is a different member order (the writer is deterministic, so a new order means changed code).
    /// The vertices of a geometry (`paths`, `rings` or `points` of an object that is an Esri JSON
    /// geometry on both sides) are aligned as the diff picture aligns them (`VertexChanges`): a
    /// removed GPS fix is one difference, `vertex removed`, not a shift of every vertex after it;
    /// each moved, added or removed vertex is one difference.
    /// - Complexity: O(n) in the size of the documents, plus the alignment of a geometry's
    ///   unequal middle (see `VertexChanges`).
    package static func compare(
        expected: JSONValue, actual: JSONValue, tolerance: GoldenTolerance = .standard, limit: Int = 50
    ) -> GoldenComparisonResult {
        var walk = Walk(tolerance: tolerance, limit: limit)
        walk.compare(expected, actual)
        return walk.result
    }

    /// The first `limit` differences between `expected` and `actual`, in document order (see
    /// ``compare(expected:actual:tolerance:limit:)``).
    /// - Complexity: O(n) in the size of the documents.
    package static func differences(
        expected: JSONValue, actual: JSONValue, tolerance: GoldenTolerance = .standard, limit: Int = 50
    ) -> [GoldenDifference] {
        compare(expected: expected, actual: actual, tolerance: tolerance, limit: limit).differences
    }

    static func short(_ v: JSONValue) -> String {
        let s = JSONWriter.string(v)
        return s.count <= 120 ? s : String(s.prefix(117)) + "…"
    }

    /// The members holding a geometry's vertices, as Esri JSON names them.
    static let vertexMembers = ["paths", "rings", "points"]

    /// One walk over two documents.
    struct Walk {
        let tolerance: GoldenTolerance
        let limit: Int
        var result = GoldenComparisonResult()
        var path: [JSONPathComponent] = []

        /// Notes a difference at the current path (and `extra` below it); builds its text only
        /// while under the limit.
        mutating func differ(
            _ expected: @autoclosure () -> String?, _ actual: @autoclosure () -> String?,
            _ reason: @autoclosure () -> String, at extra: [JSONPathComponent] = []
        ) {
            result.total += 1
            list(expected(), actual(), reason(), at: extra)
        }

        /// Lists a difference already counted, while under the limit.
        mutating func list(
            _ expected: @autoclosure () -> String?, _ actual: @autoclosure () -> String?,
            _ reason: @autoclosure () -> String, at extra: [JSONPathComponent] = []
        ) {
            guard result.differences.count < limit else { return }
            result.differences.append(
                GoldenDifference(
                    path: JSONError.render(path + extra), expected: expected(), actual: actual(), reason: reason()))
        }

        mutating func compare(_ e: JSONValue, _ a: JSONValue) {
            let tolerance = self.tolerance
            switch (e, a) {
            case (.integer, .integer), (.integer, .number), (.number, .integer), (.number, .number):
                guard let x = e.doubleValue, let y = a.doubleValue, x != y else { return }
                if tolerance.matches(x, y) {
                    result.driftingNumbers += 1
                    result.largestDrift = max(result.largestDrift, abs(x - y))
                } else {
                    result.differingNumbers += 1
                    differ(
                        short(e), short(a),
                        "numbers differ by \(JSONWriter.format(abs(x - y))), beyond the tolerance \(tolerance)")
                }
            case (.array(let x), .array(let y)):
                for i in 0..<min(x.count, y.count) {
                    path.append(.index(i))
                    compare(x[i], y[i])
                    path.removeLast()
                }
                if x.count != y.count {
                    differ(
                        x.count > y.count ? "… " + short(x[y.count]) + (x.count > y.count + 1 ? " and \(x.count - y.count - 1) more" : "") : nil,
                        y.count > x.count ? "… " + short(y[x.count]) + (y.count > x.count + 1 ? " and \(y.count - x.count - 1) more" : "") : nil,
                        "expected \(x.count) elements, found \(y.count)")
                }
            case (.object(let x), .object(let y)):
                let aligned = alignVertices(e, a, x, y)
                for (k, v) in x where k != aligned {
                    path.append(.key(k))
                    if let w = y[k] {
                        compare(v, w)
                    } else {
                        differ(short(v), nil, "missing member")
                    }
                    path.removeLast()
                }
                for (k, w) in y where x[k] == nil {
                    path.append(.key(k))
                    differ(nil, short(w), "unexpected member")
                    path.removeLast()
                }
                if x.keys != y.keys, Set(x.keys) == Set(y.keys) {
                    differ(short(e), short(a), "members in another order")
                }
            default:
                if e != a {
                    differ(
                        short(e), short(a),
                        e.kindDescription == a.kindDescription
                            ? "values differ" : "expected \(e.kindDescription), found \(a.kindDescription)")
                }
            }
        }

        /// Compares the vertices of two geometry objects by `VertexChanges` and returns the
        /// member it compared (`paths`, `rings` or `points`); nil when the objects are not both
        /// geometries with that member, which are then compared member by member.
        mutating func alignVertices(_ e: JSONValue, _ a: JSONValue, _ x: JSONObject, _ y: JSONObject) -> String? {
            guard let key = GoldenComparison.vertexMembers.first(where: { x[$0] != nil && y[$0] != nil }),
                let ev = x[key]?.arrayValue, let av = y[key]?.arrayValue
            else { return nil }
            let tolerance = self.tolerance
            // Most geometries match: walk them as plain values, and align only when they do not.
            var plain = Walk(tolerance: tolerance, limit: 0)
            plain.compare(.array(ev), .array(av))
            if plain.result.matches {
                result.driftingNumbers += plain.result.driftingNumbers
                result.largestDrift = max(result.largestDrift, plain.result.largestDrift)
                return key
            }
            guard let ge = try? TraceGeometryJSON.decode(e), let ga = try? TraceGeometryJSON.decode(a) else { return nil }
            let changes = VertexChanges(expected: ge, actual: ga, tolerance: tolerance)
            result.differingNumbers += changes.differingNumbers
            let flat = key == "points"
            func element(_ parts: [JSONValue], _ part: Int, _ index: Int?) -> JSONValue? {
                guard let index else { return nil }
                let list = flat ? parts : (part < parts.count ? parts[part].arrayValue ?? [] : [])
                return index < list.count ? list[index] : nil
            }
            func at(_ part: Int, _ index: Int) -> [JSONPathComponent] {
                flat ? [.key(key), .index(index)] : [.key(key), .index(part), .index(index)]
            }
            result.total += changes.total
            for c in changes.kept where result.differences.count < limit {
                let old = element(ev, c.part, c.expectedIndex).map(short)
                let new = element(av, c.part, c.actualIndex).map(short)
                switch c.kind {
                case .moved:
                    let i = c.expectedIndex ?? 0
                    let renumbered = c.actualIndex.map { $0 != i ? " (now [\($0)])" : "" } ?? ""
                    let reason =
                        c.displacement == 0
                        ? "vertex's z or m differs beyond the tolerance \(tolerance)\(renumbered)"
                        : "vertex moved by \(JSONWriter.format(c.displacement)), beyond the tolerance \(tolerance)\(renumbered)"
                    list(old, new, reason, at: at(c.part, i))
                case .added: list(nil, new, "vertex added", at: at(c.part, c.actualIndex ?? 0))
                case .removed: list(old, nil, "vertex removed", at: at(c.part, c.expectedIndex ?? 0))
                }
            }
            // Parts added or removed as a whole are counted by their vertices; say so once.
            if ev.count != av.count, !flat {
                differ(
                    nil, nil, "expected \(ev.count) part\(ev.count == 1 ? "" : "s"), found \(av.count)", at: [.key(key)])
            }
            return key
        }
    }

    /// A readable report of the differences, headed by the golden file's name and how many
    /// differences there are (`total`, when known, else the listed ones).
    package static func report(file: String, _ diffs: [GoldenDifference], limit: Int = 50, total: Int? = nil) -> String {
        let n = total ?? diffs.count
        var s = "\(file): \(total == nil && diffs.count >= limit ? "\(limit)+" : "\(n)") difference\(n == 1 ? "" : "s")"
        if diffs.count < n { s += " (the first \(diffs.count) shown)" }
        s += "\n"
        for d in diffs { s += d.description }
        return s
    }
}
