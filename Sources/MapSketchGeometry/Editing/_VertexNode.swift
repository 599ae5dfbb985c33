/// A node of the chunked vertex tree (a B+tree of fixed-capacity chunks).
///
/// A leaf holds up to ``leafCapacity`` vertices (a chunk) inline, in the node's own allocation
/// right after its header (one malloc per chunk, and one cache miss reaches both the header and
/// the vertices). Only x and y live there (16 bytes a vertex, a third of a `Point`'s 48): z and m
/// go to a side array in the header that stays empty (no allocation, nothing written) while no
/// vertex of the chunk carries either, which is how most sketches are drawn. An internal node
/// holds up to ``branchCapacity`` children and, inline in its own arrays, each child's vertex
/// count and envelope, so locating a vertex and recomputing an envelope after an edit read
/// contiguous arrays instead of following child pointers. Every node
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
final class _VertexNode: ManagedBuffer<_VertexNodeHeader, _ChunkXY> {
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
    /// A leaf's x and y (`count` of them, room for `room`).
    @inlinable @inline(__always)
    var base: UnsafeMutablePointer<_ChunkXY> { withUnsafeMutablePointerToElements { $0 } }

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
    var points: _LeafPoints { _LeafPoints(xy: UnsafePointer(base), zm: h.pointee.zm, count: count) }
    /// Leaf: its x and y, in order (valid while the node is alive and not mutated).
    var xy: UnsafeMutableBufferPointer<_ChunkXY> { UnsafeMutableBufferPointer(start: base, count: count) }
    /// Leaf: the z and m of each vertex, or empty when no vertex of the chunk carries either.
    var zm: [_ZM] {
        _read { yield h.pointee.zm }
        _modify { yield &h.pointee.zm }
    }

    /// Leaf: vertex `i` (`0 ..< count`), its z and m from the side array when there is one.
    @inline(__always)
    func leafPoint(_ i: Int) -> Point {
        let q = base[i]
        if !h.pointee.hasZM { return Point(x: q.x, y: q.y) }
        let r = h.pointee.zm[i]
        return Point(x: q.x, y: q.y, z: r.z, m: r.m)
    }

    /// Leaf: before storing `p`, gives the chunk its z/m side array (nil for each vertex so far)
    /// when `p` carries z or m; returns whether the chunk keeps z/m (so `p`'s must be stored).
    @inline(__always)
    func needsZM(for p: Point) -> Bool {
        if h.pointee.hasZM { return true }
        guard p.z != nil || p.m != nil else { return false }
        materialiseZM()
        return true
    }

