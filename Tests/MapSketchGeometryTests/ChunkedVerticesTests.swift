@_spi(MapSketchInternal) import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct ChunkedVerticesTests {
    /// Random inserts, removes, moves and appends against a plain array: same vertices, same
    /// envelope, and the tree's invariants hold after every step.
    @Test(arguments: [UInt64(1), 2, 3])
    func matchesAnArrayModelUnderRandomEdits(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var v = ChunkedVertices()
        var model: [Point] = []
        let box = Envelope(xmin: -1000, ymin: -1000, xmax: 1000, ymax: 1000)
        for step in 0..<6000 {
            let roll = rng.int(in: 0...99)
            // Grow for the first half, then shrink, so merges and root collapses happen too.
            let growing = step < 3000
            if model.isEmpty || (growing && roll < 45) || (!growing && roll < 15) {
                let p = rng.point(in: box)
                let i = rng.int(in: 0...model.count)
                v.insert(p, at: i)
                model.insert(p, at: i)
            } else if (growing && roll < 65) || (!growing && roll < 25) {
                let p = rng.point(in: box)
                v.append(p)
                model.append(p)
            } else if roll < 80 {
                let i = rng.int(in: 0...(model.count - 1))
                #expect(v.remove(at: i) == model.remove(at: i))
            } else {
                let i = rng.int(in: 0...(model.count - 1))
                let p = rng.point(in: box)
                #expect(v.replace(at: i, with: p) == model[i])
                model[i] = p
            }
            // Debug builds check the whole tree after every mutation up to 4,096 vertices.
            if step % 100 == 0 { v._checkInvariantsNow() }
            if step % 500 == 0 {
                #expect(v.array == model)
                #expect(v.count == model.count)
            }
        }
        #expect(v.array == model)
        #expect(Array(v) == model)
        #expect(v.envelope == Envelope(points: model))
        #expect(v.first == model.first)
        #expect(v.last == model.last)
        for i in stride(from: 0, to: model.count, by: 7) { #expect(v[i] == model[i]) }
    }

    @Test func bulkLoadBuildsFullChunksAndAMultiLevelTree() {
        let pts = (0..<100_000).map { Point(Double($0), Double($0 % 17)) }
        let v = ChunkedVertices(pts)
        v._checkInvariantsNow()
        #expect(v.count == 100_000)
        #expect(v.height == 2, "782 chunks need two internal levels of 64")
        #expect(v.chunkCount == (100_000 + 127) / 128)
        #expect(v[54_321] == pts[54_321])
        #expect(v.array == pts)
    }

    @Test func copiesAreIndependentSnapshots() {
        var a = ChunkedVertices((0..<1000).map { Point(Double($0), 0) })
        let snapshot = a
        a.insert(Point(-1, -1), at: 500)
        a.replace(at: 10, with: Point(42, 42))
        a.remove(at: 0)
        #expect(snapshot.count == 1000)
        #expect(snapshot[500] == Point(500, 0))
        #expect(snapshot[10] == Point(10, 0))
        #expect(a[499] == Point(-1, -1))
        #expect(a[9] == Point(42, 42))
        snapshot._checkInvariantsNow()
        a._checkInvariantsNow()
    }

    @Test func removingEverythingEmptiesTheTree() {
        var v = ChunkedVertices((0..<5000).map { Point(Double($0), 1) })
        var rng = SeededRandom(seed: 9)
        while !v.isEmpty { v.remove(at: rng.int(in: 0...(v.count - 1))) }
        #expect(v.count == 0)
        #expect(v.envelope == nil)
        #expect(v.first == nil)
        #expect(v.last == nil)
        #expect(v.chunkCount == 0)
        v.append(Point(3, 4))
        #expect(v.array == [Point(3, 4)])
    }

    @Test func zAndMSurviveStorage() {
        var v = ChunkedVertices()
        for i in 0..<300 { v.append(Point(x: Double(i), y: 0, z: Double(i) * 2, m: i % 2 == 0 ? 1 : nil)) }
        v.insert(Point(x: -1, y: -1, z: 5, m: nil), at: 150)
        #expect(v[150].z == 5)
        // Vertex 299 is the old 298 (shifted by the insert), vertex 300 the old 299.
        #expect(v[299].z == 596)
        #expect(v[299].m == 1)
        #expect(v[300].m == nil)
        #expect(v[300].z == 598)
    }

    @Test func nearestVertexMatchesBruteForce() {
        var rng = SeededRandom(seed: 21)
        let box = Envelope(xmin: 0, ymin: 0, xmax: 10_000, ymax: 10_000)
        // A random walk, like a GPS track: chunks are spatially coherent.
        var p = Point(5000, 5000)
        var pts: [Point] = []
        for _ in 0..<20_000 {
            p = Point(p.x + rng.double(in: -20...20), p.y + rng.double(in: -20...20))
            pts.append(p)
        }
        let v = ChunkedVertices(pts)
        for _ in 0..<300 {
            let q = rng.point(in: box)
            let d = rng.double(in: 0...200)
            var best: (Int, Double)?
            for (i, s) in pts.enumerated() {
                let d2 = (s.x - q.x) * (s.x - q.x) + (s.y - q.y) * (s.y - q.y)
                if d2 <= d * d, best == nil || d2 < best?.1 ?? .infinity { best = (i, d2) }
            }
            let got = v.nearestVertex(to: q, within: d)
            #expect(got?.index == best?.0)
            let within = v.vertexIndices(within: d, of: q)
            let expected = pts.indices.filter {
                (pts[$0].x - q.x) * (pts[$0].x - q.x) + (pts[$0].y - q.y) * (pts[$0].y - q.y) <= d * d
            }
            #expect(within == expected)
        }
    }

    @Test(arguments: [false, true])
    func nearestMidVertexMatchesBruteForceAcrossChunkBoundaries(closed: Bool) {
        var rng = SeededRandom(seed: 5)
        var pts: [Point] = []
        var p = Point(0, 0)
        for _ in 0..<3000 {
            p = Point(p.x + rng.double(in: -50...50), p.y + rng.double(in: -50...50))
            pts.append(p)
        }
        var v = ChunkedVertices(pts)
        // Unaligned chunks and a tail, too.
        v.insert(Point(1, 1), at: 77)
        pts.insert(Point(1, 1), at: 77)
        for _ in 0..<40 { v.append(rng.point(in: Envelope(xmin: -500, ymin: -500, xmax: 500, ymax: 500))) }
        pts = v.array
        let segs = v.segmentCount(closed: closed)
        #expect(segs == (closed ? pts.count : pts.count - 1))
        for k in 0..<400 {
            // Probe exactly at chunk-crossing mid-vertices as well as random points.
            let q: Point
            if k % 2 == 0 {
                let s = (k * 127 + 127) % segs
                q = v.midVertex(segment: s, closed: closed)
            } else {
                q = Point(rng.double(in: -1500...1500), rng.double(in: -1500...1500))
            }
            let d = rng.double(in: 0...60)
            var best: (Int, Double)?
            for s in 0..<segs {
                let a = pts[s]
                let b = pts[(s + 1) % pts.count]
                let m = Point((a.x + b.x) / 2, (a.y + b.y) / 2)
                let d2 = (m.x - q.x) * (m.x - q.x) + (m.y - q.y) * (m.y - q.y)
                if d2 <= d * d, best == nil || d2 < best?.1 ?? .infinity { best = (s, d2) }
            }
            #expect(v.nearestMidVertex(to: q, within: d, closed: closed)?.segment == best?.0, "probe \(k)")
        }
    }

    @Test func closingSegmentOfARing() {
        let ring = ChunkedVertices([Point(0, 0), Point(0, 10), Point(10, 10), Point(10, 0)])
        #expect(ring.segmentCount(closed: true) == 4)
        #expect(ring.midVertex(segment: 3, closed: true) == Point(5, 0))
        #expect(ring.nearestMidVertex(to: Point(5, 1), within: 2, closed: true)?.segment == 3)
        #expect(ring.nearestMidVertex(to: Point(5, 1), within: 2, closed: false) == nil)
    }

    @Test func equalityIgnoresChunking() {
        let pts = (0..<1000).map { Point(Double($0), 2) }
        var a = ChunkedVertices()
        for p in pts { a.append(p) }
        let b = ChunkedVertices(pts)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        var c = b
        c.replace(at: 999, with: Point(0, 0))
        #expect(c != b)
    }
}

@Suite struct ChunkedVerticesWindowTests {
    @Test(arguments: [false, true])
    func windowQueriesMatchBruteForce(closed: Bool) {
        var rng = SeededRandom(seed: 77)
        var p = Point(0, 0)
        var pts: [Point] = []
        for _ in 0..<2500 {
            p = Point(p.x + rng.double(in: -30...30), p.y + rng.double(in: -30...30))
            pts.append(p)
        }
        var v = ChunkedVertices(pts)
        for _ in 0..<50 {
            let q = Point(rng.double(in: -300...300), rng.double(in: -300...300))
            v.append(q)
            pts.append(q)
        }
        let segs = closed ? pts.count : pts.count - 1
        for _ in 0..<60 {
            let c = Point(rng.double(in: -400...400), rng.double(in: -400...400))
            let w = Envelope(xmin: c.x - 80, ymin: c.y - 60, xmax: c.x + 80, ymax: c.y + 60)
            var got: [Int] = []
            v.forEachVertex(in: w) { i, q in
                got.append(i)
                #expect(q == pts[i])
            }
            #expect(got == pts.indices.filter { w.contains(pts[$0]) })
            var mids: [Int] = []
            v.forEachMidVertex(in: w, closed: closed) { s, _ in mids.append(s) }
            let expected = (0..<segs).filter { s in
                let a = pts[s]
                let b = pts[(s + 1) % pts.count]
                return w.contains(Point((a.x + b.x) / 2, (a.y + b.y) / 2))
            }
            #expect(mids == expected)
        }
    }
}

@Suite struct ChunkedVerticesLargeTests {
    /// Above 4,096 vertices the per-edit debug check is shallow, so big debug-build edits stay
    /// fast; a full check afterwards still finds the tree sound.
    @Test func manyEditsOnABigPartStaySound() {
        var v = ChunkedVertices((0..<50_000).map { Point(Double($0), Double($0 % 7)) })
        var rng = SeededRandom(seed: 3)
        for _ in 0..<2000 {
            let i = rng.int(in: 0...(v.count - 1))
            switch rng.int(in: 0...2) {
            case 0: v.insert(Point(-5, -5), at: i)
            case 1: v.remove(at: i)
            default: v.replace(at: i, with: Point(1e6, 1e6))
            }
        }
        v._checkInvariantsNow()
        #expect(v.envelope?.xmax == 1e6)
        #expect(v.count >= 50_000 - 2000 && v.count <= 50_000 + 2000)
    }
}
