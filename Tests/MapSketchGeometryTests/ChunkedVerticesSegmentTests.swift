@_spi(MapSketchInternal) @testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct ChunkedVerticesSegmentTests {
    /// The pruned walk finds exactly the segments a scan finds, chunk boundaries and the closing
    /// segment included, over parts of every size from empty to several levels of chunks.
    @Test(arguments: [0, 1, 2, 3, 127, 128, 129, 300, 20_000])
    func findsTheSameSegmentsAsAScan(count: Int) {
        var rng = SeededRandom(seed: UInt64(count + 1))
        var p = Point(0, 0)
        var points: [Point] = []
        for _ in 0..<count {
            p = Point(p.x + rng.double(in: -5...5), p.y + rng.double(in: -5...5))
            points.append(p)
        }
        // Built three ways: bulk-loaded, appended one by one (one run each), and edited in the
        // middle before the last vertices were appended (a tree of views and a copied-out chunk,
        // then a run after it).
        var appended = ChunkedVertices()
        for q in points { appended.append(q) }
        let head = points.count - points.count / 4
        var mixed = ChunkedVertices(points[..<head])
        if head > 0 {
            mixed.insert(Point(1e9, 1e9), at: head / 2)
            mixed.remove(at: head / 2)
        }
        for q in points[head...] { mixed.append(q) }
        #expect(mixed.array == points)
        for part in [ChunkedVertices(points), appended, mixed] {
            for closed in [false, true] {
                for _ in 0..<20 {
                    let window = rng.indexBox()
                    var found: [Int] = []
                    part.forEachSegment(meeting: window, closed: closed) { i, a, b in
                        #expect(a == points[i] && b == points[(i + 1) % points.count])
                        found.append(i)
                        return true
                    }
                    let segments = part.segmentCount(closed: closed)
                    let expected = (0..<segments).filter { i in
                        let a = points[i], b = points[(i + 1) % points.count]
                        return max(a.x, b.x) >= window.xmin && min(a.x, b.x) <= window.xmax && max(a.y, b.y) >= window.ymin
                            && min(a.y, b.y) <= window.ymax
                    }
                    #expect(found == expected)
                }
            }
        }
    }

    @Test func stopsWhenTheBodySaysSo() {
        let part = ChunkedVertices((0..<1000).map { Point(Double($0), 0) })
        var seen = 0
        let finished = part.forEachSegment(meeting: Envelope(xmin: -1, ymin: -1, xmax: 2000, ymax: 1), closed: false) { _, _, _ in
            seen += 1
            return seen < 10
        }
        #expect(!finished && seen == 10)
    }

    /// The snap walk (vertices and segments in one pass) offers exactly what the two separate
    /// walks find, at the same squared distances and points, in the same order, skipped vertex
    /// and segments left out; over bulk, appended and edited parts, open and closed.
    /// 600,000 vertices give a run three pyramid levels above its chunks.
    @Test(arguments: [0, 1, 2, 3, 127, 128, 129, 2_000, 600_000])
    func snapWalkOffersWhatTheSeparateWalksFind(count: Int) {
        var rng = SeededRandom(seed: UInt64(count + 7))
        var p = Point(0, 0)
        var points: [Point] = []
        for _ in 0..<count {
            // On a coarse grid: vertices on the window's edge, shared coordinates, zero-length segments.
            p = Point((p.x + rng.double(in: -5...5)).rounded(), (p.y + rng.double(in: -5...5)).rounded())
            points.append(p)
        }
        var appended = ChunkedVertices()
        for q in points { appended.append(q) }
        var edited = ChunkedVertices(points)
        if count > 0 {
            edited.insert(Point(1e9, 1e9), at: count / 2)
            edited.remove(at: count / 2)
        }
        var offered = 0
        for part in [ChunkedVertices(points), appended, edited] {
            for closed in [false, true] {
                for _ in 0..<25 {
                    let q = count > 0 ? points[rng.int(in: 0...(count - 1))] : Point(0, 0)
                    let at = Point(q.x + rng.double(in: -4...4).rounded(), q.y + rng.double(in: -4...4))
                    let r = Double(rng.int(in: 0...6))
                    let box = Envelope(xmin: at.x - r, ymin: at.y - r, xmax: at.x + r, ymax: at.y + r)
                    let skipVertex = count > 0 ? rng.int(in: -1...(count - 1)) : -1
                    let skipSegments = (skipVertex - 1, skipVertex)
                    var expected: [String] = []
                    part.forEachVertex(in: box) { i, v in
                        if i != skipVertex { expected.append("v\(i) \((v.x - at.x) * (v.x - at.x) + (v.y - at.y) * (v.y - at.y)) \(v)") }
                    }
                    _ = part.forEachSegment(meeting: box, closed: closed) { i, a, b in
                        if i != skipSegments.0 && i != skipSegments.1 {
                            let c = GeometryEngine.closestPoint(to: at, onSegment: a, b)
                            expected.append("s\(i) \(c.distanceSquared) \(c.point)")
                        }
                        return true
                    }
                    var vertices: [String] = [], segments: [String] = []
                    part.nearestVertexAndSegment(
                        to: at, in: box, closed: closed, vertices: true, segments: true, skipVertex: skipVertex,
                        skipSegments: skipSegments
                    ) { isVertex, i, d2, c in
                        if isVertex { vertices.append("v\(i) \(d2) \(c)") } else { segments.append("s\(i) \(d2) \(c)") }
                    }
                    #expect(vertices + segments == expected, "\(at) r \(r) closed \(closed)")
                    offered += expected.count
                }
            }
        }
        #expect(count < 3 || offered > 100, "the windows meet vertices and segments")
    }
}
