/// Text escaping for XML 1.0 content and attribute values: the one implementation the SVG
/// renderer and the JUnit report share.
package enum XMLEscaping {
    /// `s` with `&`, `<`, `>`, `"` and `'` replaced by their entities and every character XML 1.0
    /// does not allow (C0 controls other than tab, line feed and carriage return; U+FFFE, U+FFFF)
    /// replaced by `?`, so the document stays well-formed whatever the input.
    /// - Complexity: O(n) in the length of `s`.
    package static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t", "\r": out.unicodeScalars.append(ch)
            default:
                if ch.value < 0x20 || ch.value == 0xFFFE || ch.value == 0xFFFF {
                    out += "?"
                } else {
                    out.unicodeScalars.append(ch)
                }
            }
        }
        return out
    }
}
