import MapSketch
import MapSketchGeometry
package import MapSketchReplay

/// Reduces a trace to a minimal one that still shows an outcome (`ShrinkOutcome`): what
/// `mapsketch shrink` runs.
///
/// Delta debugging (``DeltaDebugging``) over the trace's parts, one kind at a time, repeated until
/// a whole round removes nothing:
/// 1. the events, kept well formed: a finger's touches from `began` to its `ended` or
///    `cancelled` (or to the trace's end) go or stay together; a call and a GPS fix each go on
///    their own; the `end` line is one more part;
/// 2. the header's graphics layers, whole;
/// 3. the graphics of the layers left;
/// 4. the vertices of the sketch's initial geometry (a part whose vertices all go is removed).
///
/// Times never change, so what is left happens when it happened in the original. Event lines
/// are renumbered, and the header's `expect.refusedCalls` follows the calls it names (a removed
/// call's line goes). The result is 1-minimal for each kind: no single event group, layer,
/// graphic or vertex can go without losing the outcome. Deterministic: the same trace and
/// outcome give the same tests in the same order and the same result.
package struct TraceShrinker {
    /// The trace being reduced.
    package private(set) var trace: Trace
    /// How many candidate traces were tested.
    package private(set) var tests = 0

    /// Starts from `trace`.
    package init(trace: Trace) {
        self.trace = trace
    }

    /// The groups of event indices that go or stay together: each finger's touches from `began`
    /// to its release (or the trace's end), each call and each GPS fix alone, in order of their
    /// first event.
    /// - Complexity: O(n) in the events.
    package static func eventGroups(_ events: [TraceEntry]) -> [[Int]] {
        var groups: [[Int]] = []
        var open: [Int: Int] = [:]  // finger id → its group
        for (i, e) in events.enumerated() {
            guard case .touch(let phase, let id, _) = e.event else {
                groups.append([i])
                continue
            }
            if let g = open[id], phase != .began {
                groups[g].append(i)
                if phase == .ended || phase == .cancelled { open[id] = nil }
                continue
            }
            // A `began` (or a stray move or release of a finger not down) starts a group.
            groups.append([i])
            open[id] = phase == .began ? groups.count - 1 : nil
        }
        return groups
    }

    /// Reduces the trace while `test` accepts the candidates; returns the smallest trace found.
    /// `progress` gets a line after each round and each reduction.
    /// - Precondition: `test` accepts ``trace`` (the caller checks the original first).
    package mutating func run(progress: (String) -> Void = { _ in }, test: (Trace) -> Bool) -> Trace {
        var round = 0
        while true {
            round += 1
            let before = size(trace)
            shrinkEvents(progress: progress, test: test)
            shrinkLayers(progress: progress, test: test)
            shrinkGraphics(progress: progress, test: test)
            shrinkVertices(progress: progress, test: test)
            progress("round \(round): \(describe(trace)) after \(tests) tests")
            if size(trace) == before { break }
        }
        return trace
    }

    /// The events, the `end` line, the layers, the graphics and the initial vertices.
    private func size(_ t: Trace) -> Int {
        t.events.count + (t.end == nil ? 0 : 1) + t.header.layers.count + t.header.layers.reduce(0) { $0 + $1.graphics.count }
            + (t.header.sketch?.geometry?.pointCount ?? 0)
    }

    /// `3 events, 1 layer, 2 graphics, 4 initial vertices`.
    package func describe(_ t: Trace) -> String {
        func n(_ k: Int, _ what: String) -> String { "\(k) \(what)\(k == 1 ? "" : "s")" }
        var parts = [n(t.events.count, "event")]
        if t.end != nil { parts.append("an end line") }
        parts.append(n(t.header.layers.count, "layer"))
        parts.append(n(t.header.layers.reduce(0) { $0 + $1.graphics.count }, "graphic"))
        parts.append(n(t.header.sketch?.geometry?.pointCount ?? 0, "initial vertex").replacingOccurrences(of: "vertexs", with: "vertices"))
        return parts.joined(separator: ", ")
    }

    private mutating func minimize(
        _ what: String, count: Int, progress: (String) -> Void, test: (Trace) -> Bool, build: ([Int]) -> Trace
    ) -> [Int]? {
        guard count > 0 else { return nil }
        var dd = DeltaDebugging()
        let kept = dd.minimize(count: count, reduced: { left in progress("  \(what): \(left) of \(count) left") }) { subset in
            test(build(subset))
        }
        tests += dd.tests
        return kept.count < count ? kept : nil
    }

    private mutating func shrinkEvents(progress: (String) -> Void, test: (Trace) -> Bool) {
        let groups = Self.eventGroups(trace.events)
        let hasEnd = trace.end != nil
        let base = trace
        let build = { (subset: [Int]) -> Trace in
            var keep: [Int] = []
            var end = false
            for g in subset {
                if g == groups.count { end = true } else { keep += groups[g] }
            }
            return Self.keeping(events: keep.sorted(), end: end, of: base)
        }
        if let kept = minimize("event groups", count: groups.count + (hasEnd ? 1 : 0), progress: progress, test: test, build: build) {
            trace = build(kept)
        }
    }

    private mutating func shrinkLayers(progress: (String) -> Void, test: (Trace) -> Bool) {
        let base = trace
        let build = { (subset: [Int]) -> Trace in
            var t = base
            t.header.layers = subset.map { base.header.layers[$0] }
            return t
        }
        if let kept = minimize("layers", count: base.header.layers.count, progress: progress, test: test, build: build) {
            trace = build(kept)
        }
    }

    private mutating func shrinkGraphics(progress: (String) -> Void, test: (Trace) -> Bool) {
        let base = trace
        let all = base.header.layers.enumerated().flatMap { l, layer in layer.graphics.indices.map { (l, $0) } }
        let build = { (subset: [Int]) -> Trace in
            var t = base
            for l in t.header.layers.indices { t.header.layers[l].graphics = [] }
            for i in subset {
                let (l, g) = all[i]
                t.header.layers[l].graphics.append(base.header.layers[l].graphics[g])
            }
            return t
        }
        if let kept = minimize("graphics", count: all.count, progress: progress, test: test, build: build) {
            trace = build(kept)
        }
    }

    private mutating func shrinkVertices(progress: (String) -> Void, test: (Trace) -> Bool) {
        guard let setup = trace.header.sketch, let g = setup.geometry else { return }
        let base = trace
        let parts = g.parts.map { Array($0) }
        let all = parts.enumerated().flatMap { p, part in part.indices.map { (p, $0) } }
        let build = { (subset: [Int]) -> Trace in
            var kept = Array(repeating: [Point](), count: parts.count)
            for i in subset {
                let (p, v) = all[i]
                kept[p].append(parts[p][v])
            }
            var t = base
            t.header.sketch?.geometry = Self.geometry(g.type, parts: kept.filter { !$0.isEmpty })
            return t
        }
        if let kept = minimize("initial vertices", count: all.count, progress: progress, test: test, build: build) {
            trace = build(kept)
        }
    }

    /// A geometry of `type` with these parts (nil for no part: a new sketch).
    static func geometry(_ type: GeometryType, parts: [[Point]]) -> Geometry? {
        guard !parts.isEmpty else { return nil }
        switch type {
        case .point: return parts[0].first.map { .point($0) }
        case .multipoint: return .multipoint(Multipoint(points: parts.flatMap { $0 }))
        case .polyline: return .polyline(Polyline(paths: parts))
        case .polygon: return .polygon(Polygon(rings: parts))
        case .envelope: return nil
        }
    }

    /// The trace with only the events at `indices` (sorted) and, with `end`, its end line; lines
    /// renumbered from 2, declared refused calls following their calls.
    static func keeping(events indices: [Int], end: Bool, of t: Trace) -> Trace {
        var out = t
        out.events = []
        out.events.reserveCapacity(indices.count)
        let declared = Set(t.header.expect.refusedCalls)
        var refused: [Int] = []
        for i in indices {
            var e = t.events[i]
            if declared.contains(e.line) { refused.append(out.events.count + 2) }
            e.line = out.events.count + 2
            out.events.append(e)
        }
        out.header.expect.refusedCalls = refused
        out.end = end ? t.end : nil
        return out
    }
}
