import Foundation
import MapSketch
import MapSketchGeometry
import Testing

/// A graphic in WGS 84 shown on a Web Mercator map is projected by the geometry engine's one
/// Web Mercator formula, bit for bit, whichever way it reaches the map.
@MainActor
@Suite struct GraphicsLayerProjectionTests {
    /// Latitudes (degrees) where the two textbook forms of the Mercator ordinate, ln(tan(π/4 + φ/2))
    /// and atanh(sin φ), round to different doubles: a second copy of the formula written the
    /// other way would give a different last bit exactly there.
    static func latitudesWhereTheFormulasDiffer(count: Int) -> [Double] {
        var found: [Double] = []
        var lat = -85.0
        while lat < 85, found.count < count {
            let phi = lat * .pi / 180
            if log(tan(.pi / 4 + phi / 2)) != atanh(sin(phi)) { found.append(lat) }
            lat += 0.37
        }
        return found
    }

    static func expectSameBits(_ actual: Geometry?, _ expected: Geometry, _ what: String) {
        guard case .point(let a?)? = actual, case .point(let e?) = expected else {
            Issue.record("\(what): not a point: \(String(describing: actual))")
            return
        }
        #expect(a.x.bitPattern == e.x.bitPattern && a.y.bitPattern == e.y.bitPattern, "\(what): \(a) != \(e)")
    }

    @Test func wgs84GraphicsGetTheEnginesWebMercatorCoordinatesExactly() throws {
        let latitudes = Self.latitudesWhereTheFormulasDiffer(count: 24)
        #expect(latitudes.count == 24, "the search finds latitudes where the formulas disagree")
        let points = latitudes.enumerated().map { i, lat in Point(x: -179.5 + Double(i) * 14.9, y: lat) }

        let map = MapView(
            screenSize: ScreenSize(width: 100, height: 100), viewport: Viewport(center: Point(0, 0), resolution: 1000),
            spatialReference: .webMercator)
        // Added while in the map (projected on add) …
        let live = GraphicsLayer(spatialReference: .wgs84)
        try map.addLayer(live, named: "live")
        let liveIDs = try live.add(contentsOf: points.map { Graphic(geometry: .point($0)) })
        // … and added before joining the map (projected when the layer joins).
        let early = GraphicsLayer(spatialReference: .wgs84)
        let earlyIDs = try early.add(contentsOf: points.map { Graphic(geometry: .point($0)) })
        try map.addLayer(early, named: "early")

        for (i, p) in points.enumerated() {
            let expected = try GeometryEngine.project(.point(p), from: .wgs84, to: .webMercator)
            Self.expectSameBits(live.graphic(liveIDs[i])?.geometry, expected, "added in the map, latitude \(p.y)")
            Self.expectSameBits(early.graphic(earlyIDs[i])?.geometry, expected, "joined the map, latitude \(p.y)")
        }
    }
}

@Suite struct SymbolKindTests {
    @Test func rawValuesAreTheNamesWrittenInReports() {
        #expect(
            SymbolKind.allCases.map(\.rawValue) == [
                "simpleMarker", "pictureMarker", "simpleLine", "simpleFill", "text", "composite",
            ])
        #expect(Symbol.simpleLine(SimpleLineSymbol()).kind == .simpleLine)
        #expect("\(SymbolKind.simpleFill)" == "simpleFill")
    }

    @Test func fittingTypesAreWhatFitsAccepts() {
        let marker = Symbol.simpleMarker(SimpleMarkerSymbol())
        let symbols: [Symbol] = [
            marker, .pictureMarker(PictureMarkerSymbol(image: "a.png")), .simpleLine(SimpleLineSymbol()),
            .simpleFill(SimpleFillSymbol()), .text(TextSymbol(text: "t")), .composite([]),
            .composite([marker, .text(TextSymbol(text: "t"))]), .composite([marker, .simpleLine(SimpleLineSymbol())]),
        ]
        for s in symbols {
            for t in GeometryType.allCases { #expect(s.fittingTypes.contains(t) == s.fits(t), "\(s) \(t)") }
        }
        #expect(marker.fittingTypes == [.point, .multipoint])
        #expect(Symbol.composite([]).fittingTypes == Set(GeometryType.allCases))
        #expect(Symbol.composite([marker, .simpleLine(SimpleLineSymbol())]).fittingTypes.isEmpty)
    }
}
