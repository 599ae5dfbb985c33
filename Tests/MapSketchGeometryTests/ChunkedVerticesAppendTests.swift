@_spi(MapSketchInternal) import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The append fast path writes straight into the tail chunk, which joins the tree node and all
/// when full; internal nodes keep their children's counts and envelopes inline. These tests
/// check both against plain arrays and recomputation, including snapshots taken mid-chunk.
@Suite struct ChunkedVerticesAppendTests {
    /// Runs of appends interleaved with inserts, removes and moves near the end (the tail and
    /// the chunk just flushed) and anywhere, against an array; snapshots taken at random steps
    /// must keep their vertices while the original goes on (copy-on-write of the tail chunk).
    @Test(arguments: [UInt64(11), 12, 13])
    func appendInterleavingsMatchAnArray(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var v = ChunkedVertices()
        var model: [Point] = []
        var snapshots: [(ChunkedVertices, [Point])] = []
        let box = Envelope(xmin: -500, ymin: -500, xmax: 500, ymax: 500)
        for step in 0..<1500 {
            let roll = rng.int(in: 0...99)
            if model.isEmpty || roll < 55 {
                // A run of appends, often across a chunk boundary.
                for _ in 0..<rng.int(in: 1...200) {
                    let p = Point(x: rng.double(in: -500...500), y: rng.double(in: -500...500), z: roll % 3 == 0 ? 1 : nil)
                    v.append(p)
                    model.append(p)
                }
            } else if roll < 70 {
                // Near the end: the tail or the last chunks.
                let i = Swift.max(0, model.count - rng.int(in: 0...300))
                let p = rng.point(in: box)
                v.insert(p, at: i)
                model.insert(p, at: i)
            } else if roll < 85 {
                let i = rng.int(in: 0...99) < 70 ? Swift.max(0, model.count - 1 - rng.int(in: 0...200)) : rng.int(in: 0...(model.count - 1))
                let removed = model.remove(at: i)
                let got = v.remove(at: i)
                #expect(got == removed)
            } else if roll < 95 {
                let i = rng.int(in: 0...(model.count - 1))
                let p = rng.point(in: box)
                let old = v.replace(at: i, with: p)
                #expect(old == model[i])
                model[i] = p
            } else if snapshots.count < 12 {
                snapshots.append((v, model))
            }
            // Shrink now and then so chunks merge and the tree collapses too.
            if step % 500 == 499 {
                while model.count > 1500 {
                    let i = rng.int(in: 0...(model.count - 1))
                    let removed = model.remove(at: i)
                    let got = v.remove(at: i)
                    #expect(got == removed)
                }
            }
            if step % 100 == 0 { v._checkInvariantsNow() }
            if step % 20 == 0 {
                #expect(v.count == model.count)
                #expect(v.last == model.last)
                #expect(v.envelope == (model.isEmpty ? nil : Envelope(points: model)))
            }
            if step % 400 == 0 { #expect(v.array == model) }
        }
        #expect(v.array == model)
        #expect(Array(v) == model)
        for (s, m) in snapshots {
            s._checkInvariantsNow()
            #expect(s.array == m)
            #expect(s.envelope == (m.isEmpty ? nil : Envelope(points: m)))
        }
    }

    /// Appending from empty builds exactly the chunks a bulk load builds, with the same envelopes
    /// and vertices, at every chunk boundary.
    @Test func appendedAndBulkLoadedPartsAgree() {
        var rng = SeededRandom(seed: 99)
        var v = ChunkedVertices()
        var pts: [Point] = []
        for n in 1...20_000 {
            let p = rng.point(in: Envelope(xmin: 0, ymin: 0, xmax: 1e4, ymax: 1e4))
            v.append(p)
            pts.append(p)
            if n % 128 == 0 || n % 128 == 1 || n % 4093 == 0 {
                #expect(v.count == n)
                #expect(v.chunkCount == (n + 127) / 128)
                #expect(v.last == p)
                #expect(v[n / 2] == pts[n / 2])
            }
        }
        v._checkInvariantsNow()
        let bulk = ChunkedVertices(pts)
        #expect(v == bulk)
        #expect(v.envelope == bulk.envelope)
        #expect(v.height == bulk.height)
        #expect(v.array == pts)
    }

    /// A part's first tail starts small (16 vertices of room) and moves to a full chunk when it
    /// outgrows it; bulk loads leave a tail sized to what is left over. Appends and inserts
    /// across those moves, with snapshots taken on the way, match an array.
    @Test(arguments: [0, 1, 15, 16, 17, 100, 127, 128, 129, 143, 144])
    func smallTailsGrowIntoFullChunks(start: Int) {
        var v = ChunkedVertices((0..<start).map { Point(Double($0), 1) })
        var model = v.array
        var snapshots: [(ChunkedVertices, [Point])] = []
        for k in 0..<300 {
            let p = Point(Double(-k), Double(k % 5))
            if k % 3 == 0 {
                let i = model.count - Swift.min(model.count, k % 7 == 0 ? 0 : k % 11)
                v.insert(p, at: i)
                model.insert(p, at: i)
            } else {
                v.append(p)
                model.append(p)
            }
            if k % 37 == 0 { snapshots.append((v, model)) }
        }
        v._checkInvariantsNow()
        #expect(v.array == model)
        #expect(v.envelope == Envelope(points: model))
        for (s, m) in snapshots {
            s._checkInvariantsNow()
            #expect(s.array == m)
        }
    }

    /// A value copied while its tail chunk is part-filled keeps its vertices when either side
    /// appends, inserts into, moves in or removes from the tail afterwards.
    @Test func copiesOfAPartFilledTailAreIndependent() {
        var a = ChunkedVertices()
        for i in 0..<200 { a.append(Point(Double(i), 0)) }
        let frozen = a
        var b = a
        a.append(Point(-1, -1))
        b.append(Point(-2, -2))
        b.insert(Point(-3, -3), at: 150)
        a.replace(at: 199, with: Point(7, 7))
        b.remove(at: 130)
        #expect(frozen.array == (0..<200).map { Point(Double($0), 0) })
        #expect(a.count == 201 && a[199] == Point(7, 7) && a[200] == Point(-1, -1))
        #expect(b.count == 201 && b[149] == Point(-3, -3) && b.last == Point(-2, -2))
        for x in [a, b, frozen] { x._checkInvariantsNow() }
    }
}
