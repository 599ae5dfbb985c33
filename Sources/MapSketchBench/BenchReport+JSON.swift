import MapSketchReplay
package import MapSketchGeometry
import MapSketchGolden

// The JSON document of a bench (`--json`, `--save-baseline`, `--baseline`): schema
// `mapsketch-bench` version 2, described member by member in docs/bench-report.schema.json.

extension BenchReport {
    /// The report as a JSON value (members in schema order).
    package var json: JSONValue {
        var o: JSONObject = ["schema": .string(Self.schemaName), "schemaVersion": .integer(Int64(Self.schemaVersion))]
        o["build"] = ["version": .string(build.version), "configuration": .string(build.configuration)]
        o["clock"] = ["source": .string(clock.source), "resolutionNs": .number(rounded(clock.resolution))]
        o["warmup"] = .integer(Int64(warmup))
        o["runs"] = .integer(Int64(runs))
        if let shard { o["shard"] = .string(shard.description) }
        if let pairID { o["pair"] = .string(pairID) }
        o["counters"] = [
            "time": true, "allocations": .bool(counters.allocations), "instructions": .bool(counters.instructions),
            "unavailable": .array(counters.unavailable.map { .string($0) }),
        ]
        o["traces"] = .array(traces.map(\.json))
        o["failures"] = .array(failures.map(\.json))
        o["expectedFailures"] = .array(expectedFailures.map(\.json))
        return .object(o)
    }

    /// The report as pretty JSON text with a final newline.
    package var jsonText: String { JSONWriter.string(json, style: .pretty) + "\n" }

    /// Reads a report (a baseline) from its JSON text.
    /// - Throws: ``InputError`` naming `file`, line and column: for a document that is not a bench
    ///   report, one of another schema version (saying which version this build reads), or a
    ///   member missing or of the wrong type.
    /// - Complexity: O(n) in the size of the text.
    package static func decode(_ text: String, file: String) throws(InputError) -> BenchReport {
        do {
            return try JSONParser.decode(text) { value throws -> BenchReport in try BenchReport(value) }
        } catch let e as JSONError {
            throw InputError(file: file, line: e.line ?? 1, column: e.column ?? 1, message: e.pathAndMessage)
        } catch {
            throw InputError(file: file, line: 1, column: 1, message: "\(error)")
        }
    }

    private init(_ value: JSONValue) throws {
        guard value.objectValue != nil else { throw JSONError("expected a bench report (a JSON object), found \(value.kindDescription)") }
        guard value["schema"]?.stringValue == Self.schemaName else {
            throw JSONError("expected \"\(Self.schemaName)\": this is not a `mapsketch bench` report", path: [.key("schema")])
        }
        let version = try int(value, "schemaVersion", [])
        guard version == Self.schemaVersion else {
            throw JSONError(
                "expected schema version \(Self.schemaVersion), found \(version): record the baseline again with this build (--save-baseline)",
                path: [.key("schemaVersion")])
        }
        let b = try member(value, "build", [])
        let c = try member(value, "clock", [])
        let k = try member(value, "counters", [])
        var shard: TraceSelection.Shard?
        if value["shard"] != nil {
            let text = try string(value, "shard", [])
            guard let s = TraceSelection.Shard(text) else { throw JSONError("expected K/N with 1 ≤ K ≤ N, found \"\(text)\"", path: [.key("shard")]) }
            shard = s
        }
        func list<T>(_ key: String, _ make: (JSONValue, [JSONPathComponent]) throws -> T) throws -> [T] {
            try array(value, key, []).enumerated().map { i, v in try make(v, [.key(key), .index(i)]) }
        }
        self.init(
            warmup: try int(value, "warmup", []), runs: try int(value, "runs", []),
            counters: BenchCounters(allocations: try bool(k, "allocations", [.key("counters")]), instructions: try bool(k, "instructions", [.key("counters")])),
            clock: BenchClock(source: try string(c, "source", [.key("clock")]), resolution: try double(c, "resolutionNs", [.key("clock")])),
            build: BenchBuild(version: try string(b, "version", [.key("build")]), configuration: try string(b, "configuration", [.key("build")])),
            shard: shard, traces: try list("traces", BenchTraceResult.init), failures: try list("failures", BenchFailure.init),
            // `expectedFailures` may be absent (a report that has none).
            expectedFailures: value["expectedFailures"] == nil ? [] : try list("expectedFailures", BenchFailure.init),
            pairID: value["pair"] == nil ? nil : try string(value, "pair", []))
    }
}

