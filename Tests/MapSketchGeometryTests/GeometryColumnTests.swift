import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The geometry column gives back exactly the geometries appended (every type, z and m, flags,
/// empty parts and points, closed-looking rings), whichever way they were appended.
@Suite struct GeometryColumnTests {
    /// A random vertex: x and y, sometimes z and/or m.
    func vertex(_ r: inout SeededRandom, zm: Int) -> Point {
        Point(
            x: r.double(in: -500...500), y: r.double(in: -500...500), z: zm & 1 != 0 ? r.double(in: 0...100) : nil,
            m: zm & 2 != 0 ? r.double(in: 0...10) : nil)
    }

    func part(_ r: inout SeededRandom, _ n: Int) -> [Point] {
        // Mostly uniform z/m per part, sometimes mixed vertex by vertex.
        let zm = r.int(in: 0...5) == 0 ? -1 : r.int(in: 0...3)
        return (0..<n).map { _ in vertex(&r, zm: zm < 0 ? r.int(in: 0...3) : zm) }
    }

    func geometry(_ r: inout SeededRandom) -> Geometry {
        func flag() -> Bool? { [nil, true, false][r.int(in: 0...2)] }
        switch r.int(in: 0...9) {
        case 0: return .point(nil)
        case 1, 2: return .point(vertex(&r, zm: r.int(in: 0...5) < 3 ? 0 : r.int(in: 0...3)))
        case 3: return .multipoint(Multipoint(points: part(&r, r.int(in: 0...5)), hasZ: flag(), hasM: flag()))
        case 4, 5:
            return .polyline(
                Polyline(
                    paths: (0..<r.int(in: 0...3)).map { _ in part(&r, r.int(in: 0...6)) }, hasZ: flag(), hasM: flag()))
        case 6, 7:
            var pg = Polygon(
                rings: (0..<r.int(in: 0...3)).map { _ in part(&r, r.int(in: 0...6)) }, hasZ: flag(), hasM: flag())
            if r.int(in: 0...4) == 0, !pg.rings.isEmpty, let first = pg.rings[0].first {
                pg.rings[0].append(first)  // a ring whose last vertex repeats its first, set directly
            }
            return .polygon(pg)
        default:
            let a = vertex(&r, zm: 0), b = vertex(&r, zm: 0)
            return .envelope(
                Envelope(xmin: min(a.x, b.x), ymin: min(a.y, b.y), xmax: max(a.x, b.x), ymax: max(a.y, b.y)))
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func rowsReadBackExactly(seed: UInt64) {
        var r = SeededRandom(seed: seed)
        let geometries = (0..<600).map { _ in geometry(&r) }
        let column = GeometryColumn(geometries)
        #expect(column.count == geometries.count)
        var mismatches: [String] = []
        for (i, g) in geometries.enumerated() {
            if column[i] != g { mismatches.append("row \(i): \(column[i]) != \(g)") }
            if column.type(at: i) != g.type { mismatches.append("row \(i): type") }
            if column.envelope(at: i) != (g.type == .envelope ? g.envelope : Envelope(points: g.parts.joined())) {
                mismatches.append("row \(i): envelope \(String(describing: column.envelope(at: i)))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
        #expect(column.vertexCount == geometries.reduce(0) { $0 + ($1.type == .envelope ? 2 : $1.pointCount) })
    }

    @Test func plainPointsNeedNoOffsetsUntilSomethingElseArrives() {
        var column = GeometryColumn(x: [1, 2, 3], y: [4, 5, 6])
        #expect(column.isPlainPoints)
        #expect(Array(column) == [.point(Point(1, 4)), .point(Point(2, 5)), .point(Point(3, 6))])
        column.appendPoint(x: 7, y: 8)
        #expect(column.isPlainPoints && column.isPlainPoint(3))
        let line = Geometry.polyline(Polyline(paths: [[Point(0, 0), Point(1, 1)]]))
        column.append(line)
        #expect(!column.isPlainPoints)
        column.append(.point(Point(x: 9, y: 9, z: 1)))
        column.appendPoint(x: 10, y: 11)
        #expect(
            Array(column) == [
                .point(Point(1, 4)), .point(Point(2, 5)), .point(Point(3, 6)), .point(Point(7, 8)), line,
                .point(Point(x: 9, y: 9, z: 1)), .point(Point(10, 11)),
            ])
        #expect(column.isPlainPoint(3) && !column.isPlainPoint(4) && !column.isPlainPoint(5) && column.isPlainPoint(6))
        #expect(column.isPlainSinglePart(4, .polyline) && !column.isPlainSinglePart(4, .polygon))
        #expect(column.partRange(row: 4).count == 1 && column.vertexRange(row: 4) == 4..<6)
    }

    @Test func builtVertexByVertex() {
        var column = GeometryColumn()
        column.startGeometry(.polygon, hasZ: true)
        column.appendVertex(x: 0, y: 0, z: 1)
        column.appendVertex(x: 0, y: 1, z: 2)
        column.appendVertex(x: 1, y: 1, z: 3)
        column.startPart()
        column.startPart()
        column.appendVertex(x: 5, y: 5)
        column.startGeometry(.point)
        column.startGeometry(.multipoint)
        column.appendVertex(x: 2, y: 3, m: 4)
        var ring = Polygon(rings: [], hasZ: true, hasM: false)
        ring.rings = [[Point(x: 0, y: 0, z: 1), Point(x: 0, y: 1, z: 2), Point(x: 1, y: 1, z: 3)], [], [Point(5, 5)]]
        #expect(column[0] == .polygon(ring))
        #expect(column[1] == .point(nil), "a point row without a vertex is the empty point")
        #expect(column[2] == .multipoint(Multipoint(points: [Point(x: 2, y: 3, m: 4)], hasZ: false, hasM: false)))
    }

    @Test func finiteness() {
        var column = GeometryColumn(x: [0, 1], y: [0, 1])
        #expect(column.isFinite)
        column.append(.point(Point(x: 0, y: 0, z: 5)))
        #expect(column.isFinite, "an absent z is not a NaN coordinate")
        column.append(.point(Point(x: 0, y: 0, m: .infinity)))
        #expect(!column.isFinite)
        #expect(!GeometryColumn(x: [.nan], y: [0]).isFinite)
        var z = GeometryColumn()
        z.append(.point(Point(x: 0, y: 0, z: .nan)))
        #expect(!z.isFinite, "a NaN z is a coordinate, unlike an absent one")
    }
}
