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
/// not checked for exclusivity at run time, which class stored properties are (those checks would
/// cost about two thirds of a middle insert's instructions). Mutation happens only on uniquely
/// referenced nodes, so no two accesses can overlap.
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
    var points: LeafPoints { LeafPoints(xy: UnsafePointer(base), zm: h.pointee.zm, count: count) }
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
}
