@_spi(MapSketchInternal) import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct VertexStoreTests {
    @Test func editsMatchAPlainArrayModel() throws {
        var s = try VertexStore(type: .polyline)
        var model: [[Point]] = [[]]
        for i in 0..<300 {
            try s.append(Point(Double(i), 0))
            model[0].append(Point(Double(i), 0))
        }
        try s.insertVertex(Point(1, 1), part: 0, at: 150)
        model[0].insert(Point(1, 1), at: 150)
        #expect(try s.moveVertex(part: 0, index: 3, to: Point(7, 7)) == Point(3, 0))
        model[0][3] = Point(7, 7)
        #expect(try s.removeVertex(part: 0, index: 0) == Point(0, 0))
        model[0].remove(at: 0)
        #expect(try s.addPart() == 1)
        model.append([])
        try s.append(Point(9, 9))
        model[1].append(Point(9, 9))
        #expect(s.geometry == .polyline(Polyline(paths: model)))
        #expect(s.vertexCount == 301)
        #expect(try s.vertex(part: 1, index: 0) == Point(9, 9))
    }

    @Test func roundTripsEveryEditableType() throws {
        let geometries: [Geometry] = [
            .point(Point(1, 2)),
            .point(nil),
            .multipoint(Multipoint(points: [Point(0, 0), Point(1, 1)])),
            .polyline(Polyline(paths: [[Point(0, 0), Point(1, 1)], [Point(5, 5), Point(6, 6), Point(7, 5)]])),
            .polygon(Polygon(rings: [[Point(0, 0), Point(0, 10), Point(10, 10), Point(10, 0)]])),
            .polyline(Polyline(paths: [[Point(x: 0, y: 0, z: 3), Point(x: 1, y: 1, z: 4)]])),
        ]
        for g in geometries {
            #expect(try VertexStore(g).geometry == g)
        }
        #expect(try VertexStore(.envelope(Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1))).type == .polygon)
    }

    @Test func badIndicesAndCoordinatesThrowTheExactCase() throws {
        var s = try VertexStore(type: .polygon)
        // Without parts, only (0, 0) is in range (it creates part 0).
        #expect(throws: GeometryError.partIndexOutOfRange(part: 1, partCount: 0)) {
            try s.insertVertex(Point(0, 0), part: 1, at: 0)
        }
        #expect(throws: GeometryError.vertexIndexOutOfRange(part: 0, index: 1, count: 0)) {
            try s.insertVertex(Point(0, 0), part: 0, at: 1)
        }
        try s.addPart()
        #expect(throws: GeometryError.vertexIndexOutOfRange(part: 0, index: 1, count: 0)) {
            try s.insertVertex(Point(0, 0), part: 0, at: 1)
        }
        #expect(throws: GeometryError.vertexIndexOutOfRange(part: 0, index: 0, count: 0)) {
            try s.removeVertex(part: 0, index: 0)
        }
        #expect(throws: GeometryError.vertexIndexOutOfRange(part: 0, index: -1, count: 0)) {
            try s.moveVertex(part: 0, index: -1, to: Point(0, 0))
        }
        #expect(throws: GeometryError.nonFiniteCoordinate(part: 0, index: 0)) {
            try s.insertVertex(Point(.infinity, 0), part: 0, at: 0)
        }
        #expect(throws: GeometryError.partIndexOutOfRange(part: 3, partCount: 1)) { try s.removePart(3) }
        #expect(throws: GeometryError.nonFiniteCoordinate(part: 0, index: 1)) {
            try VertexStore(.polyline(Polyline(paths: [[Point(0, 0), Point(.nan, 1)]])))
        }
        #expect(throws: GeometryError.unsupported("an envelope cannot be edited by vertex")) {
            try VertexStore(type: .envelope)
        }
    }

    @Test func insertingTheFirstVertexCreatesTheFirstPartAsAppendingDoes() throws {
        for type in [GeometryType.multipoint, .polyline, .polygon] {
            var inserted = try VertexStore(type: type)
            var appended = try VertexStore(type: type)
            try inserted.insertVertex(Point(1, 2), part: 0, at: 0)
            try appended.append(Point(1, 2))
            #expect(inserted.partCount == 1, "\(type)")
            #expect(inserted.geometry == appended.geometry, "\(type)")
            // A refused first vertex creates no part.
            var refused = try VertexStore(type: type)
            #expect(throws: GeometryError.nonFiniteCoordinate(part: 0, index: 0)) { try refused.insertVertex(Point(.nan, 2), part: 0, at: 0) }
            #expect(throws: GeometryError.nonFiniteCoordinate(part: 0, index: 0)) { try refused.append(Point(.nan, 2)) }
            #expect(refused.partCount == 0)
        }
    }

    @Test func pointAndMultipointPartRules() throws {
        var p = try VertexStore(type: .point)
        try p.insertVertex(Point(1, 1), part: 0, at: 0)
        #expect(throws: GeometryError.pointHasOneVertex) { try p.insertVertex(Point(2, 2), part: 0, at: 0) }
        #expect(throws: GeometryError.unsupported("a point has a single part")) { try p.addPart() }
        try p.removeVertex(part: 0, index: 0)
        #expect(p.geometry == .point(nil))
        var m = try VertexStore(type: .multipoint)
        try m.insertVertex(Point(1, 1), part: 0, at: 0)
        #expect(throws: GeometryError.unsupported("a multipoint has a single part")) { try m.addPart() }
        #expect(m.geometry == .multipoint(Multipoint(points: [Point(1, 1)])))
    }

    @Test func middleInsertsIntoALargePartCopyOnlyTheirPath() throws {
        var s = try VertexStore(type: .polyline)
        try s.insertPart(ChunkedVertices((0..<300_000).map { Point(Double($0), 0) }), at: 0)
        let part = try s.part(0)
        #expect(part.height == 2, "2343 chunks under 37 nodes under the root")
        for k in 0..<50 { try s.insertVertex(Point(-1, Double(k)), part: 0, at: 150_000) }
        #expect(try s.vertexCount(part: 0) == 300_050)
        #expect(try s.vertex(part: 0, index: 150_000) == Point(-1, 49))
        #expect(try s.vertex(part: 0, index: 150_050) == Point(150_000, 0))
        try s.part(0)._checkInvariantsNow()
        // Only the touched path was copied: the untouched snapshot is unchanged.
        #expect(part.count == 300_000)
        #expect(part[150_000] == Point(150_000, 0))
    }

    /// Value copies of a store taken while a track grows (as undo snapshots and `applyGeometry`
    /// take them) never see what is done to the store afterwards: appends filling the run past
    /// doublings, edits in the middle, removals, new parts, with z present and absent. Every copy
    /// equals the model it was taken with at the end, and so does the store.
    @Test(arguments: [false, true])
    func copiesTakenWhileAppendingKeepTheirVertices(withZ: Bool) throws {
        var rng = SeededRandom(seed: withZ ? 91 : 90)
        var s = try VertexStore(type: .polyline, hasZ: withZ)
        var model: [[Point]] = []
        var copies: [(VertexStore, [[Point]])] = []
        func point() -> Point {
            let x = rng.double(in: -1e4...1e4)
            let y = rng.double(in: -1e4...1e4)
            return withZ ? Point(x: x, y: y, z: rng.double(in: 0...100)) : Point(x: x, y: y)
        }
        for step in 0..<120 {
            let roll = rng.int(in: 0...9)
            if model.isEmpty || roll < 5 {
                for _ in 0..<rng.int(in: 1...900) {
                    let p = point()
                    try s.append(p)
                    if model.isEmpty { model.append([]) }
                    model[model.count - 1].append(p)
                }
            } else if roll < 7 {
                let part = rng.int(in: 0...(model.count - 1))
                let i = rng.int(in: 0...model[part].count)
                let p = point()
                try s.insertVertex(p, part: part, at: i)
                model[part].insert(p, at: i)
            } else if roll < 8 {
                let part = rng.int(in: 0...(model.count - 1))
                if !model[part].isEmpty {
                    let i = rng.int(in: 0...(model[part].count - 1))
                    #expect(try s.removeVertex(part: part, index: i) == model[part].remove(at: i))
                }
            } else if roll < 9 {
                let part = rng.int(in: 0...(model.count - 1))
                if !model[part].isEmpty {
                    let i = Swift.max(0, model[part].count - 1 - rng.int(in: 0...50))
                    let p = point()
                    #expect(try s.moveVertex(part: part, index: i, to: p) == model[part][i])
                    model[part][i] = p
                }
            } else {
                #expect(try s.addPart() == model.count)
                model.append([])
            }
            if step % 3 == 0 { copies.append((s, model)) }
        }
        func expectEqual(_ store: VertexStore, _ m: [[Point]]) throws {
            #expect(store.partCount == m.count)
            for (i, part) in m.enumerated() {
                let p = try store.part(i)
                p._checkInvariantsNow()
                let same = p.array == part
                #expect(same, "part \(i): \(p.count) vertices, \(part.count) expected")
            }
        }
        try expectEqual(s, model)
        for (c, m) in copies { try expectEqual(c, m) }
    }
}