    /// Leaf: fills the empty z/m side array with nil for each vertex, reserving the chunk's room.
    func materialiseZM() {
        guard !h.pointee.hasZM else { return }
        var zs: [_ZM] = []
        zs.reserveCapacity(room)
        zs.append(contentsOf: repeatElement(_ZM(), count: count))
        h.pointee.zm = zs
        h.pointee.hasZM = true
    }
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
                childEnvelopes: [], zm: [], room: room, isLeaf: true)
        }
        return unsafeDowncast(b, to: _VertexNode.self)
    }

    /// A leaf holding a copy of `points` (at most `room`), with room for `room` vertices.
    static func leaf(copying points: UnsafeBufferPointer<Point>, room: Int = leafStorage) -> _VertexNode {
        precondition(points.count <= room && room <= leafStorage, "chunk overflow")
        let n = makeLeaf(room: room)
        guard let src = points.baseAddress, !points.isEmpty else { return n }
        let b = n.base
        var hasZM = false
        for i in 0..<points.count {
            let p = src[i]
            (b + i).initialize(to: _ChunkXY(x: p.x, y: p.y))
            hasZM = hasZM || p.z != nil || p.m != nil
        }
        n.count = points.count
        if hasZM {
            var zs: [_ZM] = []
            zs.reserveCapacity(room)
            for p in points { zs.append(_ZM(z: p.z, m: p.m)) }
            n.zm = zs
            n.h.pointee.hasZM = true
        }
        n.envelope = envelope(of: n.xy)
        n.first = src.pointee
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
            childCounts: counts, childEnvelopes: envelopes, zm: [], room: 0, isLeaf: false)
        return unsafeDowncast(create(minimumCapacity: 0) { _ in header }, to: _VertexNode.self)
    }

    /// A shallow copy: arrays are shared copy-on-write, children are shared; a leaf's vertices
    /// are copied, into room for `room` vertices (by default the same room).
    func copy(room: Int? = nil) -> _VertexNode {
        var header = h.pointee
        if let room {
            precondition(header.isLeaf && header.count <= room && room <= _VertexNode.leafStorage, "chunk overflow")
            header.room = room
            if header.hasZM { header.zm.reserveCapacity(room) }
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

    /// The scalar-fold envelope of a leaf's vertices, read from its x and y (the invariant checks).
    var referenceLeafEnvelope: Envelope {
        var e = _VertexNode.emptyEnvelope
        for q in xy { e.expand(toInclude: Point(x: q.x, y: q.y)) }
        return e
    }

    /// The envelope of a chunk's vertices, branch-free: each bound is a select (`v < lo ? v : lo`),
    /// which compiles to one `minsd`/`maxsd`, instead of the scalar fold's four unpredictable
    /// branches per vertex. The comparisons are those of `Envelope.expand(toInclude:)`, so the
    /// result is identical to ``referenceEnvelope(of:)`` (NaN coordinates are skipped by both).
    /// - Complexity: O(n).
    static func envelope(of points: UnsafeBufferPointer<_ChunkXY>) -> Envelope {
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
    static func envelope(of points: UnsafeMutableBufferPointer<_ChunkXY>) -> Envelope {
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
        return node.leafPoint(i)
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

    /// Whether storing `p` in this leaf needs its z/m side array: `p` carries z or m, or the
    /// chunk keeps them already (then ``appendZM(_:)`` must come before ``appendToLeaf(_:)``).
    @inlinable @inline(__always)
    func appendNeedsZM(_ p: Point) -> Bool { p.z != nil || p.m != nil || h.pointee.hasZM }

    /// Appends `p` to this leaf, which has room; returns the new count. Writes 16 bytes (x, y)
    /// and makes no call, so the caller keeps no extra reference to the node (a call here made
    /// the compiler retain and release the node on every append); z and m go first, through
    /// ``appendZM(_:)``, when ``appendNeedsZM(_:)``.
    @inlinable @inline(__always)
    func appendToLeaf(_ p: Point) -> Int {
        let hd = h
        let n = hd.pointee.count
        (base + n).initialize(to: _ChunkXY(x: p.x, y: p.y))
        hd.pointee.count = n &+ 1
        // Branch-free bounds (one `minsd`/`maxsd` each), with the comparisons of
        // `Envelope.expand(toInclude:)`: a GPS walk makes new extremes unpredictable.
        let e = hd.pointee.envelope
        hd.pointee.envelope = Envelope(
            xmin: p.x < e.xmin ? p.x : e.xmin, ymin: p.y < e.ymin ? p.y : e.ymin,
            xmax: p.x > e.xmax ? p.x : e.xmax, ymax: p.y > e.ymax ? p.y : e.ymax)
        if n == 0 { hd.pointee.first = p }
        return n &+ 1
    }

    /// Appends `p`'s z and m to the side array (materialised first), before the count grows.
    func appendZM(_ p: Point) {
        materialiseZM()
        h.pointee.zm.append(_ZM(z: p.z, m: p.m))
    }

    /// Inserts `p` at `index` (`0 ... count`); returns the new right sibling when the node split.
    func insert(_ p: Point, at index: Int) -> _VertexNode? {
        if isLeaf {
            let n = count
            precondition(index >= 0 && index <= n && n < room, "chunk insert out of range")
            (base + index + 1).moveInitialize(from: base + index, count: n - index)
            (base + index).initialize(to: _ChunkXY(x: p.x, y: p.y))
            if needsZM(for: p) { zm.insert(_ZM(z: p.z, m: p.m), at: index) }
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
            let old = leafPoint(index)
            base[index] = _ChunkXY(x: p.x, y: p.y)
            if needsZM(for: p) { zm[index] = _ZM(z: p.z, m: p.m) }
            if index == 0 { first = p }
            if _VertexNode.onBoundary(old, envelope) {
                envelope = _VertexNode.envelope(of: xy)
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
            let old = leafPoint(index)
            if h.pointee.hasZM { zm.remove(at: index) }
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
            if index == 0, n > 1 { first = leafPoint(0) }
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
            if left.h.pointee.hasZM || right.h.pointee.hasZM {
                left.materialiseZM()
                if !right.h.pointee.hasZM {
                    left.zm.append(contentsOf: repeatElement(_ZM(), count: right.count))
                } else {
                    left.zm.append(contentsOf: right.zm)
                }
            }
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
        let right = _VertexNode.makeLeaf()
        let moved = count - half
        right.base.initialize(from: base + half, count: moved)
        right.count = moved
        right.envelope = _VertexNode.envelope(of: right.xy)
        if h.pointee.hasZM {
            var zs: [_ZM] = []
            zs.reserveCapacity(_VertexNode.leafStorage)
            zs.append(contentsOf: zm[half...])
            right.zm = zs
            right.h.pointee.hasZM = true
            zm.removeSubrange(half...)
        }
        right.first = right.leafPoint(0)
        count = half
        envelope = _VertexNode.envelope(of: xy)
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
    /// Leaf: each vertex's z and m (`count` of them) when ``hasZM``, else empty.
    @usableFromInline var zm: [_ZM]
    /// Leaf: whether the chunk keeps z and m (set when a vertex with either is first stored; a
    /// flag, so the append path reads no array).
    @usableFromInline var hasZM: Bool
    /// Leaf: how many vertices fit in its storage. Internal: 0.
    @usableFromInline var room: Int
    /// Whether the node is a leaf.
    @usableFromInline let isLeaf: Bool

    @usableFromInline
    init(
        count: Int, envelope: Envelope, first: Point, children: [_VertexNode], childCounts: [Int],
        childEnvelopes: [Envelope], zm: [_ZM], room: Int, isLeaf: Bool
    ) {
        self.count = count
        self.envelope = envelope
        self.first = first
        self.children = children
        self.childCounts = childCounts
        self.childEnvelopes = childEnvelopes
        self.zm = zm
        self.hasZM = !zm.isEmpty
        self.room = room
        self.isLeaf = isLeaf
    }
}

/// A vertex's x and y, as a chunk stores them.
@usableFromInline
struct _ChunkXY {
    @usableFromInline var x: Double
    @usableFromInline var y: Double

    @inlinable @inline(__always)
    init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A vertex's z and m, in a chunk's side array (kept only when some vertex of the chunk has them).
@usableFromInline
struct _ZM {
    @usableFromInline var z: Double?
    @usableFromInline var m: Double?

    @inlinable
    init(z: Double? = nil, m: Double? = nil) {
        self.z = z
        self.m = m
    }
}

/// A leaf's vertices as `Point`s, read in place: x and y from the chunk, z and m from its side
/// array. Valid while the leaf is alive and not mutated.
struct _LeafPoints: RandomAccessCollection {
    /// The chunk's x and y (nil only for an empty view).
    let xy: UnsafePointer<_ChunkXY>?
    let zm: [_ZM]
    let count: Int

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    var indices: Range<Int> { 0..<count }

    // Concrete index steps: the generic defaults cost a metadata lookup per step in debug builds.
    @inline(__always) func index(after i: Int) -> Int { i + 1 }
    @inline(__always) func index(before i: Int) -> Int { i - 1 }

    /// Vertex `i` (`0 ..< count`).
    @inline(__always)
    subscript(i: Int) -> Point {
        precondition(i >= 0 && i < count, "chunk index out of range")
        let q = xy.unsafelyUnwrapped[i]
        if zm.isEmpty { return Point(x: q.x, y: q.y) }
        return Point(x: q.x, y: q.y, z: zm[i].z, m: zm[i].m)
    }
}
