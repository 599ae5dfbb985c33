/// A spatial index of boxes keyed by dense integer ids: a bulk-loaded packed Hilbert R-tree plus
/// a log-structured dynamic part for the items inserted since, and tombstones for removed items.
///
/// The tree packs 16 boxes to a node, rounded outward to `Float` (so no item is ever missed) and
/// laid out so that a search tests a node's 16 children with four SIMD compares (the layout of
/// Agafonkin's *flatbush*; Kamel & Faloutsos, "On Packing R-trees", CIKM 1993). Inserts go to a
/// small buffer (scanned linearly, at most 32 items). A full buffer becomes a packed tree of its
/// own, a *run*; runs merge like the digits of a binary counter (the last run is merged into the
/// one before it while it is at least half that one's size), so under inserts each run is more
/// than twice the next and d dynamic items lie in at most log₂(d / 32) + 1 runs. Once the runs
/// hold more than a set share of the main tree (an eighth, and at least 256 items), everything is
/// rebuilt into one tree. A removal leaves a tombstone: the id's *home* (which tree or the buffer
/// holds its live entry) is cleared, and a tree entry whose id lives elsewhere is skipped. Once
/// more than a quarter of the main tree's entries (or half of a run's) are tombstones, that tree
/// is rebuilt. Every rebuild is O(size), and an item is merged O(log n) times, so a long run of
/// inserts or removals costs O(log n) amortised per operation for n items; a search costs
/// O(log² n + k + 32) for k hits.
///
/// Ids are small non-negative integers (e.g. array slots); an id may be inserted again only after
/// it was removed.
///
/// ```swift
/// var index = SpatialIndex()
/// index.bulkLoad(count: envelopes.count) { envelopes[$0] }
/// index.insert(envelopes.count, box: Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1))
/// index.search(Envelope(xmin: 0.5, ymin: 0.5, xmax: 2, ymax: 2)) { id in print(id); return true }
/// ```
public struct SpatialIndex: Sendable {
    /// Children per tree node.
    package var nodeSize: Int { tree.nodeSize }
    /// The runs never trigger a rebuild of the main tree below this size.
    package var minimumDynamicCapacity: Int = 256
    /// Items the buffer holds before it becomes a run.
    package static let bufferCapacity = 32

    /// The bulk-loaded part.
    @usableFromInline package private(set) var tree: PackedRTree
    /// Trees of the items inserted since the last rebuild, each more than twice the size of the next.
    @usableFromInline var runs: [PackedRTree] = []
    /// Tombstones in each run.
    @usableFromInline var staleInRun: [Int] = []
    /// Ids in the buffer (the newest inserts).
    @usableFromInline var dynamicIDs: [Int32] = []
    /// The buffer's boxes, flat (see `PackedRTree.appendBox(_:to:)`).
    @usableFromInline var dynamicBoxes: [Float] = []
    /// Where each id's live entry is: ``_absent``, ``_inTree``, ``_inBuffer``, or
    /// `_firstRun + k` for `runs[k]`.
    @usableFromInline var home: [UInt8] = []
    /// Tombstones in the main tree.
    @usableFromInline var staleInTree: Int = 0
    /// The number of live items.
    public private(set) var count: Int = 0
    /// How many times the main tree was rebuilt (bulk loads included).
    package private(set) var rebuildCount: Int = 0

    @usableFromInline static var _absent: UInt8 { 0 }
    @usableFromInline static var _inTree: UInt8 { 1 }
    @usableFromInline static var _inBuffer: UInt8 { 2 }
    @usableFromInline static var _firstRun: UInt8 { 3 }

    /// An empty index.
    public init() {
        self.tree = PackedRTree()
    }

    /// Replaces the contents with `count` items whose ids are `0..<count` and whose boxes are
    /// given by `box` (nil: the id is absent, e.g. an empty geometry).
    /// - Complexity: O(n) for n items.
    public mutating func bulkLoad(count n: Int, box: (Int) -> Envelope?) {
        var present = 0
        var homes: [UInt8] = []
        let flat = [Float](unsafeUninitializedCapacity: 4 * n) { f, floatCount in
            homes = [UInt8](unsafeUninitializedCapacity: n) { h, homeCount in
                for i in 0..<n {
                    guard let e = box(i) else {
                        h[i] = Self._absent
                        continue
                    }
                    PackedRTree.storeBox(e, into: f, at: present)
                    h[i] = Self._inTree
                    present += 1
                }
                homeCount = n
            }
            floatCount = 4 * present
        }
        // Every id present: ids are the positions, so the tree needs no id array to map them;
        // otherwise the present ids in order.
        let ids: [Int32]? = present == n ? nil : [Int32](unsafeUninitializedCapacity: present) { idp, idCount in
            var w = 0
            for (i, h) in homes.enumerated() where h == Self._inTree {
                idp[w] = Int32(truncatingIfNeeded: i)
                w += 1
            }
            idCount = w
        }
        home = homes
        count = present
        install(PackedRTree(boxes: flat, ids: ids))
        _checkInvariants()
    }

