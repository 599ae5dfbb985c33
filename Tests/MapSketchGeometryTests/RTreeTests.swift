@testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct RTreeTests {
    @Test func emptyTreeFindsNothing() {
        let t = PackedRTree(envelopes: [])
        var hits = 0
        t.search(Envelope(xmin: -1e9, ymin: -1e9, xmax: 1e9, ymax: 1e9)) { _ in hits += 1; return true }
        #expect(hits == 0)
        #expect(t.bounds == nil)
    }

    @Test(arguments: [1, 2, 15, 16, 17, 257, 5000])
    func packedTreeMatchesBruteForce(n: Int) {
        var r = SeededRandom(seed: UInt64(n))
        let boxes = (0..<n).map { _ in r.indexBox() }
        let t = PackedRTree(envelopes: boxes)
        t._checkInvariantsNow()
        #expect(t.count == n)
        for _ in 0..<200 {
            let q = r.indexBox().inset(by: r.double(in: 0...60))
            var got: [Int] = []
            t.search(q) { got.append($0); return true }
            let want = boxes.indices.filter { boxes[$0].intersects(q) }
            #expect(got.sorted() == want)
        }
    }

    @Test(arguments: [1, 16, 17, 300, 5000])
    func collectWritesTheSearchHitsAndCountsOverflow(n: Int) {
        var r = SeededRandom(seed: UInt64(100 + n))
        let boxes = (0..<n).map { _ in r.indexBox() }
        let t = PackedRTree(envelopes: boxes)
        var buffer = [Int32](repeating: -7, count: 8)
        for _ in 0..<200 {
            let q = r.indexBox().inset(by: r.double(in: -200...60))
            var want: [Int] = []
            t.search(q) { want.append($0); return true }
            let found = buffer.withUnsafeMutableBufferPointer { t.collect(q, into: $0.baseAddress!, capacity: $0.count) }
            #expect(found == want.count)
            // Only the first `capacity` are written, in the same (tree) order.
            #expect(buffer.prefix(min(found, 8)).map(Int.init) == Array(want.prefix(8)))
        }
    }

    /// `collect` walks the tree on its own (leaf blocks read where they are found): at every
    /// depth (1 to 5 levels below the root) it finds exactly the boxes a brute-force scan does,
    /// for the tiny boxes of a tap and for larger windows.
    @Test(arguments: [1, 16, 17, 300, 5000, 70_000])
    func collectMatchesBruteForceAtEveryDepth(n: Int) {
        var r = SeededRandom(seed: UInt64(300 + n))
        let boxes = (0..<n).map { _ in r.indexBox() }
        let t = PackedRTree(envelopes: boxes)
        var buffer = [Int32](repeating: 0, count: n)
        for k in 0..<100 {
            let q: Envelope
            if k % 2 == 0 {
                // A tap beside an item: a box a few units wide.
                let c = boxes[r.int(in: 0...(n - 1))]
                let x = c.xmin + r.double(in: -3...3), y = c.ymin + r.double(in: -3...3)
                q = Envelope(xmin: x - 2, ymin: y - 2, xmax: x + 2, ymax: y + 2)
            } else {
                q = r.indexBox().inset(by: r.double(in: -100...10))
            }
            let found = buffer.withUnsafeMutableBufferPointer { t.collect(q, into: $0.baseAddress!, capacity: $0.count) }
            let want = boxes.indices.filter { boxes[$0].intersects(q) }
            #expect(buffer.prefix(found).map(Int.init).sorted() == want)
        }
    }

    /// A tap-sized query starts at the tree's directory; on awkward bounds (every box on one
    /// vertical or horizontal line, all at one point, spread over ±10²⁷, some boxes with infinite
    /// or NaN bounds) it must still find what the walk from the root finds, in the same order,
    /// in a tree of three levels below the root (300 items) and of four (5,000).
    @Test(arguments: 0..<5, [300, 5000])
    func collectThroughTheDirectoryMatchesTheWalkOnAwkwardBounds(kind: Int, count: Int) {
        var r = SeededRandom(seed: UInt64(900 + kind + count))
        let scale = kind == 3 ? 1e27 : 1
        let boxes: [Envelope] = (0..<count).map { i in
            let x = r.double(in: -1000...1000) * scale, y = r.double(in: -1000...1000) * scale
            switch kind {
            case 0: return Envelope(xmin: 5, ymin: y, xmax: 5, ymax: y + 1)
            case 1: return Envelope(xmin: x, ymin: -3, xmax: x + 1, ymax: -3)
            case 2: return Envelope(xmin: 1, ymin: 2, xmax: 1, ymax: 2)
            case 3: return Envelope(xmin: x, ymin: y, xmax: x, ymax: y)
            default:
                if i % 97 == 0 { return Envelope(xmin: -.infinity, ymin: y, xmax: x, ymax: .infinity) }
                if i % 89 == 0 { return Envelope(xmin: .nan, ymin: y, xmax: x, ymax: y + 1) }
                return Envelope(xmin: x, ymin: y, xmax: x + 2, ymax: y + 2)
            }
        }
        let t = PackedRTree(envelopes: boxes)
        t._checkInvariantsNow()
        // Every box at one point makes a grid of one cell: no directory. The others have one.
        #expect(t.directory.level == (kind == 2 ? 0 : 1) || kind == 4)
        var buffer = [Int32](repeating: 0, count: boxes.count)
        for k in 0..<200 {
            let c = boxes[r.int(in: 0...(boxes.count - 1))]
            let x = (c.xmin.isFinite ? c.xmin : 0) + r.double(in: -3...3) * scale
            let y = (c.ymin.isFinite ? c.ymin : 0) + r.double(in: -3...3) * scale
            let half = (k % 4 == 3 ? r.double(in: 50...500) : 2) * scale
            let q = Envelope(xmin: x - half, ymin: y - half, xmax: x + half, ymax: y + half)
            var want: [Int] = []
            t.search(q) { want.append($0); return true }
            let found = buffer.withUnsafeMutableBufferPointer { t.collect(q, into: $0.baseAddress!, capacity: $0.count) }
            #expect(buffer.prefix(found).map(Int.init) == want)
            if kind < 4 { #expect(want.sorted() == boxes.indices.filter { boxes[$0].intersects(q) }) }
        }
    }

    /// A tree of more than 256 items lists its leaf blocks in a directory of about one cell per
    /// leaf block, each listed in the few cells its box meets (a 64-byte record a cell: about 4
    /// bytes per item for spread points); a tap found through it finds exactly what a brute-force
    /// scan does, in the order of the walk from the root. A tree of 256 items or fewer has none.
    @Test(arguments: [256, 257, 1000, 4097, 100_000])
    func theDirectoryListsLeafBlocksAndFindsWhatTheWalkFinds(n: Int) {
        var r = SeededRandom(seed: UInt64(1300 + n))
        let side = Double(n).squareRoot() * 100
        let boxes = (0..<n).map { _ -> Envelope in
            let x = r.double(in: 0...side), y = r.double(in: 0...side)
            return Envelope(xmin: x, ymin: y, xmax: x, ymax: y)
        }
        let t = PackedRTree(envelopes: boxes)
        t._checkInvariantsNow()
        guard n > 256 else {
            #expect(t.directory.level == 0 && t.directory.memoryFootprint == 0)
            return
        }
        let d = t.directory
        #expect(d.level == 1)
        let leafBlocks = (n + 15) / 16
        let cells = (d.lastColumn + 1) * (d.lastRow + 1)
        #expect(cells >= leafBlocks / 2 && cells <= 2 * leafBlocks)
        #expect(d.listingCount <= 8 * leafBlocks)
        #expect(d.memoryFootprint <= 6 * n + 64)
        var buffer = [Int32](repeating: 0, count: 64)
        // Each query is checked against every box: under a sanitizer (10× slower), the largest
        // tree gets 40 queries.
        for k in 0..<(SanitizerRuntime.active == nil || n < 10_000 ? 300 : 40) {
            let c = boxes[r.int(in: 0...(n - 1))]
            let x = k % 3 == 2 ? r.double(in: -50...(side + 50)) : c.xmin + r.double(in: -3...3)
            let y = k % 3 == 2 ? r.double(in: -50...(side + 50)) : c.ymin + r.double(in: -3...3)
            let q = Envelope(xmin: x - 5, ymin: y - 5, xmax: x + 5, ymax: y + 5)
            var walked: [Int] = []
            t.search(q) { walked.append($0); return true }
            let found = buffer.withUnsafeMutableBufferPointer { t.collect(q, into: $0.baseAddress!, capacity: $0.count) }
            #expect(buffer.prefix(found).map(Int.init) == walked)
            #expect(walked.sorted() == boxes.indices.filter { boxes[$0].intersects(q) })
        }
    }

    /// A tap on a cell's edge or corner reads the two or four cells it meets, one spanning three
    /// columns or rows walks from the root, and a cell listing more leaf blocks than its record
    /// holds (a dense cluster) keeps the rest in the overflow: each finds exactly what the walk
    /// from the root finds, in the same order, including boxes that end exactly on a cell edge.
    @Test(arguments: 0..<3)
    func tapsOnCellEdgesAndCrowdedCellsFindWhatTheWalkFinds(layout: Int) {
        var r = SeededRandom(seed: UInt64(1500 + layout))
        let n = 20_000
        let side = Double(n).squareRoot() * 100
        let boxes: [Envelope] = (0..<n).map { i in
            switch layout {
            case 0:
                // Spread points, and boxes of up to 300 units.
                let x = r.double(in: 0...side), y = r.double(in: 0...side)
                let w = i % 3 == 0 ? r.double(in: 0...300) : 0, h = i % 3 == 0 ? r.double(in: 0...300) : 0
                return Envelope(xmin: x, ymin: y, xmax: x + w, ymax: y + h)
            case 1:
                // A tenth of the items in a cluster of 1 % of the plane's side: cells there list
                // many leaf blocks.
                if i % 10 == 0 {
                    let x = side / 2 + r.double(in: 0...(side / 100)), y = side / 2 + r.double(in: 0...(side / 100))
                    return Envelope(xmin: x, ymin: y, xmax: x + 1, ymax: y + 1)
                }
                let x = r.double(in: 0...side), y = r.double(in: 0...side)
                return Envelope(xmin: x, ymin: y, xmax: x, ymax: y)
            default:
                // On a lattice of 1/7 of a unit: many boxes end exactly where others start.
                let x = Double(r.int(in: 0...7_000)) / 7, y = Double(r.int(in: 0...7_000)) / 7
                return Envelope(xmin: x, ymin: y, xmax: x + Double(r.int(in: 0...3)) / 7, ymax: y + Double(r.int(in: 0...3)) / 7)
            }
        }
        let t = PackedRTree(envelopes: boxes)
        t._checkInvariantsNow()
        let d = t.directory
        #expect(d.level == 1)
        if layout == 1 { #expect(!d.overflow.isEmpty, "the cluster's cells overflow their records") }
        let bounds = t.bounds!
        let cellWidth = bounds.width / Double(d.lastColumn + 1), cellHeight = bounds.height / Double(d.lastRow + 1)
        var buffer = [Int32](repeating: 0, count: n)
        for k in 0..<400 {
            // A point on a cell edge (k % 4 == 0), on a corner (1), inside a cell (2), or a box
            // as wide as two cells (3), near an item half of the time.
            let near = boxes[r.int(in: 0...(n - 1))]
            let column = k % 2 == 0
                ? Double(Int((near.xmin - bounds.xmin) / cellWidth)) : Double(r.int(in: 0...d.lastColumn))
            let row = k % 2 == 0 ? Double(Int((near.ymin - bounds.ymin) / cellHeight)) : Double(r.int(in: 0...d.lastRow))
            var x = bounds.xmin + column * cellWidth, y = bounds.ymin + row * cellHeight
            switch k % 4 {
            case 0: y += r.double(in: 0...cellHeight)
            case 1: break
            default:
                x += r.double(in: 0...cellWidth)
                y += r.double(in: 0...cellHeight)
            }
            let half = k % 4 == 3 ? cellWidth : r.double(in: 0...5)
            let q = Envelope(xmin: x - half, ymin: y - half, xmax: x + half, ymax: y + half)
            var walked: [Int] = []
            t.search(q) { walked.append($0); return true }
            let found = buffer.withUnsafeMutableBufferPointer { t.collect(q, into: $0.baseAddress!, capacity: $0.count) }
            #expect(buffer.prefix(found).map(Int.init) == walked)
            if k % 8 < 2 { #expect(walked.sorted() == boxes.indices.filter { boxes[$0].intersects(q) }) }
        }
    }

    /// Boxes that each spread over the whole grid (long diagonal lines) would list every leaf
    /// block in most cells: the tree keeps no directory then, and a tap walks from the root.
    @Test func aTreeOfSpreadBoxesKeepsNoDirectory() {
        var r = SeededRandom(seed: 1400)
        let boxes = (0..<5000).map { i -> Envelope in
            let a = r.double(in: 0...1000)
            return i % 2 == 0
                ? Envelope(xmin: 0, ymin: a, xmax: 1000, ymax: a + 1)
                : Envelope(xmin: a, ymin: 0, xmax: a + 1, ymax: 1000)
        }
        let t = PackedRTree(envelopes: boxes)
        t._checkInvariantsNow()
        #expect(t.directory.level == 0 && t.directory.memoryFootprint == 0)
        var buffer = [Int32](repeating: 0, count: boxes.count)
        for _ in 0..<50 {
            let x = r.double(in: 0...1000), y = r.double(in: 0...1000)
            let q = Envelope(xmin: x - 2, ymin: y - 2, xmax: x + 2, ymax: y + 2)
            let found = buffer.withUnsafeMutableBufferPointer { t.collect(q, into: $0.baseAddress!, capacity: $0.count) }
            #expect(buffer.prefix(found).map(Int.init).sorted() == boxes.indices.filter { boxes[$0].intersects(q) })
        }
    }

    @Test func indexCollectSkipsTombstonesAndIncludesTheDynamicPart() {
        var r = SeededRandom(seed: 77)
        var index = SpatialIndex()
        index.minimumDynamicCapacity = 64
        var truth: [Int: Envelope] = [:]
        index.bulkLoad(count: 400) { i in
            let b = r.indexBox()
            truth[i] = b
            return b
        }
        for id in stride(from: 0, to: 400, by: 7) {
            index.remove(id)
            truth[id] = nil
        }
        for id in 400..<440 {
            let b = r.indexBox()
            index.insert(id, box: b)
            truth[id] = b
        }
        for _ in 0..<300 {
            let q = r.indexBox().inset(by: r.double(in: -300...60))
            let want = truth.filter { $0.value.intersects(q) }.keys.sorted()
            var capacity = 4
            var got: [Int] = []
            while true {
                var buffer = [Int32](repeating: 0, count: capacity)
                let found = buffer.withUnsafeMutableBufferPointer { index.collect(q, into: $0.baseAddress!, capacity: capacity) }
                if found <= capacity {
                    got = buffer.prefix(found).map(Int.init)
                    break
                }
                capacity = found
            }
            #expect(got.sorted() == want)
        }
    }

    @Test func floatRoundingNeverLosesAnItem() {
        // Coordinates that are not representable as Float and boxes that touch the query exactly.
        let e = Envelope(xmin: 20037508.342789244, ymin: 0.1, xmax: 20037508.342789244, ymax: 0.1)
        let t = PackedRTree(envelopes: [e])
        var hit = false
        t.search(Envelope(e.center)) { _ in hit = true; return true }
        #expect(hit)
        var miss = false
        t.search(Envelope(xmin: 20037600, ymin: 0.1, xmax: 20037700, ymax: 0.1)) { _ in miss = true; return true }
        #expect(!miss)
    }

    @Test func searchStopsWhenTheVisitorSaysSo() {
        let boxes = (0..<100).map { Envelope(Point(Double($0), 0)) }
        let t = PackedRTree(envelopes: boxes)
        var seen = 0
        t.search(Envelope(xmin: -1, ymin: -1, xmax: 200, ymax: 1)) { _ in seen += 1; return seen < 3 }
        #expect(seen == 3)
    }

    @Test func dynamicIndexStaysCorrectUnderInsertAndRemove() {
        var r = SeededRandom(seed: 42)
        var truth: [Int: Envelope] = [:]
        var index = SpatialIndex()
        index.minimumDynamicCapacity = 32
        index.bulkLoad(count: 500) { i in
            let b = r.indexBox()
            truth[i] = b
            return b
        }
        var nextID = 500
        var liveIDs = Array(0..<500)
        var mismatches: [Int] = []
        for step in 0..<3000 {
            switch r.int(in: 0...9) {
            case 0...4:
                let b = r.indexBox()
                index.insert(nextID, box: b)
                truth[nextID] = b
                liveIDs.append(nextID)
                nextID += 1
            case 5...7:
                if !liveIDs.isEmpty {
                    let k = r.int(in: 0...(liveIDs.count - 1))
                    let id = liveIDs.remove(at: k)
                    if !index.remove(id) { mismatches.append(step) }
                    truth[id] = nil
                }
            case 8:
                if let id = liveIDs.randomElement(using: &r) {
                    let b = r.indexBox()
                    index.update(id, box: b)
                    truth[id] = b
                }
            default:
                if index.remove(nextID + 5) { mismatches.append(step) }
            }
            if step % 100 == 0 {
                for _ in 0..<10 {
                    let q = r.indexBox().inset(by: 50)
                    var got: [Int] = []
                    index.search(q) { got.append($0); return true }
                    let want = truth.filter { $0.value.intersects(q) }.map(\.key).sorted()
                    if got.sorted() != want { mismatches.append(step) }
                }
            }
        }
        #expect(mismatches.isEmpty, "index and brute force disagree at steps \(mismatches)")
        #expect(index.count == truth.count)
        #expect(index.rebuildCount > 1, "the dynamic part and the tombstones forced rebuilds")
    }
}

/// The bulk loader's Hilbert keys (three lookups of a 4-bit state table) against the textbook
/// iterative `xy2d` of the Hilbert curve (Wikipedia, "Hilbert curve").
@Suite struct HilbertKeyTests {
    /// The Hilbert index of (x, y) on a 2^bits × 2^bits grid.
    static func xy2d(_ x0: UInt32, _ y0: UInt32, bits: Int = 16) -> UInt32 {
        let last: UInt32 = (1 << bits) - 1
        var x = x0, y = y0, d: UInt32 = 0
        var s: UInt32 = 1 << (bits - 1)
        while s > 0 {
            let rx: UInt32 = (x & s) > 0 ? 1 : 0
            let ry: UInt32 = (y & s) > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            // Rotate the quadrant.
            if ry == 0 {
                if rx == 1 {
                    x = last - x
                    y = last - y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }

    @Test func keysFollowTheHilbertCurve() {
        var r = SeededRandom(seed: 16)
        var mismatches: [String] = []
        for i in 0..<40_000 {
            // Every cell of the 32 × 32 corner, then random cells.
            let x = i < 1024 ? i & 31 : r.int(in: 0...2047)
            let y = i < 1024 ? i >> 5 : r.int(in: 0...2047)
            let got = hilbert22(x, y)
            let want = Int(Self.xy2d(UInt32(x), UInt32(y), bits: 11))
            if got != want, mismatches.count < 3 { mismatches.append("(\(x), \(y)): \(got) vs \(want)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        // The 11-bit curve is the 16-bit one read at a coarser grain.
        for _ in 0..<1000 {
            let x = UInt32(r.int(in: 0...65535)), y = UInt32(r.int(in: 0...65535))
            #expect(hilbert22(Int(x >> 5), Int(y >> 5)) == Int(Self.xy2d(x, y) >> 10))
        }
        #expect(hilbert22(0, 0) == 0)
        #expect(hilbert22(2047, 0) == (1 << 22) - 1)
    }
}

@Suite struct RadixSortTests {
    /// The bulk loader's radix sort orders by bits 32 ..< 54 and keeps input order on ties
    /// (the low 32 bits are the item's position).
    @Test(arguments: [0, 1, 2, 1000, 70_000])
    func sortsByTheKeyBitsStably(n: Int) {
        var r = SeededRandom(seed: UInt64(n))
        // Few distinct keys in the small cases (many ties), all 22 bits used in the big one.
        let spread = n < 70_000 ? 50 : (1 << 22) - 1
        var keys = (0..<n).map { UInt64(r.int(in: 0...spread)) << 32 | UInt64($0) }
        let want = keys.enumerated().sorted { ($0.element >> 32, $0.offset) < ($1.element >> 32, $1.offset) }.map(\.element)
        radixSort22(&keys)
        #expect(keys == want)
    }
}

/// The bulk loader's whole ordering (centres, grid, keys, sort, gather) against a scalar
/// re-derivation: leaves hold the items sorted by (the textbook Hilbert index of the centre's
/// cell on a 2¹¹ grid over the centres' bounds; position).
@Suite struct LeafOrderTests {
    @Test(arguments: [1, 5, 17, 1000, 20_000])
    func leavesFollowTheCoarseHilbertOrder(n: Int) {
        var r = SeededRandom(seed: UInt64(7 + n))
        // Clustered data (a dense square and a sparse spread) so cells hold many items.
        let boxes = (0..<n).map { i -> Envelope in
            let spread = i % 3 == 0 ? 10_000.0 : 50.0
            let x = r.double(in: 0...spread), y = r.double(in: 0...spread)
            return Envelope(xmin: x, ymin: y, xmax: x + r.double(in: 0...20), ymax: y + r.double(in: 0...20))
        }
        let tree = PackedRTree(envelopes: boxes)
        var order: [Int] = []
        tree.forEachItem { id, _ in order.append(id) }

        let centres = boxes.map { e -> (Float, Float) in
            let b = _outward(e)
            return (b.x * 0.5 + b.z * 0.5, b.y * 0.5 + b.w * 0.5)
        }
        let minX = centres.map(\.0).min()!, maxX = centres.map(\.0).max()!
        let minY = centres.map(\.1).min()!, maxY = centres.map(\.1).max()!
        let sx: Float = maxX > minX ? 2047 / (maxX - minX) : 0
        let sy: Float = maxY > minY ? 2047 / (maxY - minY) : 0
        func cell(_ v: Float) -> UInt32 { UInt32(min(v, 2047).rounded(.toNearestOrEven)) }
        let keys = centres.map { c in HilbertKeyTests.xy2d(cell((c.0 - minX) * sx), cell((c.1 - minY) * sy), bits: 11) }
        let want = boxes.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
        #expect(order == want)
    }
}

/// The branch-free outward rounding of the bulk loader against the scalar one.
@Suite struct OutwardRoundingTests {
    @Test func matchesTheScalarRounding() {
        var r = SeededRandom(seed: 3)
        let edges: [Double] = [
            0, -0.0, 1, -1, 0.1, -0.1, 1e-300, -1e-300, 1e300, -1e300, .infinity, -.infinity,
            Double(Float.greatestFiniteMagnitude), -Double(Float.greatestFiniteMagnitude),
            Double(Float.leastNonzeroMagnitude) / 3, 16_777_217, -16_777_217,
        ]
        var mismatches: [String] = []
        for i in 0..<20_000 {
            let v: [Double] = (0..<4).map { k in
                i < edges.count * edges.count ? edges[k & 1 == 0 ? i % edges.count : i / edges.count] : r.double(in: -1e7...1e7)
            }
            let e = Envelope(xmin: v[0], ymin: v[1], xmax: v[2], ymax: v[3])
            let got = _outward(e)
            let want = SIMD4(_down(e.xmin), _down(e.ymin), _up(e.xmax), _up(e.ymax))
            if unsafeBitCast(got, to: SIMD4<UInt32>.self) != unsafeBitCast(want, to: SIMD4<UInt32>.self), mismatches.count < 3 {
                mismatches.append("\(v): \(got) vs \(want)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        let nan = _outward(Envelope(xmin: .nan, ymin: 0, xmax: .nan, ymax: 0))
        #expect(nan.x.isNaN && nan.z.isNaN)
    }
}

/// The parent-box reduction of the bulk loader against the scalar minimum.
@Suite struct LeastLaneTests {
    @Test func matchesTheScalarMinimumAndSkipsNaN() {
        var r = SeededRandom(seed: 5)
        for i in 0..<2000 {
            var v = SIMD16<Float>((0..<16).map { _ in Float(r.double(in: -1e6...1e6)) })
            // Some lanes NaN or infinite, as unused lanes and degenerate boxes are.
            for _ in 0..<(i % 5) { v[r.int(in: 0...15)] = [.nan, .infinity, -.infinity][r.int(in: 0...2)] }
            let lanes = (0..<16).map { v[$0] }.filter { !$0.isNaN }
            let got = PackedRTree.least(v)
            if let want = lanes.min() { #expect(got == want) } else { #expect(got.isNaN) }
        }
        #expect(PackedRTree.least(SIMD16(repeating: .nan)).isNaN)
    }
}
