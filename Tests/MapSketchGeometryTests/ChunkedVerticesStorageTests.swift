@_spi(MapSketchInternal) import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Chunks store x and y inline and z and m in a side array that exists only while some vertex of
/// the chunk carries them. These tests drive seeded random operation sequences (append runs,
/// inserts, removes, replaces, copies mutated on both sides) against a plain `[Point]` for each
/// mix of z and m: none, z only, m only, both, and vertices that differ within a chunk.
@Suite struct ChunkedVerticesStorageTests {
    /// How the vertices of one run carry z and m.
    enum ZMMix: CaseIterable, Sendable {
        case none, zOnly, mOnly, both, mixed
    }

    static func point(_ rng: inout SeededRandom, _ mix: ZMMix) -> Point {
        let x = rng.double(in: -1000...1000)
        let y = rng.double(in: -1000...1000)
        switch mix {
        case .none: return Point(x: x, y: y)
        case .zOnly: return Point(x: x, y: y, z: rng.double(in: 0...100))
        case .mOnly: return Point(x: x, y: y, m: rng.double(in: 0...100))
        case .both: return Point(x: x, y: y, z: rng.double(in: 0...100), m: rng.double(in: 0...100))
        case .mixed:
            // Mostly plain vertices, so chunks turn from x/y only to z/m-carrying mid-way.
            switch rng.int(in: 0...9) {
            case 0: return Point(x: x, y: y, z: rng.double(in: 0...100))
            case 1: return Point(x: x, y: y, m: rng.double(in: 0...100))
            case 2: return Point(x: x, y: y, z: rng.double(in: 0...100), m: rng.double(in: 0...100))
            default: return Point(x: x, y: y)
            }
        }
    }