extension BenchFailure {
    var json: JSONValue {
        [
            "trace": .string(trace), "file": .string(error.file), "line": .integer(Int64(error.line)),
            "column": .integer(Int64(error.column)), "message": .string(error.message),
        ]
    }

    init(_ f: JSONValue, path p: [JSONPathComponent]) throws {
        self.init(
            trace: try string(f, "trace", p),
            error: InputError(file: try string(f, "file", p), line: try int(f, "line", p), column: try int(f, "column", p), message: try string(f, "message", p)))
    }
}

extension BenchTraceResult {
    var json: JSONValue {
        var o: JSONObject = ["name": .string(name), "events": .integer(Int64(events))]
        o["eventsPerSecond"] = .number(rounded(eventsPerSecond))
        o["totalNs"] = numbers(totalNanoseconds)
        o["setupNs"] = numbers(setupNanoseconds)
        if let allocations { o["allocations"] = integers(allocations) }
        if let bytes { o["bytes"] = integers(bytes) }
        if let instructions { o["instructions"] = integers(instructions) }
        var fraction: JSONObject = [:]
        if let t = attributedTimeFraction { fraction["time"] = .number(rounded(t)) }
        if let i = attributedInstructionFraction { fraction["instructions"] = .number(rounded(i)) }
        o["attributedFraction"] = .object(fraction)
        o["attributed"] = .array(attributed.map(\.json))
        o["unattributed"] = .array(unattributed.map(\.json))
        o["kinds"] = .array(kinds.map(\.json))
        if let processes { o["processes"] = .array(processes.map { .integer(Int64($0)) }) }
        return .object(o)
    }

    init(_ v: JSONValue, path p: [JSONPathComponent]) throws {
        var kinds: [BenchKindResult] = []
        for (i, k) in try array(v, "kinds", p).enumerated() { kinds.append(try BenchKindResult(k, path: p + [.key("kinds"), .index(i)])) }
        var attributed: [BenchAttributedRun] = []
        for (i, a) in try array(v, "attributed", p).enumerated() {
            attributed.append(try BenchAttributedRun(a, path: p + [.key("attributed"), .index(i)]))
        }
        let totals = try doubles(v, "totalNs", p)
        let processes = try optionalUnsigned(v, "processes", p).map { $0.map { Int(clamping: $0) } }
        if let processes, processes.count != totals.count {
            throw JSONError(
                "expected one process number per measured run (\(totals.count), as totalNs has), found \(processes.count)",
                path: p + [.key("processes")])
        }
        self.init(
            name: try string(v, "name", p), events: try int(v, "events", p), totalNanoseconds: totals,
            setupNanoseconds: try doubles(v, "setupNs", p), allocations: try optionalUnsigned(v, "allocations", p),
            bytes: try optionalUnsigned(v, "bytes", p), instructions: try optionalUnsigned(v, "instructions", p), attributed: attributed,
            kinds: kinds, processes: processes)
    }
}

extension BenchAttributedRun {
    var json: JSONValue {
        var o: JSONObject = ["timeNs": .number(rounded(nanoseconds))]
        if let allocations { o["allocations"] = .integer(Int64(clamping: allocations)) }
        if let bytes { o["bytes"] = .integer(Int64(clamping: bytes)) }
        if let instructions { o["instructions"] = .integer(Int64(clamping: instructions)) }
        return .object(o)
    }

    init(_ v: JSONValue, path p: [JSONPathComponent]) throws {
        self.init(
            nanoseconds: try double(v, "timeNs", p), allocations: try optionalUInt(v, "allocations", p), bytes: try optionalUInt(v, "bytes", p),
            instructions: try optionalUInt(v, "instructions", p))
    }
}

extension BenchKindResult {
    var json: JSONValue {
        var o: JSONObject = ["kind": .string(kind.name), "count": .integer(Int64(count))]
        o["p50Ns"] = .number(rounded(p50))
        o["p90Ns"] = .number(rounded(p90))
        o["p99Ns"] = .number(rounded(p99))
        o["maxNs"] = .number(rounded(max))
        o["meanNs"] = .number(rounded(mean))
        o["throughput"] = .number(rounded(throughput))
        if let allocations { o["allocations"] = .integer(Int64(clamping: allocations)) }
        if let bytes { o["bytes"] = .integer(Int64(clamping: bytes)) }
        if let instructions { o["instructions"] = .integer(Int64(clamping: instructions)) }
        if let timed { o["timed"] = .integer(Int64(timed)) }
        o["runs"] = .array(
            runs.map { r in
                var ro: JSONObject = ["count": .integer(Int64(r.count))]
                ro["p50Ns"] = .number(rounded(r.p50))
                ro["p90Ns"] = .number(rounded(r.p90))
                ro["p99Ns"] = .number(rounded(r.p99))
                ro["maxNs"] = .number(rounded(r.max))
                ro["meanNs"] = .number(rounded(r.mean))
                if let a = r.allocations { ro["allocations"] = .integer(Int64(clamping: a)) }
                if let b = r.bytes { ro["bytes"] = .integer(Int64(clamping: b)) }
                if let n = r.instructions { ro["instructions"] = .integer(Int64(clamping: n)) }
                if let t = r.timed { ro["timed"] = .integer(Int64(t)) }
                return .object(ro)
            })
        return .object(o)
    }

