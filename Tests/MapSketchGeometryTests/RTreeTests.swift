@testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite struct RTreeTests {
    func randomBox(_ r: inout SeededRandom) -> Envelope {
        let x = r.double(in: -1000...1000), y = r.double(in: -1000...1000)
        let w = r.int(in: 0...3) == 0 ? 0 : r.double(in: 0...40)
        let h = r.int(in: 0...3) == 0 ? 0 : r.double(in: 0...40)
        return Envelope(xmin: x, ymin: y, xmax: x + w, ymax: y + h)
    }

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
        let boxes = (0..<n).map { _ in randomBox(&r) }
        let t = PackedRTree(envelopes: boxes)
        t._checkInvariants()
        #expect(t.count == n)
        for _ in 0..<200 {
            let q = randomBox(&r).inset(by: r.double(in: 0...60))
            var got: [Int] = []
            t.search(q) { got.append($0); return true }
            let want = boxes.indices.filter { boxes[$0].intersects(q) }
            #expect(got.sorted() == want)
        }
    }

    @Test(arguments: [1, 16, 17, 300, 5000])
    func collectWritesTheSearchHitsAndCountsOverflow(n: Int) {
        var r = SeededRandom(seed: UInt64(100 + n))
        let boxes = (0..<n).map { _ in randomBox(&r) }
        let t = PackedRTree(envelopes: boxes)
        var buffer = [Int32](repeating: -7, count: 8)
        for _ in 0..<200 {
            let q = randomBox(&r).inset(by: r.double(in: -200...60))
            var want: [Int] = []
            t.search(q) { want.append($0); return true }
            let found = buffer.withUnsafeMutableBufferPointer { t.collect(q, into: $0.baseAddress!, capacity: $0.count) }
            #expect(found == want.count)
            // Only the first `capacity` are written, in the same (tree) order.
            #expect(buffer.prefix(min(found, 8)).map(Int.init) == Array(want.prefix(8)))
        }
    }

    @Test func indexCollectSkipsTombstonesAndIncludesTheDynamicPart() {
        var r = SeededRandom(seed: 77)
        var index = SpatialIndex()
        index.minimumDynamicCapacity = 64
        var truth: [Int: Envelope] = [:]
        index.bulkLoad(count: 400) { i in
            let b = randomBox(&r)
            truth[i] = b
            return b
        }
        for id in stride(from: 0, to: 400, by: 7) {
            index.remove(id)
            truth[id] = nil
        }
        for id in 400..<440 {
            let b = randomBox(&r)
            index.insert(id, box: b)
            truth[id] = b
        }
        for _ in 0..<300 {
            let q = randomBox(&r).inset(by: r.double(in: -300...60))
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
            let b = randomBox(&r)
            truth[i] = b
            return b
        }
        var nextID = 500
        var liveIDs = Array(0..<500)
        var mismatches: [Int] = []
        for step in 0..<3000 {
            switch r.int(in: 0...9) {
            case 0...4:
                let b = randomBox(&r)
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
                    let b = randomBox(&r)
                    index.update(id, box: b)
                    truth[id] = b
                }
            default:
                if index.remove(nextID + 5) { mismatches.append(step) }
            }
            if step % 100 == 0 {
                for _ in 0..<10 {
                    let q = randomBox(&r).inset(by: 50)
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

/// The bulk loader's Hilbert keys (computed four at a time in SIMD lanes) against the textbook
/// iterative `xy2d` of the Hilbert curve (Wikipedia, "Hilbert curve"), on a 2¹⁶ grid.
@Suite struct HilbertKeyTests {
    static func xy2d(_ x0: UInt32, _ y0: UInt32) -> UInt32 {
        var x = x0, y = y0, d: UInt32 = 0
        var s: UInt32 = 1 << 15
        while s > 0 {
            let rx: UInt32 = (x & s) > 0 ? 1 : 0
            let ry: UInt32 = (y & s) > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            // Rotate the quadrant.
            if ry == 0 {
                if rx == 1 {
                    x = 65535 - x
                    y = 65535 - y
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
        for i in 0..<20_000 {
            let x = i < 256 ? UInt32(i & 15) : UInt32(r.int(in: 0...65535))
            let y = i < 256 ? UInt32(i >> 4) : UInt32(r.int(in: 0...65535))
            let got = _hilbert(x, y)
            let want = Self.xy2d(x, y)
            if got != want, mismatches.count < 3 { mismatches.append("(\(x), \(y)): \(got) vs \(want)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        let lanes = _hilbert(SIMD4(1, 2, 3, 40_000), SIMD4(9, 8, 7, 65_535))
        #expect(lanes == SIMD4(Self.xy2d(1, 9), Self.xy2d(2, 8), Self.xy2d(3, 7), Self.xy2d(40_000, 65_535)))
        #expect(lanes == SIMD4(_hilbert(1, 9), _hilbert(2, 8), _hilbert(3, 7), _hilbert(40_000, 65_535)))
    }
}

@Suite struct RadixSortTests {
    /// The bulk loader's radix sort orders by the high 32 bits and keeps input order on ties
    /// (the low 32 bits are the item's position).
    @Test(arguments: [0, 1, 2, 1000, 70_000])
    func sortsByTheHighHalfStably(n: Int) {
        var r = SeededRandom(seed: UInt64(n))
        // Few distinct high halves in the small cases (many ties), all 32 bits used in the big one.
        let spread = n < 70_000 ? 50 : Int(UInt32.max)
        var keys = (0..<n).map { UInt64(r.int(in: 0...spread)) << 32 | UInt64($0) }
        let want = keys.enumerated().sorted { ($0.element >> 32, $0.offset) < ($1.element >> 32, $1.offset) }.map(\.element)
        _radixSortHigh32(&keys)
        #expect(keys == want)
    }
}