    /// Every read of `v` agrees with `model`: the array, iteration, subscripts, ends, envelope,
    /// and the queries against a brute-force scan.
    static func expectMatches(_ v: ChunkedVertices, _ model: [Point], _ rng: inout SeededRandom) {
        v._checkInvariantsNow()
        #expect(v.count == model.count)
        #expect(v.array == model)
        #expect(Array(v) == model)
        #expect(v.first == model.first)
        #expect(v.last == model.last)
        var e: Envelope?
        for p in model {
            if e == nil { e = Envelope(xmin: p.x, ymin: p.y, xmax: p.x, ymax: p.y) } else { e!.expand(toInclude: p) }
        }
        #expect(v.envelope == e)
        guard !model.isEmpty else { return }
        for _ in 0..<8 {
            let i = rng.int(in: 0...(model.count - 1))
            #expect(v[i] == model[i])
        }
        var chunked: [Point] = []
        v.forEachChunk { chunked.append(contentsOf: $0) }
        #expect(chunked == model)
        // Nearest vertex and the vertices in a box, against a scan.
        let q = Point(x: rng.double(in: -1000...1000), y: rng.double(in: -1000...1000))
        let d = rng.double(in: 0...200)
        var best: (Int, Double)?
        for (i, p) in model.enumerated() {
            let d2 = (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)
            if d2 <= d * d, best == nil || d2 < best!.1 { best = (i, d2) }
        }
        let got = v.nearestVertex(to: q, within: d)
        #expect(got?.index == best?.0)
        #expect(got?.distanceSquared == best?.1)
        let box = Envelope(xmin: q.x - d, ymin: q.y - d, xmax: q.x + d, ymax: q.y + d)
        var inBox: [Int] = []
        var inBoxPoints: [Point] = []
        v.forEachVertex(in: box) { i, p in
            inBox.append(i)
            inBoxPoints.append(p)
        }
        let expected = model.indices.filter { box.contains(model[$0]) }
        #expect(inBox == expected)
        #expect(inBoxPoints == expected.map { model[$0] })
        if model.count >= 2 {
            let s = rng.int(in: 0...(model.count - 2))
            let mid = v.midVertex(segment: s, closed: false)
            #expect(mid.x == (model[s].x + model[s + 1].x) / 2)
            if let za = model[s].z, let zb = model[s + 1].z { #expect(mid.z == (za + zb) / 2) } else { #expect(mid.z == nil) }
        }
    }

    @Test(arguments: ZMMix.allCases)
    func randomOperationsMatchAnArray(mix: ZMMix) {
        // Under a sanitizer (10× slower), one seed.
        for seed in SanitizerRuntime.active == nil ? [UInt64(101), 102] : [101] {
            var rng = SeededRandom(seed: seed &* 7 &+ UInt64(ZMMix.allCases.firstIndex(of: mix)!))
            var v = ChunkedVertices()
            var model: [Point] = []
            var copies: [(ChunkedVertices, [Point])] = []
            for step in 0..<400 {
                let roll = rng.int(in: 0...99)
                if model.isEmpty || roll < 40 {
                    for _ in 0..<rng.int(in: 1...140) {
                        let p = Self.point(&rng, mix)
                        v.append(p)
                        model.append(p)
                    }
                } else if roll < 60 {
                    let i = rng.int(in: 0...model.count)
                    let p = Self.point(&rng, mix)
                    v.insert(p, at: i)
                    model.insert(p, at: i)
                } else if roll < 78 {
                    let i = rng.int(in: 0...(model.count - 1))
                    #expect(v.remove(at: i) == model.remove(at: i))
                } else if roll < 93 {
                    let i = rng.int(in: 0...(model.count - 1))
                    let p = Self.point(&rng, mix)
                    #expect(v.replace(at: i, with: p) == model[i])
                    model[i] = p
                } else {
                    // Copy, then mutate the copy: the original must not see it.
                    var c = v
                    var cm = model
                    for _ in 0..<rng.int(in: 1...40) {
                        let i = rng.int(in: 0...cm.count)
                        let p = Self.point(&rng, mix)
                        if i == cm.count { c.append(p) } else { c.insert(p, at: i) }
                        cm.insert(p, at: i)
                        if !cm.isEmpty, rng.int(in: 0...2) == 0 {
                            let j = rng.int(in: 0...(cm.count - 1))
                            #expect(c.replace(at: j, with: Point(x: 0, y: 0)) == cm[j])
                            cm[j] = Point(x: 0, y: 0)
                        }
                    }
                    Self.expectMatches(c, cm, &rng)
                    if copies.count < 6 { copies.append((c, cm)) }
                }
                // Shrink now and then, so chunks merge (x/y-only ones with z/m ones) and the tree collapses.
                if step % 100 == 99 {
                    while model.count > 300 {
                        let i = rng.int(in: 0...(model.count - 1))
                        #expect(v.remove(at: i) == model.remove(at: i))
                    }
                }
                if step % 40 == 0 { Self.expectMatches(v, model, &rng) }
            }
            Self.expectMatches(v, model, &rng)
            for (c, cm) in copies { Self.expectMatches(c, cm, &rng) }
            // A bulk load of the same vertices equals the edited part, vertex by vertex.
            #expect(ChunkedVertices(model) == v)
            #expect(ChunkedVertices(model).array == model)
        }
    }

    /// A snapshot taken while appending (the tail shared) keeps its vertices and their z/m when
    /// both sides go on appending, replacing and removing.
    @Test(arguments: ZMMix.allCases)
    func snapshotsMidAppendKeepTheirVertices(mix: ZMMix) {
        var rng = SeededRandom(seed: 77)
        var v = ChunkedVertices()
        var model: [Point] = []
        var snaps: [(ChunkedVertices, [Point])] = []
        // Under a sanitizer (10× slower), the first 800 appends.
        for k in 0..<(SanitizerRuntime.active == nil ? 2_000 : 800) {
            let p = Self.point(&rng, mix)
            v.append(p)
            model.append(p)
            if k % 97 == 0 {
                snaps.append((v, model))
                // The original's tail is shared now: edit it in place and at the end.
                let i = model.count - 1
                let q = Self.point(&rng, .both)
                #expect(v.replace(at: i, with: q) == model[i])
                model[i] = q
            }
        }
        Self.expectMatches(v, model, &rng)
        for (s, sm) in snaps { Self.expectMatches(s, sm, &rng) }
    }

    /// A part turns from x/y only to z/m-carrying and back: removing the z/m vertices leaves
    /// points without z or m, and a z vertex appended to a long x/y-only chunk reads back exactly.
    @Test func zmAppearsMidChunk() {
        var v = ChunkedVertices((0..<300).map { Point(Double($0), 0) })
        v.append(Point(x: 1, y: 2, z: 3))
        v.insert(Point(x: 4, y: 5, m: 6), at: 150)
        #expect(v[301] == Point(x: 1, y: 2, z: 3))
        #expect(v[150] == Point(x: 4, y: 5, m: 6))
        #expect(v[151] == Point(150, 0))
        #expect(v.remove(at: 150) == Point(x: 4, y: 5, m: 6))
        #expect(v.remove(at: 300) == Point(x: 1, y: 2, z: 3))
        #expect(v.array == (0..<300).map { Point(Double($0), 0) })
        v._checkInvariantsNow()
    }
    /// A vertex removed or moved from an edge of its chunk's envelope: only the bounds it was on
    /// are recomputed. Each way of lying on the bounds — inside, on one bound, on a lower and an
    /// upper bound of different axes, on both bounds of an axis (a chunk of one column), on a
    /// bound shared with another vertex — must leave every chunk's envelope (checked by the
    /// invariants) and the part's equal to a fresh fold, in a bulk-loaded part (views) and in
    /// owned chunks.
    @Test(arguments: [false, true])
    func removingAVertexOnTheEnvelopeRecomputesItsBounds(column: Bool) {
        let base = (0..<400).map { i -> Point in
            let t = Double(i)
            return column ? Point(5, t.truncatingRemainder(dividingBy: 7)) : Point(t, (t * 37).truncatingRemainder(dividingBy: 11))
        }
        var rng = SeededRandom(seed: column ? 5 : 6)
        // Offsets from a vertex: every mix of below / inside / above on x and y, and exact ties.
        let offsets: [(Double, Double)] = [
            (0, 0), (-500, 0), (500, 0), (0, -500), (0, 500), (-500, -500), (-500, 500), (500, -500),
            (500, 500), (-0.25, 0.25),
        ]
        for (dx, dy) in offsets {
            for index in [0, 1, 64, 127, 128, 200, 399] {
                var v = ChunkedVertices(base)
                var model = base
                let p = Point(x: base[index].x + dx, y: base[index].y + dy)
                v.insert(p, at: index)
                model.insert(p, at: index)
                Self.expectMatches(v, model, &rng)
                // A move of the vertex on the envelope, then of a neighbour onto the same bounds.
                let q = Point(x: base[index].x - dx, y: base[index].y - dy)
                #expect(v.replace(at: index, with: q) == p)
                model[index] = q
                Self.expectMatches(v, model, &rng)
                let j = index == 0 ? 1 : index - 1
                #expect(v.replace(at: j, with: q) == model[j])
                model[j] = q
                Self.expectMatches(v, model, &rng)
                #expect(v.remove(at: index) == model.remove(at: index))
                Self.expectMatches(v, model, &rng)
                #expect(v.remove(at: j < index ? j : index) == model.remove(at: j < index ? j : index))
                Self.expectMatches(v, model, &rng)
            }
        }
    }
}
