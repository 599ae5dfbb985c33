import Foundation
import MapSketch
import MapSketchGeometry
@testable import MapSketchReplay
import Testing
@testable import MapSketchGolden

/// The diff picture: markers of a fixed size at every changed vertex, labelled with the
/// displacement in map units, a title, a scale bar and start/end markers.
@Suite struct GoldenPictureTests {
    /// A straight Web Mercator track `length` meters long, a vertex every `length / 54` meters.
    static func track(_ length: Double, moving index: Int? = nil, by dx: Double = 0) -> JSONValue {
        var coords: [JSONValue] = []
        for i in 0..<55 {
            let x = Double(i) * length / 54 + (i == index ? dx : 0)
            coords.append([.number(x), .number(i.isMultiple(of: 2) ? 0 : length / 100)])
        }
        return ["sketch": ["geometry": ["paths": [.array(coords)]]]]
    }

    /// The `<g id="changes">` group of an SVG.
    static func changes(_ svg: String) -> String {
        guard let start = svg.range(of: "<g id=\"changes\">"),
            let end = svg.range(of: "</g>", range: start.upperBound..<svg.endIndex)
        else { return "" }
        return String(svg[start.upperBound..<end.lowerBound])
    }

    @Test func aCentimetreMoveOnA540MetreTrackIsMarkedAndLabelled() {
        let expected = Self.track(540)
        let actual = Self.track(540, moving: 20, by: 0.017)
        let n = GoldenComparison.compare(expected: expected, actual: actual).differingNumbers
        #expect(n == 1)
        let svg = GoldenOverlay.svg(
            name: "gps/walk", expected: expected, actual: actual, differingNumbers: n, spatialReference: .webMercator)
        let marks = Self.changes(svg)
        #expect(marks.components(separatedBy: "r=\"10\"").count - 1 == 1, "one ring, at the moved vertex")
        #expect(marks.contains(">moved 1.7 cm</text>"))
        // The title: trace name, tolerance, count of differing numbers, vertex counts.
        #expect(svg.contains(">gps/walk</text>"))
        #expect(
            svg.contains(
                "tolerance ±(1e-09 + 1e-09·|value|) · 1 number differs · vertices: 1 moved, 0 added, 0 removed"))
        // A scale bar of a round length and start / end markers.
        #expect(svg.contains(">100 m</text>"))
        #expect(svg.contains(">start</text>") && svg.contains(">end</text>"))
    }

    @Test func markersKeepTheirScreenSizeWhateverTheMapScale() {
        let small = GoldenOverlay.svg(
            name: "s", expected: Self.track(540), actual: Self.track(540, moving: 3, by: 0.017), differingNumbers: 1,
            spatialReference: .webMercator)
        let large = GoldenOverlay.svg(
            name: "l", expected: Self.track(540_000), actual: Self.track(540_000, moving: 3, by: 17),
            differingNumbers: 1, spatialReference: .webMercator)
        for svg in [small, large] {
            let marks = Self.changes(svg)
            #expect(marks.contains("r=\"10\""))
        }
        #expect(Self.changes(large).contains(">moved 17 m</text>"))
        #expect(large.contains(">100 km</text>"))
    }

    @Test func addedAndRemovedVerticesAreMarkedAsSuch() throws {
        let e: JSONValue = ["sketch": ["geometry": ["paths": [[[0, 0], [10, 0], [20, 0], [30, 0]]]]]]
        let a: JSONValue = ["sketch": ["geometry": ["paths": [[[0, 0], [10, 0], [15, 5], [20, 0]]]]]]
        let svg = GoldenOverlay.svg(name: "t", expected: e, actual: a, differingNumbers: 4)
        let marks = Self.changes(svg)
        #expect(marks.contains(">added</text>") && marks.contains(">removed</text>"))
        #expect(svg.contains("vertices: 0 moved, 1 added, 1 removed"))
        #expect(svg.contains(" map units</text>"), "no spatial reference: the scale bar says map units")
    }

    @Test func vertexChangesAlignInsertionsRemovalsAndMoves() {
        func line(_ xs: [Double]) -> Geometry { .polyline(Polyline(paths: [xs.map { Point($0, 0) }])) }
        let base = (0..<10).map(Double.init)
        let inserted = VertexChanges(
            expected: line(base), actual: line(Array(base[0..<5]) + [4.5] + Array(base[5...])), tolerance: .standard)
        #expect((inserted.moved, inserted.added, inserted.removed) == (0, 1, 0))
        #expect(inserted.kept.first?.actual == Point(4.5, 0))
        let removed = VertexChanges(expected: line(base), actual: line(base.filter { $0 != 7 }), tolerance: .standard)
        #expect((removed.moved, removed.added, removed.removed) == (0, 0, 1))
        var shifted = base
        shifted[2] += 0.5
        shifted[8] += 0.5
        let moved = VertexChanges(expected: line(base), actual: line(shifted), tolerance: .standard)
        #expect((moved.moved, moved.added, moved.removed) == (2, 0, 0))
        #expect(moved.kept.map(\.displacement) == [0.5, 0.5])
        // A part only one side has: every vertex added; within the tolerance: no change.
        let twoParts = Geometry.polyline(Polyline(paths: [base.map { Point($0, 0) }, [Point(0, 1), Point(1, 1)]]))
        #expect(VertexChanges(expected: line(base), actual: twoParts, tolerance: .standard).added == 2)
        #expect(
            VertexChanges(expected: line(base), actual: line(base.map { $0 + 1e-12 }), tolerance: .standard).total == 0)
        // Long unequal middles are bounded: pairwise, the rest added; at most `limit` kept.
        let long = (0..<5000).map(Double.init)
        let big = VertexChanges(
            expected: line(long), actual: line(long.map { $0 + 0.5 } + [6000]), tolerance: .standard)
        #expect(big.moved == 5000 && big.added == 1)
        #expect(big.kept.count == VertexChanges.limit)
    }

    @Test func distancesReadInTheMapsUnits() {
        #expect(MapUnits.meters.format(0.017) == "1.7 cm")
        #expect(MapUnits.meters.format(540) == "540 m")
        #expect(MapUnits.meters.format(1234.5) == "1.23 km")
        #expect(MapUnits.meters.format(0.0000042) == "4.2 µm")
        #expect(MapUnits.degrees.format(1.5e-7) == "0.00000015° ≈ 1.67 cm")
        #expect(MapUnits.mapUnits.format(2.5) == "2.5 map units")
        #expect(MapUnits(.webMercator) == .meters && MapUnits(.wgs84) == .degrees && MapUnits(nil) == .mapUnits)
    }
}
