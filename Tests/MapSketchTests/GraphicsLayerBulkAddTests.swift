import MapSketch
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// `add(contentsOf:)` validates graphics as it adds them and undoes the batch on the first bad
/// one: a failed batch leaves the layer exactly as it was (graphics, ids, fields with their
/// storage kinds and distinct strings), wherever the bad graphic sits and whatever came before it.
@MainActor
@Suite struct GraphicsLayerBulkAddTests {
    let marker = Symbol.simpleMarker(SimpleMarkerSymbol(color: .blue))

    /// What a failed batch must leave unchanged.
    struct Snapshot: Equatable {
        let ids: [GraphicID]
        let graphics: [Graphic]
        let columns: [AttributeColumn]
        let kinds: [AttributeColumn.Kind]
        let distinctStrings: [Int]
        let revision: Int

        @MainActor init(_ layer: GraphicsLayer) {
            ids = layer.graphicIDs
            graphics = layer.graphics
            columns = layer.attributeColumns
            kinds = layer.attributeColumns.map(\.kind)
            distinctStrings = layer.attributeColumns.map(\.storage.distinctStringCount)
            revision = layer.revision
        }
    }

    func point(_ i: Int, _ attributes: [String: AttributeValue]) -> Graphic {
        Graphic(Point(Double(i), Double(i % 7)), attributes: attributes)
    }

    /// A layer with two fields (an integer and strings) and a few graphics.
    func seeded() throws -> GraphicsLayer {
        let layer = GraphicsLayer()
        try layer.add(contentsOf: (0..<5).map { point($0, ["OBJECTID": .integer($0), "STATE": .string("S\($0 % 2)")]) })
        return layer
    }

    @Test func aBadPointAfterPlainPointsUndoesTheirSlotsRowsFieldsAndStrings() throws {
        let layer = try seeded()
        let before = Snapshot(layer)
        var batch = (0..<300).map {
            point($0, ["OBJECTID": .integer(100 + $0), "STATE": .string("NEW\($0 % 9)"), "EXTRA": .double(0.5)])
        }
        batch.append(Graphic(Point(.nan, 0)))
        #expect(throws: GraphicsLayerError.nonFiniteGeometry(index: 300)) { try layer.add(contentsOf: batch) }
        #expect(Snapshot(layer) == before)
        #expect(layer.attributeColumns.map(\.name).sorted() == ["OBJECTID", "STATE"], "the new field is gone")

        // The layer works on as if the batch had never come: strings intern afresh, ids follow on.
        batch.removeLast()
        let ids = try layer.add(contentsOf: batch)
        #expect(ids.first == GraphicID(rawValue: 5))
        #expect(layer.graphic(ids[17])?.attributes == batch[17].attributes)
        #expect(layer.graphic(GraphicID(rawValue: 3))?.attributes["STATE"] == .string("S1"))
        #expect(layer.attributeColumns.first { $0.name == "STATE" }?.storage.distinctStringCount == 2 + 9)
    }

    @Test func aLayerWithManyFieldsChecksTheBatchFirstAndAddsNothing() throws {
        let layer = GraphicsLayer()
        let wide = Dictionary(uniqueKeysWithValues: (0..<12).map { ("F\($0)", AttributeValue.string("v\($0)")) })
        try layer.add(contentsOf: (0..<3).map { point($0, wide) })
        let before = Snapshot(layer)
        var batch = (0..<40).map { i in point(i, wide.mapValues { _ in .string("new\(i)") }) }
        batch.append(Graphic(Point(.infinity, 0)))
        #expect(throws: GraphicsLayerError.nonFiniteGeometry(index: 40)) { try layer.add(contentsOf: batch) }
        #expect(Snapshot(layer) == before)
    }

