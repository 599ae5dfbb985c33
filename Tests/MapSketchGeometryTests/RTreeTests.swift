import MapSketchGeometry
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