    init(_ v: JSONValue, path p: [JSONPathComponent]) throws {
        let name = try string(v, "kind", p)
        guard !name.isEmpty, name != BenchKind.unattributedName else {
            throw JSONError("expected the name of an operation kind, found \"\(name)\"", path: p + [.key("kind")])
        }
        var runs: [Run] = []
        for (i, r) in try array(v, "runs", p).enumerated() {
            let rp = p + [.key("runs"), .index(i)]
            runs.append(
                Run(
                    count: try int(r, "count", rp), p50: try double(r, "p50Ns", rp), p90: try double(r, "p90Ns", rp),
                    p99: try double(r, "p99Ns", rp), max: try double(r, "maxNs", rp), mean: try double(r, "meanNs", rp),
                    allocations: try optionalUInt(r, "allocations", rp), bytes: try optionalUInt(r, "bytes", rp),
                    instructions: try optionalUInt(r, "instructions", rp), timed: try optionalUInt(r, "timed", rp).map { Int(clamping: $0) }))
        }
        self.init(kind: BenchKind(named: name), runs: runs)
    }
}

// Typed member access with the path of the member in every error.

private func member(_ v: JSONValue, _ key: String, _ p: [JSONPathComponent]) throws -> JSONValue {
    guard let m = v[key] else { throw JSONError("missing member \"\(key)\"", path: p) }
    return m
}

private func int(_ v: JSONValue, _ key: String, _ p: [JSONPathComponent]) throws -> Int {
    let m = try member(v, key, p)
    guard let i = m.int64Value, let n = Int(exactly: i) else { throw JSONError("expected an integer, found \(m.kindDescription)", path: p + [.key(key)]) }
    return n
}

private func uint(_ v: JSONValue, _ key: String, _ p: [JSONPathComponent]) throws -> UInt64 {
    let m = try member(v, key, p)
    return try unsignedValue(m, p + [.key(key)])
}

private func unsignedValue(_ m: JSONValue, _ p: [JSONPathComponent]) throws -> UInt64 {
    guard let i = m.int64Value, i >= 0 else { throw JSONError("expected an integer ≥ 0, found \(m.kindDescription == "a number" ? JSONWriter.string(m) : m.kindDescription)", path: p) }
    return UInt64(i)
}

private func optionalUInt(_ v: JSONValue, _ key: String, _ p: [JSONPathComponent]) throws -> UInt64? {
    guard v[key] != nil else { return nil }
    return try uint(v, key, p)
}

private func double(_ v: JSONValue, _ key: String, _ p: [JSONPathComponent]) throws -> Double {
    let m = try member(v, key, p)
    guard let d = m.doubleValue else { throw JSONError("expected a number, found \(m.kindDescription)", path: p + [.key(key)]) }
    return d
}

private func bool(_ v: JSONValue, _ key: String, _ p: [JSONPathComponent]) throws -> Bool {
    let m = try member(v, key, p)
    guard let b = m.boolValue else { throw JSONError("expected true or false, found \(m.kindDescription)", path: p + [.key(key)]) }
    return b
}

private func string(_ v: JSONValue, _ key: String, _ p: [JSONPathComponent]) throws -> String {
    let m = try member(v, key, p)
    guard let s = m.stringValue else { throw JSONError("expected a string, found \(m.kindDescription)", path: p + [.key(key)]) }
    return s
}

private func array(_ v: JSONValue, _ key: String, _ p: [JSONPathComponent]) throws -> [JSONValue] {
    let m = try member(v, key, p)
    guard let a = m.arrayValue else { throw JSONError("expected an array, found \(m.kindDescription)", path: p + [.key(key)]) }
    return a
}

private func unsigned(_ v: JSONValue, _ key: String, _ p: [JSONPathComponent]) throws -> [UInt64] {
    try array(v, key, p).enumerated().map { i, m in try unsignedValue(m, p + [.key(key), .index(i)]) }
}

