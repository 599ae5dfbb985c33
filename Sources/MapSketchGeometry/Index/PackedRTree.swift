/// A static, packed Hilbert R-tree over axis-aligned boxes, stored in flat arrays.
///
/// Items are sorted by the Hilbert value of their box centres (a radix sort, O(n)) and packed 16
/// to a node; the levels above are packed the same way. Every node's 16 child boxes are one
/// *block* of 64 `Float`s laid out as structure-of-arrays (16 minX, 16 minY, 16 maxX, 16 maxY), so
/// a search tests all 16 children with four SIMD compares and walks only the set bits of the
/// resulting mask. Boxes are rounded outward to `Float` so no item is ever missed; unused lanes hold
/// an empty box (+∞, +∞, −∞, −∞) that no query hits. Each level starts on a block boundary, and the
/// children of entry `e` of a level are block `levelBlocks[level − 1] + e` (no child links).
/// The layout follows Vladimir Agafonkin's *flatbush* (ISC licence) and the packed Hilbert R-tree of
/// Kamel & Faloutsos, "On Packing R-trees" (CIKM 1993); the SIMD node test is the "SIMD-friendly
/// R-tree node" of Sprenger, Schäfer & Leser, "BB-Tree" (ICDE 2019) applied to R-tree nodes.
///
/// Memory: about `16 · n · 16/15 + 4 · n` bytes for n items (≈ 21.1 bytes per item).
///
/// ```swift
/// let tree = PackedRTree(envelopes: [Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1)])
/// tree.search(Envelope(xmin: 0.5, ymin: 0.5, xmax: 2, ymax: 2)) { id in print(id); return true }
/// ```
public struct PackedRTree: Sendable {
    /// The number of items.
    public let count: Int
    /// Children per node: one SIMD block.
    public var nodeSize: Int { 16 }
    /// Node boxes, 64 `Float`s per block of 16 entries (structure of arrays); leaves first, then
    /// each level up; the root is lane 0 of the last block.
    var blocks: [Float]
    /// The item id of each leaf entry (padded to whole blocks).
    var ids: [Int32]
    /// The first block of each level, leaves first (the root's level is last).
    var levelBlocks: [Int]

    /// An empty tree.
    public init() {
        self.count = 0
        self.blocks = []
        self.ids = []
        self.levelBlocks = []
    }

    /// Bulk-loads a tree from envelopes; item `i` is `envelopes[i]`.
    /// - Complexity: O(n) (radix sort of Hilbert keys), for n envelopes.
    public init(envelopes: [Envelope]) {
        let flat = [Float](unsafeUninitializedCapacity: envelopes.count * 4) { f, initialized in
            for (i, e) in envelopes.enumerated() { PackedRTree.storeBox(e, into: f, at: i) }
            initialized = envelopes.count * 4
        }
        self.init(boxes: flat, ids: nil)
    }

