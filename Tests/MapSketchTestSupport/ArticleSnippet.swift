public import Foundation

/// A Swift example of a DocC article kept in step with the copy a test compiles and runs.
///
/// The test file holds the example between `// BEGIN NAME` and `// END NAME` lines; the article
/// shows it in a ```` ```swift ```` block, after its `import` lines.
public enum ArticleSnippet {
    /// The example as the article shows it (without its imports) and as the test file holds it;
    /// nil for either when it cannot be found.
    /// - Parameters:
    ///   - article: the article's file.
    ///   - containing: text that picks the article's block (e.g. `func sketchThreeTapsAndUndo`).
    ///   - source: the test file.
    ///   - marker: the NAME of the BEGIN/END lines.
    public static func both(
        article: URL, containing: String, source: URL, marker: String
    ) throws -> (shown: String?, imports: [String], tested: String?) {
        let text = try String(contentsOf: article, encoding: .utf8)
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "\n```")[0]
        }
        let block = blocks.first { $0.contains(containing) }
        let lines = block?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
        let imports = lines.prefix { $0.hasPrefix("import ") || $0.isEmpty }.filter { !$0.isEmpty }.map(String.init)
        let shown = block.map { _ in lines.drop { $0.hasPrefix("import ") || $0.isEmpty }.joined(separator: "\n") }
        let code = try String(contentsOf: source, encoding: .utf8)
        guard let begin = code.range(of: "// BEGIN \(marker)\n"), let end = code.range(of: "\n// END \(marker)"),
            begin.upperBound <= end.lowerBound
        else { return (shown, imports, nil) }
        return (shown, imports, String(code[begin.upperBound..<end.lowerBound]))
    }
}

extension ArticleSnippet {
    /// The `// BEGIN NAME` … `// END NAME` regions of `source`, by name, each without its
    /// marker lines and without the indentation of its BEGIN line.
    public static func regions(in source: String) -> [String: String] {
        var out: [String: String] = [:]
        var open: (name: String, indent: Int, lines: [Substring])?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if let current = open {
                if trimmed == "// END \(current.name)" {
                    out[current.name] = current.lines.joined(separator: "\n")
                    open = nil
                } else {
                    let indent = line.prefix { $0 == " " }.count
                    open?.lines.append(line.dropFirst(min(indent, current.indent)))
                }
            } else if trimmed.hasPrefix("// BEGIN ") {
                open = (String(trimmed.dropFirst("// BEGIN ".count)), line.count - trimmed.count, [])
            }
        }
        return out
    }

    /// The ```` ```swift ```` blocks of a Markdown text, in order.
    public static func swiftBlocks(in markdown: String) -> [String] {
        markdown.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
    }
}
