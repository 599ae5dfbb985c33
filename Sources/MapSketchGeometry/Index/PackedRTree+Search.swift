extension PackedRTree {
    /// Calls `visit` with the id of every item whose box intersects `query` (boundaries
    /// included), in tree order, until it returns false. Allocates nothing.
    ///
    /// The walk is iterative (a lane mask and a block per level, on the stack): each node's 16
    /// children are tested at once, and only the lanes that hit are followed.
    /// - Complexity: O(log n + k) for k hits on well-spread data.
    @usableFromInline
    package func search(_ query: Envelope, _ visit: (Int) -> Bool) {
        guard count > 0 else { return }
        let q = SIMDQuery(query)
        blocks.withUnsafeBufferPointer { b in
            ids.withUnsafeBufferPointer { l in
                levelBlocks.withUnsafeBufferPointer { starts in
                    guard let bp = b.baseAddress, let lp = l.baseAddress, let sp = starts.baseAddress else { return }
                    Self.walk(bp, lp, sp, levels: starts.count, q, visit)
                }
            }
        }
    }

    /// Writes the id of every item whose box intersects `query` into `out` (at most `capacity`
    /// of them, in tree order) and returns how many there are in all, so a caller whose buffer
    /// was too small can call again with a larger one. Calls no closure, so a caller can search
    /// an index it holds in a class property without copying it.
    ///
    /// A query that falls in one cell of the tree's directory (a tap: see ``RTreeDirectory``)
    /// starts at the entries that cell lists; any other walks from the root. Both find the same
    /// items in the same order.
    /// - Complexity: O(log n + k) for k hits on well-spread data.
    package func collect(_ query: Envelope, into out: UnsafeMutablePointer<Int32>, capacity: Int) -> Int {
        guard count > 0 else { return 0 }
        let q = SIMDQuery(query)
        return blocks.withUnsafeBufferPointer { b in
            ids.withUnsafeBufferPointer { l in
                levelBlocks.withUnsafeBufferPointer { starts in
                    guard let bp = b.baseAddress, let lp = l.baseAddress, let sp = starts.baseAddress else { return 0 }
                    let top = starts.count - 1
                    let d = directory.level
                    if d > 0 {
                        let cell = directory.cell(x0: q.x0, y0: q.y0, x1: q.x1, y1: q.y1)
                        if cell >= 0 {
                            return directory.offsets.withUnsafeBufferPointer { t in
                                directory.entries.withUnsafeBufferPointer { e in
                                    guard let tp = t.baseAddress, let ep = e.baseAddress else { return 0 }
                                    return Self.collectListed(bp, lp, sp, level: d, tp, ep, cell: cell, q, out, capacity)
                                }
                            }
                        }
                    }
                    // The root's children are the single block of the level below it.
                    return top <= 0 ? 0 : Self.collectBelow(bp, lp, sp, level: top - 1, block: sp[top - 1], q, out, 0, capacity)
                }
            }
        }
    }

    /// The entries of level `level` that directory cell `cell` lists (see ``RTreeDirectory``)
    /// and that meet the query, each walked below (for level 1, the leaf blocks read).
    static func collectListed(
        _ b: UnsafePointer<Float>, _ ids: UnsafePointer<Int32>, _ starts: UnsafePointer<Int>, level: Int,
        _ offsets: UnsafePointer<Int32>, _ entries: UnsafePointer<Int32>, cell: Int, _ q: SIMDQuery,
        _ out: UnsafeMutablePointer<Int32>, _ capacity: Int
    ) -> Int {
        let qx0 = q.x0, qy0 = q.y0, qx1 = q.x1, qy1 = q.y1
        let first = starts[level], below = starts[level &- 1]
        var found = 0
        for k in Int(offsets[cell])..<Int(offsets[cell &+ 1]) {
            let e = Int(entries[k])
            // Entry e's box, lane e & 15 of its block (as `rawBox(level:entry:)`).
            let box = b + (64 &* (first &+ e &>> 4) &+ (e & 15))
            if box[0] <= qx1 && box[16] <= qy1 && box[32] >= qx0 && box[48] >= qy0 {
                found = collectBelow(b, ids, starts, level: level &- 1, block: below &+ e, q, out, found, capacity)
            }
        }
        return found
    }

    /// Writes the ids of the items below block `block` of level `level` (0: a leaf block) that
    /// meet the query to `out` from position `found` (those that fit within `capacity`); returns
    /// the new count. The walk of ``walk(_:_:_:levels:_:_:)`` with the leaf blocks read where they
    /// are found (no closure), and per level the first child block of the node being walked kept
    /// (one addition per child followed).
    static func collectBelow(
        _ b: UnsafePointer<Float>, _ ids: UnsafePointer<Int32>, _ starts: UnsafePointer<Int>, level home: Int,
        block: Int, _ q: SIMDQuery, _ out: UnsafeMutablePointer<Int32>, _ found: Int, _ capacity: Int
    ) -> Int {
        if home == 0 { return leafHits(b, ids, block, q, out, found, capacity) }
        if home == 1 {
            // A node whose children are leaf blocks (where a directory of level 2 leads).
            var m = q.mask(b + 64 &* block)
            let leaves = starts[0] &+ (block &- starts[1]) &* 16
            var found = found
            while m != 0 {
                let lane = m.trailingZeroBitCount
                m &= m &- 1
                found = leafHits(b, ids, leaves &+ lane, q, out, found, capacity)
            }
            return found
        }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * (home + 1)) { tmp in
            // first[k]: the first block of level k − 1 under the node walked at level k; mask[k]:
            // that node's lanes still to follow.
            guard let first = tmp.baseAddress else { return found }
            let mask = first + home + 1
            var found = found
            var level = home
            first[level] = starts[level &- 1] &+ (block &- starts[level]) &* 16
            mask[level] = Int(q.mask(b + 64 &* block))
            while true {
                let m = mask[level]
                if m == 0 {
                    if level == home { return found }
                    level &+= 1
                    continue
                }
                mask[level] = m & (m &- 1)
                let child = first[level] &+ m.trailingZeroBitCount
                if level == 1 {
                    found = leafHits(b, ids, child, q, out, found, capacity)
                    continue
                }
                level &-= 1
                first[level] = starts[level &- 1] &+ (child &- starts[level]) &* 16
                mask[level] = Int(q.mask(b + 64 &* child))
            }
        }
    }

    /// Writes the ids of the lanes of leaf block `block` that intersect the query to `out` from
    /// position `found` (those that fit within `capacity`); returns the new count.
    @inline(__always)
    static func leafHits(
        _ b: UnsafePointer<Float>, _ ids: UnsafePointer<Int32>, _ block: Int, _ q: SIMDQuery,
        _ out: UnsafeMutablePointer<Int32>, _ found: Int, _ capacity: Int
    ) -> Int {
        var m = q.mask(b + 64 &* block)
        var found = found
        let base = block &* 16
        while m != 0 {
            let lane = m.trailingZeroBitCount
            m &= m &- 1
            if found < capacity { out[found] = ids[base &+ lane] }
            found &+= 1
        }
        return found
    }

    /// Depth-first walk below the root, in tree order: `mask[k]` holds the lanes of block
    /// `block[k]` (at level k) still to follow.
    ///
    /// Not inlinable into callers on purpose: LLVM vectorises the node test well only where it
    /// sees it alone (inlined into a caller's loop, it splits the test into scalar lanes, 3× the
    /// instructions); the price is one indirect call per hit.
    static func walk(
        _ b: UnsafePointer<Float>, _ ids: UnsafePointer<Int32>, _ starts: UnsafePointer<Int>, levels: Int,
        _ q: SIMDQuery, _ visit: (Int) -> Bool
    ) {
        // The root's children are the single block of the level below it.
        let top = levels - 1
        if top == 0 { return }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * top) { tmp in
            guard let block = tmp.baseAddress else { return }
            let mask = block + top
            var level = top - 1
            block[level] = starts[level]
            mask[level] = Int(q.mask(b + 64 &* starts[level]))
            while true {
                if level == 0 {
                    var m = mask[0]
                    let base = block[0] &* 16
                    while m != 0 {
                        let lane = m.trailingZeroBitCount
                        m &= m &- 1
                        if !visit(Int(ids[base &+ lane])) { return }
                    }
                    level = 1
                    if level == top { return }
                    continue
                }
                let m = mask[level]
                if m == 0 {
                    level += 1
                    if level == top { return }
                    continue
                }
                mask[level] = m & (m &- 1)
                let entry = (block[level] &- starts[level]) &* 16 &+ m.trailingZeroBitCount
                let child = starts[level &- 1] &+ entry
                level -= 1
                block[level] = child
                mask[level] = Int(q.mask(b + 64 &* child))
            }
        }
    }
}

