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
        precondition(n < Int(Int32.max), "item positions are 32-bit")
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

        let order = Self._hilbertOrder(input, n)
        let leafSlots = ((n + 15) / 16) * 16
        ids = [Int32](unsafeUninitializedCapacity: leafSlots) { l, initialized in
            order.withUnsafeBufferPointer { k in
                if let itemIDs {
                    itemIDs.withUnsafeBufferPointer { src in
                        for j in 0..<n { l[j] = src[Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: k[j]))] }
                    }
                } else {
                    for j in 0..<n { l[j] = Int32(truncatingIfNeeded: k[j]) }
                }
            }
            for j in n..<leafSlots { l[j] = -1 }
            initialized = leafSlots
        }
        blocks = [Float](unsafeUninitializedCapacity: totalBlocks * 64) { o, initialized in
            guard let base = o.baseAddress else { return }
            // Every lane is written once: the leaves in Hilbert order, then each level up, and
            // each level's unused lanes (past its last entry, up to its block boundary) empty.
            input.withUnsafeBufferPointer { b in
                order.withUnsafeBufferPointer { k in
                    guard let src = b.baseAddress.map(UnsafeRawPointer.init) else { return }
                    // Positions are below n (they were made from 0..<n), so every read is in
                    // bounds. Four items at a time: four boxes transposed into one 4-lane store per
                    // coordinate (j is a multiple of 4, so the four share a block).
                    @inline(__always) func box(_ j: Int) -> SIMD4<Float> {
                        src.loadUnaligned(fromByteOffset: 16 &* Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: k[j])), as: SIMD4<Float>.self)
                    }
                    var j = 0
                    while j &+ 4 <= n {
                        let b0 = box(j), b1 = box(j &+ 1), b2 = box(j &+ 2), b3 = box(j &+ 3)
                        let p = UnsafeMutableRawPointer(base + (64 &* (j >> 4) &+ (j & 15)))
                        p.storeBytes(of: SIMD4(b0.x, b1.x, b2.x, b3.x), as: SIMD4<Float>.self)
                        p.storeBytes(of: SIMD4(b0.y, b1.y, b2.y, b3.y), toByteOffset: 64, as: SIMD4<Float>.self)
                        p.storeBytes(of: SIMD4(b0.z, b1.z, b2.z, b3.z), toByteOffset: 128, as: SIMD4<Float>.self)
                        p.storeBytes(of: SIMD4(b0.w, b1.w, b2.w, b3.w), toByteOffset: 192, as: SIMD4<Float>.self)
                        j &+= 4
                    }
                    while j < n {
                        let b0 = box(j)
                        let p = base + (64 &* (j >> 4) &+ (j & 15))
                        p[0] = b0.x
                        p[16] = b0.y
                        p[32] = b0.z
                        p[48] = b0.w
                        j &+= 1
                    }
                }
            }
            Self._emptyLanes(base + 64 * starts[0], from: n)
            for level in 1..<entries.count {
                for e in 0..<entries[level] {
                    let child = UnsafeRawPointer(base + 64 * (starts[level - 1] + e))
                    let p = base + (64 &* (starts[level] &+ e >> 4) &+ (e & 15))
                    p[0] = Self._least(child.loadUnaligned(as: SIMD16<Float>.self))
                    p[16] = Self._least(child.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self))
                    p[32] = -Self._least(-child.loadUnaligned(fromByteOffset: 128, as: SIMD16<Float>.self))
                    p[48] = -Self._least(-child.loadUnaligned(fromByteOffset: 192, as: SIMD16<Float>.self))
                }
                Self._emptyLanes(base + 64 * starts[level], from: entries[level])
            }
            initialized = totalBlocks * 64
        }
    }

    /// The least lane of `v` (NaN lanes are skipped unless all are NaN), by halving: `min()`
    /// of `SIMD16` is lowered lane by lane (about 60 instructions), this to vector compares.
    @inline(__always)
    static func _least(_ v: SIMD16<Float>) -> Float {
        var a8 = v.lowHalf
        a8.replace(with: v.highHalf, where: (v.highHalf .< a8) .| (a8 .!= a8))
        var a4 = a8.lowHalf
        a4.replace(with: a8.highHalf, where: (a8.highHalf .< a4) .| (a4 .!= a4))
        var a2 = a4.lowHalf
        a2.replace(with: a4.highHalf, where: (a4.highHalf .< a2) .| (a2 .!= a2))
        return a2.y < a2.x || a2.x.isNaN ? a2.y : a2.x
    }

    /// Writes the empty box (+∞, +∞, −∞, −∞) into lanes `entries ..< ` the next multiple of 16 of
    /// the level whose first block is at `level`.
    private static func _emptyLanes(_ level: UnsafeMutablePointer<Float>, from entries: Int) {
        var e = entries
        while e & 15 != 0 {
            let p = level + (64 &* (e >> 4) &+ (e & 15))
            p[0] = .infinity
            p[16] = .infinity
            p[32] = -.infinity
            p[48] = -.infinity
            e += 1
        }
    }

    /// The position of every item (low 32 bits) in the order of the Hilbert key of its box
    /// centre's cell on a 2¹¹ × 2¹¹ grid over the centres' bounds (bits 32 ..< 54); ties keep
    /// input order. 22 bits sort in two radix passes of 11; at a million uniformly spread items
    /// there are four cells per item, so leaves are as tight as with a finer key.
    /// - Complexity: O(n): one pass for the centres' bounds, one for keys and histograms, two
    ///   scatter passes.
    static func _hilbertOrder(_ input: [Float], _ n: Int) -> [UInt64] {
        // Bounds of all centres for the Hilbert grid, as (minX, minY, −maxX, −maxY) so one
        // vector minimum tracks all four (a NaN centre compares false and is skipped).
        var low = SIMD4<Float>(repeating: .infinity)
        input.withUnsafeBufferPointer { b in
            guard let p = b.baseAddress.map(UnsafeRawPointer.init) else { return }
            for i in 0..<n {
                let h = p.loadUnaligned(fromByteOffset: 16 &* i, as: SIMD4<Float>.self) * 0.5
                let c = h.lowHalf + h.highHalf
                let v = SIMD4(lowHalf: c, highHalf: -c)
                low.replace(with: v, where: v .< low)
            }
        }
        let origin = low.lowHalf
        let extent = -low.highHalf - origin
        // 2047 / extent, 0 for an empty or infinite extent.
        var scale = SIMD2<Float>(repeating: 2047) / extent
        scale.replace(with: 0, where: .!(extent .> 0) .| .!(scale .< .infinity))
        var counts = [Int](repeating: 0, count: 2 * 2048)
        var keys = [UInt64](unsafeUninitializedCapacity: n) { k, initialized in
            input.withUnsafeBufferPointer { b in
                counts.withUnsafeMutableBufferPointer { cnt in
                    _hilbertTable.withUnsafeBufferPointer { table in
                        guard let p = b.baseAddress.map(UnsafeRawPointer.init) else { return }
                        for i in 0..<n {
                            // The grid cell of the centre: clamped to 2047 above (it is ≥ 0: the
                            // origin is the least centre), then rounded to an integer by adding 2²³
                            // (the integer lands in the low mantissa bits); the mask keeps a NaN
                            // centre in range.
                            let h = p.loadUnaligned(fromByteOffset: 16 &* i, as: SIMD4<Float>.self) * 0.5
                            var v = (h.lowHalf + h.highHalf - origin) * scale
                            v.replace(with: 2047, where: v .> 2047)
                            let cell = unsafeBitCast(v + 8_388_608, to: SIMD2<UInt32>.self) & 0x7FF
                            let key = _hilbert22(Int(cell.x), Int(cell.y), table)
                            k[i] = UInt64(truncatingIfNeeded: key) << 32 | UInt64(truncatingIfNeeded: i)
                            cnt[key & 0x7FF] &+= 1
                            cnt[2048 &+ key &>> 11] &+= 1
                        }
                    }
                }
            }
            initialized = n
        }
        _radixSort22(&keys, counts: &counts)
        return keys
    }

    /// Appends `e` to flat boxes, rounded outward to `Float` so the box still contains `e`.
    @inlinable
    public static func appendBox(_ e: Envelope, to boxes: inout [Float]) {
        let b = _outward(e)
        boxes.append(b.x)
        boxes.append(b.y)
        boxes.append(b.z)
        boxes.append(b.w)
    }

    /// Stores `e` as item `i` of flat boxes (see ``appendBox(_:to:)``).
    @inlinable
    public static func storeBox(_ e: Envelope, into boxes: UnsafeMutableBufferPointer<Float>, at i: Int) {
        precondition(i >= 0 && 4 * i + 3 < boxes.count, "box index out of range")
        UnsafeMutableRawPointer(boxes.baseAddress.unsafelyUnwrapped).storeBytes(of: _outward(e), toByteOffset: 16 &* i, as: SIMD4<Float>.self)
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

/// The Hilbert curve, four bits of x and y at a time: entry `state << 8 | x4 << 4 | y4` is
/// `digits << 2 | next`, where `digits` are the 8 key bits (four base-4 digits) of the 4 × 4 cells
/// (x4, y4) within a square entered in `state`, and `next` the state of the square they lead to.
/// A state is the map from the curve's frame to the square's: bit 0 swaps x and y, bit 1
/// complements both (the two commute, so states compose by xor). Steps as in the textbook
/// `xy2d` (Wikipedia, "Hilbert curve"): digit `(3·rx) ^ ry`, then swap when `ry == 0`, and also
/// complement when `rx == 1`.
let _hilbertTable: [UInt16] = (0..<1024).map { entry in
    var state = entry >> 8, digits = 0
    for bit in (0..<4).reversed() {
        var rx = (entry >> (4 + bit)) & 1, ry = (entry >> bit) & 1
        if state & 2 != 0 {
            rx ^= 1
            ry ^= 1
        }
        if state & 1 != 0 { swap(&rx, &ry) }
        digits = digits << 2 | ((3 * rx) ^ ry)
        if ry == 0 { state ^= rx == 1 ? 3 : 1 }
    }
    return UInt16(digits << 2 | state)
}

/// The Hilbert index of cell (x, y) on a 2¹¹ × 2¹¹ grid (22 bits), by three lookups in
/// ``_hilbertTable``. The cell is read as 12-bit coordinates whose top bits (both 0) are entered
/// swapped: that level adds a 0 digit and leaves the identity state, as the 11-bit curve starts.
/// - Precondition: `x` and `y` are below 2048 and `table` is ``_hilbertTable``.
@inline(__always)
func _hilbert22(_ x: Int, _ y: Int, _ table: UnsafeBufferPointer<UInt16>) -> Int {
    let t0 = Int(table[1 << 8 | (x >> 4) & 0xF0 | (y >> 8) & 0xF])
    let t1 = Int(table[(t0 & 3) << 8 | x & 0xF0 | (y >> 4) & 0xF])
    let t2 = Int(table[(t1 & 3) << 8 | (x & 0xF) << 4 | y & 0xF])
    return (t0 >> 2) << 16 | (t1 >> 2) << 8 | t2 >> 2
}

/// The Hilbert index of cell (x, y) on a 2¹¹ × 2¹¹ grid (see ``_hilbert22(_:_:_:)``).
func _hilbert22(_ x: Int, _ y: Int) -> Int {
    precondition(x >= 0 && x < 2048 && y >= 0 && y < 2048, "cells are 11-bit")
    return _hilbertTable.withUnsafeBufferPointer { _hilbert22(x, y, $0) }
}

/// Stable LSD radix sort of `keys` by bits 32 ..< 54 (two passes of 11 bits); `counts` holds the
/// two passes' histograms (bits 32 ..< 43 in `0 ..< 2048`, bits 43 ..< 54 in `2048 ..< 4096`),
/// counted by the caller while it made the keys, and is used up.
/// - Precondition: every key's bits 54 ..< 64 are zero and `counts` is their histograms.
func _radixSort22(_ keys: inout [UInt64], counts: inout [Int]) {
    let n = keys.count
    guard n > 1 else { return }
    precondition(counts.count == 4096, "two histograms of 2048 buckets")
    var tmp = [UInt64](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
    counts.withUnsafeMutableBufferPointer { cnt in
        for pass in 0..<2 {
            var sum = 0
            for i in (pass * 2048)..<((pass + 1) * 2048) {
                let c = cnt[i]
                cnt[i] = sum
                sum += c
            }
            precondition(sum == n, "the histograms count every key")
        }
        // Each key lands at its bucket's next slot; the bucket's slots end where the next bucket's
        // begin, and the counts add up to n, so every write is in bounds.
        keys.withUnsafeBufferPointer { src in
            tmp.withUnsafeMutableBufferPointer { dst in
                for k in src {
                    let b = Int(truncatingIfNeeded: (k >> 32) & 0x7FF)
                    dst[cnt[b]] = k
                    cnt[b] &+= 1
                }
            }
        }
        tmp.withUnsafeBufferPointer { src in
            keys.withUnsafeMutableBufferPointer { dst in
                for k in src {
                    let b = 2048 &+ Int(truncatingIfNeeded: (k >> 43) & 0x7FF)
                    dst[cnt[b]] = k
                    cnt[b] &+= 1
                }
            }
        }
    }
}

/// Sorts `keys` as the bulk loader does (stably by bits 32 ..< 54, see ``_radixSort22(_:counts:)``),
/// counting the histograms itself.
/// - Precondition: every key's bits 54 ..< 64 are zero.
func _radixSort22(_ keys: inout [UInt64]) {
    var counts = [Int](repeating: 0, count: 4096)
    for k in keys {
        precondition(k >> 54 == 0, "keys have 22 bits above the position")
        counts[Int((k >> 32) & 0x7FF)] += 1
        counts[2048 + Int(k >> 43)] += 1
    }
    _radixSort22(&keys, counts: &counts)
}

/// The box of `e` rounded outward to `Float` (minX, minY down; maxX, maxY up), without branches:
/// the same box as ``_down(_:)`` and ``_up(_:)``. The max corner is negated so that all four
/// lanes round down: a lane whose nearest `Float` lies above the `Double` steps one ulp toward
/// −∞ (bit pattern − 1 for a positive value, + 1 for a negative one; this also takes +∞ to the
/// greatest finite value, and −0 to the least negative subnormal).
@inlinable
func _outward(_ e: Envelope) -> SIMD4<Float> {
    let v = SIMD4<Double>(e.xmin, e.ymin, -e.xmax, -e.ymax)
    let f = SIMD4<Float>(v)
    let above = unsafeBitCast(SIMD4<Double>(f) .> v, to: SIMD4<Int64>.self)
    let bits = unsafeBitCast(f, to: SIMD4<Int32>.self)
    let step = SIMD4<Int32>(repeating: -1) &- ((bits &>> 31) &<< 1)
    let down = bits &+ (step & SIMD4<Int32>(truncatingIfNeeded: above))
    return unsafeBitCast(down, to: SIMD4<Float>.self) * SIMD4(1, 1, -1, -1)
}
