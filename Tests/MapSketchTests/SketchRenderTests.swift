import MapSketch
import MapSketchGeometry
import Testing

@Suite @MainActor struct SketchRenderTests {
    let square = Polygon(rings: [[Point(0, 0), Point(0, 100), Point(100, 100), Point(100, 0)]])

    @Test func drawsMainSymbolMidVerticesVerticesSelectedVertexAndNumbersInThatOrder() throws {
        let h = try SketchHarness(geometry: .polygon(square))
        h.tap(Point(0, 100))
        h.sketch.symbology.showsVertexNumbers = true
        let svg = h.map.renderSVG()
        #expect(svg == """
            <svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">
              <g id="layer-Sketch">
                <g id="sketch-main">
                  <path d="M200 200 L200 100 L300 100 L300 200 Z" fill="#0070ff" fill-opacity="0.25" fill-rule="evenodd" stroke="#0070ff" stroke-width="2"/>
                </g>
                <g id="sketch-mid-vertices">
                  <circle cx="200" cy="150" r="4" fill="#808080" fill-opacity="0.8"/>
                  <circle cx="250" cy="100" r="4" fill="#808080" fill-opacity="0.8"/>
                  <circle cx="300" cy="150" r="4" fill="#808080" fill-opacity="0.8"/>
                  <circle cx="250" cy="200" r="4" fill="#808080" fill-opacity="0.8"/>
                </g>
                <g id="sketch-vertices">
                  <path d="M195 195 L205 195 L205 205 L195 205 Z" fill="#ffffff" stroke="#000000" stroke-width="1"/>
                  <path d="M295 95 L305 95 L305 105 L295 105 Z" fill="#ffffff" stroke="#000000" stroke-width="1"/>
                  <path d="M295 195 L305 195 L305 205 L295 205 Z" fill="#ffffff" stroke="#000000" stroke-width="1"/>
                </g>
                <g id="sketch-selected-vertex">
                  <path d="M194 94 L206 94 L206 106 L194 106 Z" fill="#ff0000" stroke="#000000" stroke-width="1"/>
                </g>
                <g id="sketch-vertex-numbers">
                  <text x="208" y="192" font-family="sans-serif" font-size="10" text-anchor="middle" fill="#000000">1</text>
                  <text x="208" y="92" font-family="sans-serif" font-size="10" text-anchor="middle" fill="#000000">2</text>
                  <text x="308" y="92" font-family="sans-serif" font-size="10" text-anchor="middle" fill="#000000">3</text>
                  <text x="308" y="192" font-family="sans-serif" font-size="10" text-anchor="middle" fill="#000000">4</text>
                </g>
              </g>
            </svg>

            """)
        #expect(h.map.renderSVG() == svg, "deterministic")
    }

    @Test func onlyMarkersOnScreenAreDrawn() throws {
        // 10,000 vertices along a line; the 400 pt screen at resolution 1 sees x in -200…200.
        let line = Polyline(paths: [(0..<10_000).map { Point(Double($0 * 10 - 50_000), 0) }])
        let h = try SketchHarness(geometry: .polyline(line))
        let svg = h.map.renderSVG()
        let vertices = svg.components(separatedBy: "<g id=\"sketch-vertices\">")[1].components(separatedBy: "</g>")[0]
        let squares = vertices.components(separatedBy: "<path").count - 1
        // Vertices with |x| <= 200 + 7 (half the largest marker + 1 pt): x = -200…200 step 10.
        #expect(squares == 41)
        let mids = svg.components(separatedBy: "<circle").count - 1
        #expect(mids == 42, "mid-vertices at -205…205 step 10 within ±207")
    }

    @Test func customSymbolsAndPointSketchesHaveNoMainSymbol() throws {
        let h = try SketchHarness(.multipoint)
        h.sketch.symbology.vertexSymbol = .simpleMarker(SimpleMarkerSymbol(style: .circle, color: .green, size: 6))
        h.tap(Point(10, 10))
        h.tap(Point(-50, 10))
        let svg = h.map.renderSVG()
        #expect(!svg.contains("sketch-main"))
        #expect(svg.contains("<circle cx=\"210\" cy=\"190\" r=\"3\" fill=\"#008000\"/>"))
        #expect(svg.contains("fill=\"#ff0000\""), "the second point is selected")
    }

    @Test func aMainSymbolThatDoesNotFitIsReported() throws {
        let h = try SketchHarness(geometry: .polyline(Polyline(paths: [[Point(0, 0), Point(10, 0)]])))
        h.sketch.symbology.mainSymbol = .simpleFill(SimpleFillSymbol())
        #expect(h.map.renderSVG().contains("<!-- sketch main symbol does not fit a polyline -->"))
    }
}
