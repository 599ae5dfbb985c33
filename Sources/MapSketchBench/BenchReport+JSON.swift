import MapSketchReplay
public import MapSketchGeometry

// The JSON document of a bench (`--json`, `--save-baseline`, `--baseline`): schema
// `mapsketch-bench` version 1, described member by member in Benchmarks/bench-report.schema.json.

extension BenchReport {
    /// The report as a JSON value (members in schema order).
    public var json: JSONValue {
        var o: JSONObject = ["schema": .string(Self.schemaName), "schemaVersion": .integer(Int64(Self.schemaVersion))]
        o["warmup"] = .integer(Int64(warmup))
        o["runs"] = .integer(Int64(runs))
        o["counters"] = [
            "time": true, "allocations": .bool(counters.allocations), "instructions": .bool(counters.instructions),
            "unavailable": .array(counters.unavailable.map { .string($0) }),
        ]
        o["traces"] = .array(traces.map(\.json))
        func failure(_ f: BenchFailure) -> JSONValue {
            [
                "trace": .string(f.trace), "file": .string(f.error.file), "line": .integer(Int64(f.error.line)),
                "column": .integer(Int64(f.error.column)), "message": .string(f.error.message),
            ]
        }
        o["failures"] = .array(failures.map(failure))
        o["expectedFailures"] = .array(expectedFailures.map(failure))
        return .object(o)
    }

    /// The report as pretty JSON text with a final newline.
    public var jsonText: String { JSONWriter.string(json, style: .pretty) + "\n" }

    /// Reads a report (a baseline) from its JSON text.
    /// - Throws: ``InputError`` naming `file`, line and column: for a document that is not a bench
    ///   report, one of another schema version (saying which version this build reads), or a
    ///   member missing or of the wrong type.
    /// - Complexity: O(n) in the size of the text.
    public static func decode(_ text: String, file: String) throws(InputError) -> BenchReport {
        do {
            return try JSONParser.decode(text) { value throws -> BenchReport in
                guard value.objectValue != nil else { throw JSONError("expected a bench report (a JSON object), found \(value.kindDescription)") }
                guard value["schema"]?.stringValue == schemaName else {
                    throw JSONError("expected \"\(schemaName)\": this is not a `mapsketch bench` report", path: [.key("schema")])
                }
                let version = try int(value, "schemaVersion", [])
                guard version == schemaVersion else {
                    throw JSONError(
                        "expected schema version \(schemaVersion), found \(version): record the baseline again with this build (--save-baseline)",
                        path: [.key("schemaVersion")])
                }
                let c = try member(value, "counters", [])
                let counters = BenchCounters(allocations: try bool(c, "allocations", [.key("counters")]), instructions: try bool(c, "instructions", [.key("counters")]))
                var traces: [BenchTraceResult] = []
                for (i, t) in try array(value, "traces", []).enumerated() { traces.append(try BenchTraceResult(t, path: [.key("traces"), .index(i)])) }
                func failures(_ key: String) throws -> [BenchFailure] {
                    var out: [BenchFailure] = []
                    for (i, f) in try array(value, key, []).enumerated() {
                        let p: [JSONPathComponent] = [.key(key), .index(i)]
                        out.append(
                            BenchFailure(
                                trace: try string(f, "trace", p),
                                error: InputError(file: try string(f, "file", p), line: try int(f, "line", p), column: try int(f, "column", p), message: try string(f, "message", p))))
                    }
                    return out
                }
                // `expectedFailures` may be absent (a report that has none).
                let expected = value["expectedFailures"] == nil ? [] : try failures("expectedFailures")
                return BenchReport(
                    warmup: try int(value, "warmup", []), runs: try int(value, "runs", []), counters: counters, traces: traces,
                    failures: try failures("failures"), expectedFailures: expected)
            }
        } catch let e as JSONError {
            throw InputError(file: file, line: e.line ?? 1, column: e.column ?? 1, message: e.pathAndMessage)
        } catch {
            throw InputError(file: file, line: 1, column: 1, message: "\(error)")
        }
    }
}

