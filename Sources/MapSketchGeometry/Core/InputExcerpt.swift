/// The one way input text is quoted in an error message ("expected a number, found 'x1'") —
/// in geometry text, traces and GPS files alike:
/// short and printable, so that a hostile file cannot flood a terminal or drive it with escape
/// sequences.
///
/// Control characters are escaped as JSON escapes them (`\n`, `\r`, `\t`, `\u0000`, `\u001B`),
/// and DEL and the C1 controls (U+007F–U+009F) as `\u007F`…; the text is cut after `limit`
/// characters, with `…` marking the cut.
///
/// ```swift
/// InputExcerpt.quoted("x\u{1B}[2J")            // 'x\u001B[2J'
/// InputExcerpt.jsonString("Circle")            // "Circle"
/// InputExcerpt.quoted(String(repeating: "9", count: 100)).count   // 43: 40 digits, '…' and quotes
/// ```
package enum InputExcerpt {
    /// The default number of characters kept.
    package static let defaultLimit = 40

    /// Raw input text in single quotes, escaped and cut to `limit` characters.
    /// - Complexity: O(`limit`): the text past the cut is not read.
    package static func quoted(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
        "'" + escaped(text, limit: limit, json: false) + "'"
    }

    /// A string value read from JSON as a JSON string literal (double quotes; `"` and `\`
    /// escaped too), cut to `limit` characters.
    /// - Complexity: O(`limit`).
    package static func jsonString(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
        "\"" + escaped(text, limit: limit, json: true) + "\""
    }

    /// The most characters a whole error message keeps (its start and its end).
    package static let messageLimit = 960

    /// Raw input text, escaped and, beyond `limit` characters, cut with `…` and its full length in
    /// UTF-8 bytes: `AAAAAAAA… (10485760 bytes)` (no quotes: the caller's message has its own).
    /// - Complexity: O(`limit`) when the text is native UTF-8.
    package static func excerpt(_ text: some StringProtocol, limit: Int = defaultLimit) -> String {
        let e = escape(text, limit: limit, json: false)
        return e.cut ? e.text + "… (\(text.utf8.count) bytes)" : e.text
    }

    /// A whole error message with control characters escaped and, beyond ``messageLimit``
    /// characters, its middle replaced by ` … `.
    /// - Complexity: O(n).
    package static func message(_ text: some StringProtocol) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count > messageLimit else { return escaped(text, limit: Int.max, json: false) }
        let head = messageLimit * 3 / 4
        let tail = messageLimit - head
        var start = String.UnicodeScalarView(), end = String.UnicodeScalarView()
        start.append(contentsOf: scalars[..<head])
        end.append(contentsOf: scalars[(scalars.count - tail)...])
        return escaped(String(start), limit: Int.max, json: false) + " … " + escaped(String(end), limit: Int.max, json: false)
    }

    static func escaped(_ text: some StringProtocol, limit: Int, json: Bool) -> String {
        let e = escape(text, limit: limit, json: json)
        return e.cut ? e.text + "…" : e.text
    }

    /// The first `limit` characters escaped, and whether there were more.
    private static func escape(_ text: some StringProtocol, limit: Int, json: Bool) -> (text: String, cut: Bool) {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit { return (out, true) }
            count += 1
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\"" where json: out += "\\\""
            case "\\" where json: out += "\\\\"
            default:
                if scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0) {
                    out += "\\u00" + hexByte(UInt8(truncatingIfNeeded: scalar.value))
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return (out, false)
    }
}
