import Foundation
import MapSketchTestSupport
import Testing

/// The article "Testing your editing code" shows only code that is compiled: each of its Swift
/// blocks is a `// BEGIN NAME` … `// END NAME` region of the Examples package (built and tested by
/// `.ci/run`) or of the benchmark package, verbatim. Change the code there and the article with it.
@Suite struct TestingArticleTests {
    static let article = Fixtures.url("Sources/MapSketchTesting/MapSketchTesting.docc/TestingYourEditingCode.md")
    static let sources = [
        "Examples/Package.swift", "Examples/Sources/FieldRules/FieldRules.swift", "Examples/Sources/fieldcheck/main.swift",
        "Examples/Tests/FieldRulesTests/GoldenTraceTests.swift", "Examples/Tests/FieldRulesTests/GoldenWorkflowTests.swift",
        "Examples/Tests/FieldRulesTests/GestureTests.swift", "Examples/Tests/FieldRulesTests/BenchTests.swift",
        "Benchmarks/Benchmarks/Replay/TraceReport.swift",
    ]

    /// Every region of the compiled sources, by name.
    static func regions() throws -> [String: String] {
        var all: [String: String] = [:]
        for path in sources {
            let found = ArticleSnippet.regions(in: try Fixtures.string(path))
            #expect(!found.isEmpty, "\(path) has no BEGIN/END region")
            for (name, code) in found {
                #expect(all[name] == nil, "the region \(name) is in two files")
                all[name] = code
            }
        }
        return all
    }

    @Test func everySwiftBlockIsCompiledCode() throws {
        let regions = try Self.regions()
        let blocks = ArticleSnippet.swiftBlocks(in: try String(contentsOf: Self.article, encoding: .utf8))
        #expect(blocks.count >= 9)
        for block in blocks {
            let compiled = regions.values.contains(block)
            #expect(
                compiled,
                "a Swift block of TestingYourEditingCode.md is no region of the Examples or benchmark sources:\n\(block.prefix(300))")
        }
    }

    @Test func everyRegionIsShownOnce() throws {
        let blocks = ArticleSnippet.swiftBlocks(in: try String(contentsOf: Self.article, encoding: .utf8))
        for (name, code) in try Self.regions() {
            let shown = blocks.filter { $0 == code }.count
            #expect(shown == 1, "the region \(name) is not shown by the article (or twice)")
        }
    }

    @Test func regionsAreReadWithoutMarkersAndIndentation() {
        let source = "a\n    // BEGIN x\n    func f() {\n        g()\n    }\n    // END x\nb"
        #expect(ArticleSnippet.regions(in: source) == ["x": "func f() {\n    g()\n}"])
        #expect(ArticleSnippet.swiftBlocks(in: "t\n```swift\nlet a = 1\n```\nu\n```bash\nls\n```\n") == ["let a = 1"])
    }
}
