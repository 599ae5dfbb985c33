import Foundation
import MapSketch
import MapSketchReplay

/// One self-contained HTML page with every trace a check did not pass: for each failing trace the
/// expected, actual and overlay pictures, the text diff and an excerpt of the event log; for each
/// input error its `file:line:column` message. No script, no network: styles are inline and the
/// pictures are embedded as `data:` URIs, so the page can be attached to a CI run and opened
/// anywhere.
///
/// Sections are built as results arrive (``add(_:)``) and hold only their own text, so a long
/// check keeps only what the page will show.
package struct GoldenHTMLReport: Sendable {
    /// The page title.
    package var title: String
    private var sections: [String] = []
    private var index: [(anchor: String, name: String, kind: String)] = []
    /// The traces that passed within the tolerance but not byte for byte, with how.
    private var drifted: [(name: String, drift: GoldenDrift)] = []
    /// How many results were added (passing ones included).
    package private(set) var checked = 0

    /// An empty report.
    package init(title: String = "mapsketch check") {
        self.title = title
    }

    /// Whether any failing trace or input error was added.
    package var isEmpty: Bool { sections.isEmpty }

    /// Adds a result: a section when it failed or is an input error; one that passed within the
    /// tolerance but not byte for byte joins the page's list of drifted goldens; passing and
    /// recorded ones are only counted.
    package mutating func add(_ r: GoldenResult) {
        checked += 1
        let anchor = "t\(sections.count + 1)"
        let name = r.goldenCase.name
        var s = ""
        switch r.status {
        case .inputError(let e):
            index.append((anchor, name, "input error"))
            s +=
                "<section id=\"\(anchor)\" class=\"error\">\n<h2>\(esc(name)) <span class=\"tag\">input error</span></h2>\n"
            s += "<p class=\"path\">\(esc(r.goldenCase.displayPath))</p>\n"
            s +=
                "<p>The trace cannot be read or set up, and it does not declare this error (<code>expect.error</code>); nothing was compared or recorded.</p>\n"
            s += "<pre class=\"diff\">\(esc(e.description))</pre>\n</section>\n"
        case .failed(let f):
            index.append((anchor, name, "failed"))
            s += "<section id=\"\(anchor)\">\n<h2>\(esc(name)) <span class=\"tag\">failed</span></h2>\n"
            s +=
                "<p class=\"path\">\(esc(r.goldenCase.displayPath)) · \(f.differingNumbers) differing number\(f.differingNumbers == 1 ? "" : "s")</p>\n"
            if let p = f.pictures {
                s += "<div class=\"pictures\">\n"
                for (caption, svg) in [("expected", p.expected), ("actual", p.actual), ("overlay", p.overlay)] {
                    s +=
                        "<figure><img alt=\"\(caption)\" src=\"data:image/svg+xml;base64,\(Data(svg.utf8).base64EncodedString())\">"
                    s += "<figcaption>\(caption)</figcaption></figure>\n"
                }
                s += "</div>\n"
            }
            s += "<h3>Differences</h3>\n<pre class=\"diff\">\(esc(f.report))</pre>\n"
            if let log = f.logExcerpt { s += "<h3>Event log (actual)</h3>\n<pre class=\"log\">\(esc(log))</pre>\n" }
            if !r.warnings.isEmpty {
                s += "<h3>Warnings</h3>\n<pre class=\"log\">\(esc(r.warnings.joined(separator: "\n")))</pre>\n"
            }
            s += "</section>\n"
        case .drifted(let d):
            drifted.append((name, d))
            return
        case .passed, .recorded, .unchanged:
            return
        }
        sections.append(s)
    }

    /// The page, with `summary` (e.g. the check's last line) at the top.
    /// - Complexity: O(n) in the size of the sections.
    package func html(summary: String) -> String {
        var s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        s += "<title>\(esc(title))</title>\n<style>\n\(Self.style)</style>\n</head>\n<body>\n"
        s += "<h1>\(esc(title))</h1>\n<p class=\"summary\">\(esc(summary))</p>\n"
        if sections.isEmpty {
            s += "<p class=\"ok\">Every trace passed.</p>\n"
        }
        if !drifted.isEmpty {
            s += "<details class=\"drift\"><summary>\(drifted.count) passed within the tolerance, not byte for byte"
            s += " (rewrite these goldens with <code>--record drifted</code>)</summary>\n<ul>\n"
            for d in drifted { s += "<li>\(esc(d.name)): \(esc(d.drift.description))</li>\n" }
            s += "</ul></details>\n"
        }
        if !sections.isEmpty {
            s += "<ol class=\"index\">\n"
            for e in index { s += "<li><a href=\"#\(e.anchor)\">\(esc(e.name))</a> — \(e.kind)</li>\n" }
            s += "</ol>\n"
            s += sections.joined()
        }
        s += "</body>\n</html>\n"
        return s
    }

    private func esc(_ text: String) -> String { XMLEscaping.escape(text) }

    static let style = """
        body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 24px; color: #222; background: #fafafa; }
        h1 { font-size: 22px; margin: 0 0 4px; }
        .summary { color: #444; margin: 0 0 16px; }
        .ok { color: #1b7f3b; font-weight: bold; }
        .drift { color: #444; font-size: 14px; margin: 0 0 16px; }
        .index { columns: 2; font-size: 14px; }
        section { background: #fff; border: 1px solid #ddd; border-left: 6px solid #d62728; border-radius: 4px; padding: 12px 16px; margin: 18px 0; }
        section.error { border-left-color: #8c564b; }
        h2 { font-size: 17px; margin: 0 0 4px; }
        h3 { font-size: 14px; margin: 14px 0 4px; }
        .tag { font-size: 12px; font-weight: normal; color: #fff; background: #d62728; border-radius: 3px; padding: 1px 6px; vertical-align: middle; }
        section.error .tag { background: #8c564b; }
        .path { color: #666; font-size: 13px; margin: 0 0 8px; }
        .pictures { display: flex; flex-wrap: wrap; gap: 8px; }
        figure { margin: 0; flex: 1 1 30%; min-width: 280px; max-width: 640px; }
        figure img { width: 100%; height: auto; border: 1px solid #ccc; background: #fff; }
        figcaption { font-size: 12px; color: #555; text-align: center; }
        pre { background: #f4f4f4; border: 1px solid #e2e2e2; padding: 8px; overflow-x: auto; font-size: 12px; white-space: pre-wrap; word-break: break-all; }

        """
}
