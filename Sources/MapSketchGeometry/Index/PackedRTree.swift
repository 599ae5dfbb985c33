/// A static, packed Hilbert R-tree over axis-aligned boxes, stored in flat arrays.
///
/// Items are sorted by the Hilbert value of their box centres (a radix sort, O(n)), packed into
/// leaves of `nodeSize` boxes, and the levels above are packed the same way, so the whole tree is
/// two arrays: `Float` boxes (4 per node, rounded outward so no item is ever missed) and `Int32`
/// links (an item id for a leaf entry, the first child position for an inner node). The layout
/// follows Vladimir Agafonkin's *flatbush* (ISC licence) and the packed Hilbert R-tree of
/// Kamel & Faloutsos, "On Packing R-trees" (CIKM 1993).
///
/// Memory: about `20 · n · (1 + 1/(nodeSize − 1))` bytes for n items (≈ 21.4 bytes at node size 16).
///
/// ```swift
/// let tree = PackedRTree(envelopes: [Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1)])
/// tree.search(Envelope(xmin: 0.5, ymin: 0.5, xmax: 2, ymax: 2)) { id in print(id); return true }
/// ```
public struct PackedRTree: Sendable {
    /// The number of items.
    public let count: Int
    /// Children per node.
    public let nodeSize: Int
    /// minX, minY, maxX, maxY per node: leaves first, then each level up; the root is last.
    @usableFromInline var boxes: [Float]
    /// Item id (leaf entries) or first child position (inner nodes).
    @usableFromInline var links: [Int32]
    /// The end position (exclusive) of each level, leaves first.
    @usableFromInline var levelEnds: [Int]

    /// An empty tree.
    public init(nodeSize: Int = 16) {
        self.count = 0
        self.nodeSize = max(2, nodeSize)
        self.boxes = []
        self.links = []
        self.levelEnds = []
    }

    /// Bulk-loads a tree from envelopes; item `i` is `envelopes[i]`.
    /// - Complexity: O(n) (radix sort of Hilbert keys), for n envelopes.
    public init(envelopes: [Envelope], nodeSize: Int = 16) {
        var flat: [Float] = []
        flat.reserveCapacity(envelopes.count * 4)
        for e in envelopes { PackedRTree.appendBox(e, to: &flat) }
        self.init(boxes: flat, ids: nil, nodeSize: nodeSize)
    }

