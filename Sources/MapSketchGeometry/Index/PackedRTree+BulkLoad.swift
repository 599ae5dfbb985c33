// Bulk loading: items sorted by the Hilbert key of their box centres (a radix sort), packed 16
// to a node, level by level up to the root.

extension PackedRTree {
    /// Bulk-loads a tree from envelopes; item `i` is `envelopes[i]`.
    /// - Complexity: O(n) (radix sort of Hilbert keys), for n envelopes.
    package init(envelopes: [Envelope]) {
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
    package init(boxes input: [Float], ids itemIDs: [Int32]?) {
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

        let order = Self.hilbertOrder(input, n)
        let leafSlots = ((n + 15) / 16) * 16
        ids = [Int32](unsafeUninitializedCapacity: leafSlots) { l, initialized in
            // A query reads the leaf blocks and their ids at random: huge pages spare it a page
            // walk per read in a large tree (see `HugePages`).
            if let p = l.baseAddress { HugePages.advise(p, bytes: leafSlots * 4) }
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
            HugePages.advise(base, bytes: totalBlocks * 256)
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
            Self.emptyLanes(base + 64 * starts[0], from: n)
            for level in 1..<entries.count {
                for e in 0..<entries[level] {
                    let child = UnsafeRawPointer(base + 64 * (starts[level - 1] + e))
                    let p = base + (64 &* (starts[level] &+ e >> 4) &+ (e & 15))
                    p[0] = Self.least(child.loadUnaligned(as: SIMD16<Float>.self))
                    p[16] = Self.least(child.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self))
                    p[32] = -Self.least(-child.loadUnaligned(fromByteOffset: 128, as: SIMD16<Float>.self))
                    p[48] = -Self.least(-child.loadUnaligned(fromByteOffset: 192, as: SIMD16<Float>.self))
                }
                Self.emptyLanes(base + 64 * starts[level], from: entries[level])
            }
            initialized = totalBlocks * 64
        }
        directory = RTreeDirectory(self)
        _checkInvariants()
    }

    /// The least lane of `v` (NaN lanes are skipped unless all are NaN), by halving: `min()`
    /// of `SIMD16` is lowered lane by lane (about 60 instructions), this to vector compares.
    @inline(__always)
    static func least(_ v: SIMD16<Float>) -> Float {
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
    private static func emptyLanes(_ level: UnsafeMutablePointer<Float>, from entries: Int) {
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
    static func hilbertOrder(_ input: [Float], _ n: Int) -> [UInt64] {
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
                    hilbertTable.withUnsafeBufferPointer { table in
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
                            let key = hilbert22(Int(cell.x), Int(cell.y), table)
                            k[i] = UInt64(truncatingIfNeeded: key) << 32 | UInt64(truncatingIfNeeded: i)
                            cnt[key & 0x7FF] &+= 1
                            cnt[2048 &+ key &>> 11] &+= 1
                        }
                    }
                }
            }
            initialized = n
        }
        radixSort22(&keys, counts: &counts)
        return keys
    }
}

/// The Hilbert curve, four bits of x and y at a time: entry `state << 8 | x4 << 4 | y4` is
/// `digits << 2 | next`, where `digits` are the 8 key bits (four base-4 digits) of the 4 × 4 cells
/// (x4, y4) within a square entered in `state`, and `next` the state of the square they lead to.
/// A state is the map from the curve's frame to the square's: bit 0 swaps x and y, bit 1
/// complements both (the two commute, so states compose by xor). Steps as in the textbook
/// `xy2d` (Wikipedia, "Hilbert curve"): digit `(3·rx) ^ ry`, then swap when `ry == 0`, and also
/// complement when `rx == 1`.
let hilbertTable: [UInt16] = (0..<1024).map { entry in
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
/// ``hilbertTable``. The cell is read as 12-bit coordinates whose top bits (both 0) are entered
/// swapped: that level adds a 0 digit and leaves the identity state, as the 11-bit curve starts.
/// - Precondition: `x` and `y` are below 2048 and `table` is ``hilbertTable``.
@inline(__always)
func hilbert22(_ x: Int, _ y: Int, _ table: UnsafeBufferPointer<UInt16>) -> Int {
    let t0 = Int(table[1 << 8 | (x >> 4) & 0xF0 | (y >> 8) & 0xF])
    let t1 = Int(table[(t0 & 3) << 8 | x & 0xF0 | (y >> 4) & 0xF])
    let t2 = Int(table[(t1 & 3) << 8 | (x & 0xF) << 4 | y & 0xF])
    return (t0 >> 2) << 16 | (t1 >> 2) << 8 | t2 >> 2
}

/// The Hilbert index of cell (x, y) on a 2¹¹ × 2¹¹ grid (see ``hilbert22(_:_:_:)``).
func hilbert22(_ x: Int, _ y: Int) -> Int {
    precondition(x >= 0 && x < 2048 && y >= 0 && y < 2048, "cells are 11-bit")
    return hilbertTable.withUnsafeBufferPointer { hilbert22(x, y, $0) }
}

/// Stable LSD radix sort of `keys` by bits 32 ..< 54 (two passes of 11 bits); `counts` holds the
/// two passes' histograms (bits 32 ..< 43 in `0 ..< 2048`, bits 43 ..< 54 in `2048 ..< 4096`),
/// counted by the caller while it made the keys, and is used up.
/// - Precondition: every key's bits 54 ..< 64 are zero and `counts` is their histograms.
func radixSort22(_ keys: inout [UInt64], counts: inout [Int]) {
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

/// Sorts `keys` as the bulk loader does (stably by bits 32 ..< 54, see ``radixSort22(_:counts:)``),
/// counting the histograms itself.
/// - Precondition: every key's bits 54 ..< 64 are zero.
func radixSort22(_ keys: inout [UInt64]) {
    var counts = [Int](repeating: 0, count: 4096)
    for k in keys {
        precondition(k >> 54 == 0, "keys have 22 bits above the position")
        counts[Int((k >> 32) & 0x7FF)] += 1
        counts[2048 + Int(k >> 43)] += 1
    }
    radixSort22(&keys, counts: &counts)
}