/// A query box rounded outward to `Float`.
///
/// Kept as four lanes (16 bytes) and splatted across 16 lanes inside ``mask(_:)``, where the
/// splats cost four shuffles: a query of 16-lane splats (256 bytes) was copied at every call of
/// the walk.
struct SIMDQuery {
    /// (minX, minY, maxX, maxY).
    let r: SIMD4<Float>
    var x0: Float { r.x }
    var y0: Float { r.y }
    var x1: Float { r.z }
    var y1: Float { r.w }

    init(_ query: Envelope) {
        // The same bounds as `_down` / `_up`, rounded in one SIMD step.
        r = _outward(query)
    }

    /// Bit k set when lane k of the block at `p` intersects the query (NaN never does).
    @inline(never)
    func mask(_ p: UnsafePointer<Float>) -> UInt32 {
        // Written for the code LLVM makes of it on baseline x86-64 (SSE2): each compare is turned
        // into 32-bit lanes before the ANDs (ANDing the masks themselves goes through 1-bit lanes
        // and back), and the lane bits are gathered as float weights added in halves (an integer
        // OR or sum of masked lanes is lowered lane by lane to scalar code). The weights are exact
        // small integers, so the sum is exact; adding 2^23 puts it in the low mantissa bits.
        let x0 = SIMD16<Float>(repeating: r.x), y0 = SIMD16<Float>(repeating: r.y)
        let x1 = SIMD16<Float>(repeating: r.z), y1 = SIMD16<Float>(repeating: r.w)
        let r = UnsafeRawPointer(p)
        let hit = unsafeBitCast(r.loadUnaligned(as: SIMD16<Float>.self) .<= x1, to: SIMD16<UInt32>.self)
            & unsafeBitCast(r.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self) .<= y1, to: SIMD16<UInt32>.self)
            & unsafeBitCast(r.loadUnaligned(fromByteOffset: 128, as: SIMD16<Float>.self) .>= x0, to: SIMD16<UInt32>.self)
            & unsafeBitCast(r.loadUnaligned(fromByteOffset: 192, as: SIMD16<Float>.self) .>= y0, to: SIMD16<UInt32>.self)
        let weights = SIMD16<Float>(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)
        let w = unsafeBitCast(hit & unsafeBitCast(weights, to: SIMD16<UInt32>.self), to: SIMD16<Float>.self)
        let v8 = w.lowHalf + w.highHalf
        let v4 = v8.lowHalf + v8.highHalf
        let v2 = v4.lowHalf + v4.highHalf
        return ((v2.x + v2.y) + 8_388_608).bitPattern & 0xFFFF
    }
}
