import MapSketch
import MapSketchGeometry

/// The frame of the self-contained pages (`mapsketch view`, `mapsketch record`): one HTML file
/// with its style, its data as a JSON script element and its script inline — nothing fetched.
enum PageTemplate {
    /// The page: `body`, then the data (`<script type="application/json" id="data">`), then the script.
    static func page(title: String, style: String, body: String, data: JSONValue, script: String) -> String {
        var s = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        s += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1, user-scalable=no\">\n"
        s += "<title>\(XMLEscaping.escape(title))</title>\n<style>\n\(baseStyle)\(style)</style>\n</head>\n<body>\n"
        s += body
        s += "<script type=\"application/json\" id=\"data\">\(scriptSafe(JSONWriter.string(data)))</script>\n"
        s += "<script>\n\(script)</script>\n</body>\n</html>\n"
        return s
    }

    /// JSON that can sit inside a script element: every `<` (only ever inside a string) written
    /// `\u003c`, so no `</script>` or `<!--` ends or changes the element.
    static func scriptSafe(_ json: String) -> String {
        json.replacingOccurrences(of: "<", with: "\\u003c")
    }

    static let baseStyle = """
        body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 16px; color: #222; background: #fafafa; }
        h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 16px 0 4px; } h3 { font-size: 13px; margin: 10px 0 4px; }
        .muted { color: #666; font-size: 13px; margin: 2px 0 8px; }
        button { font-size: 15px; padding: 4px 10px; }
        pre { background: #f4f4f4; border: 1px solid #e2e2e2; padding: 6px; overflow-x: auto; font-size: 12px; white-space: pre-wrap; word-break: break-all; max-height: 320px; }

        """
}
