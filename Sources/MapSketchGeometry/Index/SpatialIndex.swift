/// A spatial index of boxes keyed by dense integer ids: a bulk-loaded ``PackedRTree`` plus a
/// small dynamic part for items inserted since the last build, and tombstones for removed items.
///
/// Inserts go to the dynamic part (scanned linearly) until it holds more than
/// `max(minimumDynamicCapacity, count / 8)` items; removals set a tombstone bit, and once more
/// than a quarter of the tree's items are tombstones the tree is rebuilt. Both rebuilds are
/// O(n), so a long run of inserts or removals costs O(1) amortised per operation.
///
/// Ids are small non-negative integers (e.g. array slots); an id may be inserted again only after
/// it was removed.
public struct SpatialIndex: Sendable {
    /// Children per tree node.
    public var nodeSize: Int { tree.nodeSize }
    /// The dynamic part never triggers a rebuild below this size.
    public var minimumDynamicCapacity: Int = 256

    /// The bulk-loaded part.
    public private(set) var tree: PackedRTree
    @usableFromInline var dynamicIDs: [Int32] = []
    @usableFromInline var dynamicBoxes: [Float] = []
    /// One bit per id: set when the id's entry in the tree is dead (removed or moved to the dynamic part).
    @usableFromInline var dead: [UInt64] = []
    @usableFromInline var deadInTree: Int = 0
    /// One bit per id: set when the id is in the dynamic part.
    @usableFromInline var inDynamic: [UInt64] = []
    /// One bit per id: set when the id is live.
    @usableFromInline var live: [UInt64] = []
    /// The number of live items.
    public private(set) var count: Int = 0
    /// How many times the tree was rebuilt (bulk loads included).
    public private(set) var rebuildCount: Int = 0

    /// An empty index.
    public init() {
        self.tree = PackedRTree()
    }

    /// Replaces the contents with `count` items whose ids are `0..<count` and whose boxes are
    /// given by `box` (nil: the id is absent, e.g. an empty geometry).
    /// - Complexity: O(n) for n items.
    public mutating func bulkLoad(count n: Int, box: (Int) -> Envelope?) {
        var liveBits = [UInt64](repeating: 0, count: (n + 63) / 64)
        var present = 0
        let flat = [Float](unsafeUninitializedCapacity: 4 * n) { f, floatCount in
            liveBits.withUnsafeMutableBufferPointer { lb in
                for i in 0..<n {
                    guard let e = box(i) else { continue }
                    PackedRTree.storeBox(e, into: f, at: present)
                    lb[i >> 6] |= 1 << UInt64(i & 63)
                    present += 1
                }
            }
            floatCount = 4 * present
        }
        // Every id present: ids are the positions, so the tree needs no id array to map them;
        // otherwise the present ids in order, read off the live bits.
        let ids: [Int32]? = present == n ? nil : [Int32](unsafeUninitializedCapacity: present) { idp, idCount in
            var w = 0
            for (word, bits) in liveBits.enumerated() {
                var b = bits
                while b != 0 {
                    idp[w] = Int32(truncatingIfNeeded: word << 6 | b.trailingZeroBitCount)
                    w += 1
                    b &= b &- 1
                }
            }
            idCount = w
        }
        live = liveBits
        dead = [UInt64](repeating: 0, count: liveBits.count)
        inDynamic = dead
        count = present
        tree = PackedRTree(boxes: flat, ids: ids)
        dynamicIDs.removeAll(keepingCapacity: true)
        dynamicBoxes.removeAll(keepingCapacity: true)
        deadInTree = 0
        rebuildCount += 1
    }

    /// Whether `id` is in the index.
    public func contains(_ id: Int) -> Bool { Self.bit(live, id) }

    /// Adds `id` with `box`.
    /// - Precondition: `id` is not in the index.
    /// - Complexity: O(1) amortised.
    public mutating func insert(_ id: Int, box: Envelope) {
        precondition(id >= 0 && id < Int(Int32.max), "ids are non-negative 32-bit integers")
        precondition(!contains(id), "id \(id) is already in the index")
        Self.grow(&live, to: id)
        Self.grow(&dead, to: id)
        Self.grow(&inDynamic, to: id)
        Self.set(&live, id, true)
        Self.set(&inDynamic, id, true)
        dynamicIDs.append(Int32(id))
        PackedRTree.appendBox(box, to: &dynamicBoxes)
        count += 1
        if dynamicIDs.count > max(minimumDynamicCapacity, tree.count / 8) { rebuild() }
    }

    /// Removes `id`; returns false when it was not in the index.
    /// - Complexity: O(1) amortised for a tree item; O(d) for one of the d dynamic items.
    @discardableResult
    public mutating func remove(_ id: Int) -> Bool {
        guard contains(id) else { return false }
        Self.set(&live, id, false)
        count -= 1
        if Self.bit(inDynamic, id) {
            Self.set(&inDynamic, id, false)
            if let k = dynamicIDs.firstIndex(of: Int32(id)) {
                let last = dynamicIDs.count - 1
                dynamicIDs.swapAt(k, last)
                dynamicIDs.removeLast()
                for j in 0..<4 { dynamicBoxes.swapAt(4 * k + j, 4 * last + j) }
                dynamicBoxes.removeLast(4)
            }
        } else {
            Self.set(&dead, id, true)
            deadInTree += 1
            if deadInTree * 4 > tree.count { rebuild() }
        }
        return true
    }

