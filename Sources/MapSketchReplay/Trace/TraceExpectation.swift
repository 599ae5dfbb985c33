package import MapSketchGeometry

/// What a trace declares about its own outcome: the header's `expect` member.
///
/// ```json
/// {"t":0,"type":"header","version":1,"expect":{"error":"2:33: phase: expected one of"}, …}
/// {"t":0,"type":"header","version":1,"expect":{"tolerance":{"absolute":1e-6}}, …}
/// {"t":0,"type":"header","version":1,"expect":{"refusedCalls":[2,5]}, …}
/// ```
///
/// - ``error``: the trace is meant to fail. Its golden holds the error, and the check passes only
///   when reading or setting up the trace fails with an error whose text
///   (`FILE:LINE:COLUMN: message`) contains this string. A trace that fails without declaring it
///   is an input error, never recorded as a golden.
/// - ``tolerance``: how close the numbers of this trace's output must be to its golden's (the
///   standard 1e-9 + 1e-9·|value| when absent).
/// - ``refusedCalls``: the trace lines whose API call the model is meant to refuse (an index out
///   of range, an unknown layer). Any other refused call is reported, and fails under `--strict`.
///
/// The declaration is read from the first line even when the rest of that line is not a valid
/// header, so a trace can declare the error its own header causes.
package struct TraceExpectation: Hashable, Sendable {
    /// Text the trace's error must contain; nil when the trace is meant to replay.
    package var error: String?
    /// The tolerance of the golden comparison; nil for ``GoldenTolerance/standard``.
    package var tolerance: GoldenTolerance?
    /// The 1-based trace lines whose call is meant to be refused, ascending.
    package var refusedCalls: [Int]

    /// An expectation; the default expects a clean replay compared with the standard tolerance.
    package init(error: String? = nil, tolerance: GoldenTolerance? = nil, refusedCalls: [Int] = []) {
        self.error = error
        self.tolerance = tolerance
        self.refusedCalls = refusedCalls
    }

    /// Whether nothing is declared (the header then has no `expect` member).
    package var isEmpty: Bool { error == nil && tolerance == nil && refusedCalls.isEmpty }

    /// Whether `error` is the one this trace declares: its text contains ``error``.
    package func matches(_ error: InputError) -> Bool {
        guard let expected = self.error else { return false }
        return error.description.contains(expected)
    }

    /// The `expect` member declared on the first non-blank line of a trace's text, read on its
    /// own so that it is found even when the header around it is invalid; nil when the line is
    /// not a JSON object, has no `expect` member, or the member itself is malformed.
    /// - Complexity: O(n) in the length of the first non-blank line.
    package static func declared(inTraceText text: Substring) -> TraceExpectation? {
        var rest = text[...]
        if rest.hasPrefix("\u{FEFF}") { rest = rest.dropFirst() }
        while let nl = rest.firstIndex(of: "\n") {
            let line = rest[..<nl]
            if !line.allSatisfy(\.isWhitespace) { return declared(onLine: line) }
            rest = rest[rest.index(after: nl)...]
        }
        return rest.allSatisfy(\.isWhitespace) ? nil : declared(onLine: rest)
    }

    private static func declared(onLine line: Substring) -> TraceExpectation? {
        guard let value = try? JSONParser.parse(String(line)), let member = value["expect"] else { return nil }
        return try? TraceDecoder.decodeExpectation(member)
    }
}

extension TraceDecoder {
    /// The header's `expect` member.
    /// - Throws: `JSONError` with the path of the offending member.
    static func decodeExpectation(_ v: JSONValue) throws -> TraceExpectation {
        var f = try TraceFields(v, what: "the trace's expectations")
        var e = TraceExpectation()
        if let error = try f.string("error") {
            guard !error.isEmpty else {
                throw JSONError(
                    "expected the text the error must contain, found an empty string", path: [.key("error")])
            }
            e.error = error
        }
        e.tolerance = try f.nested("tolerance", decodeTolerance)
        e.refusedCalls =
            try f.nested("refusedCalls") { v in
                try decodeArray(v, what: "a list of trace lines") { line -> Int in
                    guard let n = line.int64Value.flatMap({ Int(exactly: $0) }), n >= 2 else {
                        throw JSONError(
                            "expected the number of an event line (2 or more), found \(JSONWriter.string(line))")
                    }
                    return n
                }
            }?.sorted() ?? []
        try f.rejectUnknown()
        if e.error != nil, !e.refusedCalls.isEmpty {
            throw JSONError(
                "expected either an error or refused calls: a trace that fails to load makes no call",
                path: [.key("refusedCalls")])
        }
        return e
    }

    static func decodeTolerance(_ v: JSONValue) throws -> GoldenTolerance {
        var f = try TraceFields(v, what: "a tolerance")
        func part(_ key: String, default d: Double) throws -> Double {
            guard let x = try f.double(key) else { return d }
            guard x.isFinite, x >= 0 else {
                throw JSONError("expected a finite number ≥ 0, found \(JSONWriter.format(x))", path: [.key(key)])
            }
            return x
        }
        let t = GoldenTolerance(
            absolute: try part("absolute", default: GoldenTolerance.standard.absolute),
            relative: try part("relative", default: GoldenTolerance.standard.relative))
        try f.rejectUnknown()
        return t
    }
}

extension TraceEncoder {
    /// The header's `expect` member, or nil when nothing is declared.
    static func encodeExpectation(_ e: TraceExpectation) -> JSONValue? {
        guard !e.isEmpty else { return nil }
        var o = JSONObject()
        if let error = e.error { o["error"] = .string(error) }
        if let t = e.tolerance { o["tolerance"] = ["absolute": .number(t.absolute), "relative": .number(t.relative)] }
        if !e.refusedCalls.isEmpty { o["refusedCalls"] = .array(e.refusedCalls.map { .integer(Int64($0)) }) }
        return .object(o)
    }
}
