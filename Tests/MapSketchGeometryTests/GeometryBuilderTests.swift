import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct GeometryBuilderTests {
    @Test func insertMoveRemoveVertex() throws {
        var b = try GeometryBuilder(type: .polyline)
        try b.append(Point(0, 0))
        try b.append(Point(10, 0))
        try b.insertVertex(Point(5, 5), part: 0, at: 1)
        #expect(b.geometry == .polyline(Polyline(paths: [[Point(0, 0), Point(5, 5), Point(10, 0)]])))
        try b.moveVertex(part: 0, index: 2, to: Point(20, 0))
        let removed = try b.removeVertex(part: 0, index: 0)
        #expect(removed == Point(0, 0))
        #expect(b.parts.map(\.array) == [[Point(5, 5), Point(20, 0)]])
    }

    @Test func outOfRangeIndicesThrowTheExactCase() throws {
        var b = try GeometryBuilder(type: .polygon)
        #expect(throws: GeometryError.partIndexOutOfRange(part: 1, partCount: 0)) {
            try b.insertVertex(Point(0, 0), part: 1, at: 0)
        }
        try b.addPart()
        #expect(throws: GeometryError.vertexIndexOutOfRange(part: 0, index: 2, count: 0)) {
            try b.insertVertex(Point(0, 0), part: 0, at: 2)
        }
        #expect(throws: GeometryError.nonFiniteCoordinate(part: 0, index: 0)) {
            try b.insertVertex(Point(.nan, 0), part: 0, at: 0)
        }
    }

    @Test func pointBuilderHoldsOneVertex() throws {
        var b = try GeometryBuilder(type: .point)
        try b.append(Point(1, 2))
        #expect(throws: GeometryError.pointHasOneVertex) { try b.append(Point(3, 4)) }
        try b.moveVertex(part: 0, index: 0, to: Point(3, 4))
        #expect(b.geometry == .point(Point(3, 4)))
        #expect(throws: GeometryError.unsupported("a point has a single part")) { try b.addPart() }
    }

    @Test func partsAddAndRemove() throws {
        var b = try GeometryBuilder(.polygon(Polygon(rings: [[Point(0, 0), Point(0, 1), Point(1, 1), Point(0, 0)]])))
        #expect(b.parts[0].count == 3, "closing vertex is dropped")
        let i = try b.addPart()
        #expect(i == 1)
        try b.append(Point(5, 5))
        #expect(try b.vertexCount(part: 1) == 1)
        #expect(try b.removePart(0).count == 3)
        #expect(b.partCount == 1)
    }

    @Test func spatialReferenceAliasesCompareEqual() {
        #expect(SpatialReference(wkid: 102100) == SpatialReference(wkid: 3857))
        #expect(SpatialReference.webMercator.hashValue == SpatialReference(wkid: 3857).hashValue)
        #expect(SpatialReference(wkid: 4326) != SpatialReference(wkid: 3857))
        #expect(SpatialReference(wkt: "PROJCS[a]") != SpatialReference(wkt: "PROJCS[b]"))
    }
}