extension BenchTraceResult {
    var json: JSONValue {
        var o: JSONObject = ["name": .string(name), "events": .integer(Int64(events))]
        o["eventsPerSecond"] = .number(rounded(eventsPerSecond))
        o["totalNs"] = integers(totalNanoseconds)
        o["setupNs"] = integers(setupNanoseconds)
        if let allocations { o["allocations"] = integers(allocations) }
        if let bytes { o["bytes"] = integers(bytes) }
        if let instructions { o["instructions"] = integers(instructions) }
        o["kinds"] = .array(kinds.map(\.json))
        return .object(o)
    }

    init(_ v: JSONValue, path p: [JSONPathComponent]) throws {
        var kinds: [BenchKindResult] = []
        for (i, k) in try array(v, "kinds", p).enumerated() { kinds.append(try BenchKindResult(k, path: p + [.key("kinds"), .index(i)])) }
        self.init(
            name: try string(v, "name", p), events: try int(v, "events", p), totalNanoseconds: try unsigned(v, "totalNs", p),
            setupNanoseconds: try unsigned(v, "setupNs", p), allocations: try optionalUnsigned(v, "allocations", p),
            bytes: try optionalUnsigned(v, "bytes", p), instructions: try optionalUnsigned(v, "instructions", p), kinds: kinds)
    }
}

extension BenchKindResult {
    var json: JSONValue {
        var o: JSONObject = ["kind": .string(kind.rawValue), "count": .integer(Int64(count))]
        o["p50Ns"] = .integer(Int64(clamping: p50))
        o["p90Ns"] = .integer(Int64(clamping: p90))
        o["p99Ns"] = .integer(Int64(clamping: p99))
        o["maxNs"] = .integer(Int64(clamping: max))
        o["meanNs"] = .number(rounded(mean))
        o["throughput"] = .number(rounded(throughput))
        if let allocations { o["allocations"] = .integer(Int64(clamping: allocations)) }
        if let bytes { o["bytes"] = .integer(Int64(clamping: bytes)) }
        if let instructions { o["instructions"] = .integer(Int64(clamping: instructions)) }
        if let timed { o["timed"] = .integer(Int64(timed)) }
        o["runs"] = .array(
            runs.map { r in
                var ro: JSONObject = ["count": .integer(Int64(r.count))]
                ro["p50Ns"] = .integer(Int64(clamping: r.p50))
                ro["p90Ns"] = .integer(Int64(clamping: r.p90))
                ro["p99Ns"] = .integer(Int64(clamping: r.p99))
                ro["maxNs"] = .integer(Int64(clamping: r.max))
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
        guard let kind = BenchOperation(rawValue: name) else {
            throw JSONError(
                "expected one of \(BenchOperation.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), found \"\(name)\"",
                path: p + [.key("kind")])
        }
        var runs: [Run] = []
        for (i, r) in try array(v, "runs", p).enumerated() {
            let rp = p + [.key("runs"), .index(i)]
            runs.append(
                Run(
                    count: try int(r, "count", rp), p50: try uint(r, "p50Ns", rp), p90: try uint(r, "p90Ns", rp), p99: try uint(r, "p99Ns", rp),
                    max: try uint(r, "maxNs", rp), mean: try double(r, "meanNs", rp), allocations: try optionalUInt(r, "allocations", rp),
                    bytes: try optionalUInt(r, "bytes", rp), instructions: try optionalUInt(r, "instructions", rp),
                    timed: try optionalUInt(r, "timed", rp).map { Int(clamping: $0) }))
        }
        self.init(
            kind: kind, count: try int(v, "count", p), p50: try uint(v, "p50Ns", p), p90: try uint(v, "p90Ns", p), p99: try uint(v, "p99Ns", p),
            max: try uint(v, "maxNs", p), mean: try double(v, "meanNs", p), runs: runs)
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

/// A figure rounded to 3 decimals, so reports do not carry float noise.
private func rounded(_ x: Double) -> Double { x.isFinite ? (x * 1000).rounded() / 1000 : 0 }
