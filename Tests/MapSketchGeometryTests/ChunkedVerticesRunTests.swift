@_spi(MapSketchInternal) import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Appends and bulk loads fill a run (one buffer grown by doubling, read as 128-vertex chunks
/// with an envelope pyramid); an edit in the middle moves the run into the tree as a view and
/// copies out only the chunk it touches. These tests drive both paths against a plain `[Point]`:
/// long append runs across doublings, value copies appended to on both sides (a shared run is
/// copied when short, sealed into a view when long), removals at the end and in the middle,
/// inserts in the middle, moves, with z/m absent, present and appearing mid-run.
@Suite struct ChunkedVerticesRunTests {
    typealias Mix = ChunkedVerticesStorageTests.ZMMix

    /// Random operation sequences weighted towards the run: long appends, edits near the end,
    /// copies of the whole part mutated on both sides. Every read matches the model, the
    /// invariants hold, and every copy keeps its own vertices.
    @Test(arguments: Mix.allCases)
    func runOperationsMatchAnArray(mix: Mix) {
        for seed in [UInt64(501)] {
            var rng = SeededRandom(seed: seed &* 31 &+ UInt64(Mix.allCases.firstIndex(of: mix) ?? 0))
            var v =
                rng.int(in: 0...1) == 0
                ? ChunkedVertices()
                : ChunkedVertices((0..<rng.int(in: 1...700)).map { _ in ChunkedVerticesStorageTests.point(&rng, mix) })
            var model = v.array
            var copies: [(ChunkedVertices, [Point])] = []
            for step in 0..<240 {
                let roll = rng.int(in: 0...99)
                if model.isEmpty || roll < 35 {
                    // Long runs cross chunk boundaries and doublings of the run.
                    for _ in 0..<rng.int(in: 1...400) {
                        let p = ChunkedVerticesStorageTests.point(&rng, mix)
                        v.append(p)
                        model.append(p)
                    }
                } else if roll < 50 {
                    // Undo of appends: the last vertex goes, in place.
                    for _ in 0..<Swift.min(model.count, rng.int(in: 1...200)) {
                        #expect(v.remove(at: model.count - 1) == model.removeLast())
                    }
                } else if roll < 62 {
                    let i = rng.int(in: 0...model.count)
                    let p = ChunkedVerticesStorageTests.point(&rng, mix)
                    v.insert(p, at: i)
                    model.insert(p, at: i)
                } else if roll < 72 {
                    let i = rng.int(in: 0...(model.count - 1))
                    #expect(v.remove(at: i) == model.remove(at: i))
                } else if roll < 86 {
                    // Moves, mostly near the end (dragging the newest vertices).
                    let i =
                        rng.int(in: 0...1) == 0
                        ? rng.int(in: 0...(model.count - 1)) : Swift.max(0, model.count - 1 - rng.int(in: 0...300))
                    let p = ChunkedVerticesStorageTests.point(&rng, mix)
                    #expect(v.replace(at: i, with: p) == model[i])
                    model[i] = p
                } else {
                    // A copy, then both sides go on appending and editing: neither sees the other.
                    var c = v
                    var cm = model
                    for _ in 0..<rng.int(in: 1...400) {
                        let p = ChunkedVerticesStorageTests.point(&rng, mix)
                        c.append(p)
                        cm.append(p)
                    }
                    if !cm.isEmpty {
                        let i = rng.int(in: 0...(cm.count - 1))
                        #expect(c.replace(at: i, with: Point(x: -7, y: -7)) == cm[i])
                        cm[i] = Point(x: -7, y: -7)
                    }
                    for _ in 0..<rng.int(in: 1...100) {
                        let p = ChunkedVerticesStorageTests.point(&rng, mix)
                        v.append(p)
                        model.append(p)
                    }
                    ChunkedVerticesStorageTests.expectMatches(c, cm, &rng)
                    if copies.count < 8 { copies.append((c, cm)) }
                }
                if step % 40 == 0 { ChunkedVerticesStorageTests.expectMatches(v, model, &rng) }
            }
            ChunkedVerticesStorageTests.expectMatches(v, model, &rng)
            for (c, cm) in copies { ChunkedVerticesStorageTests.expectMatches(c, cm, &rng) }
        }
    }

    /// A copy taken while a part grows must not see later appends, whether the shared run is
    /// short (each side copies it on its next append) or long (each side moves it into its tree
    /// as a view and starts a new run): at sizes on both sides of that limit and of a chunk.
    @Test(arguments: [1, 100, 128, 200, 256, 257, 300, 5_000])
    func copiesDoNotSeeLaterAppends(size: Int) {
        var rng = SeededRandom(seed: UInt64(size))
        var a = ChunkedVertices()
        var model: [Point] = []
        for _ in 0..<size {
            let p = rng.point(in: Envelope(xmin: 0, ymin: 0, xmax: 100, ymax: 100))
            a.append(p)
            model.append(p)
        }
        let frozen = a
        var b = a
        var am = model
        var bm = model
        for k in 0..<700 {
            let p = Point(Double(k), -1)
            a.append(p)
            am.append(p)
            if k % 3 == 0 {
                let q = Point(x: Double(k), y: -2, z: Double(k))
                b.append(q)
                bm.append(q)
            }
        }
        #expect(frozen.array == model)
        #expect(a.array == am)
        #expect(b.array == bm)
        #expect(frozen.envelope == Envelope(points: model))
        #expect(a.envelope == Envelope(points: am))
        #expect(b.envelope == Envelope(points: bm))
        for x in [frozen, a, b] { x._checkInvariantsNow() }
    }

    /// n appends from empty stay one run whose room doubles (reallocated in place): three
    /// allocations whatever n, none per chunk, and the run holds every vertex in order.
    @Test func appendsFillOneRunThatDoubles() {
        var v = ChunkedVertices()
        var pts: [Point] = []
        var rng = SeededRandom(seed: 8)
        for n in 1...100_000 {
            let p = rng.point(in: Envelope(xmin: -1e3, ymin: -1e3, xmax: 1e3, ymax: 1e3))
            v.append(p)
            pts.append(p)
            if n == 16 || n == 17 || n == 1_000 || n == 100_000 {
                let s = v.storage
                #expect(s.runs == 1 && s.views == 0 && s.ownedChunks == 0 && s.internalNodes == 0)
                #expect(s.allocations == 3, "the run, its x/y buffer and its pyramid")
            }
        }
        #expect(v.array == pts)
        #expect(v.chunkCount == (100_000 + 127) / 128)
        v._checkInvariantsNow()
        // z appearing mid-run adds the z/m buffer, nothing per vertex.
        v.append(Point(x: 1, y: 2, z: 3))
        #expect(v.storage.allocations == 4)
        #expect(v.last == Point(x: 1, y: 2, z: 3))
        #expect(v[50_000] == pts[50_000] && v[50_000].z == nil)
    }

    /// An insert in the middle of a long run copies one chunk out: the tree holds a view of the
    /// chunks before it, the chunk (full, so split in two by the insert) and a view of the
    /// chunks after it; the run itself is
    /// untouched, so a snapshot taken before reads the old vertices; the next append starts a
    /// new run after the tree.
    @Test func anInsertInTheMiddleCopiesOneChunkOut() {
        let pts = (0..<10_000).map { Point(Double($0), Double($0 % 13)) }
        var v = ChunkedVertices(pts)
        let snapshot = v
        v.insert(Point(-1, -1), at: 5_000)
        let s = v.storage
        #expect(s.runs == 1 && s.views == 2 && s.ownedChunks == 2 && s.internalNodes == 1)
        #expect(v[5_000] == Point(-1, -1) && v[5_001] == pts[5_000] && v[4_999] == pts[4_999])
        #expect(snapshot.array == pts)
        v.append(Point(7, 7))
        #expect(v.storage.runs == 2)
        #expect(v.last == Point(7, 7) && v.count == 10_002)
        // Edits in the views copy out further chunks; the vertices stay right.
        var model = pts
        model.insert(Point(-1, -1), at: 5_000)
        model.append(Point(7, 7))
        for i in stride(from: 17, to: 10_000, by: 977) {
            #expect(v.replace(at: i, with: Point(Double(i), -5)) == model[i])
            model[i] = Point(Double(i), -5)
            #expect(v.remove(at: i + 3) == model.remove(at: i + 3))
        }
        #expect(v.array == model)
        #expect(snapshot.array == pts)
        v._checkInvariantsNow()
        snapshot._checkInvariantsNow()
    }

    /// Removing every vertex, from the end, from the front and at random, out of parts built by
    /// bulk load and by appends, empties them; they take appends again.
    @Test(arguments: [0, 1, 2])
    func removingEverythingFromARun(order: Int) {
        var rng = SeededRandom(seed: 40 + UInt64(order))
        var v = ChunkedVertices((0..<3_000).map { Point(Double($0), 0) })
        for i in 0..<2_000 { v.append(Point(x: Double(i), y: 1, m: Double(i))) }
        var model = v.array
        while !model.isEmpty {
            let i = order == 0 ? model.count - 1 : order == 1 ? 0 : rng.int(in: 0...(model.count - 1))
            #expect(v.remove(at: i) == model.remove(at: i))
            if model.count % 500 == 0 { v._checkInvariantsNow() }
        }
        #expect(v.isEmpty && v.count == 0 && v.envelope == nil && v.first == nil && v.last == nil)
        v.append(Point(3, 4))
        #expect(v.array == [Point(3, 4)])
    }

    /// z and m in a run: absent (no side buffer), on every vertex, and appearing after many
    /// vertices without (the earlier ones read back without z or m); chunks copied out of the
    /// run by edits keep them.
    @Test func zAndMInRunsAndTheChunksCopiedOut() {
        var v = ChunkedVertices((0..<1_000).map { Point(Double($0), 0) })
        for i in 0..<500 { v.append(Point(x: Double(i), y: 1, z: Double(i) / 2)) }
        #expect(v[999] == Point(999, 0) && v[999].z == nil)
        #expect(v[1_200] == Point(x: 200, y: 1, z: 100))
        v.insert(Point(x: -1, y: -1, m: 9), at: 1_100)
        v.insert(Point(x: -2, y: -2), at: 10)
        #expect(v[1_101] == Point(x: -1, y: -1, m: 9))
        #expect(v[1_102] == Point(x: 100, y: 1, z: 50))
        #expect(v[11] == Point(10, 0) && v[10] == Point(-2, -2))
        #expect(v.replace(at: 1_301, with: Point(0, 0)) == Point(x: 299, y: 1, z: 149.5))
        #expect(v[1_301].z == nil)
        v._checkInvariantsNow()
        var it = v.makeIterator()
        var n = 0
        while let p = it.next() {
            if n == 1_101 { #expect(p.m == 9) }
            n += 1
        }
        #expect(n == v.count)
    }

    /// The iterator keeps what it reads alive: a part replaced while it is iterated still
    /// yields its old vertices.
    @Test func iteratorOutlivesItsPart() {
        var v = ChunkedVertices((0..<1_000).map { Point(Double($0), 0) })
        v.insert(Point(-1, -1), at: 500)
        var it = v.makeIterator()
        v = ChunkedVertices()
        var got: [Point] = []
        while let p = it.next() { got.append(p) }
        var expected = (0..<1_000).map { Point(Double($0), 0) }
        expected.insert(Point(-1, -1), at: 500)
        #expect(got == expected)
    }
}
