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
                    if directory.level > 0 {
                        let found = directory.records.withUnsafeBufferPointer { r in
                            directory.overflow.withUnsafeBufferPointer { o in
                                Self.collectListed(bp, lp, sp, directory, r, o, q, out, capacity)
                            }
                        }
                        if found >= 0 { return found }
                    }
                    // The root's children are the single block of the level below it.
                    return top <= 0 ? 0 : Self.collectBelow(bp, lp, sp, level: top - 1, block: sp[top - 1], q, out, 0, capacity)
                }
            }
        }
    }

    /// The entries of level `d.level` that the directory `d` lists for the query and whose byte
    /// box meets the query's, each walked below (for level 1, the leaf blocks read), in ascending
    /// order; -1 when the query spans more than two columns or rows of cells (the caller walks
    /// from the root then).
    ///
    /// A query in one cell reads that cell's record; one that straddles a cell edge (about one
    /// tap in twenty) reads the two or four cells it meets, and an entry listed in several of
    /// them is walked once: an entry whose box meets the query is listed in a cell where the two
    /// meet, and its byte box there meets the query's.
    @inline(__always)
    static func collectListed(
        _ b: UnsafePointer<Float>, _ ids: UnsafePointer<Int32>, _ starts: UnsafePointer<Int>, _ d: RTreeDirectory,
        _ records: UnsafeBufferPointer<UInt64>, _ overflow: UnsafeBufferPointer<UInt64>, _ q: SIMDQuery,
        _ out: UnsafeMutablePointer<Int32>, _ capacity: Int
    ) -> Int {
        // The query in cell coordinates (x0, y0, x1, y1).
        let t = (q.r - SIMD4(d.originX, d.originY, d.originX, d.originY)) * SIMD4(d.scaleX, d.scaleY, d.scaleX, d.scaleY)
        let column = RTreeDirectory.index(t.x, d.lastColumn), row = RTreeDirectory.index(t.y, d.lastRow)
        let lastColumn = RTreeDirectory.index(t.z, d.lastColumn), lastRow = RTreeDirectory.index(t.w, d.lastRow)
        guard let rp = records.baseAddress else { return -1 }
        guard lastColumn == column && lastRow == row else {
            guard lastColumn &- column <= 1 && lastRow &- row <= 1 && lastColumn >= column && lastRow >= row else { return -1 }
            return collectListed(
                b, ids, starts, d, rp, overflow, q, t, columns: column...lastColumn, rows: row...lastRow, out, capacity)
        }
        let qb = queryBytes(t, column: column, row: row)
        let head = rp + (d.recordStart &+ (row &* (d.lastColumn &+ 1) &+ column) &* RTreeDirectory.recordWords)
        let n = Int(head[0] & 0xFFFF_FFFF)
        let below = starts[d.level &- 1]
        var found = 0
        for i in 0..<n {
            let l = listing(i, head, overflow)
            if meets(l, qb) {
                found = collectBelow(b, ids, starts, level: d.level &- 1, block: below &+ Int(l & 0xFFFF_FFFF), q, out, found, capacity)
            }
        }
        return found
    }

    /// ``collectListed(_:_:_:_:_:_:_:_:_:)`` for a query that meets the cells of `columns` ×
    /// `rows` (two or four): their listings that meet the query, gathered (at most 64, else -1),
    /// put in ascending order and each walked once.
    @inline(never)
    static func collectListed(
        _ b: UnsafePointer<Float>, _ ids: UnsafePointer<Int32>, _ starts: UnsafePointer<Int>, _ d: RTreeDirectory,
        _ rp: UnsafePointer<UInt64>, _ overflow: UnsafeBufferPointer<UInt64>, _ q: SIMDQuery, _ t: SIMD4<Float>,
        columns: ClosedRange<Int>, rows: ClosedRange<Int>, _ out: UnsafeMutablePointer<Int32>, _ capacity: Int
    ) -> Int {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 64) { buffer in
            guard let met = buffer.baseAddress else { return -1 }
            var k = 0
            for row in rows {
                for column in columns {
                    let qb = queryBytes(t, column: column, row: row)
                    let head = rp + (d.recordStart &+ (row &* (d.lastColumn &+ 1) &+ column) &* RTreeDirectory.recordWords)
                    for i in 0..<Int(head[0] & 0xFFFF_FFFF) {
                        let l = listing(i, head, overflow)
                        guard meets(l, qb) else { continue }
                        if k == 64 { return -1 }
                        met[k] = Int32(truncatingIfNeeded: l)
                        k &+= 1
                    }
                }
            }
            // Ascending (each cell's list ascends; the few lists are merged by insertion).
            for i in 1..<max(k, 1) {
                let v = met[i]
                var j = i
                while j > 0 && met[j &- 1] > v {
                    met[j] = met[j &- 1]
                    j &-= 1
                }
                met[j] = v
            }
            let below = starts[d.level &- 1]
            var found = 0
            var previous: Int32 = -1
            for i in 0..<k where met[i] != previous {
                previous = met[i]
                found = collectBelow(b, ids, starts, level: d.level &- 1, block: below &+ Int(previous), q, out, found, capacity)
            }
            return found
        }
    }

    /// The query's byte box in cell (`column`, `row`) (see ``RTreeDirectory``), from its
    /// corners in cell coordinates `t`: x0, y0 rounded down, x1, y1 rounded down too (a NaN
    /// letting everything through).
    @inline(__always)
    static func queryBytes(_ t: SIMD4<Float>, column: Int, row: Int) -> SIMD4<UInt64> {
        SIMD4(
            RTreeDirectory.lowByte(RTreeDirectory.position(t.x, column)),
            RTreeDirectory.lowByte(RTreeDirectory.position(t.y, row)),
            RTreeDirectory.queryHighByte(RTreeDirectory.position(t.z, column)),
            RTreeDirectory.queryHighByte(RTreeDirectory.position(t.w, row)))
    }

    /// Listing `i` of the cell whose record starts at `head`: in the record, or past it in the
    /// overflow.
    @inline(__always)
    static func listing(_ i: Int, _ head: UnsafePointer<UInt64>, _ overflow: UnsafeBufferPointer<UInt64>) -> UInt64 {
        i < RTreeDirectory.recordListings
            ? head[1 &+ i] : overflow[Int(head[0] &>> 32) &+ i &- RTreeDirectory.recordListings]
    }

    /// Whether listing `l`'s byte box meets the query's byte box `qb`.
    @inline(__always)
    static func meets(_ l: UInt64, _ qb: SIMD4<UInt64>) -> Bool {
        let x0: UInt64 = (l &>> 32) & 0xFF, y0: UInt64 = (l &>> 40) & 0xFF
        let x1: UInt64 = (l &>> 48) & 0xFF, y1: UInt64 = l &>> 56
        return x0 <= qb.z && y0 <= qb.w && x1 >= qb.x && y1 >= qb.y
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
        let base = block &* 16
        // The block's 16 ids (a cache line's worth), read before its boxes are tested so that the
        // two reads overlap instead of the ids' waiting for the mask.
        let laneIDs = UnsafeRawPointer(ids + base).loadUnaligned(as: SIMD16<Int32>.self)
        var m = q.mask(b + 64 &* block)
        var found = found
        while m != 0 {
            let lane = m.trailingZeroBitCount
            m &= m &- 1
            if found < capacity { out[found] = laneIDs[lane] }
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