    /// Makes `fresh` the main tree holding every live item: no runs, an empty buffer, no stale
    /// entries.
    private mutating func install(_ fresh: PackedRTree) {
        tree = fresh
        runs = []
        staleInRun = []
        dynamicIDs.removeAll(keepingCapacity: true)
        dynamicBoxes.removeAll(keepingCapacity: true)
        staleInTree = 0
        rebuildCount += 1
    }

    /// Whether `id` is in the index.
    public func contains(_ id: Int) -> Bool { id >= 0 && id < home.count && home[id] != Self._absent }

    /// Adds `id` with `box`.
    /// - Precondition: `id` is not in the index.
    /// - Complexity: O(log n) amortised for n items.
    public mutating func insert(_ id: Int, box: Envelope) {
        precondition(id >= 0 && id < Int(Int32.max), "ids are non-negative 32-bit integers")
        precondition(!contains(id), "id \(id) is already in the index")
        if dynamicIDs.capacity == 0 {
            // The buffer's whole capacity at once: a few inserts into a small index allocate
            // once per array, not at every doubling.
            dynamicIDs.reserveCapacity(Self.bufferCapacity)
            dynamicBoxes.reserveCapacity(4 * Self.bufferCapacity)
        }
        if home.count <= id {
            if home.capacity <= id { home.reserveCapacity(Swift.max(id + 1, 2 * home.capacity, 64)) }
            home.append(contentsOf: repeatElement(Self._absent, count: id + 1 - home.count))
        }
        home[id] = Self._inBuffer
        dynamicIDs.append(Int32(id))
        PackedRTree.appendBox(box, to: &dynamicBoxes)
        count += 1
        if dynamicIDs.count >= Self.bufferCapacity { flushBuffer() }
        _checkInvariants()
    }

    /// Removes `id`; returns false when it was not in the index.
    /// - Complexity: O(1) amortised for a tree item; O(32) for a buffered one.
    @discardableResult
    public mutating func remove(_ id: Int) -> Bool {
        guard contains(id) else { return false }
        let h = home[id]
        home[id] = Self._absent
        count -= 1
        if h == Self._inBuffer {
            if let k = dynamicIDs.firstIndex(of: Int32(id)) {
                let last = dynamicIDs.count - 1
                dynamicIDs.swapAt(k, last)
                dynamicIDs.removeLast()
                for j in 0..<4 { dynamicBoxes.swapAt(4 * k + j, 4 * last + j) }
                dynamicBoxes.removeLast(4)
            }
        } else if h == Self._inTree {
            staleInTree += 1
            if staleInTree * 4 > tree.count { rebuild() }
        } else {
            let r = Int(h - Self._firstRun)
            staleInRun[r] += 1
            if staleInRun[r] * 2 > runs[r].count { compactRun(r) }
        }
        _checkInvariants()
        return true
    }

    /// Moves `id` to a new box (remove then insert).
    public mutating func update(_ id: Int, box: Envelope) {
        remove(id)
        insert(id, box: box)
    }

    /// Rebuilds the main tree from every live item (main tree, runs and buffer).
    /// - Complexity: O(n) for n items.
    package mutating func rebuild() {
        var flat: [Float] = []
        flat.reserveCapacity(count * 4)
        var ids: [Int32] = []
        ids.reserveCapacity(count)
        appendLive(tree, Self._inTree, &flat, &ids)
        for (r, run) in runs.enumerated() { appendLive(run, Self._firstRun + UInt8(r), &flat, &ids) }
        flat.append(contentsOf: dynamicBoxes)
        ids.append(contentsOf: dynamicIDs)
        for id in ids { home[Int(id)] = Self._inTree }
        install(PackedRTree(boxes: flat, ids: ids))
        _checkInvariants()
    }

    /// Appends the live entries of `t` (those whose home is `tag`) to `flat` and `ids`.
    private func appendLive(_ t: PackedRTree, _ tag: UInt8, _ flat: inout [Float], _ ids: inout [Int32]) {
        t.forEachItemRaw { id, b in
            guard home[id] == tag else { return }
            flat.append(b.0)
            flat.append(b.1)
            flat.append(b.2)
            flat.append(b.3)
            ids.append(Int32(truncatingIfNeeded: id))
        }
    }

