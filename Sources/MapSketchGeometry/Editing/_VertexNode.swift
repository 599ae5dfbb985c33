/// A node of the chunked vertex tree (a B+tree of fixed-capacity chunks).
///
/// A leaf holds up to ``leafCapacity`` vertices (a chunk) inline, in the node's own allocation
/// right after its header (one malloc per chunk, and one cache miss reaches both the header and
/// the vertices). An internal node holds up to ``branchCapacity`` children and, inline in its
/// own arrays, each child's vertex count and envelope, so locating a vertex and recomputing an
/// envelope after an edit read contiguous arrays instead of following child pointers. Every node
/// knows its vertex count, its envelope and its first vertex (so mid-vertex queries can see the
/// segment that crosses into the next chunk). All leaves sit at the same depth.
///
/// Nodes are shared between copies of a ``ChunkedVertices`` and are only mutated when uniquely
/// referenced (copy-on-write, path copying), which is why ``ChunkedVertices`` is
/// `@unchecked Sendable` (`ManagedBuffer`, and so this class, cannot be `Sendable` itself).
/// The header and the vertices are reached through pointers (`ManagedBuffer`), so accesses are
/// not checked for exclusivity at run time, which class stored properties are (measured: about
/// two thirds of a middle insert's instructions went to those checks). Mutation happens only on
/// uniquely referenced nodes, so no two accesses can overlap.
@usableFromInline
final class _VertexNode: ManagedBuffer<_VertexNodeHeader, Point> {
    /// Most vertices in a leaf (chunk).
    @inlinable static var leafCapacity: Int { 128 }
    /// Vertices a leaf has room for: one more than its capacity, so an insert can overflow
    /// before the leaf splits.
    @inlinable static var leafStorage: Int { leafCapacity + 1 }
    /// Room of a part's first tail chunk: a small part (a ring, a short path) takes about 1 KB,
    /// not a whole chunk; the tail moves to a full-size node once, when it outgrows this.
    static var firstTailRoom: Int { 16 }
    /// Most children of an internal node.
    @inlinable static var branchCapacity: Int { 64 }
    /// A leaf with fewer vertices than this is merged with a neighbour when the two fit in one.
    static var leafMinimum: Int { leafCapacity / 4 }
    /// An internal node with fewer children than this is merged with a neighbour when they fit.
    static var branchMinimum: Int { branchCapacity / 4 }

    /// The envelope of nothing: every query distance to it is infinite.
    @inlinable static var emptyEnvelope: Envelope {
        Envelope(xmin: .infinity, ymin: .infinity, xmax: -.infinity, ymax: -.infinity)
    }

    /// The header (count, envelope, first vertex, and an internal node's child arrays).
    @inlinable @inline(__always)
    var h: UnsafeMutablePointer<_VertexNodeHeader> { withUnsafeMutablePointerToHeader { $0 } }
    /// A leaf's vertices (`count` of them, room for `room`).
    @inlinable @inline(__always)
    var base: UnsafeMutablePointer<Point> { withUnsafeMutablePointerToElements { $0 } }

    /// Whether the node is a leaf (a chunk).
    @inlinable var isLeaf: Bool { h.pointee.isLeaf }
    /// Vertices in this subtree.
    @inlinable var count: Int {
        @inline(__always) get { h.pointee.count }
        @inline(__always) set { h.pointee.count = newValue }
    }
    /// The envelope of the subtree's vertices.
    @inlinable var envelope: Envelope {
        @inline(__always) get { h.pointee.envelope }
        @inline(__always) set { h.pointee.envelope = newValue }
    }
    /// The subtree's first vertex (unspecified while a leaf is empty).
    @inlinable var first: Point {
        @inline(__always) get { h.pointee.first }
        @inline(__always) set { h.pointee.first = newValue }
    }
    /// Leaf: its vertices, in order (valid while the node is alive and not mutated).
    var points: UnsafeMutableBufferPointer<Point> { UnsafeMutableBufferPointer(start: base, count: count) }
    /// Internal: the children, in order. Leaf: empty.
    var children: [_VertexNode] {
        _read { yield h.pointee.children }
        _modify { yield &h.pointee.children }
    }
    /// Internal: `childCounts[i] == children[i].count`.
    var childCounts: [Int] {
        _read { yield h.pointee.childCounts }
        _modify { yield &h.pointee.childCounts }
    }
    /// Internal: `childEnvelopes[i] == children[i].envelope`.
    var childEnvelopes: [Envelope] {
        _read { yield h.pointee.childEnvelopes }
        _modify { yield &h.pointee.childEnvelopes }
    }