    @Test func aSymbolMismatchAfterAFieldChangingItsStorageAddsNothing() throws {
        let layer = try seeded()
        let before = Snapshot(layer)
        let line = Polyline(paths: [[Point(0, 0), Point(1, 1)]])
        // Graphic 3 would turn OBJECTID into a boxed column; graphic 6 is bad.
        var batch = (0..<6).map { point($0, ["OBJECTID": .integer($0)]) }
        batch[3].attributes["OBJECTID"] = .string("three")
        batch.append(Graphic(line, symbol: marker))
        #expect(throws: GraphicsLayerError.symbolMismatch(index: 6, symbolKind: .simpleMarker, geometryType: .polyline)) {
            try layer.add(contentsOf: batch)
        }
        #expect(Snapshot(layer) == before)
        #expect(layer.attributeColumns.first { $0.name == "OBJECTID" }?.kind == .integer)
    }

    @Test func aBadGraphicAfterRunsSymbolsAndTemplatesAddsNothing() throws {
        let layer = try seeded()
        let before = Snapshot(layer)
        let template = InfoTemplate.callout(CalloutTemplate(title: "${STATE}"))
        let batch = [
            point(0, ["STATE": "A"]),
            Graphic(Polyline(paths: [[Point(100, 100), Point(105, 105), Point(109, 100)]]), attributes: ["STATE": "B"]),
            Graphic(Point(x: 1, y: 1, z: 4)),
            Graphic(Point(2, 2), symbol: marker, infoTemplate: template),
            Graphic(Multipoint(points: [Point(0, 0), Point(1, .infinity)])),
        ]
        #expect(throws: GraphicsLayerError.nonFiniteGeometry(index: 4)) { try layer.add(contentsOf: batch) }
        #expect(Snapshot(layer) == before)
        #expect(layer.hitTest(mapPoint: Point(105, 105), tolerance: 2, resolution: 1).isEmpty, "no run was indexed")
        let ids = try layer.add(contentsOf: Array(batch.dropLast()))
        #expect(ids.map { layer.graphic($0) } == batch.dropLast().map { $0 })
    }

    @Test func aFailedBatchAfterACompactionKeepsTheExplicitIDs() throws {
        let layer = GraphicsLayer()
        let ids = try layer.add(contentsOf: (0..<3_000).map { point($0, ["OBJECTID": .integer($0)]) })
        for id in ids.prefix(2_000) { layer.remove(id) }  // past the compaction threshold
        let before = Snapshot(layer)
        var batch = (0..<50).map { point($0, ["OBJECTID": .integer(-$0), "NAME": .string("n\($0)")]) }
        batch.append(Graphic(Point(0, .nan)))
        #expect(throws: GraphicsLayerError.nonFiniteGeometry(index: 50)) { try layer.add(contentsOf: batch) }
        #expect(Snapshot(layer) == before)
        let more = try layer.add(contentsOf: Array(batch.dropLast()))
        #expect(more.first == GraphicID(rawValue: 3_000))
        #expect(layer.graphicIDs == Array(ids.suffix(1_000)) + more)
        #expect(layer.graphic(more[49])?.attributes == ["OBJECTID": .integer(-49), "NAME": .string("n49")])
    }

    /// Keys longer than a short string, made afresh for every graphic (another storage object
    /// each time), in changing orders and subsets: every value lands in its own field.
    @Test func longKeysMadePerGraphicLandInTheirColumns() throws {
        let layer = GraphicsLayer()
        func key(_ k: Int) -> String { String(repeating: "FIELD_NAME_", count: 2) + String(k) }
        let batch = (0..<400).map { i in
            var attributes: [String: AttributeValue] = [:]
            for k in 0..<4 where (i + k) % 3 != 0 { attributes[key(k)] = .integer(i * 10 + k) }
            attributes["short"] = .string("s\(i % 5)")
            return point(i, attributes)
        }
        let ids = try layer.add(contentsOf: batch)
        #expect(ids.map { layer.graphic($0)?.attributes } == batch.map(\.attributes))
        #expect(layer.attributeColumns.map(\.name).sorted() == ((0..<4).map(key) + ["short"]).sorted())
    }

    /// Random layers and random batches with a bad graphic at a random place: every failed batch
    /// leaves the layer as it was, and the same batch without it then adds exactly its graphics.
    @Test(arguments: [UInt64(5), 6, 7])
    func failedBatchesLeaveTheLayerAsItWas(seed: UInt64) throws {
        var r = SeededRandom(seed: seed)
        let layer = GraphicsLayer()
        var truth: [GraphicID: Graphic] = [:]
        // Under a sanitizer (10× slower), 15 rounds.
        for round in 0..<(SanitizerRuntime.active == nil ? 40 : 15) {
            var batch = (0..<r.int(in: 1...200)).map { i -> Graphic in
                // Mostly plain points (the path that is undone), sometimes anything.
                var g =
                    r.int(in: 0...9) == 0
                    ? ColumnarLayerPropertyTests.graphic(&r)
                    : Graphic(
                        r.point(in: Envelope(xmin: 0, ymin: 0, xmax: 500, ymax: 500)),
                        attributes: ColumnarLayerPropertyTests.attributes(&r))
                if r.int(in: 0...20) == 0 { g.attributes["f\(round)_\(i)"] = .string("s\(i)") }
                return g
            }
            let bad = r.int(in: 0...(batch.count - 1))
            let original = batch[bad]
            let expected: GraphicsLayerError
            if r.int(in: 0...1) == 0 {
                batch[bad].geometry = .point(Point(r.double(in: 0...5), .infinity))
                batch[bad].symbol = nil
                expected = .nonFiniteGeometry(index: bad)
            } else {
                batch[bad].geometry = .polygon(Polygon(rings: [[Point(0, 0), Point(0, 4), Point(4, 4)]]))
                batch[bad].symbol = marker
                expected = .symbolMismatch(index: bad, symbolKind: .simpleMarker, geometryType: .polygon)
            }
            let before = Snapshot(layer)
            #expect(throws: expected) { try layer.add(contentsOf: batch) }
            #expect(Snapshot(layer) == before, "round \(round): the failed batch changed the layer")

            batch[bad] = original
            for (id, g) in zip(try layer.add(contentsOf: batch), batch) { truth[id] = g }
            if r.int(in: 0...3) == 0 {
                for id in truth.keys.sorted() where r.int(in: 0...2) > 0 { #expect(layer.remove(id) == truth.removeValue(forKey: id)) }
            }
            #expect(layer.graphicIDs == truth.keys.sorted(), "round \(round): ids")
            #expect(layer.graphics == truth.keys.sorted().compactMap { truth[$0] }, "round \(round): graphics")
        }
    }
}
