/// Candidate segment pairs by a sweep over x: segments sorted by their left end, each compared
/// only with the later segments whose x-interval overlaps its own and whose y-interval overlaps.
///
/// - Complexity: O(n log n + k) for n segments and k pairs with overlapping x-intervals.
struct SegmentSweep {
    struct Seg {
        var minX: Double, maxX: Double, minY: Double, maxY: Double
        var chain: Int32
        var index: Int32
    }

    private(set) var segs: [Seg] = []

    /// Adds the segments `pts[k]`–`pts[k+1]` of one chain (a path, or a closed ring's points),
    /// each with its envelope grown by `margin` on every side (so that pairs closer than
    /// `margin` are reported too).
    mutating func addChain(_ pts: [Point], chain: Int, margin: Double = 0) {
        guard pts.count >= 2 else { return }
        // No exact reserveCapacity here: called once per two-point chain it would defeat the
        // array's geometric growth and make building quadratic.
        for k in 0..<(pts.count - 1) {
            let a = pts[k], b = pts[k + 1]
            segs.append(Seg(minX: min(a.x, b.x) - margin, maxX: max(a.x, b.x) + margin,
                            minY: min(a.y, b.y) - margin, maxY: max(a.y, b.y) + margin,
                            chain: Int32(chain), index: Int32(k)))
        }
    }

    /// Calls `body(chain0, seg0, chain1, seg1)` once per pair of distinct segments whose
    /// envelopes intersect; `body` returns false to stop early.
    mutating func forEachPair(_ body: (Int, Int, Int, Int) -> Bool) {
        segs.sort { ($0.minX, $0.chain, $0.index) < ($1.minX, $1.chain, $1.index) }
        let n = segs.count
        segs.withUnsafeBufferPointer { s in
            for i in 0..<n {
                let a = s[i]
                var j = i + 1
                while j < n, s[j].minX <= a.maxX {
                    let b = s[j]
                    if b.minY <= a.maxY && b.maxY >= a.minY {
                        if !body(Int(a.chain), Int(a.index), Int(b.chain), Int(b.index)) { return }
                    }
                    j += 1
                }
            }
        }
    }
}