    // Points are trivial values: the leaf's vertices need no deinitialisation, and
    // ManagedBuffer destroys the header.

    /// An empty leaf with room for `room` vertices (``leafStorage`` for every leaf in the tree;
    /// less only for a tail).
    static func makeLeaf(room: Int = leafStorage) -> _VertexNode {
        let b = create(minimumCapacity: room) { _ in
            _VertexNodeHeader(
                count: 0, envelope: emptyEnvelope, first: Point(0, 0), children: [], childCounts: [],
                childEnvelopes: [], room: room, isLeaf: true)
        }
        return unsafeDowncast(b, to: _VertexNode.self)
    }

    /// A leaf holding a copy of `points` (at most `room`), with room for `room` vertices.
    static func leaf(copying points: UnsafeBufferPointer<Point>, room: Int = leafStorage) -> _VertexNode {
        precondition(points.count <= room && room <= leafStorage, "chunk overflow")
        let n = makeLeaf(room: room)
        if let src = points.baseAddress, !points.isEmpty {
            n.base.initialize(from: src, count: points.count)
            n.count = points.count
            n.envelope = envelope(of: points)
            n.first = src.pointee
        }
        return n
    }

    /// An internal node over `children` (not empty), its arrays reserved for a full node.
    static func branch(_ children: some Collection<_VertexNode>) -> _VertexNode {
        var cs: [_VertexNode] = []
        var counts: [Int] = []
        var envelopes: [Envelope] = []
        cs.reserveCapacity(branchCapacity + 1)
        counts.reserveCapacity(branchCapacity + 1)
        envelopes.reserveCapacity(branchCapacity + 1)
        var total = 0
        var e = emptyEnvelope
        for c in children {
            cs.append(c)
            counts.append(c.count)
            envelopes.append(c.envelope)
            total += c.count
            e.expand(toInclude: c.envelope)
        }
        let header = _VertexNodeHeader(
            count: total, envelope: e, first: cs.first?.first ?? Point(0, 0), children: cs,
            childCounts: counts, childEnvelopes: envelopes, room: 0, isLeaf: false)
        return unsafeDowncast(create(minimumCapacity: 0) { _ in header }, to: _VertexNode.self)
    }

    /// A shallow copy: arrays are shared copy-on-write, children are shared; a leaf's vertices
    /// are copied, into room for `room` vertices (by default the same room).
    func copy(room: Int? = nil) -> _VertexNode {
        var header = h.pointee
        if let room {
            precondition(header.isLeaf && header.count <= room && room <= _VertexNode.leafStorage, "chunk overflow")
            header.room = room
        }
        let n = unsafeDowncast(
            _VertexNode.create(minimumCapacity: header.room) { _ in header }, to: _VertexNode.self)
        if header.isLeaf { n.base.initialize(from: base, count: header.count) }
        return n
    }

    /// Whether a leaf has no room for one more vertex.
    @inlinable var isFull: Bool { h.pointee.count >= h.pointee.room }
    /// The number of vertices a leaf has room for.
    var room: Int { h.pointee.room }

    /// The number of entries: vertices of a leaf, children of an internal node.
    var size: Int { isLeaf ? count : children.count }

    /// The envelope of `points` by the scalar fold: the reference the invariant checks compare with.
    static func referenceEnvelope(of points: some Sequence<Point>) -> Envelope {
        var e = emptyEnvelope
        for p in points { e.expand(toInclude: p) }
        return e
    }