    /// Moves `id` to a new box (remove then insert).
    public mutating func update(_ id: Int, box: Envelope) {
        remove(id)
        insert(id, box: box)
    }

    /// Rebuilds the tree from every live item (tree and dynamic part).
    /// - Complexity: O(n).
    public mutating func rebuild() {
        var flat: [Float] = []
        flat.reserveCapacity(count * 4)
        var ids: [Int32] = []
        ids.reserveCapacity(count)
        tree.forEachItemRaw { id, b in
            guard !Self.bit(dead, id) else { return }
            flat.append(b.0)
            flat.append(b.1)
            flat.append(b.2)
            flat.append(b.3)
            ids.append(Int32(id))
        }
        flat.append(contentsOf: dynamicBoxes)
        ids.append(contentsOf: dynamicIDs)
        for id in dynamicIDs { Self.set(&inDynamic, Int(id), false) }
        for i in dead.indices { dead[i] = 0 }
        tree = PackedRTree(boxes: flat, ids: ids)
        dynamicIDs.removeAll(keepingCapacity: true)
        dynamicBoxes.removeAll(keepingCapacity: true)
        deadInTree = 0
        rebuildCount += 1
    }

    /// Empties the index.
    public mutating func removeAll() { self = SpatialIndex() }

    /// Calls `visit` with every live id whose box intersects `query`, until it returns false.
    /// Order: tree items in tree order, then dynamic items. Allocates nothing.
    /// - Complexity: O(log n + k + d) for k hits and d dynamic items.
    @inlinable
    public func search(_ query: Envelope, _ visit: (Int) -> Bool) {
        var going = true
        if deadInTree == 0 {
            tree.search(query) { id in
                going = visit(id)
                return going
            }
        } else {
            dead.withUnsafeBufferPointer { d in
                tree.search(query) { id in
                    if d[id >> 6] & (1 << UInt64(id & 63)) != 0 { return true }
                    going = visit(id)
                    return going
                }
            }
        }
        guard going, !dynamicIDs.isEmpty else { return }
        let qx0 = _down(query.xmin), qy0 = _down(query.ymin), qx1 = _up(query.xmax), qy1 = _up(query.ymax)
        dynamicBoxes.withUnsafeBufferPointer { b in
            for (k, id) in dynamicIDs.enumerated() {
                let o = 4 * k
                if b[o] <= qx1 && b[o + 1] <= qy1 && b[o + 2] >= qx0 && b[o + 3] >= qy0 {
                    if !visit(Int(id)) { return }
                }
            }
        }
    }

    /// Writes the id of every live item whose box intersects `query` into `out` (at most
    /// `capacity` of them; tree items in tree order, then dynamic items) and returns how many
    /// there are in all; call again with a larger buffer when that exceeds `capacity`.
    /// Allocates nothing and calls no closure (see ``PackedRTree/collect(_:into:capacity:)``).
    ///
    /// It changes nothing, but is `mutating` so that the index is passed by reference: called on
    /// an index stored in a class property, a non-mutating method gets a copy of it (every array
    /// retained and released) because the compiler cannot prove the property stays unchanged.
    /// - Complexity: O(log n + k + d) for k hits and d dynamic items.
    public mutating func collect(_ query: Envelope, into out: UnsafeMutablePointer<Int32>, capacity: Int) -> Int {
        var found = tree.collect(query, into: out, capacity: capacity)
        if deadInTree > 0 {
            // Drop tombstoned tree items (only those written can be dropped here; a caller whose
            // buffer was too small calls again with room for all of them).
            var w = 0
            dead.withUnsafeBufferPointer { d in
                for r in 0..<min(found, capacity) {
                    let id = Int(out[r])
                    if d[id >> 6] & (1 << UInt64(id & 63)) == 0 {
                        out[w] = out[r]
                        w += 1
                    }
                }
            }
            found = found > capacity ? found : w
        }
        guard !dynamicIDs.isEmpty else { return found }
        let qx0 = _down(query.xmin), qy0 = _down(query.ymin), qx1 = _up(query.xmax), qy1 = _up(query.ymax)
        dynamicBoxes.withUnsafeBufferPointer { b in
            for (k, id) in dynamicIDs.enumerated() {
                let o = 4 * k
                if b[o] <= qx1 && b[o + 1] <= qy1 && b[o + 2] >= qx0 && b[o + 3] >= qy0 {
                    if found < capacity { out[found] = id }
                    found += 1
                }
            }
        }
        return found
    }

    /// Bytes held by the index's arrays.
    public var memoryFootprint: Int {
        tree.memoryFootprint + dynamicIDs.capacity * 4 + dynamicBoxes.capacity * 4 + (dead.capacity + inDynamic.capacity + live.capacity) * 8
    }

    @usableFromInline static func bit(_ bits: [UInt64], _ i: Int) -> Bool {
        i >= 0 && (i >> 6) < bits.count && bits[i >> 6] & (1 << UInt64(i & 63)) != 0
    }

    static func set(_ bits: inout [UInt64], _ i: Int, _ on: Bool) {
        if on { bits[i >> 6] |= 1 << UInt64(i & 63) } else { bits[i >> 6] &= ~(1 << UInt64(i & 63)) }
    }

    static func grow(_ bits: inout [UInt64], to i: Int) {
        let need = (i >> 6) + 1
        if bits.count < need { bits.append(contentsOf: repeatElement(0, count: need - bits.count)) }
    }
}


