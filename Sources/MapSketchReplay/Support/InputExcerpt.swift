/// How input is echoed into error messages: control characters escaped (a NUL or ESC byte in a
/// file must not reach the terminal raw) and length capped (one bad line can be megabytes).
/// The one rule every reader's "found …" and every trace error message follows.
package enum InputExcerpt {
    /// The most characters of input a "found …" excerpt shows.
    package static let excerptLimit = 40
    /// The most characters a whole error message keeps (its start and its end).
    package static let messageLimit = 960

    /// `text` with control characters escaped and, beyond `limit` characters, cut with `…` and
    /// the full length in UTF-8 bytes: `'AAAAAAAA… (10485760 bytes)'`.
    /// - Complexity: O(min(n, limit)).
    package static func excerpt(_ text: String, limit: Int = excerptLimit) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                return out + "… (\(text.utf8.count) bytes)"
            }
            append(scalar, to: &out)
            count += 1
        }
        return out
    }

    /// A whole message with control characters escaped and, beyond `messageLimit` characters,
    /// its middle replaced by `…`.
    /// - Complexity: O(n).
    package static func message(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = ""
        if scalars.count <= messageLimit {
            for s in scalars { append(s, to: &out) }
            return out
        }
        let head = messageLimit * 3 / 4
        let tail = messageLimit - head
        for s in scalars[..<head] { append(s, to: &out) }
        out += " … "
        for s in scalars[(scalars.count - tail)...] { append(s, to: &out) }
        return out
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || s.value == 0x7F || (0x80..<0xA0).contains(s.value)
    }

    /// Appends one scalar, escaped when it is a control character: `\0 \t \n \r \e`, else `\u{XX}`.
    private static func append(_ s: Unicode.Scalar, to out: inout String) {
        guard isControl(s) else {
            out.unicodeScalars.append(s)
            return
        }
        switch s.value {
        case 0x00: out += "\\0"
        case 0x09: out += "\\t"
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x1B: out += "\\e"
        default: out += "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
        }
    }
}