private func optionalUnsigned(_ v: JSONValue, _ key: String, _ p: [JSONPathComponent]) throws -> [UInt64]? {
    guard v[key] != nil else { return nil }
    return try unsigned(v, key, p)
}

private func integers(_ values: [UInt64]) -> JSONValue { .array(values.map { .integer(Int64(clamping: $0)) }) }

private func numbers(_ values: [Double]) -> JSONValue { .array(values.map { .number(rounded($0)) }) }

private func doubles(_ v: JSONValue, _ key: String, _ p: [JSONPathComponent]) throws -> [Double] {
    try array(v, key, p).enumerated().map { i, m in
        guard let d = m.doubleValue, d >= 0 else { throw JSONError("expected a number ≥ 0, found \(m.kindDescription)", path: p + [.key(key), .index(i)]) }
        return d
    }
}

/// A figure rounded to 3 decimals, so reports do not carry float noise.
private func rounded(_ x: Double) -> Double { x.isFinite ? (x * 1000).rounded() / 1000 : 0 }

extension BenchComparison {
    /// The comparison as a JSON value: how it compared, what it tested, every figure, and the
    /// traces and kinds only one side has.
    package var json: JSONValue {
        func change(_ c: BenchChange) -> JSONValue {
            var o: JSONObject = ["trace": .string(c.trace), "row": .string(c.row), "metric": .string(c.metric.rawValue)]
            o["old"] = .number(rounded(c.old))
            o["new"] = .number(rounded(c.new))
            if let p = c.pValue { o["p"] = .number(p) }
            if let r = c.ratio { o["ratio"] = .number(rounded(r)) }
            if let l = c.ratioLow, l.isFinite { o["ratioLow"] = .number(rounded(l)) }
            if let h = c.ratioHigh, h.isFinite { o["ratioHigh"] = .number(rounded(h)) }
            o["regressed"] = .bool(c.regressed)
            return .object(o)
        }
        func kinds(_ list: [BenchKindChange]) -> JSONValue {
            .array(list.map { ["trace": .string($0.trace), "kind": .string($0.kind.name)] })
        }
        var o: JSONObject = [
            "paired": .bool(paired), "threshold": .number(threshold), "fdr": .number(fdr),
            "metrics": .array(metrics.map { .string($0.rawValue) }), "figures": .integer(Int64(changes.count)),
            "tested": .integer(Int64(tested)), "belowResolution": .integer(Int64(belowResolution)),
            "regressions": .integer(Int64(regressions.count)), "newTraces": .array(newTraces.map { .string($0) }),
            "removedTraces": .array(removedTraces.map { .string($0) }), "newKinds": kinds(newKinds), "removedKinds": kinds(removedKinds),
            "changes": .array(changes.map(change)),
        ]
        if let runsNeeded { o["runsNeeded"] = .integer(Int64(runsNeeded)) }
        if let drift { o["drift"] = .number(rounded(drift)) }
        if !kindShifts.isEmpty {
            o["kinds"] = .array(
                kindShifts.map { k in
                    var ko: JSONObject = [
                        "row": .string(k.row), "metric": .string(k.metric.rawValue), "traces": .integer(Int64(k.traces)),
                        "slower": .integer(Int64(k.slower)), "p": .number(k.pValue), "ratio": .number(rounded(k.ratio)),
                    ]
                    if k.ratioLow.isFinite { ko["ratioLow"] = .number(rounded(k.ratioLow)) }
                    if k.ratioHigh.isFinite { ko["ratioHigh"] = .number(rounded(k.ratioHigh)) }
                    if let r = k.processes {
                        var ro: JSONObject = [
                            "old": .integer(Int64(r.old)), "new": .integer(Int64(r.new)), "p": .number(r.pValue),
                            "ratio": .number(rounded(r.ratio)),
                        ]
                        if r.ratioLow.isFinite { ro["ratioLow"] = .number(rounded(r.ratioLow)) }
                        if r.ratioHigh.isFinite { ro["ratioHigh"] = .number(rounded(r.ratioHigh)) }
                        ko["processes"] = .object(ro)
                    }
                    ko["regressed"] = .bool(k.regressed)
                    return .object(ko)
                })
        }
        if let tracesNeeded { o["tracesNeeded"] = .integer(Int64(tracesNeeded)) }
        return .object(o)
    }
}

extension BenchFormat {
    /// The report's JSON text, with a `comparison` member when there is one.
    package static func jsonText(_ report: BenchReport, comparison: BenchComparison?) -> String {
        guard let comparison, case .object(var o) = report.json else { return report.jsonText }
        o["comparison"] = comparison.json
        return JSONWriter.string(.object(o), style: .pretty) + "\n"
    }
}
