/// Line-based comparison of texts that must match exactly (SVG goldens).
package enum GoldenText {
    /// Characters shown before the first differing character of a long line.
    static let before = 40
    /// Characters shown from the first differing character on.
    static let after = 80

    /// The first differing line as `line N, column C differs`, then both lines — or, when a line
    /// is long, a window of both around the first differing character (`…` marks what is cut), so
    /// the two shown parts are where they differ, not their common prefix. Nil when the texts are
    /// equal.
    /// - Complexity: O(n) in the length of the texts.
    package static func firstDifference(expected: String, actual: String) -> String? {
        guard expected != actual else { return nil }
        var e = expected.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        var a = actual.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        var lineNumber = 0
        while true {
            lineNumber += 1
            let x = e.next()
            let y = a.next()
            if x == nil && y == nil { return "the texts differ" }
            if x == y { continue }
            let xs = x.map(String.init)
            let ys = y.map(String.init)
            let column = commonPrefixLength(xs ?? "", ys ?? "")
            var s = "line \(lineNumber), column \(column + 1) differs\n"
            s += "    - expected \(xs.map { window($0, at: column) } ?? "(end of file)")\n"
            s += "    + actual   \(ys.map { window($0, at: column) } ?? "(end of file)")"
            return s
        }
    }

    /// How many characters two strings share at their start.
    static func commonPrefixLength(_ a: String, _ b: String) -> Int {
        var n = 0
        for (x, y) in zip(a, b) {
            guard x == y else { break }
            n += 1
        }
        return n
    }

    /// The part of `line` from ``before`` characters before `column` to ``after`` characters
    /// after it, with `…` where the line is cut.
    static func window(_ line: String, at column: Int) -> String {
        let chars = Array(line)
        guard chars.count > before + after else { return line }
        let start = max(0, min(column - before, chars.count - before - after))
        let end = min(chars.count, start + before + after)
        return (start > 0 ? "…" : "") + String(chars[start..<end]) + (end < chars.count ? "…" : "")
    }
}
