import MapSketch
import MapSketchGeometry
import Testing

@Suite struct SVGCanvasTests {
    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (-0.0004, "0"), (1.5, "1.5"), (1.23456, "1.235"), (-2.0005, "-2.001"),
        (100.0, "100"), (0.1, "0.1"), (-12.3, "-12.3"), (1e20, "100000000000000000000"), (0.05, "0.05"),
        (Double.nan, "0"), (-Double.infinity, "0"),
        // Beyond the fixed-point range: every digit, no exponent, no trap (a trace with a screen
        // coordinate of 1e36 used to crash replay --svg, render and check here).
        (1e36, "1000000000000000042420637374017961984"), (-1e36, "-1000000000000000042420637374017961984"),
        (9_007_199_254_740_993.0, "9007199254740992"), (0x1p63, "9223372036854775808"),
        (0x1p64 + 0x1p12, "18446744073709555712"), (1e100, "10000000000000000159028911097599180468360808563945281389781327557747838772170381060813469985856815104"),
    ])
    func numberFormattingIsFixed(value: Double, expected: String) {
        #expect(SVGNumber.format(value) == expected)
    }

    @Test func decimalsAreConfigurable() {
        #expect(SVGNumber.format(1.23456, decimals: 1) == "1.2")
        #expect(SVGNumber.format(1.98, decimals: 0) == "2")
    }

    @Test func documentIsDeterministicAndEscaped() {
        func draw() -> String {
            var c = SVGCanvas(width: 100, height: 50)
            c.beginGroup(id: "a<b", opacity: 0.5)
            c.circle(center: ScreenPoint(x: 10, y: 10.0001), radius: 4, style: SVGStyle(fill: .red.withAlpha(0.25)))
            c.path([[ScreenPoint(x: 0, y: 0), ScreenPoint(x: 5, y: 5)]], closed: false, style: SVGStyle(stroke: .blue, strokeWidth: 2, dash: [8, 6]))
            c.text("R&D \"x\"", at: ScreenPoint(x: 1, y: 2), fontSize: 12, fontFamily: "sans-serif", color: .black)
            c.endGroup()
            return c.document()
        }
        let a = draw()
        #expect(a == draw())
        #expect(a == """
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50">
              <g id="a&lt;b" opacity="0.5">
                <circle cx="10" cy="10" r="4" fill="#ff0000" fill-opacity="0.25"/>
                <path d="M0 0 L5 5" fill="none" stroke="#0000ff" stroke-width="2" stroke-dasharray="8 6"/>
                <text x="1" y="2" font-family="sans-serif" font-size="12" text-anchor="middle" fill="#000000">R&amp;D &quot;x&quot;</text>
              </g>
            </svg>

            """)
    }

    @Test func nonFiniteShapesAreSkippedAndCounted() {
        var c = SVGCanvas(width: 10, height: 10)
        c.circle(center: ScreenPoint(x: .nan, y: 0), radius: 1, style: SVGStyle(fill: .red))
        c.path([[ScreenPoint(x: 0, y: 0), ScreenPoint(x: .infinity, y: 1)]], closed: true, style: SVGStyle())
        #expect(c.skippedNonFinite == 2)
        #expect(!c.document().contains("<circle"))
        #expect(!c.document().contains("<path"))
        // Each skipped shape leaves a comment where it would have been drawn.
        #expect(c.document().contains("<!-- circle not drawn: a coordinate is not finite -->"))
        #expect(c.document().contains("<!-- path not drawn: a coordinate is not finite -->"))
    }

    @Test func everyFiniteDoubleFormatsAsItsExactWholeDigits() {
        // The largest double, exactly (309 digits), and a sweep of powers of two compared with
        // an independent decimal doubling.
        let max = SVGNumber.format(.greatestFiniteMagnitude)
        #expect(max.count == 309)
        #expect(max.hasPrefix("17976931348623157081452742373170435679807056752584499659891747680315726078002853876058955"))
        #expect(max.hasSuffix("4858368"))
        var decimal: [UInt8] = [1]  // little-endian decimal digits of 2^e
        for e in 0...1023 {
            if e >= 60 {
                let expected = String(decoding: decimal.reversed().map { $0 + 48 }, as: UTF8.self)
                #expect(SVGNumber.format(Double(sign: .plus, exponent: e, significand: 1)) == expected, "2^\(e)")
            }
            var carry: UInt8 = 0
            for i in decimal.indices {
                let v = decimal[i] * 2 + carry
                decimal[i] = v % 10
                carry = v / 10
            }
            if carry > 0 { decimal.append(carry) }
        }
    }

    @Test func markerShapes() {
        var c = SVGCanvas(width: 100, height: 100)
        let p = ScreenPoint(x: 50, y: 50)
        c.drawMarker(SimpleMarkerSymbol(style: .square, color: .red, size: 10), at: p)
        c.drawMarker(SimpleMarkerSymbol(style: .diamond, color: .red, size: 10, outline: SimpleLineSymbol(color: .black, width: 2)), at: p)
        c.drawMarker(SimpleMarkerSymbol(style: .cross, color: .blue, size: 10), at: p)
        c.drawMarker(SimpleMarkerSymbol(style: .triangle, color: .red, size: 10, xOffset: 5, yOffset: 5), at: p)
        let svg = c.document()
        #expect(svg.contains("<path d=\"M45 45 L55 45 L55 55 L45 55 Z\" fill=\"#ff0000\"/>"))
        #expect(svg.contains("<path d=\"M50 45 L55 50 L50 55 L45 50 Z\" fill=\"#ff0000\" stroke=\"#000000\" stroke-width=\"2\"/>"))
        #expect(svg.contains("<path d=\"M45 50 L55 50 M50 45 L50 55\" fill=\"none\" stroke=\"#0000ff\" stroke-width=\"1\"/>"))
        #expect(svg.contains("<path d=\"M55 40 L60 50 L50 50 Z\" fill=\"#ff0000\"/>"), "offsets: x right, y up")
    }

    @Test func lineDashesAndHatchedFills() {
        var c = SVGCanvas(width: 100, height: 100)
        let pts = [ScreenPoint(x: 0, y: 0), ScreenPoint(x: 10, y: 0), ScreenPoint(x: 10, y: 10)]
        c.drawLine(SimpleLineSymbol(style: .dashDot, color: .black, width: 2), paths: [pts])
        c.drawLine(SimpleLineSymbol(style: .null), paths: [pts])
        c.drawFill(SimpleFillSymbol(style: .forwardDiagonal, color: .green, outline: nil), rings: [pts])
        c.drawFill(SimpleFillSymbol(style: .forwardDiagonal, color: .green, outline: nil), rings: [pts])
        let svg = c.document()
        #expect(svg.contains("stroke-dasharray=\"8 4 2 4\""))
        #expect(svg.components(separatedBy: "<pattern id=\"hatch-forwardDiagonal-008000\"").count == 2, "defined once")
        #expect(svg.contains("fill=\"url(#hatch-forwardDiagonal-008000)\" fill-rule=\"evenodd\""))
        #expect(svg.components(separatedBy: "<path").count == 5, "the null line draws nothing: 1 line + 2 fills + 1 pattern path")
    }

    @Test func drawReportsSymbolMismatch() {
        var c = SVGCanvas(width: 10, height: 10)
        let line = Geometry.polyline(Polyline(paths: [[Point(0, 0), Point(1, 1)]]))
        let ok = c.draw(.simpleMarker(SimpleMarkerSymbol()), geometry: line) { ScreenPoint(x: $0.x, y: $0.y) }
        #expect(!ok)
        #expect(c.draw(.simpleLine(SimpleLineSymbol()), geometry: line) { ScreenPoint(x: $0.x, y: $0.y) })
        #expect(c.draw(.text(TextSymbol(text: "hi")), geometry: line) { ScreenPoint(x: $0.x, y: $0.y) })
        #expect(c.document().contains(">hi</text>"))
    }
}