    /// Turns the buffer into a run, merges runs while the last is at least half the one before,
    /// and rebuilds the main tree when the runs outgrow it.
    private mutating func flushBuffer() {
        let run = PackedRTree(boxes: dynamicBoxes, ids: dynamicIDs)
        let tag = Self._firstRun + UInt8(runs.count)
        for id in dynamicIDs { home[Int(id)] = tag }
        runs.append(run)
        staleInRun.append(0)
        dynamicIDs.removeAll(keepingCapacity: true)
        dynamicBoxes.removeAll(keepingCapacity: true)
        while runs.count >= 2 {
            let a = runs.count - 2, b = runs.count - 1
            guard 2 * (runs[b].count - staleInRun[b]) >= runs[a].count - staleInRun[a] else { break }
            var flat: [Float] = []
            var ids: [Int32] = []
            appendLive(runs[a], Self._firstRun + UInt8(a), &flat, &ids)
            appendLive(runs[b], Self._firstRun + UInt8(b), &flat, &ids)
            for id in ids { home[Int(id)] = Self._firstRun + UInt8(a) }
            runs.removeLast(2)
            staleInRun.removeLast(2)
            runs.append(PackedRTree(boxes: flat, ids: ids))
            staleInRun.append(0)
        }
        var inRuns = 0
        for (r, run) in runs.enumerated() { inRuns += run.count - staleInRun[r] }
        if inRuns > max(minimumDynamicCapacity, tree.count / 8) { rebuild() }
    }

    /// Rebuilds run `r` from its live entries.
    private mutating func compactRun(_ r: Int) {
        var flat: [Float] = []
        var ids: [Int32] = []
        appendLive(runs[r], Self._firstRun + UInt8(r), &flat, &ids)
        runs[r] = PackedRTree(boxes: flat, ids: ids)
        staleInRun[r] = 0
    }

    /// Empties the index.
    public mutating func removeAll() {
        self = SpatialIndex()
        _checkInvariants()
    }

    /// Calls `visit` with every live id whose box intersects `query`, until it returns false.
    /// Order: main-tree items in tree order, then each run's, then the buffer's. Allocates nothing.
    /// - Complexity: O(log² n + k + 32) for n items and k hits.
    @inlinable
    public func search(_ query: Envelope, _ visit: (Int) -> Bool) {
        var going = true
        home.withUnsafeBufferPointer { h in
            if staleInTree == 0 {
                tree.search(query) { id in
                    going = visit(id)
                    return going
                }
            } else {
                tree.search(query) { id in
                    if h[id] != Self._inTree { return true }
                    going = visit(id)
                    return going
                }
            }
            for r in runs.indices where going {
                let tag = Self._firstRun &+ UInt8(truncatingIfNeeded: r)
                runs[r].search(query) { id in
                    if h[id] != tag { return true }
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
    /// `capacity` of them; in ``search(_:_:)`` order) and returns how many there are in all (an
    /// upper bound when that exceeds `capacity`: tombstones are only dropped from what fits); call
    /// again with a buffer that large. Allocates nothing and calls no closure.
    ///
    /// It changes nothing, but is `mutating` so that the index is passed by reference: called on
    /// an index stored in a class property, a non-mutating method gets a copy of it (every array
    /// retained and released) because the compiler cannot prove the property stays unchanged.
    ///
    /// - Complexity: O(log² n + k + 32) for n items and k hits.
    package mutating func collect(_ query: Envelope, into out: UnsafeMutablePointer<Int32>, capacity: Int) -> Int {
        var found = tree.collect(query, into: out, capacity: capacity)
        if staleInTree > 0 { found = dropStale(out, from: 0, found, capacity, Self._inTree) }
        if !runs.isEmpty {
            for r in runs.indices {
                let start = found
                found += runs[r].collect(query, into: out + min(found, capacity), capacity: max(0, capacity - found))
                found = dropStale(out, from: start, found, capacity, Self._firstRun &+ UInt8(truncatingIfNeeded: r))
            }
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

    /// Drops from `out[start ..< end]` the ids whose home is not `tag` and returns the new end;
    /// when `end` exceeds `capacity` (not everything was written) it returns `end` unchanged.
    private func dropStale(_ out: UnsafeMutablePointer<Int32>, from start: Int, _ end: Int, _ capacity: Int, _ tag: UInt8) -> Int {
        guard end <= capacity else { return end }
        var w = start
        home.withUnsafeBufferPointer { h in
            for r in start..<end where h[Int(out[r])] == tag {
                out[w] = out[r]
                w += 1
            }
        }
        return w
    }

    /// Bytes held by the index's arrays.
    @_spi(MapSketchInternal) public var memoryFootprint: Int {
        var bytes = tree.memoryFootprint + dynamicIDs.capacity * 4 + dynamicBoxes.capacity * 4 + home.capacity
        for run in runs { bytes += run.memoryFootprint }
        return bytes + runs.capacity * MemoryLayout<PackedRTree>.stride + staleInRun.capacity * 8
    }
}
