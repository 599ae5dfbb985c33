/// Formats numbers for SVG output deterministically: rounded half away from zero to at most
/// `decimals` decimals (default 3), trailing zeros dropped, never `-0`, never exponent notation.
///
/// Every finite value formats, however large: beyond the fixed-point range (|value| × 10^decimals
/// ≥ 9·10^18) the value is printed whole, with all its digits (309 for the largest double).
/// The formatting uses integer arithmetic only, so it gives the same bytes on every platform.
package enum SVGNumber {
    /// `value` formatted with at most `decimals` (0…6) decimals; non-finite values format as `0`
    /// (the canvas skips shapes with non-finite coordinates before they get here).
    /// - Complexity: O(1) in the fixed-point range, O(d²) for a whole number of d digits beyond it.
    package static func format(_ value: Double, decimals: Int = 3) -> String {
        let d = max(0, min(6, decimals))
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<d { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        // Values too large for Int64 fixed point are printed without decimals.
        guard scaled < 9.0e18 else {
            let whole = abs(value).rounded(.toNearestOrAwayFromZero)
            return (value < 0 ? "-" : "") + wholeDigits(whole)
        }
        let n = Int64(scaled)
        if n == 0 { return "0" }
        var p: Int64 = 1
        for _ in 0..<d { p *= 10 }
        let intPart = n / p
        var frac = n % p
        var s = value < 0 ? "-" : ""
        s += String(intPart)
        if frac != 0 {
            var digits = d
            while frac % 10 == 0 {
                frac /= 10
                digits -= 1
            }
            let f = String(frac)
            s += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return s
    }

    /// The exact decimal digits of a whole, finite, non-negative double of any size: its 53-bit
    /// significand shifted left by its binary exponent, in base-10⁹ limbs.
    static func wholeDigits(_ whole: Double) -> String {
        guard whole >= 0x1p53 else { return String(UInt64(whole)) }
        // whole = significand · 2^shift, with an integer significand below 2^53 and shift ≥ 1.
        let significand = whole.significandBitPattern | (1 << 52)
        var shift = Int(whole.exponent) - 52
        let base: UInt64 = 1_000_000_000
        var limbs: [UInt64] = [significand % base, (significand / base) % base, significand / (base * base)]
        while shift > 0 {
            let k = min(shift, 29)  // a limb is below 10^9 < 2^30: limb << 29 plus a carry fits 64 bits
            var carry: UInt64 = 0
            for i in limbs.indices {
                let v = limbs[i] << UInt64(k) + carry
                limbs[i] = v % base
                carry = v / base
            }
            while carry > 0 {
                limbs.append(carry % base)
                carry /= base
            }
            shift -= k
        }
        while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
        var s = String(limbs[limbs.count - 1])
        for limb in limbs.dropLast().reversed() {
            let digits = String(limb)
            s += String(repeating: "0", count: 9 - digits.count) + digits
        }
        return s
    }
}

/// Where text sits relative to its anchor point: the SVG `text-anchor` values.
package enum SVGTextAnchor: String, Hashable, Sendable, CaseIterable {
    /// The text begins at the anchor.
    case start
    /// The text is centred on the anchor.
    case middle
    /// The text ends at the anchor.
    case end
}

/// How an SVG shape is painted: fill, stroke, stroke width, dash pattern.
package struct SVGStyle: Hashable, Sendable {
    /// The fill color (nil: `fill="none"`).
    package var fill: Color?
    /// A paint-server reference used instead of `fill` (e.g. a hatch pattern id).
    package var fillPattern: String?
    /// The stroke color (nil: no stroke).
    package var stroke: Color?
    /// The stroke width in points.
    package var strokeWidth: Double
    /// The dash array in points (nil: solid).
    package var dash: [Double]?
    /// `evenodd` fill rule when true (polygons with holes), else `nonzero`.
    package var evenOdd: Bool

    /// Creates a style.
    package init(
        fill: Color? = nil, fillPattern: String? = nil, stroke: Color? = nil, strokeWidth: Double = 1,
        dash: [Double]? = nil, evenOdd: Bool = false
    ) {
        self.fill = fill
        self.fillPattern = fillPattern
        self.stroke = stroke
        self.strokeWidth = strokeWidth
        self.dash = dash
        self.evenOdd = evenOdd
    }
}

/// A small deterministic SVG writer in screen coordinates (points, y down).
///
/// Shapes are appended in drawing order; groups carry opacity. Numbers go through
/// `SVGNumber.format` and attributes are written in a fixed order, so the same
/// drawing calls always give byte-identical documents (suitable for golden files). Shapes with a
/// non-finite coordinate are not drawn: a comment stands in their place
/// (`<!-- circle not drawn: a coordinate is not finite -->`) and ``skippedNonFinite`` counts them.
///
/// ```swift
/// var c = SVGCanvas(width: 100, height: 50)
/// c.circle(center: ScreenPoint(x: 10, y: 10), radius: 4, style: SVGStyle(fill: .red))
/// let svg = c.document()
/// ```
package struct SVGCanvas: Sendable {
    /// The canvas width in points.
    package let width: Double
    /// The canvas height in points.
    package let height: Double
    /// Decimals kept for coordinates (default 3).
    package let decimals: Int
    /// How many shapes were skipped because a coordinate was NaN or infinite.
    package private(set) var skippedNonFinite: Int = 0

    private var body: String = ""
    private var defs: [String] = []
    private var defIDs: Set<String> = []
    private var depth: Int = 1

    /// Creates an empty canvas of the given size in points.
    package init(width: Double, height: Double, decimals: Int = 3) {
        self.width = width
        self.height = height
        self.decimals = decimals
    }

    /// Formats a number with the canvas's decimals.
    package func num(_ v: Double) -> String { SVGNumber.format(v, decimals: decimals) }

    // MARK: Structure

    /// Opens a `<g>` group with an optional id (escaped) and opacity (written only when < 1).
    package mutating func beginGroup(id: String? = nil, opacity: Double = 1) {
        var s = "<g"
        if let id { s += " id=\"\(XMLEscaping.escape(id))\"" }
        if opacity < 1 { s += " opacity=\"\(SVGNumber.format(max(0, opacity)))\"" }
        line(s + ">")
        depth += 1
    }

    /// Closes the innermost group.
    package mutating func endGroup() {
        depth = max(1, depth - 1)
        line("</g>")
    }

    /// Adds a definition (pattern, marker) once per id; later calls with the same id are ignored.
    package mutating func define(id: String, _ markup: String) {
        guard defIDs.insert(id).inserted else { return }
        defs.append(markup)
    }

    /// Appends raw, already-escaped markup as one line (for callers' custom elements).
    package mutating func raw(_ markup: String) { line(markup) }

    /// Appends an XML comment saying `text`: escaped like any text, and with every `--` (which a
    /// comment may not contain) broken up as `- -`, so the document stays well-formed whatever
    /// the text (a layer name, an error message).
    package mutating func comment(_ text: String) {
        var safe = XMLEscaping.escape(text)
        while safe.contains("--") { safe = safe.replacingOccurrences(of: "--", with: "- -") }
        line("<!-- " + safe + " -->")
    }

    // MARK: Shapes

    /// A circle.
    package mutating func circle(center: ScreenPoint, radius: Double, style: SVGStyle) {
        guard finite(center.x, center.y, radius) else { return skip("circle") }
        line("<circle cx=\"\(num(center.x))\" cy=\"\(num(center.y))\" r=\"\(num(radius))\"\(attrs(style))/>")
    }

    /// An axis-aligned rectangle from its top-left corner.
    package mutating func rect(x: Double, y: Double, width w: Double, height h: Double, style: SVGStyle) {
        guard finite(x, y, w, h) else { return skip("rect") }
        line("<rect x=\"\(num(x))\" y=\"\(num(y))\" width=\"\(num(w))\" height=\"\(num(h))\"\(attrs(style))/>")
    }

    /// A line segment.
    package mutating func line(from a: ScreenPoint, to b: ScreenPoint, style: SVGStyle) {
        guard finite(a.x, a.y, b.x, b.y) else { return skip("line") }
        line("<line x1=\"\(num(a.x))\" y1=\"\(num(a.y))\" x2=\"\(num(b.x))\" y2=\"\(num(b.y))\"\(attrs(style))/>")
    }

    /// A path of one or more parts; `closed` closes every part (`Z`), as for polygon rings.
    /// Parts with no vertex are ignored; nothing is written when every part is empty.
    package mutating func path(_ parts: [[ScreenPoint]], closed: Bool, style: SVGStyle) {
        var d = ""
        var any = false
        for part in parts where !part.isEmpty {
            for (i, p) in part.enumerated() {
                guard finite(p.x, p.y) else { return skip("path") }
                if !d.isEmpty { d += " " }
                d += (i == 0 ? "M" : "L") + num(p.x) + " " + num(p.y)
            }
            if closed { d += " Z" }
            any = true
        }
        guard any else { return }
        line("<path d=\"\(d)\"\(attrs(style))/>")
    }

    /// Text anchored at `at` (its start, middle or end), optionally rotated by `angle` degrees
    /// counter-clockwise about the anchor.
    package mutating func text(
        _ string: String, at p: ScreenPoint, fontSize: Double, fontFamily: String, color: Color,
        anchor: SVGTextAnchor = .middle, angle: Double = 0
    ) {
        guard finite(p.x, p.y, fontSize, angle) else { return skip("text") }
        var s = "<text x=\"\(num(p.x))\" y=\"\(num(p.y))\" font-family=\"\(XMLEscaping.escape(fontFamily))\""
        s += " font-size=\"\(num(fontSize))\" text-anchor=\"\(anchor.rawValue)\" fill=\"\(color.hex)\""
        if color.alpha < 1 { s += " fill-opacity=\"\(SVGNumber.format(color.alpha))\"" }
        if angle != 0 { s += " transform=\"rotate(\(num(-angle)) \(num(p.x)) \(num(p.y)))\"" }
        line(s + ">" + XMLEscaping.escape(string) + "</text>")
    }

    /// A label: text anchored at `at` drawn over a `halo` outline (SVG `paint-order="stroke"`)
    /// so it stays readable on top of lines and markers, optionally bold. For pictures that
    /// annotate a map (a golden's diff picture), not for symbols.
    package mutating func label(
        _ string: String, at p: ScreenPoint, fontSize: Double, color: Color, halo: Color = .white,
        anchor: SVGTextAnchor = .start, bold: Bool = false, fontFamily: String = "sans-serif"
    ) {
        guard finite(p.x, p.y, fontSize) else { return skip("label") }
        var s = "<text x=\"\(num(p.x))\" y=\"\(num(p.y))\" font-family=\"\(XMLEscaping.escape(fontFamily))\""
        s += " font-size=\"\(num(fontSize))\"" + (bold ? " font-weight=\"bold\"" : "")
        s += " text-anchor=\"\(anchor.rawValue)\" fill=\"\(color.hex)\""
        s += " stroke=\"\(halo.hex)\" stroke-width=\"\(num(max(2, fontSize / 4)))\" stroke-linejoin=\"round\" paint-order=\"stroke\""
        line(s + ">" + XMLEscaping.escape(string) + "</text>")
    }

    /// A closed polygon through `points` (a marker's outline: a triangle, a square, an arrow head).
    package mutating func polygon(_ points: [ScreenPoint], style: SVGStyle) {
        path([points], closed: true, style: style)
    }

    // MARK: Output

    /// The complete SVG document (UTF-8 text ending in a newline).
    package func document() -> String {
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(num(width))\" height=\"\(num(height))\""
        s += " viewBox=\"0 0 \(num(width)) \(num(height))\">\n"
        if !defs.isEmpty {
            s += "  <defs>\n"
            for d in defs { s += "    " + d + "\n" }
            s += "  </defs>\n"
        }
        s += body
        s += "</svg>\n"
        return s
    }

    // MARK: Internals

    private mutating func line(_ s: String) {
        body += String(repeating: "  ", count: depth) + s + "\n"
    }

    /// Counts a shape skipped for a non-finite coordinate and leaves a comment where it would
    /// have been drawn (`<!-- path not drawn: a coordinate is not finite -->`).
    mutating func skip(_ shape: String) {
        skippedNonFinite += 1
        line("<!-- \(shape) not drawn: a coordinate is not finite -->")
    }

    private func finite(_ v: Double...) -> Bool { v.allSatisfy(\.isFinite) }

    private func attrs(_ st: SVGStyle) -> String {
        var s = ""
        if let pattern = st.fillPattern {
            s += " fill=\"url(#\(XMLEscaping.escape(pattern)))\""
        } else if let f = st.fill {
            s += " fill=\"\(f.hex)\""
            if f.alpha < 1 { s += " fill-opacity=\"\(SVGNumber.format(max(0, f.alpha)))\"" }
        } else {
            s += " fill=\"none\""
        }
        if st.evenOdd { s += " fill-rule=\"evenodd\"" }
        if let k = st.stroke {
            s += " stroke=\"\(k.hex)\" stroke-width=\"\(num(st.strokeWidth))\""
            if k.alpha < 1 { s += " stroke-opacity=\"\(SVGNumber.format(max(0, k.alpha)))\"" }
            if let dash = st.dash, !dash.isEmpty {
                s += " stroke-dasharray=\"" + dash.map { num($0) }.joined(separator: " ") + "\""
            }
        }
        return s
    }
}