    /// Bulk-loads a tree from flat boxes (minX, minY, maxX, maxY per item, already rounded
    /// outward, see ``appendBox(_:to:)``) with optional item ids (default: the item's position).
    /// - Precondition: `boxes.count` is a multiple of 4 and `ids`, if given, has `boxes.count / 4`
    ///   entries, each below `Int32.max`.
    /// - Complexity: O(n) for n items.
    public init(boxes input: [Float], ids itemIDs: [Int32]?) {
        let n = input.count / 4
        precondition(itemIDs == nil || itemIDs?.count == n, "one id per box")
        self.count = n
        guard n > 0 else {
            blocks = []
            ids = []
            levelBlocks = []
            return
        }
        // Entries and first block per level, leaves first, up to the single root entry.
        var entries: [Int] = [n]
        var starts: [Int] = [0]
        var totalBlocks = (n + 15) / 16
        repeat {
            let above = (entries[entries.count - 1] + 15) / 16
            entries.append(above)
            starts.append(totalBlocks)
            totalBlocks += (above + 15) / 16
        } while entries[entries.count - 1] > 1
        levelBlocks = starts

        let keys = Self._sortedHilbertKeys(input, n)
        let leafSlots = ((n + 15) / 16) * 16
        ids = [Int32](unsafeUninitializedCapacity: leafSlots) { l, initialized in
            keys.withUnsafeBufferPointer { k in
                if let itemIDs {
                    itemIDs.withUnsafeBufferPointer { src in
                        for j in 0..<n { l[j] = src[Int(truncatingIfNeeded: k[j] & 0xFFFF_FFFF)] }
                    }
                } else {
                    for j in 0..<n { l[j] = Int32(truncatingIfNeeded: k[j] & 0xFFFF_FFFF) }
                }
            }
            for j in n..<leafSlots { l[j] = -1 }
            initialized = leafSlots
        }
        blocks = [Float](unsafeUninitializedCapacity: totalBlocks * 64) { o, initialized in
            guard let base = o.baseAddress else { return }
            // Every lane empty first; then the leaves in Hilbert order; then each level up.
            for blk in 0..<totalBlocks {
                let p = base + 64 * blk
                p.initialize(repeating: .infinity, count: 32)
                (p + 32).initialize(repeating: -.infinity, count: 32)
            }
            input.withUnsafeBufferPointer { b in
                keys.withUnsafeBufferPointer { k in
                    for j in 0..<n {
                        let i = 4 &* Int(truncatingIfNeeded: k[j] & 0xFFFF_FFFF)
                        let p = base + (64 &* (j >> 4) &+ (j & 15))
                        p[0] = b[i]
                        p[16] = b[i &+ 1]
                        p[32] = b[i &+ 2]
                        p[48] = b[i &+ 3]
                    }
                }
            }
            for level in 1..<entries.count {
                for e in 0..<entries[level] {
                    let child = UnsafeRawPointer(base + 64 * (starts[level - 1] + e))
                    let p = base + (64 &* (starts[level] &+ e >> 4) &+ (e & 15))
                    p[0] = child.loadUnaligned(as: SIMD16<Float>.self).min()
                    p[16] = child.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self).min()
                    p[32] = child.loadUnaligned(fromByteOffset: 128, as: SIMD16<Float>.self).max()
                    p[48] = child.loadUnaligned(fromByteOffset: 192, as: SIMD16<Float>.self).max()
                }
            }
            initialized = totalBlocks * 64
        }
    }

    /// Hilbert keys of the box centres (high 32 bits) with the box's position (low 32 bits),
    /// sorted by key; ties keep input order.
    static func _sortedHilbertKeys(_ input: [Float], _ n: Int) -> [UInt64] {
        // Bounds of all centres for the Hilbert grid.
        var minX = Float.infinity, minY = Float.infinity, maxX = -Float.infinity, maxY = -Float.infinity
        input.withUnsafeBufferPointer { b in
            for i in 0..<n {
                let cx = b[4 * i] * 0.5 + b[4 * i + 2] * 0.5
                let cy = b[4 * i + 1] * 0.5 + b[4 * i + 3] * 0.5
                minX = min(minX, cx)
                maxX = max(maxX, cx)
                minY = min(minY, cy)
                maxY = max(maxY, cy)
            }
        }
        let w = maxX - minX, h = maxY - minY
        let sx: Float = w > 0 && w.isFinite ? 65535 / w : 0
        let sy: Float = h > 0 && h.isFinite ? 65535 / h : 0
        var keys = [UInt64](unsafeUninitializedCapacity: n) { k, initialized in
            input.withUnsafeBufferPointer { b in
                // Grid cell of item i's centre, clamped to [0, 65535], so truncation is the floor
                // (and NaN clamps to 0); items past n (the last group's padding) are 0.
                func cell(_ i: Int) -> (UInt32, UInt32) {
                    guard i < n else { return (0, 0) }
                    let cx = b[4 * i] * 0.5 + b[4 * i + 2] * 0.5
                    let cy = b[4 * i + 1] * 0.5 + b[4 * i + 3] * 0.5
                    return (UInt32(max(0, min(65535, (cx - minX) * sx))), UInt32(max(0, min(65535, (cy - minY) * sy))))
                }
                var i = 0
                while i < n {
                    let (x0, y0) = cell(i), (x1, y1) = cell(i + 1), (x2, y2) = cell(i + 2), (x3, y3) = cell(i + 3)
                    let h = _hilbert(SIMD4(x0, x1, x2, x3), SIMD4(y0, y1, y2, y3))
                    for j in 0..<min(4, n - i) { k[i + j] = UInt64(h[j]) << 32 | UInt64(i + j) }
                    i += 4
                }
            }
            initialized = n
        }
        _radixSortHigh32(&keys)
        return keys
    }

    /// Appends `e` to flat boxes, rounded outward to `Float` so the box still contains `e`.
    @inlinable
    public static func appendBox(_ e: Envelope, to boxes: inout [Float]) {
        boxes.append(_down(e.xmin))
        boxes.append(_down(e.ymin))
        boxes.append(_up(e.xmax))
        boxes.append(_up(e.ymax))
    }

    /// Stores `e` as item `i` of flat boxes (see ``appendBox(_:to:)``).
    @inlinable
    public static func storeBox(_ e: Envelope, into boxes: UnsafeMutableBufferPointer<Float>, at i: Int) {
        boxes[4 * i] = _down(e.xmin)
        boxes[4 * i + 1] = _down(e.ymin)
        boxes[4 * i + 2] = _up(e.xmax)
        boxes[4 * i + 3] = _up(e.ymax)
    }

    /// The raw `Float` box of entry `e` of block-level `level` (0: leaves).
    func rawBox(level: Int, entry e: Int) -> (Float, Float, Float, Float) {
        let o = 64 * (levelBlocks[level] + e >> 4) + (e & 15)
        return (blocks[o], blocks[o + 16], blocks[o + 32], blocks[o + 48])
    }

    /// The box of the whole tree, or nil when it is empty.
    public var bounds: Envelope? {
        guard count > 0 else { return nil }
        let r = rawBox(level: levelBlocks.count - 1, entry: 0)
        return Envelope(xmin: Double(r.0), ymin: Double(r.1), xmax: Double(r.2), ymax: Double(r.3))
    }

    /// Bytes held by the tree's arrays.
    public var memoryFootprint: Int { blocks.capacity * 4 + ids.capacity * 4 + levelBlocks.capacity * 8 }

    /// Calls `visit` with the id of every item whose box intersects `query` (boundaries
    /// included), in tree order, until it returns false. Allocates nothing.
    ///
    /// The walk is iterative (a lane mask and a block per level, on the stack): each node's 16
    /// children are tested at once, and only the lanes that hit are followed.
    /// - Complexity: O(log n + k) for k hits on well-spread data.
    public func search(_ query: Envelope, _ visit: (Int) -> Bool) {
        guard count > 0 else { return }
        let q = _SIMDQuery(query)
        blocks.withUnsafeBufferPointer { b in
            ids.withUnsafeBufferPointer { l in
                levelBlocks.withUnsafeBufferPointer { starts in
                    guard let bp = b.baseAddress, let lp = l.baseAddress, let sp = starts.baseAddress else { return }
                    Self._walk(bp, lp, sp, levels: starts.count, q, visit)
                }
            }
        }
    }

    /// Writes the id of every item whose box intersects `query` into `out` (at most `capacity`
    /// of them, in tree order) and returns how many there are in all, so a caller whose buffer
    /// was too small can call again with a larger one. Calls no closure, so a caller can search
    /// an index it holds in a class property without copying it.
    /// - Complexity: O(log n + k) for k hits on well-spread data.
    public func collect(_ query: Envelope, into out: UnsafeMutablePointer<Int32>, capacity: Int) -> Int {
        var found = 0
        search(query) { id in
            if found < capacity { out[found] = Int32(truncatingIfNeeded: id) }
            found += 1
            return true
        }
        return found
    }

    /// Depth-first walk below the root, in tree order: `mask[k]` holds the lanes of block
    /// `block[k]` (at level k) still to follow.
    ///
    /// Not inlinable into callers on purpose: LLVM vectorises the node test well only where it
    /// sees it alone (inlined into a caller's loop it was split into scalar lanes, 3× the
    /// instructions); the price is one indirect call per hit.
    static func _walk(
        _ b: UnsafePointer<Float>, _ ids: UnsafePointer<Int32>, _ starts: UnsafePointer<Int>, levels: Int,
        _ q: _SIMDQuery, _ visit: (Int) -> Bool
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

    /// Calls `body` with (id, box) of every item, in tree order.
    public func forEachItem(_ body: (Int, Envelope) -> Void) {
        forEachItemRaw { id, r in
            body(id, Envelope(xmin: Double(r.0), ymin: Double(r.1), xmax: Double(r.2), ymax: Double(r.3)))
        }
    }

    /// Calls `body` with (id, raw Float box) of every item, in tree order.
    func forEachItemRaw(_ body: (Int, (Float, Float, Float, Float)) -> Void) {
        for j in 0..<count { body(Int(ids[j]), rawBox(level: 0, entry: j)) }
    }

    /// Checks the tree's invariants (every child inside its parent, unused lanes empty); traps on
    /// a violation. For tests and debug builds.
    public func _checkInvariants() {
        guard count > 0 else { return }
        var entries = count
        for level in 0..<(levelBlocks.count - 1) {
            let parents = (entries + 15) / 16
            for c in 0..<(parents * 16) {
                let child = rawBox(level: level, entry: c)
                if c >= entries {
                    precondition(child.0 == .infinity && child.1 == .infinity, "unused lane \(c) of level \(level) is not empty")
                    precondition(child.2 == -.infinity && child.3 == -.infinity, "unused lane \(c) of level \(level) is not empty")
                    continue
                }
                let parent = rawBox(level: level + 1, entry: c / 16)
                precondition(child.0 >= parent.0 && child.1 >= parent.1, "entry \(c) of level \(level) sticks out of its parent")
                precondition(child.2 <= parent.2 && child.3 <= parent.3, "entry \(c) of level \(level) sticks out of its parent")
            }
            entries = parents
        }
        precondition(entries == 1, "the top level holds \(entries) entries, expected the root alone")
    }
}

