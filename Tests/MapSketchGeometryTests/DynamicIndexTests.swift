@testable import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// The log-structured dynamic part against brute force, on seeded random sequences of inserts,
/// removals, moves and queries, from an empty index and from a bulk load.
@Suite struct DynamicIndexTests {
    @Test(arguments: [0, 1, 2, 3])
    func matchesBruteForce(seed: Int) {
        var r = SeededRandom(seed: UInt64(1000 + seed))
        var truth: [Int: Envelope] = [:]
        var index = SpatialIndex()
        // Seeds 0 and 2 start empty (every item goes through the runs), 1 and 3 from a bulk load.
        let loaded = seed % 2 == 1 ? 2000 : 0
        if loaded > 0 {
            index.bulkLoad(count: loaded) { i in
                if i % 11 == 0 { return nil }
                let b = r.indexBox()
                truth[i] = b
                return b
            }
        }
        var liveIDs = truth.keys.sorted()
        var freeIDs = Array((0..<loaded).filter { $0 % 11 == 0 }.reversed())
        var nextID = loaded
        var mismatches: [String] = []
        // Mostly inserts, so the runs grow, merge and trigger rebuilds; seeds 2 and 3 remove more.
        let removeWeight = seed >= 2 ? 4 : 2
        for step in 0..<6000 {
            let op = r.int(in: 0...9)
            if op < 10 - removeWeight - 1 {
                let id = freeIDs.popLast() ?? { nextID += 1; return nextID - 1 }()
                let b = r.indexBox()
                index.insert(id, box: b)
                truth[id] = b
                liveIDs.append(id)
            } else if op < 9, !liveIDs.isEmpty {
                let id = liveIDs.remove(at: r.int(in: 0...(liveIDs.count - 1)))
                if !index.remove(id) { mismatches.append("remove \(id) at \(step)") }
                truth[id] = nil
                freeIDs.append(id)
            } else if let id = liveIDs.randomElement(using: &r) {
                let b = r.indexBox()
                index.update(id, box: b)
                truth[id] = b
            }
            if step % 97 == 0 {
                index._checkInvariantsNow()
                for _ in 0..<8 {
                    let q = r.indexBox().inset(by: r.double(in: -200...50))
                    var got: [Int] = []
                    index.search(q) { got.append($0); return true }
                    let want = truth.filter { $0.value.intersects(q) }.map(\.key).sorted()
                    if got.sorted() != want { mismatches.append("search at \(step)") }
                    // The contract: an exact count when it fits, else an upper bound (stale
                    // entries are only dropped from what fits) to call again with.
                    var buffer = [Int32](repeating: -1, count: want.count)
                    var n = buffer.withUnsafeMutableBufferPointer { index.collect(q, into: $0.baseAddress!, capacity: want.count) }
                    if n > want.count {
                        buffer = [Int32](repeating: -1, count: n)
                        n = buffer.withUnsafeMutableBufferPointer { index.collect(q, into: $0.baseAddress!, capacity: $0.count) }
                    }
                    if n != want.count || buffer.prefix(n).map(Int.init).sorted() != want { mismatches.append("collect at \(step)") }
                }
                // Each run more than doubles the next (compaction aside, which can shrink a run),
                // so there are few of them.
                let inRuns = index.runs.reduce(0) { $0 + $1.count }
                let bound = 2 * (64 - (inRuns / SpatialIndex.bufferCapacity + 1).leadingZeroBitCount) + 1
                if index.runs.count > bound { mismatches.append("\(index.runs.count) runs for \(inRuns) items at \(step)") }
            }
        }
        index._checkInvariantsNow()
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(index.count == truth.count)
        #expect(index.rebuildCount > (loaded > 0 ? 1 : 0), "the runs outgrew the main tree")
    }

    @Test func runsStayLogarithmicWhenFedOneAtATime() {
        var r = SeededRandom(seed: 9)
        var index = SpatialIndex()
        index.minimumDynamicCapacity = 1 << 30  // never fold the runs into the main tree
        for id in 0..<5000 {
            index.insert(id, box: r.indexBox())
            // Runs more than double from last to first: at most log₂(items / buffer) + 1.
            let inRuns = index.runs.reduce(0) { $0 + $1.count }
            let bound = 63 - (inRuns / SpatialIndex.bufferCapacity + 1).leadingZeroBitCount
            #expect(index.runs.count <= bound, "\(index.runs.count) runs for \(inRuns) items")
        }
        index._checkInvariantsNow()
        #expect(index.rebuildCount == 0)
    }
}
