import Foundation
import MapSketchGeometry
import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchGolden

/// The header's `expect` member: the error a trace is meant to fail with, its golden tolerance,
/// the calls the model is meant to refuse.
@Suite struct TraceExpectationTests {
    static let base = #"{"t":0,"type":"header","version":1,"sketch":{"geometryType":"polyline"}"#

    func header(_ expect: String) -> String { Self.base + #","expect":"# + expect + "}" }

    func decodeError(_ text: String) -> String {
        do {
            _ = try TraceDecoder.decode(text, file: "e.trace.jsonl")
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func decodesEachDeclarationAndRoundTripsThroughTheEncoder() throws {
        let t = try TraceDecoder.decode(
            header(#"{"tolerance":{"absolute":0.001},"refusedCalls":[3,2]}"#) + "\n", file: "e")
        #expect(t.header.expect.tolerance == GoldenTolerance(absolute: 0.001, relative: 1e-9))
        #expect(t.header.expect.refusedCalls == [2, 3])
        #expect(t.header.expect.error == nil)
        let text = TraceEncoder.encode(t)
        #expect(text.contains(#""expect":{"tolerance":{"absolute":0.001,"relative":1e-9},"refusedCalls":[2,3]}"#))
        #expect(try TraceDecoder.decode(text, file: "e").header == t.header)

        let e = try TraceDecoder.decode(header(#"{"error":"2:33: phase"}"#) + "\n", file: "e")
        #expect(e.header.expect == TraceExpectation(error: "2:33: phase"))
        // Nothing declared: no member written.
        #expect(!TraceEncoder.encode(Trace(header: TraceHeader())).contains("expect"))
    }

    @Test func aMalformedDeclarationIsAnErrorAtItsMember() {
        #expect(decodeError(header(#"{"error":5}"#)).hasPrefix("e.trace.jsonl:1:"))
        #expect(decodeError(header(#"{"error":5}"#)).contains("expect.error: expected a string, found a number"))
        #expect(
            decodeError(header(#"{"error":""}"#)).contains("expect.error: expected the text the error must contain"))
        #expect(
            decodeError(header(#"{"tolerance":{"absolute":-1}}"#)).contains(
                "expect.tolerance.absolute: expected a finite number ≥ 0, found -1"))
        #expect(
            decodeError(header(#"{"refusedCalls":[1]}"#)).contains(
                "expect.refusedCalls[0]: expected the number of an event line (2 or more), found 1"))
        #expect(decodeError(header(#"{"errors":"x"}"#)).contains(#"expect.errors: unknown member "errors""#))
        #expect(
            decodeError(header(#"{"error":"x","refusedCalls":[2]}"#)).contains(
                "expected either an error or refused calls"))
    }

    @Test func theDeclarationIsReadFromTheFirstLineEvenWhenTheHeaderIsInvalid() {
        // The header's version is wrong and its layer broken: the declaration is still found.
        let bad = #"{"t":0,"type":"header","version":7,"layers":[{"name":1}],"expect":{"error":"version: expected"}}"#
        #expect(
            TraceExpectation.declared(inTraceText: Substring("\n  \n" + bad + "\n{}\n"))?.error == "version: expected")
        // A first line that is not a header (the missing-header case) can declare it too.
        #expect(
            TraceExpectation.declared(inTraceText: #"{"t":0.1,"type":"touch","expect":{"error":"x"}}"#)?.error == "x")
        // No declaration: not JSON, no member, a malformed member, an empty file.
        #expect(TraceExpectation.declared(inTraceText: "{oops") == nil)
        #expect(TraceExpectation.declared(inTraceText: Substring(Self.base + "}")) == nil)
        #expect(TraceExpectation.declared(inTraceText: #"{"expect":{"error":3}}"#) == nil)
        #expect(TraceExpectation.declared(inTraceText: "") == nil)
    }

    @Test func anErrorMatchesWhenItsTextContainsTheDeclaredOne() {
        let e = InputError(file: "bad.trace.jsonl", line: 2, column: 33, message: "phase: expected one of …")
        #expect(TraceExpectation(error: "2:33: phase").matches(e))
        #expect(TraceExpectation(error: "bad.trace.jsonl:2:33: phase: expected one of …").matches(e))
        #expect(!TraceExpectation(error: "2:34: phase").matches(e))
        #expect(!TraceExpectation().matches(e))
    }

    @Test func theSchemaDeclaresTheExpectMember() throws {
        let schema = try JSONParser.parse(Fixtures.string("Traces/trace.schema.json"))
        let expect = try #require(schema["$defs"]?["header"]?["properties"]?["expect"])
        let props = try #require(expect["properties"]?.objectValue)
        #expect(Set(props.keys) == ["error", "tolerance", "refusedCalls"])
        #expect(expect["additionalProperties"] == .bool(false))
    }

    @Test func everyMalformedCorpusTraceDeclaresItsErrorAndMatchesIt() throws {
        let cases = try GoldenCorpus.cases(under: Fixtures.url("Traces/malformed"))
        #expect(cases.count >= 10)
        for c in cases {
            let text = try String(contentsOf: c.trace, encoding: .utf8)
            let declared = try #require(
                TraceExpectation.declared(inTraceText: Substring(text))?.error, "\(c.name) declares no error")
            let golden = try JSONParser.parse(String(contentsOf: c.expected, encoding: .utf8))
            let error = try #require(golden["error"]?.stringValue)
            #expect(error.contains(declared), "\(c.name): \(error) does not contain \(declared)")
        }
    }
}
