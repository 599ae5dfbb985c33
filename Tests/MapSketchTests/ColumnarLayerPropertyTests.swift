import Foundation
@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// A graphics layer stores graphics as columns; through any mix of adds (one by one, in batches
/// of graphics and of columns), removals (past compaction), updates of geometry, symbol,
/// attributes (changing a field's type) and info template, renderer changes and `dataChanged`,
/// it must answer exactly as a plain dictionary of graphics would: the graphics, their resolved
/// symbols, the mismatch count, callouts, and hit tests against a brute-force scan.
@MainActor
@Suite struct ColumnarLayerPropertyTests {
    static let symbols: [Symbol] = [
        .simpleMarker(SimpleMarkerSymbol(size: 12)), .simpleLine(SimpleLineSymbol(width: 5)),
        .simpleFill(SimpleFillSymbol(outline: SimpleLineSymbol(width: 3))), .text(TextSymbol(text: "t")),
    ]
    static let renderers: [Renderer?] = [
        nil, .simple(symbols[3]),
        .uniqueValue(
            UniqueValueRenderer(
                field: "k", uniqueValues: (0..<4).map { UniqueValue(value: "v\($0)", symbol: symbols[$0]) })),
        .classBreaks(
            ClassBreaksRenderer(
                field: "n", breaks: (1...3).map { ClassBreak(maxValue: Double($0 * 10), symbol: symbols[$0 - 1]) },
                defaultSymbol: symbols[3])),
    ]

    static func geometry(_ r: inout SeededRandom) -> Geometry {
        let c = r.point(in: Envelope(xmin: 0, ymin: 0, xmax: 800, ymax: 800))
        switch r.int(in: 0...6) {
        case 0, 1: return .point(c)
        case 2:
            return .polyline(Polyline(paths: [[c, Point(c.x + r.double(in: -30...30), c.y + r.double(in: -30...30))]]))
        case 3:
            return .polygon(
                Polygon(rings: [[c, Point(c.x, c.y + 20), Point(c.x + 20, c.y + 20), Point(c.x + 20, c.y)]]))
        case 4: return .multipoint(Multipoint(points: [c, Point(c.x + 5, c.y)]))
        case 5: return .point(Point(x: c.x, y: c.y, z: 3))
        default:
            return .polyline(
                Polyline(paths: [[c, Point(c.x + 10, c.y)], [Point(c.x, c.y + 10), Point(c.x + 10, c.y + 10)]]))
        }
    }

    static func attributes(_ r: inout SeededRandom) -> [String: AttributeValue] {
        var a: [String: AttributeValue] = [:]
        if r.int(in: 0...5) > 0 {
            a["k"] =
                [.string("v0"), .string("v1"), .string("v2"), .string("v3"), .string("zz"), .integer(2), .null][
                    r.int(in: 0...6)]
        }
        if r.int(in: 0...5) > 0 {
            a["n"] =
                [.integer(r.int(in: -5...40)), .double(r.double(in: 0...35)), .string("x"), .null][r.int(in: 0...3)]
        }
        if r.int(in: 0...3) == 0 { a["extra\(r.int(in: 0...2))"] = .bool(r.int(in: 0...1) == 0) }
        return a
    }

    static func graphic(_ r: inout SeededRandom) -> Graphic {
        let g = geometry(&r)
        let fitting = symbols.filter { $0.fits(g.type) }
        let own: Symbol? = r.int(in: 0...3) == 0 ? fitting[r.int(in: 0...(fitting.count - 1))] : nil
        let template: InfoTemplate? = [nil, .callout(CalloutTemplate(title: "${k}", detail: "n=${n} ${extra0}"))][
            r.int(in: 0...1)]
        return Graphic(geometry: g, symbol: own, attributes: attributes(&r), infoTemplate: template)
    }

    static func columns(_ graphics: [Graphic]) -> GraphicColumns {
        var names = Set<String>()
        for g in graphics { names.formUnion(g.attributes.keys) }
        return GraphicColumns(
            geometry: GeometryColumn(graphics.map(\.geometry)),
            attributes: names.sorted().map { name in AttributeColumn(name, values: graphics.map { $0.attributes[name] })
            })
    }

