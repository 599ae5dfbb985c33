@_spi(MapSketchInternal) @testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The internal invariant checks: sound structures pass, a corrupted one traps (run in a child
/// process), and long seeded edit sequences run with the checks on after every edit (this test
/// build defines MAPSKETCH_INTERNAL_CHECKS).
@Suite struct InvariantTests {
    @Test func theTestBuildChecksAfterEveryMutation() {
        #if MAPSKETCH_INTERNAL_CHECKS
        let checking = true
        #else
        let checking = false
        #endif
        #expect(checking)
    }

    // MARK: Corruption is caught

    // Exit tests (a child process that must trap) need Swift Testing 6.2; the package builds with 6.1.
    #if compiler(>=6.2)
    /// The control for the tests below: the same child-process run of a sound structure exits
    /// normally, so a trap there is the check's doing.
    @Test func aSoundStructureExitsNormally() async {
        await #expect(processExitsWith: .success) {
            let v = ChunkedVertices((0..<1_000).map { Point(Double($0), 0) })
            v._checkInvariantsNow()
            var index = SpatialIndex()
            index.bulkLoad(count: 100) { Envelope(xmin: Double($0), ymin: 0, xmax: Double($0) + 1, ymax: 1) }
            index._checkInvariantsNow()
        }
    }

    @Test func aStaleChunkEnvelopeTraps() async {
        await #expect(processExitsWith: .failure) {
            let v = ChunkedVertices((0..<1_000).map { Point(Double($0), 0) })
            v._root.unsafelyUnwrapped.envelope.xmax += 1
            v._checkInvariantsNow()
        }
    }

    @Test func aBoxOutsideItsParentTraps() async {
        await #expect(processExitsWith: .failure) {
            var t = PackedRTree(envelopes: (0..<100).map { Envelope(xmin: Double($0), ymin: 0, xmax: Double($0) + 1, ymax: 1) })
            t.blocks[0] = -1_000
            t._checkInvariantsNow()
        }
    }

    @Test func aMiscountedTombstoneTraps() async {
        await #expect(processExitsWith: .failure) {
            var index = SpatialIndex()
            index.bulkLoad(count: 100) { Envelope(xmin: Double($0), ymin: 0, xmax: Double($0) + 1, ymax: 1) }
            index.staleInTree = 1
            index._checkInvariantsNow()
        }
    }

    @Test func aSecondMultipointPartTraps() async {
        await #expect(processExitsWith: .failure) {
            VertexStore.checkShape(type: .multipoint, parts: [[Point(0, 0)], [Point(1, 1)]])
        }
    }
    #endif

    @Test func soundShapesPass() {
        VertexStore.checkShape(type: .point, parts: [])
        VertexStore.checkShape(type: .point, parts: [[Point(0, 0)]])
        VertexStore.checkShape(type: .multipoint, parts: [[]])
        VertexStore.checkShape(type: .polygon, parts: [[], [Point(0, 0)], []])
        PackedRTree()._checkInvariantsNow()
        SpatialIndex()._checkInvariantsNow()
        ChunkedVertices()._checkInvariantsNow()
    }

    // MARK: Long seeded edit sequences, checked after every edit

    /// Random edits of every editable type against a plain `[[Point]]` model; the store checks
    /// itself after each edit, and the whole structure is checked every 64 steps.
    @Test(arguments: [GeometryType.point, .multipoint, .polyline, .polygon])
    func seededEditsKeepTheStoreSound(type: GeometryType) throws {
        var r = SeededRandom(seed: 31 &+ UInt64(type.rawValue.count))
        var s = try VertexStore(type: type)
        var model: [[Point]] = []
        func vertex() -> Point { Point(r.double(in: -100...100), r.double(in: -100...100)) }
        for step in 0..<3_000 {
            let op = r.int(in: 0...9)
            let part = model.isEmpty ? 0 : r.int(in: 0...(model.count - 1))
            do {
                switch op {
                case 0...4:  // append or insert
                    let p = vertex()
                    if model.isEmpty || op == 0 {
                        try s.append(p)
                        if model.isEmpty { model.append([]) }
                        if type == .point { model = [[p]] } else { model[model.count - 1].append(p) }
                    } else {
                        let i = r.int(in: 0...model[part].count)
                        try s.insertVertex(p, part: part, at: i)
                        model[part].insert(p, at: i)
                    }
                case 5...6 where !model.isEmpty && !model[part].isEmpty:  // move
                    let i = r.int(in: 0...(model[part].count - 1))
                    let p = vertex()
                    try s.moveVertex(part: part, index: i, to: p)
                    model[part][i] = p
                case 7 where !model.isEmpty && !model[part].isEmpty:  // remove a vertex
                    let i = r.int(in: 0...(model[part].count - 1))
                    try s.removeVertex(part: part, index: i)
                    model[part].remove(at: i)
                    if type == .point { model = [] }
                case 8:  // add a part
                    _ = try s.addPart()
                    model.append([])
                case 9 where !model.isEmpty:  // remove a part
                    try s.removePart(part)
                    model.remove(at: part)
                default:
                    break
                }
            } catch let e as GeometryError {
                // Point and multipoint refuse a second part or vertex; nothing changes then.
                #expect(type == .point || type == .multipoint, "step \(step): \(e)")
            }
            #expect(s.parts.map(\.array) == model, "step \(step)")
            if step % 64 == 0 { s._checkInvariantsNow() }
        }
        s._checkInvariantsNow()
    }
}
