/// A node of the chunked vertex tree (a B+tree whose leaves are chunks and views of runs).
///
/// A leaf is one of two kinds:
/// - an *owned* chunk: up to ``leafCapacity`` vertices inline, in the node's own allocation right
///   after its header (one cache miss reaches both). Only x and y live there (16 bytes a vertex);
///   z and m go to a side buffer that exists only while some vertex of the chunk carries either.
///   An owned chunk is edited in place when uniquely referenced.
/// - a *view*: whole chunks of a ``_VertexRun`` (`runStart ..< runStart + count`), read in place
///   and never written. An edit copies the chunk it touches out into an owned chunk and leaves
///   views of the chunks before and after it (see ``splitView(at:)``), so a part built by appends
///   or loaded in bulk costs one allocation per run, not one per chunk.
///
/// An internal node holds up to ``branchCapacity`` children and, inline in its own arrays, each
/// child's vertex count and envelope, so locating a vertex and recomputing an envelope after an
/// edit read contiguous arrays instead of following child pointers. Every node knows its vertex
/// count, its envelope and its first vertex (so mid-vertex queries can see the segment that
/// crosses into the next leaf). All leaves sit at the same depth.
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
    /// Most vertices in an owned leaf (chunk); also the chunk size of runs.
    @inlinable static var leafCapacity: Int { 128 }
    /// Vertices an owned leaf has room for: one more than its capacity, so an insert can overflow
    /// before the leaf splits.
    static var leafStorage: Int { leafCapacity + 1 }
    /// Most children of an internal node.
    static var branchCapacity: Int { 64 }
    /// An owned leaf with fewer vertices than this is merged with a neighbour when the two fit in one.
    static var leafMinimum: Int { leafCapacity / 4 }
    /// An internal node with fewer children than this is merged with a neighbour when they fit.
    static var branchMinimum: Int { branchCapacity / 4 }

    /// The envelope of nothing: every query distance to it is infinite.
    @inlinable static var emptyEnvelope: Envelope {
        Envelope(xmin: .infinity, ymin: .infinity, xmax: -.infinity, ymax: -.infinity)
    }

    /// The header (count, envelope, first vertex, an internal node's child arrays, a view's run).
    @inline(__always)
    var h: UnsafeMutablePointer<_VertexNodeHeader> { withUnsafeMutablePointerToHeader { $0 } }
    /// An owned leaf's x and y (`count` of them, room for `room`).
    @inline(__always)
    var base: UnsafeMutablePointer<_ChunkXY> { withUnsafeMutablePointerToElements { $0 } }

    deinit {
        h.pointee.zm?.deallocate()
    }

    /// Whether the node is a leaf (owned or view).
    var isLeaf: Bool { h.pointee.isLeaf }
    /// Whether the node is a view of a run.
    var isView: Bool { h.pointee.run != nil }
    /// Vertices in this subtree.
    var count: Int {
        @inline(__always) get { h.pointee.count }
        @inline(__always) set { h.pointee.count = newValue }
    }
    /// The envelope of the subtree's vertices.
    var envelope: Envelope {
        @inline(__always) get { h.pointee.envelope }
        @inline(__always) set { h.pointee.envelope = newValue }
    }
    /// The subtree's first vertex (unspecified while a leaf is empty).
    var first: Point {
        @inline(__always) get { h.pointee.first }
        @inline(__always) set { h.pointee.first = newValue }
    }
    /// Leaf: its vertices, in order (valid while the node is alive and not mutated).
    var points: LeafPoints {
        if let r = h.pointee.run { return r.points(h.pointee.runStart..<(h.pointee.runStart + count)) }
        return LeafPoints(xy: UnsafePointer(base), zm: h.pointee.zm.map { UnsafePointer($0) }, count: count)
    }
    /// Owned leaf: its x and y, in order (valid while the node is alive and not mutated).
    var xy: UnsafeMutableBufferPointer<_ChunkXY> { UnsafeMutableBufferPointer(start: base, count: count) }
    /// Owned leaf: the z and m of each vertex, or nil when no vertex of the chunk carries either.
    var zm: UnsafeMutablePointer<_ZM>? {
        @inline(__always) get { h.pointee.zm }
        @inline(__always) set { h.pointee.zm = newValue }
    }

    /// Leaf: vertex `i` (`0 ..< count`).
    @inline(__always)
    func leafPoint(_ i: Int) -> Point {
        if let r = h.pointee.run { return r.point(at: h.pointee.runStart + i) }
        let q = base[i]
        guard let zm = h.pointee.zm else { return Point(x: q.x, y: q.y) }
        return Point(x: q.x, y: q.y, z: zm[i].z, m: zm[i].m)
    }

    /// Owned leaf: before storing `p`, gives the chunk its z/m side buffer (nil for each vertex so
    /// far) when `p` carries z or m; returns whether the chunk keeps z/m (so `p`'s must be stored).
    @inline(__always)
    func needsZM(for p: Point) -> Bool {
        if h.pointee.zm != nil { return true }
        guard p.z != nil || p.m != nil else { return false }
        materialiseZM()
        return true
    }

    /// Owned leaf: allocates the z/m side buffer (room for the chunk), nil for each vertex.
    func materialiseZM() {
        guard h.pointee.zm == nil else { return }
        let zs = UnsafeMutablePointer<_ZM>.allocate(capacity: room)
        zs.initialize(repeating: _ZM(), count: count)
        h.pointee.zm = zs
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
    // ManagedBuffer destroys the header (the z/m buffer is freed in `deinit`).

    /// An empty owned leaf with room for `room` vertices.
    static func makeLeaf(room: Int = leafStorage) -> _VertexNode {
        let b = create(minimumCapacity: room) { _ in
            _VertexNodeHeader(count: 0, envelope: emptyEnvelope, first: Point(0, 0), room: room, isLeaf: true)
        }
        return unsafeDowncast(b, to: _VertexNode.self)
    }

    /// An owned leaf holding a copy of `points` (at most ``leafCapacity``), with room for a full
    /// chunk and one more.
    static func leaf(copying points: LeafPoints) -> _VertexNode {
        precondition(points.count <= leafCapacity, "chunk overflow")
        let n = makeLeaf()
        guard let src = points.xy, points.count > 0 else { return n }
        n.base.initialize(from: src, count: points.count)
        n.count = points.count
        if points.hasZM, let szm = points.zm {
            let zs = UnsafeMutablePointer<_ZM>.allocate(capacity: n.room)
            zs.initialize(from: szm, count: points.count)
            n.zm = zs
        }
        n.envelope = envelope(of: n.xy)
        n.first = points[0]
        return n
    }

    /// A view of vertices `start ..< start + count` of `run` (`start` begins a chunk; the end
    /// ends one or is the run's last vertex).
    static func view(of run: _VertexRun, start: Int, count: Int) -> _VertexNode {
        precondition(count > 0 && start & (leafCapacity - 1) == 0 && start + count <= run.count, "view out of range")
        let header = _VertexNodeHeader(
            count: count, envelope: run.envelope(of: start..<(start + count)), first: run.point(at: start),
            run: run, runStart: start, isLeaf: true)
        return unsafeDowncast(create(minimumCapacity: 0) { _ in header }, to: _VertexNode.self)
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
            childCounts: counts, childEnvelopes: envelopes, isLeaf: false)
        return unsafeDowncast(create(minimumCapacity: 0) { _ in header }, to: _VertexNode.self)
    }

    /// A shallow copy of an owned leaf or an internal node: arrays are shared copy-on-write,
    /// children are shared; a leaf's vertices (and z/m) are copied.
    func copy() -> _VertexNode {
        precondition(!isView, "a view is never copied: it is split")
        var header = h.pointee
        header.zm = nil
        let n = unsafeDowncast(
            _VertexNode.create(minimumCapacity: header.room) { _ in header }, to: _VertexNode.self)
        if header.isLeaf {
            n.base.initialize(from: base, count: header.count)
            if let szm = zm {
                let zs = UnsafeMutablePointer<_ZM>.allocate(capacity: header.room)
                zs.initialize(from: szm, count: header.count)
                n.zm = zs
            }
        }
        return n
    }

    /// Whether an owned leaf has no room for one more vertex.
    var isFull: Bool { h.pointee.count >= h.pointee.room }
    /// The number of vertices an owned leaf has room for.
    var room: Int { h.pointee.room }

    /// The number of entries: vertices of a leaf, children of an internal node.
    var size: Int { isLeaf ? count : children.count }

    /// The child holding vertex `index` and the index within it (`index < count`; `index ==
    /// count` gives the end of the last child).
    ///
    /// The counts are summed four at a time while the whole block lies before the vertex (one
    /// compare and branch per four children instead of per child), then the block is walked.
    @inline(__always)
    func locate(_ index: Int) -> (child: Int, offset: Int) {
        childCounts.withUnsafeBufferPointer { counts in
            var i = index
            var c = 0
            let last = counts.count - 1
            while c + 4 <= last {
                let block = counts[c] &+ counts[c + 1] &+ counts[c + 2] &+ counts[c + 3]
                if i < block { break }
                i -= block
                c += 4
            }
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

    /// The levels of index above the deepest chunk of the subtree: its depth, plus, for a view,
    /// the levels of its run's pyramid over the view's chunks. 0 for a single chunk.
    /// - Complexity: O(k) for k nodes.
    var height: Int {
        if isView { return _VertexRun.indexHeight(chunks: _VertexRun.chunks(count)) }
        if isLeaf { return 0 }
        var most = 0
        for c in children { most = Swift.max(most, c.height) }
        return most + 1
    }
}