/// A query box rounded outward to `Float` and splatted across 16 lanes.
struct _SIMDQuery {
    let x0: SIMD16<Float>
    let y0: SIMD16<Float>
    let x1: SIMD16<Float>
    let y1: SIMD16<Float>

    init(_ query: Envelope) {
        x0 = SIMD16(repeating: _down(query.xmin))
        y0 = SIMD16(repeating: _down(query.ymin))
        x1 = SIMD16(repeating: _up(query.xmax))
        y1 = SIMD16(repeating: _up(query.ymax))
    }

    /// Bit k set when lane k of the block at `p` intersects the query (NaN never does).
    @inline(never)
    func mask(_ p: UnsafePointer<Float>) -> UInt32 {
        // Written for the code LLVM makes of it on baseline x86-64 (SSE2): each compare is turned
        // into 32-bit lanes before the ANDs (ANDing the masks themselves goes through 1-bit lanes
        // and back), and the lane bits are gathered as float weights added in halves (an integer
        // OR or sum of masked lanes is lowered lane by lane to scalar code). The weights are exact
        // small integers, so the sum is exact; adding 2^23 puts it in the low mantissa bits.
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

/// The largest `Float` not above `v`.
@inlinable
func _down(_ v: Double) -> Float {
    let f = Float(v)
    return Double(f) > v ? f.nextDown : f
}

/// The smallest `Float` not below `v`.
@inlinable
func _up(_ v: Double) -> Float {
    let f = Float(v)
    return Double(f) < v ? f.nextUp : f
}

/// The Hilbert curve index of (x, y) on a 2¹⁶ × 2¹⁶ grid, four points at a time (Rawrat's
/// branch-free algorithm, as in flatbush: only lane-wise bit operations, so it runs in SIMD).
@inline(__always)
func _hilbert(_ x: SIMD4<UInt32>, _ y: SIMD4<UInt32>) -> SIMD4<UInt32> {
    let mask16 = SIMD4<UInt32>(repeating: 0xFFFF)
    var a = x ^ y
    var b = mask16 ^ a
    var c = mask16 ^ (x | y)
    var d = x & (y ^ mask16)
    var A = a | (b &>> 1)
    var B = (a &>> 1) ^ a
    var C = ((c &>> 1) ^ (b & (d &>> 1))) ^ c
    var D = ((a & (c &>> 1)) ^ (d &>> 1)) ^ d

    a = A; b = B; c = C; d = D
    A = (a & (a &>> 2)) ^ (b & (b &>> 2))
    B = (a & (b &>> 2)) ^ (b & ((a ^ b) &>> 2))
    C ^= (a & (c &>> 2)) ^ (b & (d &>> 2))
    D ^= (b & (c &>> 2)) ^ ((a ^ b) & (d &>> 2))

    a = A; b = B; c = C; d = D
    A = (a & (a &>> 4)) ^ (b & (b &>> 4))
    B = (a & (b &>> 4)) ^ (b & ((a ^ b) &>> 4))
    C ^= (a & (c &>> 4)) ^ (b & (d &>> 4))
    D ^= (b & (c &>> 4)) ^ ((a ^ b) & (d &>> 4))

    a = A; b = B; c = C; d = D
    C ^= (a & (c &>> 8)) ^ (b & (d &>> 8))
    D ^= (b & (c &>> 8)) ^ ((a ^ b) & (d &>> 8))

    a = C ^ (C &>> 1)
    b = D ^ (D &>> 1)

    var i0 = x ^ y
    var i1 = b | (mask16 ^ (i0 | a))

    i0 = (i0 | (i0 &<< 8)) & SIMD4(repeating: 0x00FF_00FF)
    i0 = (i0 | (i0 &<< 4)) & SIMD4(repeating: 0x0F0F_0F0F)
    i0 = (i0 | (i0 &<< 2)) & SIMD4(repeating: 0x3333_3333)
    i0 = (i0 | (i0 &<< 1)) & SIMD4(repeating: 0x5555_5555)

    i1 = (i1 | (i1 &<< 8)) & SIMD4(repeating: 0x00FF_00FF)
    i1 = (i1 | (i1 &<< 4)) & SIMD4(repeating: 0x0F0F_0F0F)
    i1 = (i1 | (i1 &<< 2)) & SIMD4(repeating: 0x3333_3333)
    i1 = (i1 | (i1 &<< 1)) & SIMD4(repeating: 0x5555_5555)

    return (i1 &<< 1) | i0
}

/// The Hilbert curve index of one point (see the four-lane ``_hilbert(_:_:)``).
func _hilbert(_ x: UInt32, _ y: UInt32) -> UInt32 {
    _hilbert(SIMD4(repeating: x), SIMD4(repeating: y))[0]
}

/// Stable LSD radix sort of `keys` by their high 32 bits: three passes of 11, 11 and 10 bits,
/// their three histograms counted in one read of the keys.
func _radixSortHigh32(_ keys: inout [UInt64]) {
    let n = keys.count
    guard n > 1 else { return }
    let shifts: [UInt64] = [32, 43, 54]
    let radix = 2048
    var tmp = [UInt64](repeating: 0, count: n)
    var counts = [Int](repeating: 0, count: 3 * radix)
    counts.withUnsafeMutableBufferPointer { cnt in
        keys.withUnsafeBufferPointer { src in
            for k in src {
                cnt[Int(truncatingIfNeeded: (k >> 32) & 0x7FF)] += 1
                cnt[radix + Int(truncatingIfNeeded: (k >> 43) & 0x7FF)] += 1
                cnt[2 * radix + Int(truncatingIfNeeded: k >> 54)] += 1
            }
        }
        for pass in 0..<3 {
            var sum = 0
            for i in (pass * radix)..<((pass + 1) * radix) {
                let c = cnt[i]
                cnt[i] = sum
                sum += c
            }
        }
    }
    for pass in 0..<3 {
        let shift = shifts[pass]
        let base = pass * radix
        keys.withUnsafeBufferPointer { src in
            tmp.withUnsafeMutableBufferPointer { dst in
                counts.withUnsafeMutableBufferPointer { cnt in
                    for k in src {
                        let bucket = base + Int(truncatingIfNeeded: (k >> shift) & 0x7FF)
                        dst[cnt[bucket]] = k
                        cnt[bucket] += 1
                    }
                }
            }
        }
        swap(&keys, &tmp)
    }
}
