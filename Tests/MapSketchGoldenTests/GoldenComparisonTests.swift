import Foundation
import MapSketchGeometry
import MapSketchReplay
import Testing
@testable import MapSketchGolden

@Suite struct GoldenComparisonTests {
    func diffs(_ e: String, _ a: String, _ tol: GoldenTolerance = .standard) throws -> [GoldenDifference] {
        GoldenComparison.differences(expected: try JSONParser.parse(e), actual: try JSONParser.parse(a), tolerance: tol)
    }

    @Test func numbersWithinTheToleranceMatch() throws {
        #expect(try diffs(#"{"x":1,"y":[0.1,2]}"#, #"{"x":1.0000000000001,"y":[0.1,2]}"#).isEmpty)
        #expect(try diffs(#"{"x":1e6}"#, #"{"x":1000000.0005}"#).isEmpty)  // relative part
        let d = try diffs(#"{"x":1}"#, #"{"x":1.001}"#)
        #expect(d.count == 1)
        #expect(d.first?.path == "x")
        #expect(d.first?.reason.hasPrefix("numbers differ by 0.00099") == true)
    }

    @Test func structureMustMatchExactly() throws {
        #expect(try diffs(#"{"a":[1,2]}"#, #"{"a":[1,2,3]}"#).map(\.reason) == ["expected 2 elements, found 3"])
        #expect(try diffs(#"{"a":1,"b":2}"#, #"{"a":1}"#).map(\.reason) == ["missing member"])
        #expect(try diffs(#"{"a":1}"#, #"{"a":1,"c":true}"#).map(\.path) == ["c"])
        #expect(try diffs(#"{"a":1,"b":2}"#, #"{"b":2,"a":1}"#).map(\.reason) == ["members in another order"])
        #expect(try diffs(#"{"a":"x"}"#, #"{"a":"y"}"#).map(\.reason) == ["values differ"])
        #expect(try diffs(#"{"a":null}"#, #"{"a":0}"#).map(\.reason) == ["expected null, found a number"])
        #expect(try diffs(#"{"a":[{"b":[1,{"c":true}]}]}"#, #"{"a":[{"b":[1,{"c":false}]}]}"#).map(\.path) == ["a[0].b[1].c"])
    }

    @Test func theReportShowsExpectedAndActual() throws {
        let r = GoldenComparison.report(file: "t.expected.json", try diffs(#"{"n":3}"#, #"{"n":4}"#))
        #expect(r.contains("t.expected.json: 1 difference"))
        #expect(r.contains("at n: numbers differ by 1"))
        #expect(r.contains("- expected 3"))
        #expect(r.contains("+ actual   4"))
    }

    @Test func countsEveryDifferingNumberAndTheOtherDifferences() throws {
        let e = try JSONParser.parse(#"{"a":[1,2,3],"b":{"c":1,"d":"x"},"e":[1]}"#)
        let a = try JSONParser.parse(#"{"a":[1,2.5,4],"b":{"c":1.0000000000001,"d":"y","f":0},"e":[1,2]}"#)
        let n = GoldenComparison.compare(expected: e, actual: a)
        #expect(n.differingNumbers == 2)
        #expect(n.total == 5, "2 numbers; d differs, f is extra, e is longer")
        #expect(n.driftingNumbers == 1, "c differs within the tolerance")
        // Beyond the report's limit, the count is exact and the report says so.
        let big = JSONValue.array((0..<200).map { .integer(Int64($0)) })
        let shifted = JSONValue.array((0..<200).map { .integer(Int64($0 + 1)) })
        let all = GoldenComparison.compare(expected: big, actual: shifted)
        #expect(all.differingNumbers == 200 && all.total == 200)
        #expect(all.differences.count == 50)
        let r = GoldenComparison.report(file: "t.expected.json", all.differences, total: all.total)
        #expect(r.hasPrefix("t.expected.json: 200 differences (the first 50 shown)"))
    }

    @Test func textDifferenceNamesTheLineAndColumn() {
        #expect(GoldenText.firstDifference(expected: "a\nb\nc", actual: "a\nb\nc") == nil)
        #expect(GoldenText.firstDifference(expected: "a\nb\nc", actual: "a\nB\nc")?.hasPrefix("line 2, column 1 differs") == true)
        #expect(GoldenText.firstDifference(expected: "a\nb", actual: "a")?.contains("+ actual   (end of file)") == true)
    }

    @Test func aLongLineShowsTheWindowWhereItDiffersNotItsCommonPrefix() throws {
        let prefix = String(repeating: "<circle cx=\"1\" r=\"2\"/>", count: 300)
        let e = prefix + "<path d=\"M0 0 L10 10\"/>" + String(repeating: "x", count: 500)
        let a = prefix + "<path d=\"M0 0 L10 11\"/>" + String(repeating: "x", count: 500)
        let report = try #require(GoldenText.firstDifference(expected: e, actual: a))
        // `<path d="M0 0 L10 1` is shared, then `0` / `1`: column = shared characters + 1.
        let column = prefix.count + "<path d=\"M0 0 L10 1".count + 1
        #expect(report.hasPrefix("line 1, column \(column) differs"))
        let lines = report.split(separator: "\n")
        let shownE = String(lines[1].dropFirst("    - expected ".count))
        let shownA = String(lines[2].dropFirst("    + actual   ".count))
        #expect(shownE != shownA, "the two shown parts differ")
        #expect(shownE.contains("L10 10") && shownA.contains("L10 11"))
        #expect(shownE.hasPrefix("…") && shownE.hasSuffix("…"))
        #expect(shownE.count <= 122)
    }
}