    /// Bulk-loads a tree from flat boxes (minX, minY, maxX, maxY per item, already rounded
    /// outward, see ``appendBox(_:to:)``) with optional item ids (default: the item's position).
    /// - Precondition: `boxes.count` is a multiple of 4 and `ids`, if given, has `boxes.count / 4`
    ///   entries, each below `Int32.max`.
    /// - Complexity: O(n) for n items.
    public init(boxes input: [Float], ids: [Int32]?, nodeSize: Int = 16) {
        let n = input.count / 4
        let m = max(2, nodeSize)
        self.count = n
        self.nodeSize = m
        guard n > 0 else {
            boxes = []
            links = []
            levelEnds = []
            return
        }
        // Level sizes.
        var ends: [Int] = []
        var levelCount = n
        var total = n
        ends.append(n)
        repeat {
            levelCount = (levelCount + m - 1) / m
            total += levelCount
            ends.append(total)
        } while levelCount > 1
        levelEnds = ends

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
                for i in 0..<n {
                    let cx = b[4 * i] * 0.5 + b[4 * i + 2] * 0.5
                    let cy = b[4 * i + 1] * 0.5 + b[4 * i + 3] * 0.5
                    // Clamped to [0, 65535], so truncation is the floor (and NaN clamps to 0).
                    let hx = UInt32(max(0, min(65535, (cx - minX) * sx)))
                    let hy = UInt32(max(0, min(65535, (cy - minY) * sy)))
                    k[i] = UInt64(_hilbert(hx, hy)) << 32 | UInt64(i)
                }
            }
            initialized = n
        }
        _radixSortHigh32(&keys)

        var lk = [Int32](unsafeUninitializedCapacity: total) { l, initialized in
            keys.withUnsafeBufferPointer { k in
                if let ids {
                    ids.withUnsafeBufferPointer { src in
                        for j in 0..<n { l[j] = src[Int(truncatingIfNeeded: k[j] & 0xFFFF_FFFF)] }
                    }
                } else {
                    for j in 0..<n { l[j] = Int32(truncatingIfNeeded: k[j] & 0xFFFF_FFFF) }
                }
            }
            initialized = total
        }
        let out = [Float](unsafeUninitializedCapacity: total * 4) { o, initialized in
            input.withUnsafeBufferPointer { b in
                keys.withUnsafeBufferPointer { k in
                    for j in 0..<n {
                        let i = Int(truncatingIfNeeded: k[j] & 0xFFFF_FFFF)
                        o[4 * j] = b[4 * i]
                        o[4 * j + 1] = b[4 * i + 1]
                        o[4 * j + 2] = b[4 * i + 2]
                        o[4 * j + 3] = b[4 * i + 3]
                    }
                }
            }
            lk.withUnsafeMutableBufferPointer { l in
                // Inner levels.
                var start = 0
                var pos = n
                for level in 0..<(ends.count - 1) {
                    let end = ends[level]
                    var c = start
                    while c < end {
                        var x0 = Float.infinity, y0 = Float.infinity, x1 = -Float.infinity, y1 = -Float.infinity
                        let first = c
                        let stop = min(c + m, end)
                        while c < stop {
                            x0 = min(x0, o[4 * c])
                            y0 = min(y0, o[4 * c + 1])
                            x1 = max(x1, o[4 * c + 2])
                            y1 = max(y1, o[4 * c + 3])
                            c += 1
                        }
                        o[4 * pos] = x0
                        o[4 * pos + 1] = y0
                        o[4 * pos + 2] = x1
                        o[4 * pos + 3] = y1
                        l[pos] = Int32(truncatingIfNeeded: first)
                        pos += 1
                    }
                    start = end
                }
            }
            initialized = total * 4
        }
        boxes = out
        links = lk
    }

    /// Appends `e` to flat boxes, rounded outward to `Float` so the box still contains `e`.
    @inlinable
    public static func appendBox(_ e: Envelope, to boxes: inout [Float]) {
        boxes.append(_down(e.xmin))
        boxes.append(_down(e.ymin))
        boxes.append(_up(e.xmax))
        boxes.append(_up(e.ymax))
    }

    /// The box of the whole tree, or nil when it is empty.
    public var bounds: Envelope? {
        guard count > 0 else { return nil }
        let r = (boxes.count / 4) - 1
        return Envelope(
            xmin: Double(boxes[4 * r]), ymin: Double(boxes[4 * r + 1]), xmax: Double(boxes[4 * r + 2]),
            ymax: Double(boxes[4 * r + 3]))
    }

    /// Bytes held by the tree's arrays.
    public var memoryFootprint: Int { boxes.capacity * 4 + links.capacity * 4 + levelEnds.capacity * 8 }

    /// Calls `visit` with the id of every item whose box intersects `query` (boundaries
    /// included), in tree order, until it returns false. Allocates nothing.
    ///
    /// The walk is iterative (one cursor per level, on the stack), so `visit` and whatever it
    /// captures are neither passed down a recursion nor retained per node: it is called only
    /// for items that hit.
    /// - Complexity: O(log n + k) for k hits on well-spread data.
    @inlinable
    public func search(_ query: Envelope, _ visit: (Int) -> Bool) {
        guard count > 0 else { return }
        let qx0 = _down(query.xmin), qy0 = _down(query.ymin), qx1 = _up(query.xmax), qy1 = _up(query.ymax)
        let m = nodeSize
        boxes.withUnsafeBufferPointer { b in
            links.withUnsafeBufferPointer { l in
                levelEnds.withUnsafeBufferPointer { ends in
                    Self._walk(nodeSize: m, b: b, l: l, ends: ends, qx0: qx0, qy0: qy0, qx1: qx1, qy1: qy1, visit)
                }
            }
        }
    }

    /// Depth-first walk below the root, in tree order: `cursor[k]`/`stop[k]` is the range of
    /// level-k positions still to check under the current level-(k+1) node.
    @inlinable
    static func _walk(
        nodeSize m: Int, b: UnsafeBufferPointer<Float>, l: UnsafeBufferPointer<Int32>, ends: UnsafeBufferPointer<Int>,
        qx0: Float, qy0: Float, qx1: Float, qy1: Float, _ visit: (Int) -> Bool
    ) {
        let top = ends.count - 1
        guard let bp = b.baseAddress, let lp = l.baseAddress, let ep = ends.baseAddress else { return }
        if top == 0 {
            // A single node that is also the root holds no children to walk: a one-level tree
            // cannot occur (the loader always adds a root above the leaves), but stay safe.
            return
        }
        // A box hits when (minX, minY, -maxX, -maxY) <= (qx1, qy1, -qx0, -qy0) lane-wise: one
        // SIMD compare instead of four branches (negation is exact, NaN never hits).
        let sign = SIMD4<Float>(1, 1, -1, -1)
        let q = SIMD4<Float>(qx1, qy1, -qx0, -qy0)
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * top) { tmp in
            guard let cursor = tmp.baseAddress else { return }
            let stop = cursor + top
            var level = top - 1
            let root = ep[top] - 1
            let first = Int(lp[root])
            cursor[level] = first
            stop[level] = min(first + m, ep[level])
            while true {
                if level == 0 {
                    // Leaves: scan the whole run, then go back up.
                    var c = cursor[0]
                    let s = stop[0]
                    while c < s {
                        let o = 4 &* c
                        if all(SIMD4<Float>(bp[o], bp[o &+ 1], bp[o &+ 2], bp[o &+ 3]) * sign .<= q) {
                            if !visit(Int(lp[c])) { return }
                        }
                        c &+= 1
                    }
                    level = 1
                    if level == top { return }
                    continue
                }
                var c = cursor[level]
                let s = stop[level]
                var descended = false
                while c < s {
                    let o = 4 &* c
                    if all(SIMD4<Float>(bp[o], bp[o &+ 1], bp[o &+ 2], bp[o &+ 3]) * sign .<= q) {
                        cursor[level] = c &+ 1
                        let f = Int(lp[c])
                        level -= 1
                        cursor[level] = f
                        stop[level] = min(f &+ m, ep[level])
                        descended = true
                        break
                    }
                    c &+= 1
                }
                if !descended {
                    level += 1
                    if level == top { return }
                }
            }
        }
    }

    /// Calls `body` with (id, box) of every item, in tree order.
    public func forEachItem(_ body: (Int, Envelope) -> Void) {
        for j in 0..<count {
            body(
                Int(links[j]),
                Envelope(xmin: Double(boxes[4 * j]), ymin: Double(boxes[4 * j + 1]), xmax: Double(boxes[4 * j + 2]), ymax: Double(boxes[4 * j + 3])))
        }
    }

    /// Checks the tree's invariants (every child inside its parent; ids of the leaves); traps on
    /// a violation. For tests and debug builds.
    public func _checkInvariants() {
        guard count > 0 else { return }
        var start = 0
        for level in 0..<(levelEnds.count - 1) {
            let end = levelEnds[level]
            var pos = end
            var c = start
            while c < end {
                let parent = pos
                let stop = min(c + nodeSize, end)
                precondition(Int(links[parent]) == c, "inner node \(parent) links to \(links[parent]), expected \(c)")
                while c < stop {
                    precondition(boxes[4 * c] >= boxes[4 * parent] && boxes[4 * c + 1] >= boxes[4 * parent + 1])
                    precondition(boxes[4 * c + 2] <= boxes[4 * parent + 2] && boxes[4 * c + 3] <= boxes[4 * parent + 3])
                    c += 1
                }
                pos += 1
            }
            start = end
        }
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

/// The Hilbert curve index of (x, y) on a 2¹⁶ × 2¹⁶ grid (Rawrat's branch-free algorithm, as in
/// flatbush).
@usableFromInline
func _hilbert(_ x: UInt32, _ y: UInt32) -> UInt32 {
    var a = x ^ y
    var b = 0xFFFF ^ a
    var c = 0xFFFF ^ (x | y)
    var d = x & (y ^ 0xFFFF)
    var A = a | (b >> 1)
    var B = (a >> 1) ^ a
    var C = ((c >> 1) ^ (b & (d >> 1))) ^ c
    var D = ((a & (c >> 1)) ^ (d >> 1)) ^ d

    a = A; b = B; c = C; d = D
    A = (a & (a >> 2)) ^ (b & (b >> 2))
    B = (a & (b >> 2)) ^ (b & ((a ^ b) >> 2))
    C ^= (a & (c >> 2)) ^ (b & (d >> 2))
    D ^= (b & (c >> 2)) ^ ((a ^ b) & (d >> 2))

    a = A; b = B; c = C; d = D
    A = (a & (a >> 4)) ^ (b & (b >> 4))
    B = (a & (b >> 4)) ^ (b & ((a ^ b) >> 4))
    C ^= (a & (c >> 4)) ^ (b & (d >> 4))
    D ^= (b & (c >> 4)) ^ ((a ^ b) & (d >> 4))

    a = A; b = B; c = C; d = D
    C ^= (a & (c >> 8)) ^ (b & (d >> 8))
    D ^= (b & (c >> 8)) ^ ((a ^ b) & (d >> 8))

    a = C ^ (C >> 1)
    b = D ^ (D >> 1)

    var i0 = x ^ y
    var i1 = b | (0xFFFF ^ (i0 | a))

    i0 = (i0 | (i0 << 8)) & 0x00FF_00FF
    i0 = (i0 | (i0 << 4)) & 0x0F0F_0F0F
    i0 = (i0 | (i0 << 2)) & 0x3333_3333
    i0 = (i0 | (i0 << 1)) & 0x5555_5555

    i1 = (i1 | (i1 << 8)) & 0x00FF_00FF
    i1 = (i1 | (i1 << 4)) & 0x0F0F_0F0F
    i1 = (i1 | (i1 << 2)) & 0x3333_3333
    i1 = (i1 | (i1 << 1)) & 0x5555_5555

    return (i1 << 1) | i0
}

/// Stable LSD radix sort of `keys` by their high 32 bits (four 8-bit passes).
func _radixSortHigh32(_ keys: inout [UInt64]) {
    let n = keys.count
    guard n > 1 else { return }
    var tmp = [UInt64](repeating: 0, count: n)
    var counts = [Int](repeating: 0, count: 256)
    for pass in 0..<4 {
        let shift = UInt64(32 + 8 * pass)
        keys.withUnsafeMutableBufferPointer { src in
            tmp.withUnsafeMutableBufferPointer { dst in
                counts.withUnsafeMutableBufferPointer { cnt in
                    for i in 0..<256 { cnt[i] = 0 }
                    for k in src { cnt[Int(truncatingIfNeeded: (k >> shift) & 0xFF)] += 1 }
                    var sum = 0
                    for i in 0..<256 {
                        let c = cnt[i]
                        cnt[i] = sum
                        sum += c
                    }
                    for k in src {
                        let bucket = Int(truncatingIfNeeded: (k >> shift) & 0xFF)
                        dst[cnt[bucket]] = k
                        cnt[bucket] += 1
                    }
                }
            }
        }
        swap(&keys, &tmp)
    }
}