@Suite struct VertexStoreRegressionTests {
    /// Caught by the sketch undo property test: a refused insert into an empty multipoint used to
    /// leave an empty part behind, so a later undo found a part where none should be.
    @Test func refusedInsertIntoEmptyMultipointLeavesNoPart() throws {
        var m = try VertexStore(type: .multipoint)
        #expect(throws: GeometryError.vertexIndexOutOfRange(part: 0, index: 1, count: 0)) {
            try m.insertVertex(Point(1, 1), part: 0, at: 1)
        }
        #expect(m.partCount == 0)
        #expect(throws: GeometryError.nonFiniteCoordinate(part: 0, index: 0)) {
            try m.insertVertex(Point(.nan, 1), part: 0, at: 0)
        }
        #expect(m.partCount == 0)
    }

    /// Caught while adding the store's invariant checks: a refused append (a NaN or infinite
    /// vertex) to a store with no part left the part it had made for the vertex behind, so a
    /// refused edit changed the store.
    @Test(arguments: [GeometryType.multipoint, .polyline, .polygon])
    func refusedAppendToAnEmptyStoreAddsNoPart(type: GeometryType) throws {
        var s = try VertexStore(type: type)
        #expect(throws: GeometryError.nonFiniteCoordinate(part: 0, index: 0)) {
            try s.append(Point(.infinity, 1))
        }
        #expect(s.partCount == 0)
        try s.append(Point(1, 1))
        #expect(s.partCount == 1 && s.vertexCount == 1)
    }
}