    /// The envelope of a chunk's vertices, branch-free: each bound is a select (`v < lo ? v : lo`),
    /// which compiles to one `minsd`/`maxsd`, instead of the scalar fold's four unpredictable
    /// branches per vertex. The comparisons are those of `Envelope.expand(toInclude:)`, so the
    /// result is identical to ``referenceEnvelope(of:)`` (NaN coordinates are skipped by both).
    /// - Complexity: O(n).
    static func envelope(of points: UnsafeBufferPointer<Point>) -> Envelope {
        var xmin = Double.infinity
        var ymin = Double.infinity
        var xmax = -Double.infinity
        var ymax = -Double.infinity
        for p in points {
            let x = p.x
            let y = p.y
            xmin = x < xmin ? x : xmin
            xmax = x > xmax ? x : xmax
            ymin = y < ymin ? y : ymin
            ymax = y > ymax ? y : ymax
        }
        return Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax)
    }

    /// The envelope of a chunk's vertices (see the `UnsafeBufferPointer` overload).
    @inline(__always)
    static func envelope(of points: UnsafeMutableBufferPointer<Point>) -> Envelope {
        envelope(of: UnsafeBufferPointer(points))
    }

    /// The union of the children's envelopes, from the inline array, branch-free (selects, as in
    /// a chunk's envelope, with the comparisons of `Envelope.expand(toInclude:)`).
    private func unionOfChildEnvelopes() -> Envelope {
        childEnvelopes.withUnsafeBufferPointer { es in
            var xmin = Double.infinity
            var ymin = Double.infinity
            var xmax = -Double.infinity
            var ymax = -Double.infinity
            for e in es {
                xmin = e.xmin < xmin ? e.xmin : xmin
                xmax = e.xmax > xmax ? e.xmax : xmax
                ymin = e.ymin < ymin ? e.ymin : ymin
                ymax = e.ymax > ymax ? e.ymax : ymax
            }
            return Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax)
        }
    }

    /// Makes child `i` uniquely referenced so it may be mutated.
    @inline(__always)
    func makeChildUnique(_ i: Int) {
        if !isKnownUniquelyReferenced(&children[i]) { children[i] = children[i].copy() }
    }

    /// The child holding vertex `index` and the index within it (`index < count`; `index ==
    /// count` gives the end of the last child).
    @inline(__always)
    func locate(_ index: Int) -> (child: Int, offset: Int) {
        childCounts.withUnsafeBufferPointer { counts in
            var i = index
            var c = 0
            let last = counts.count - 1
            while c < last, i >= counts[c] {
                i -= counts[c]
                c += 1
            }
            return (c, i)
        }
    }

    // MARK: Reads

    func point(at index: Int) -> Point {
        var node = self
        var i = index
        while !node.isLeaf {
            let (c, off) = node.locate(i)
            node = node.children[c]
            i = off
        }
        return node.base[i]
    }

    /// The height of the subtree: 0 for a leaf.
    var height: Int {
        var h = 0
        var n = self
        while !n.isLeaf {
            n = n.children[0]
            h += 1
        }
        return h
    }

    // MARK: Mutations (self must be uniquely referenced)

    /// Appends `p` to this leaf, which has room; returns the new count.
    @inlinable @inline(__always)
    func appendToLeaf(_ p: Point) -> Int {
        let hd = h
        let n = hd.pointee.count
        (base + n).initialize(to: p)
        hd.pointee.count = n &+ 1
        hd.pointee.envelope.expand(toInclude: p)
        if n == 0 { hd.pointee.first = p }
        return n &+ 1
    }

    /// Inserts `p` at `index` (`0 ... count`); returns the new right sibling when the node split.
    func insert(_ p: Point, at index: Int) -> _VertexNode? {
        if isLeaf {
            let n = count
            precondition(index >= 0 && index <= n && n < room, "chunk insert out of range")
            (base + index + 1).moveInitialize(from: base + index, count: n - index)
            (base + index).initialize(to: p)
            count = n + 1
            envelope.expand(toInclude: p)
            if index == 0 { first = p }
            return n + 1 > _VertexNode.leafCapacity ? splitLeaf() : nil
        }
        var (c, off) = locate(index)
        // Past the end goes to the end of the last child.
        if off > childCounts[c] { off = childCounts[c] }
        makeChildUnique(c)
        let child = children[c]
        let split = child.insert(p, at: off)
        count += 1
        envelope.expand(toInclude: p)
        childCounts[c] = child.count
        childEnvelopes[c] = child.envelope
        if let split {
            children.insert(split, at: c + 1)
            childCounts.insert(split.count, at: c + 1)
            childEnvelopes.insert(split.envelope, at: c + 1)
        }
        if c == 0 { first = child.first }
        return children.count > _VertexNode.branchCapacity ? splitBranch() : nil
    }

    /// Appends the leaf `leaf` after every leaf of this (internal) subtree; returns a new right
    /// sibling when this node is full.
    ///
    /// A full node does not split in halves here: the new leaf starts a sibling of its own, so
    /// a part built by appends has full internal nodes, as a bulk load has (half-full nodes
    /// would double their number, their allocations and the tree's cache footprint).
    func appendLeaf(_ leaf: _VertexNode) -> _VertexNode? {
        let last = children.count - 1
        var newChild: _VertexNode? = leaf
        if !children[last].isLeaf {
            makeChildUnique(last)
            let child = children[last]
            newChild = child.appendLeaf(leaf)
            childCounts[last] = child.count
            childEnvelopes[last] = child.envelope
        }
        guard let sibling = newChild else {
            // The leaf went into the last child's subtree.
            count += leaf.count
            envelope.expand(toInclude: leaf.envelope)
            return nil
        }
        if children.count >= _VertexNode.branchCapacity { return .branch(CollectionOfOne(sibling)) }
        children.append(sibling)
        childCounts.append(sibling.count)
        childEnvelopes.append(sibling.envelope)
        count += sibling.count
        envelope.expand(toInclude: sibling.envelope)
        return nil
    }

    /// Replaces the vertex at `index` with `p` and returns the old vertex.
    func replace(at index: Int, with p: Point) -> Point {
        if isLeaf {
            precondition(index >= 0 && index < count, "chunk index out of range")
            let old = base[index]
            base[index] = p
            if index == 0 { first = p }
            if _VertexNode.onBoundary(old, envelope) {
                envelope = _VertexNode.envelope(of: points)
            } else {
                envelope.expand(toInclude: p)
            }
            return old
        }
        let (c, off) = locate(index)
        makeChildUnique(c)
        let child = children[c]
        let before = childEnvelopes[c]
        let old = child.replace(at: off, with: p)
        if c == 0 { first = child.first }
        let after = child.envelope
        if after != before {
            childEnvelopes[c] = after
            if _VertexNode.onBoundary(before, envelope) {
                envelope = unionOfChildEnvelopes()
            } else {
                envelope.expand(toInclude: after)
            }
        }
        return old
    }

    /// Removes and returns the vertex at `index`. The node may be left empty or under-full; the
    /// parent merges or drops it.
    func remove(at index: Int) -> Point {
        if isLeaf {
            let n = count
            precondition(index >= 0 && index < n, "chunk index out of range")
            let old = base[index]
            if _VertexNode.onBoundary(old, envelope) {
                // The envelope may shrink: recompute it in the same pass that closes the gap, so
                // the vertices after `index` are read once (a chunk is 6 KB, often not cached).
                var e = _VertexNode.envelope(of: UnsafeBufferPointer(start: base, count: index))
                var j = index
                while j < n - 1 {
                    let q = base[j + 1]
                    base[j] = q
                    e.xmin = q.x < e.xmin ? q.x : e.xmin
                    e.xmax = q.x > e.xmax ? q.x : e.xmax
                    e.ymin = q.y < e.ymin ? q.y : e.ymin
                    e.ymax = q.y > e.ymax ? q.y : e.ymax
                    j += 1
                }
                envelope = e
            } else {
                (base + index).moveInitialize(from: base + index + 1, count: n - index - 1)
            }
            count = n - 1
            if index == 0, n > 1 { first = base[0] }
            return old
        }
        let (c, off) = locate(index)
        makeChildUnique(c)
        let child = children[c]
        let before = childEnvelopes[c]
        let old = child.remove(at: off)
        count -= 1
        let after = child.envelope
        childCounts[c] = child.count
        childEnvelopes[c] = after
        rebalance(c)
        if after != before, _VertexNode.onBoundary(before, envelope) { envelope = unionOfChildEnvelopes() }
        if index == 0, count > 0 { first = children[0].first }
        return old
    }

    /// After a removal in child `c`: drops it when empty, or merges it with a neighbour when it is
    /// under-full and the two fit in one node.
    private func rebalance(_ c: Int) {
        let child = children[c]
        if child.count == 0 {
            children.remove(at: c)
            childCounts.remove(at: c)
            childEnvelopes.remove(at: c)
            return
        }
        let minimum = child.isLeaf ? _VertexNode.leafMinimum : _VertexNode.branchMinimum
        let capacity = child.isLeaf ? _VertexNode.leafCapacity : _VertexNode.branchCapacity
        guard child.size < minimum, children.count > 1 else { return }
        let (a, b) = c + 1 < children.count ? (c, c + 1) : (c - 1, c)
        guard children[a].size + children[b].size <= capacity else { return }
        makeChildUnique(a)
        let left = children[a]
        let right = children[b]
        if left.isLeaf {
            (left.base + left.count).initialize(from: right.base, count: right.count)
        } else {
            left.children.append(contentsOf: right.children)
            left.childCounts.append(contentsOf: right.childCounts)
            left.childEnvelopes.append(contentsOf: right.childEnvelopes)
        }
        left.count += right.count
        left.envelope.expand(toInclude: right.envelope)
        childCounts[a] = left.count
        childEnvelopes[a] = left.envelope
        children.remove(at: b)
        childCounts.remove(at: b)
        childEnvelopes.remove(at: b)
    }

    private func splitLeaf() -> _VertexNode {
        let half = count / 2
        let right = _VertexNode.leaf(copying: UnsafeBufferPointer(start: base + half, count: count - half))
        count = half
        envelope = _VertexNode.envelope(of: points)
        return right
    }

    private func splitBranch() -> _VertexNode {
        let half = children.count / 2
        let right = _VertexNode.branch(children[half...])
        children.removeSubrange(half...)
        childCounts.removeSubrange(half...)
        childEnvelopes.removeSubrange(half...)
        count = childCounts.reduce(0, +)
        envelope = unionOfChildEnvelopes()
        return right
    }

    @inline(__always)
    static func onBoundary(_ p: Point, _ e: Envelope) -> Bool {
        p.x <= e.xmin || p.x >= e.xmax || p.y <= e.ymin || p.y >= e.ymax
    }

    @inline(__always)
    static func onBoundary(_ inner: Envelope, _ e: Envelope) -> Bool {
        inner.xmin <= e.xmin || inner.xmax >= e.xmax || inner.ymin <= e.ymin || inner.ymax >= e.ymax
    }
}

/// The header of a ``_VertexNode``: what every node knows, plus an internal node's child arrays.
@usableFromInline
struct _VertexNodeHeader {
    /// Vertices in the subtree.
    @usableFromInline var count: Int
    /// The envelope of the subtree's vertices.
    @usableFromInline var envelope: Envelope
    /// The subtree's first vertex.
    @usableFromInline var first: Point
    /// Internal: the children, in order.
    var children: [_VertexNode]
    /// Internal: each child's vertex count.
    var childCounts: [Int]
    /// Internal: each child's envelope.
    var childEnvelopes: [Envelope]
    /// Leaf: how many vertices fit in its storage. Internal: 0.
    @usableFromInline var room: Int
    /// Whether the node is a leaf.
    @usableFromInline let isLeaf: Bool

    @usableFromInline
    init(
        count: Int, envelope: Envelope, first: Point, children: [_VertexNode], childCounts: [Int],
        childEnvelopes: [Envelope], room: Int, isLeaf: Bool
    ) {
        self.count = count
        self.envelope = envelope
        self.first = first
        self.children = children
        self.childCounts = childCounts
        self.childEnvelopes = childEnvelopes
        self.room = room
        self.isLeaf = isLeaf
    }
}
