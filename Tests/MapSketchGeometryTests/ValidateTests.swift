import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct ValidateTests {
    @Test func issuesNameRulePartAndVertex() throws {
        let bow = try WKT.decode("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))")
        let issues = GeometryEngine.validate(bow)
        #expect(issues.first?.rule == .selfIntersection)
        #expect(issues.first?.part == 0)
        #expect(issues.first?.location == Point(5, 5))
        #expect(issues.first?.description == "selfIntersection: segment 0 of part 0 crosses segment 2 of part 0 at (5 5)")

        let nan = Geometry.polyline(Polyline(paths: [[Point(0, 0), Point(1, 1)], [Point(0, 0), Point(.nan, 1)]]))
        #expect(GeometryEngine.validate(nan) == [ValidationIssue(rule: .nonFiniteCoordinate, part: 1, vertex: 1, location: nil, message: "x or y is NaN or infinite")])

        let short = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(0, 10), Point(10, 10), Point(10, 0)], [Point(1, 1), Point(2, 2), Point(1, 1)]]))
        #expect(GeometryEngine.validate(short).map(\.rule) == [.tooFewPoints])
        #expect(GeometryEngine.validate(short).first?.part == 1)
    }

    /// A self-intersection names both segments (segment k from vertex k to k + 1, as the
    /// geometry was given, repeated vertices counted) and where they meet, never "at vertex 0"
    /// with the crossing's coordinates as if it were that vertex's.
    @Test func selfIntersectionsNameBothSegmentsAndThePoint() throws {
        let bow = try WKT.decode("POLYGON ((5 5, 15 15, 15 5, 5 15, 5 5))")
        let issue = try #require(GeometryEngine.validate(bow).first)
        #expect(issue.meeting == SegmentMeeting(.cross, part: 0, segment: 0, otherPart: 0, otherSegment: 2, at: Point(10, 10)))
        #expect(issue.description == "selfIntersection: segment 0 of part 0 crosses segment 2 of part 0 at (10 10)")
        #expect(issue.part == 0 && issue.vertex == 0 && issue.location == Point(10, 10))
        // A repeated vertex keeps the numbering of the geometry as given.
        let repeated = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(0, 0), Point(10, 10), Point(10, 0), Point(0, 10)]]))
        #expect(GeometryEngine.validate(repeated).first?.meeting
            == SegmentMeeting(.cross, part: 0, segment: 1, otherPart: 0, otherSegment: 3, at: Point(5, 5)))
        // Two rings crossing: each segment in its own part; the closing segment of a ring is its last.
        let rings = Geometry.polygon(Polygon(rings: [
            [Point(0, 0), Point(0, 10), Point(10, 10), Point(10, 0)], [Point(5, 5), Point(15, 5), Point(15, 6), Point(5, 6)],
        ]))
        let crossing = try #require(GeometryEngine.validate(rings).first)
        #expect(crossing.rule == .selfIntersection)
        #expect(crossing.meeting == SegmentMeeting(.cross, part: 0, segment: 2, otherPart: 1, otherSegment: 0, at: Point(10, 5)))
        #expect(crossing.description == "selfIntersection: segment 2 of part 0 crosses segment 0 of part 1 at (10 5)")
        // Overlapping segments: from where to where.
        let overlap = Geometry.polygon(Polygon(rings: [
            [Point(0, 0), Point(0, 10), Point(10, 10), Point(10, 0)], [Point(0, 10), Point(5, 10), Point(5, 20)],
        ]))
        let o = try #require(GeometryEngine.validate(overlap).first)
        #expect(o.meeting?.kind == .overlap)
        #expect(o.description == "selfIntersection: segment 1 of part 0 overlaps segment 0 of part 1 from (0 10) to (5 10)")
        // A ring touching itself at a vertex (a WKT linear ring).
        let ring = try WKT.decodeTree("LINEARRING (0 0, 10 0, 10 10, 5 0, 0 10, 0 0)")
        let touch = try #require(GeometryEngine.validate(ring).first)
        #expect(touch.rule == .ringSelfIntersection && touch.meeting?.kind == .touch)
        #expect(touch.meeting?.location == Point(5, 0))
        #expect(Set([touch.meeting?.segment, touch.meeting?.otherSegment]) == Set([0, 3]), "\(touch)")
    }

    @Test func esriSimpleAddsOrientation() {
        let ccw = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)]]))
        #expect(GeometryEngine.isValid(ccw, mode: .ogc))
        #expect(GeometryEngine.validate(ccw, mode: .esriSimple).map(\.rule) == [.wrongOrientation])
        let cw = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(0, 10), Point(10, 10), Point(10, 0)],
                                                  [Point(2, 2), Point(2, 8), Point(8, 8), Point(8, 2)]]))
        // The hole is clockwise too: OGC-valid (roles by nesting), not Esri-simple.
        #expect(GeometryEngine.isValid(cw))
        let esri = GeometryEngine.validate(cw, mode: .esriSimple)
        #expect(esri.map(\.rule) == [.wrongOrientation] && esri.first?.part == 1)
        #expect(GeometryEngine.isValid(GeometryEngine.simplify(cw), mode: .esriSimple))
    }

    @Test func flatPolygonsFollowJTSRules() throws {
        // Hole touching the exterior at one vertex: valid. At two vertices: disconnected interior.
        let one = try WKT.decode("POLYGON ((0 0, 0 10, 10 10, 10 0, 0 0), (0 5, 5 8, 5 2, 0 5))")
        #expect(GeometryEngine.validate(one, mode: .esriSimple).isEmpty)
        let two = try WKT.decode("POLYGON ((0 0, 0 10, 10 10, 10 0, 0 0), (0 5, 5 8, 10 5, 5 2, 0 5))")
        #expect(GeometryEngine.validate(two).map(\.rule) == [.disconnectedInterior])
        // Duplicate rings.
        let dup = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(0, 1), Point(1, 1)], [Point(0, 1), Point(1, 1), Point(0, 0)]]))
        #expect(GeometryEngine.validate(dup).first?.rule == .duplicateRings)
        // A ring touching itself.
        let inverted = try WKT.decode("POLYGON ((0 0, 0 5, 3 7, 3 3, 0 5, 0 10, 10 10, 10 0, 0 0))")
        #expect(GeometryEngine.validate(inverted).first?.rule == .ringSelfIntersection)
        // Islands in lakes are fine; shells overlapping are not.
        let island = try WKT.decode("MULTIPOLYGON (((0 0, 0 10, 10 10, 10 0, 0 0), (2 2, 8 2, 8 8, 2 8, 2 2)), ((4 4, 4 6, 6 6, 6 4, 4 4)))")
        #expect(GeometryEngine.validate(island, mode: .esriSimple).isEmpty)
        let overlap = try WKT.decode("MULTIPOLYGON (((0 0, 0 10, 10 10, 10 0, 0 0)), ((5 5, 5 15, 15 15, 15 5, 5 5)))")
        #expect(GeometryEngine.validate(overlap).first?.rule == .selfIntersection)
    }

    @Test func treeValidationKeepsPolygonStructure() throws {
        // The same rings, but the hole is written with the wrong polygon: JTS says hole outside shell.
        let t = try WKT.decodeTree("MULTIPOLYGON (((0 0, 0 1, 1 1, 1 0, 0 0), (22 2, 28 2, 28 8, 22 8, 22 2)), ((20 0, 20 10, 30 10, 30 0, 20 0)))")
        #expect(GeometryEngine.validate(t).map(\.rule) == [.holeOutsideShell])
        #expect(GeometryEngine.validate(t).first?.part == 1)
        let unclosed = try WKT.decodeTree("POLYGON ((0 0, 0 1, 1 1, 1 0))")
        #expect(GeometryEngine.validate(unclosed).map(\.rule) == [.ringNotClosed])
    }

    @Test func linesAndPoints() throws {
        #expect(GeometryEngine.isValid(try WKT.decode("LINESTRING (0 0, 10 10, 10 0, 0 10)")))
        #expect(GeometryEngine.validate(try WKT.decode("LINESTRING (1 1, 1 1)")).map(\.rule) == [.tooFewPoints])
        #expect(GeometryEngine.isValid(.point(nil)))
        #expect(!GeometryEngine.isValid(.point(Point(.infinity, 0))))
        #expect(GeometryEngine.isValid(.envelope(Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1))))
    }

    /// Hardening reproducers: a square spanning ±1e308 (its edge vectors overflow) and a
    /// triangle with a side of 5e-324 (its cross products underflow) were reported as
    /// self-intersecting; both are valid, and their reversed (or crossed) forms are judged right.
    @Test func extremeCoordinatesAreJudgedExactly() throws {
        let huge = try WKT.decode("POLYGON ((-1e308 -1e308, 1e308 -1e308, 1e308 1e308, -1e308 1e308, -1e308 -1e308))")
        #expect(GeometryEngine.validate(huge).isEmpty)
        #expect(GeometryEngine.validate(huge, mode: .esriSimple).isEmpty, "WKT decoding orients the exterior clockwise")
        let tiny = try WKT.decode("POLYGON ((0 0, 4.9406564584124654e-324 0, 0 4.9406564584124654e-324, 0 0))")
        #expect(GeometryEngine.validate(tiny).isEmpty)
        #expect(GeometryEngine.validate(tiny, mode: .esriSimple).isEmpty)
        let ccwTiny = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(Double.leastNonzeroMagnitude, 0), Point(0, Double.leastNonzeroMagnitude)]]))
        #expect(GeometryEngine.validate(ccwTiny, mode: .esriSimple).map(\.rule) == [.wrongOrientation])
        let bowTie = try WKT.decode("POLYGON ((-1e308 -1e308, 1e308 1e308, 1e308 -1e308, -1e308 1e308, -1e308 -1e308))")
        #expect(GeometryEngine.validate(bowTie).map(\.rule) == [.selfIntersection])
        #expect(GeometryEngine.validate(bowTie).first?.location == Point(0, 0))
    }
}
