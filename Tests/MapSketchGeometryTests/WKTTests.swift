import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct WKTTests {
    @Test func pointsAndTags() throws {
        #expect(try WKT.decode("POINT (1 2)") == .point(Point(1, 2)))
        #expect(try WKT.decode("point(1.5 -2e3)") == .point(Point(1.5, -2000)))
        #expect(try WKT.decode("POINT EMPTY") == .point(nil))
        #expect(try WKT.decode("POINT Z (1 2 3)") == .point(Point(x: 1, y: 2, z: 3)))
        #expect(try WKT.decode("POINT M (1 2 4)") == .point(Point(x: 1, y: 2, m: 4)))
        #expect(try WKT.decode("POINT ZM (1 2 3 4)") == .point(Point(x: 1, y: 2, z: 3, m: 4)))
        #expect(try WKT.decode("POINT (1 2 3 4)") == .point(Point(x: 1, y: 2, z: 3, m: 4)))
        #expect(try WKT.decode("POINTZ (1 2 3)") == .point(Point(x: 1, y: 2, z: 3)))
        #expect(WKT.encode(.point(Point(x: 1, y: 2.5, z: 3))) == "POINT Z (1 2.5 3)")
        #expect(WKT.encode(.point(Point(x: 1, y: 2, m: 7))) == "POINT M (1 2 7)")
        #expect(WKT.encode(.point(nil)) == "POINT EMPTY")
    }

    @Test func multipointBothForms() throws {
        let expected = Geometry.multipoint(Multipoint(points: [Point(1, 2), Point(3, 4)]))
        #expect(try WKT.decode("MULTIPOINT (1 2, 3 4)") == expected)
        #expect(try WKT.decode("MULTIPOINT ((1 2), (3 4))") == expected)
        #expect(WKT.encode(expected) == "MULTIPOINT ((1 2), (3 4))")
        #expect(try WKT.decode("MULTIPOINT EMPTY") == .multipoint(Multipoint(points: [])))
    }

    @Test func linesAndEmpty() throws {
        let line = try WKT.decode("LINESTRING (0 0, 10 0.1, 20 0)")
        #expect(line == .polyline(Polyline(paths: [[Point(0, 0), Point(10, 0.1), Point(20, 0)]])))
        #expect(WKT.encode(line) == "LINESTRING (0 0, 10 0.1, 20 0)")
        let ml = try WKT.decode("MULTILINESTRING ((0 0, 1 1), EMPTY, (2 2, 3 3))")
        #expect(ml == .polyline(Polyline(paths: [[Point(0, 0), Point(1, 1)], [Point(2, 2), Point(3, 3)]])))
        #expect(WKT.encode(ml) == "MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))")
        #expect(try WKT.decode("LINESTRING EMPTY") == .polyline(Polyline(paths: [])))
        #expect(try WKT.decode("MULTIPOLYGON EMPTY") == .polygon(Polygon(rings: [])))
        #expect(WKT.encode(.polygon(Polygon(rings: []))) == "POLYGON EMPTY")
    }

    @Test func polygonsAreOrientedEsriOnReadAndGroupedOnWrite() throws {
        // Counter-clockwise exterior, clockwise hole in the text.
        let g = try WKT.decode("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 8, 8 8, 8 2, 2 2))")
        guard case .polygon(let pg) = g else {
            Issue.record("not a polygon")
            return
        }
        #expect(pg.rings.count == 2)
        #expect(pg.rings[0] == [Point(0, 0), Point(0, 10), Point(10, 10), Point(10, 0)])
        #expect(Kernel.signedDoubleArea(pg.rings[0]) < 0)
        #expect(Kernel.signedDoubleArea(pg.rings[1]) > 0)
        #expect(WKT.encode(g) == "POLYGON ((0 0, 0 10, 10 10, 10 0, 0 0), (2 2, 8 2, 8 8, 2 8, 2 2))")
        // Two exteriors, the hole belongs to the second one.
        let mp = try WKT.decode("""
            MULTIPOLYGON (((0 0, 0 1, 1 1, 1 0, 0 0)), ((20 0, 20 10, 30 10, 30 0, 20 0), (22 2, 28 2, 28 8, 22 8, 22 2)))
            """)
        #expect(WKT.encode(mp) == "MULTIPOLYGON (((0 0, 0 1, 1 1, 1 0, 0 0)), ((20 0, 20 10, 30 10, 30 0, 20 0), (22 2, 28 2, 28 8, 22 8, 22 2)))")
        #expect(try WKT.decode(WKT.encode(mp)) == mp)
    }

    @Test func numberFormattingIsDeterministic() {
        #expect(WKT.format(1) == "1")
        #expect(WKT.format(-0.0) == "0")
        #expect(WKT.format(0.1) == "0.1")
        #expect(WKT.format(1e20) == "1e+20")
        #expect(WKT.format(-12.25) == "-12.25")
        #expect(WKT.format(.nan) == "NaN")
    }

    @Test func treeKeepsJTSStructure() throws {
        let t = try WKT.decodeTree("GEOMETRYCOLLECTION (POINT (1 2), LINEARRING (0 0, 1 0, 1 1, 0 0), POLYGON EMPTY)")
        #expect(t.shape == .geometryCollection([
            WKTGeometry(.point(Point(1, 2))),
            WKTGeometry(.linearRing([Point(0, 0), Point(1, 0), Point(1, 1), Point(0, 0)])),
            WKTGeometry(.polygon([])),
        ]))
        #expect(WKT.encode(t) == "GEOMETRYCOLLECTION (POINT (1 2), LINEARRING (0 0, 1 0, 1 1, 0 0), POLYGON EMPTY)")
        #expect(try WKT.decodeTree("POLYGON(EMPTY)").shape == .polygon([]))
        #expect(throws: WKTError.self) { try WKT.decode("GEOMETRYCOLLECTION (POINT (1 2))") }
    }

    @Test func errorsNameLineColumnAndExpectation() {
        #expect(throws: WKTError(line: 1, column: 11, expected: "a number", found: "'x'")) {
            try WKT.decode("POINT (1  x)")
        }
        #expect(throws: WKTError(line: 2, column: 11, expected: "',' or ')'", found: "'4)'")) {
            try WKT.decode("LINESTRING (0 0,\n  1 1 2 3 4)")
        }
        #expect(throws: WKTError(line: 1, column: 1, expected: "a geometry keyword (POINT, LINESTRING, POLYGON, …)", found: "'CIRCLE'")) {
            try WKT.decode("CIRCLE (1 2)")
        }
        #expect(throws: WKTError(line: 1, column: 13, expected: "end of input", found: "'extra'")) {
            try WKT.decode("POINT (1 2) extra")
        }
        #expect(throws: WKTError(line: 1, column: 14, expected: "a third ordinate (z)", found: "')'")) {
            try WKT.decode("POINT Z (1 2 )")
        }
    }

    @Test func randomRoundTrip() throws {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<200 {
            let n = rng.int(in: 2...8)
            let path = (0..<n).map { _ in Point(rng.double(in: -1e6...1e6), rng.double(in: -90...90)) }
            let g = Geometry.polyline(Polyline(paths: [path]))
            #expect(try WKT.decode(WKT.encode(g)) == g)
        }
    }

    /// Hardening reproducer 5: a GEOMETRYCOLLECTION nested 50,000 deep (1 MB) overflowed the
    /// stack. Nesting stops at 512 levels, as JSON's does, at the line:column of the first '('
    /// too deep.
    @Test func nestingStopsAt512Levels() throws {
        let deep = String(repeating: "GEOMETRYCOLLECTION (", count: 50_000) + "POINT (1 2)" + String(repeating: ")", count: 50_000)
        let expected = WKTError(line: 1, column: 513 * 20, expected: "at most 512 levels of nested parentheses", found: "'(' at level 513")
        for decode in [{ _ = try WKT.decodeTree(deep) }, { _ = try WKT.decode(deep) }] as [() throws -> Void] {
            do {
                try decode()
                Issue.record("50,000 levels are refused")
            } catch let e as WKTError {
                #expect(e == expected)
            } catch {
                Issue.record("\(error)")
            }
        }
        // 510 collections around a POLYGON ((…)) are 512 levels: read; one more is refused at
        // the ring's '('.
        let polygon = "POLYGON ((0 0, 1 0, 1 1, 0 0))"
        let ok = String(repeating: "GEOMETRYCOLLECTION (", count: 510) + polygon + String(repeating: ")", count: 510)
        do {
            #expect(try WKT.encode(WKT.decodeTree(ok)).hasSuffix(polygon + String(repeating: ")", count: 510)))
        } catch {
            Issue.record("512 levels are read: \(error)")
        }
        let tooDeep = String(repeating: "GEOMETRYCOLLECTION (", count: 511) + polygon + String(repeating: ")", count: 511)
        do {
            _ = try WKT.decodeTree(tooDeep)
            Issue.record("513 levels are refused")
        } catch let e as WKTError {
            #expect(e == WKTError(line: 1, column: 511 * 20 + 10, expected: "at most 512 levels of nested parentheses", found: "'(' at level 513"))
        }
    }

    /// Hardening reproducer 8: Windows line ends in multi-line WKT and a byte-order mark before
    /// it read as Unix text does; positions count lines by `\n` and columns from after the mark.
    @Test func crlfAndByteOrderMarkReadLikeUnixText() throws {
        let square = try WKT.decode("POLYGON ((0 0, 0 1, 1 1, 1 0, 0 0))")
        #expect(try WKT.decode("POLYGON ((0 0,\r\n 0 1, 1 1,\r\n 1 0, 0 0))\r\n") == square)
        #expect(try WKT.decode("\u{FEFF}POLYGON ((0 0, 0 1, 1 1, 1 0, 0 0))") == square)
        #expect(throws: WKTError(line: 3, column: 4, expected: "a number", found: "'x'")) {
            try WKT.decode("POLYGON ((0 0,\r\n 0 1,\r\n 1 x, 0 0))")
        }
        #expect(throws: WKTError(line: 1, column: 8, expected: "a number", found: "'x'")) {
            try WKT.decode("\u{FEFF}POINT (x 2)")
        }
        #expect(throws: WKTError(line: 1, column: 16, expected: "')'", found: "'5)'")) {
            try WKT.decode("POINT (1 2 3 4 5)\r\n")
        }
    }

    /// Hardening item 13: bytes of the input quoted in an error are escaped (a NUL, an ESC) and
    /// cut after 40 characters (a 100,000-character token was echoed whole).
    @Test func excerptsAreEscapedAndShort() {
        #expect(throws: WKTError(line: 1, column: 10, expected: "a number", found: "'\\u00002)'")) {
            try WKT.decode("POINT (1 \u{0}2)")
        }
        #expect(throws: WKTError(line: 1, column: 1, expected: "a geometry keyword (POINT, LINESTRING, POLYGON, …)", found: "'\\u001B[31mPOINT (…'")) {
            try WKT.decode("\u{1B}[31mPOINT (1 2)")
        }
        let long = "POINT (" + String(repeating: "9", count: 100_000) + "x 1)"
        #expect(throws: WKTError(line: 1, column: 8, expected: "a number", found: "'" + String(repeating: "9", count: 40) + "…'")) {
            try WKT.decode(long)
        }
        let word = String(repeating: "Q", count: 100_000) + " (1 2)"
        #expect(throws: WKTError(line: 1, column: 1, expected: "a geometry keyword (POINT, LINESTRING, POLYGON, …)", found: "'" + String(repeating: "Q", count: 40) + "…'")) {
            try WKT.decode(word)
        }
    }
}