    /// Bare geometry hits as the geometry engine sees them, grown by the resolved symbol: only
    /// compared on graphics whose symbol the engine's distance covers (none, or a line or fill on
    /// a line or polygon); markers and text are compared through a layer built afresh.
    @Test(arguments: [UInt64(1), 2, 3])
    func everyEditMatchesAPlainModel(seed: UInt64) throws {
        var r = SeededRandom(seed: seed)
        let layer = GraphicsLayer()
        var truth: [GraphicID: Graphic] = [:]
        var renderer: Renderer?
        var problems: [String] = []
        for step in 0..<160 {
            switch r.int(in: 0...11) {
            case 0...2:
                let g = Self.graphic(&r)
                truth[try layer.add(g)] = g
            case 3:
                let batch = (0..<r.int(in: 1...90)).map { _ in Self.graphic(&r) }
                for (id, g) in zip(try layer.add(contentsOf: batch), batch) { truth[id] = g }
            case 4:
                // Columns carry attributes only (a shared symbol would have to fit every row).
                let batch = (0..<r.int(in: 1...400)).map { _ in
                    var g = Self.graphic(&r)
                    g.symbol = nil
                    g.infoTemplate = nil
                    return g
                }
                for (id, g) in zip(try layer.add(columns: Self.columns(batch)), batch) { truth[id] = g }
            case 5, 6:
                for id in truth.keys.sorted().filter({ _ in r.int(in: 0...2) > 0 }) {
                    #expect(layer.remove(id) == truth.removeValue(forKey: id))
                }
            case 7, 8:
                for id in truth.keys.sorted().filter({ _ in r.int(in: 0...6) == 0 }) {
                    let replacement = Self.graphic(&r)
                    let part = r.int(in: 0...3)
                    try layer.update(id) { g in
                        switch part {
                        case 0: g.geometry = replacement.geometry; g.symbol = nil
                        case 1: g.attributes = replacement.attributes
                        case 2: g.infoTemplate = replacement.infoTemplate
                        default: g = replacement
                        }
                    }
                    truth[id] = layer.graphic(id)
                    #expect(
                        truth[id]?.attributes
                            == (part == 1 || part == 3 ? replacement.attributes : truth[id]?.attributes))
                }
            case 9:
                renderer = Self.renderers[r.int(in: 0...(Self.renderers.count - 1))]
                layer.renderer = renderer
            case 10:
                layer.dataChanged()
            default:
                if r.int(in: 0...5) == 0 {
                    layer.removeAll()
                    truth.removeAll()
                }
            }
            // The layer against the model.
            let ids = truth.keys.sorted()
            if layer.graphicIDs != ids { problems.append("step \(step): ids") }
            var mismatches = 0
            for id in ids {
                let want = truth[id]
                if layer.graphic(id) != want { problems.append("step \(step): graphic \(id)") }
                let symbol = want?.symbol ?? renderer?.symbol(for: want?.attributes ?? [:])
                if layer.resolvedSymbol(id) != symbol { problems.append("step \(step): symbol of \(id)") }
                if let symbol, let g = want, !symbol.fits(g.geometry.type) { mismatches += 1 }
                let callout = want.flatMap {
                    $0.infoTemplate?.content(for: $0, screen: ScreenPoint(x: 0, y: 0), mapPoint: Point(0, 0))
                }
                if layer.calloutContent(id, screen: ScreenPoint(x: 0, y: 0), mapPoint: Point(0, 0)) != callout {
                    problems.append("step \(step): callout of \(id)")
                }
            }
            if layer.symbolMismatchCount != mismatches {
                problems.append("step \(step): \(layer.symbolMismatchCount) mismatches, \(mismatches) expected")
            }
            if problems.count > 5 { break }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        // Hits: the edited layer against one built afresh from the model (every graphic added at
        // once, with the same ids' order), and bare geometries against the geometry engine.
        let fresh = GraphicsLayer()
        fresh.renderer = renderer
        try fresh.add(contentsOf: truth.keys.sorted().compactMap { truth[$0] })
        var hitProblems: [String] = []
        let order = truth.keys.sorted()
        for _ in 0..<800 {
            let q = r.point(in: Envelope(xmin: -20, ymin: -20, xmax: 820, ymax: 820))
            let tol = r.double(in: 0...10)
            let got = layer.hitTest(mapPoint: q, tolerance: tol, resolution: 1)
            let want = fresh.hitTest(mapPoint: q, tolerance: tol, resolution: 1).map {
                order[$0.rawValue - (fresh.graphicIDs.first?.rawValue ?? 0)]
            }
            if got != want { hitProblems.append("q \(q): \(got) vs \(want)") }
            let bare = truth.filter {
                $0.value.symbol == nil && renderer == nil && GeometryEngine.isWithin(tol, of: q, $0.value.geometry)
            }.keys.sorted(by: >)
            if renderer == nil, got.filter({ truth[$0]?.symbol == nil }) != bare {
                hitProblems.append("q \(q): bare \(bare)")
            }
        }
        #expect(hitProblems.isEmpty, "\(hitProblems.prefix(3))")
    }
}
