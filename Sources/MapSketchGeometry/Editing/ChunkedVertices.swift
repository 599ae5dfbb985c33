/// The vertices of one part, stored for editing at scale: a run that appends grow, and a B+tree
/// of fixed-size chunks that edits in the middle build.
///
/// A part loaded in bulk, or built by appends, is one *run*: its vertices one after another in a
/// single buffer that grows by doubling (n appends make O(log n) allocations), read as 128-vertex
/// chunks with an envelope pyramid over them for the proximity queries. The first insert or
/// removal in the middle moves the run into the tree as a *view* and copies only the chunk it
/// touches out into an owned chunk, between views of the chunks before and after it; appends
/// then start a new run after the tree. The tree's leaves are owned chunks of up to 128 vertices
/// and views; its internal nodes hold up to 64 children with their vertex counts and envelopes.
///
/// The type is a value: copies share runs and chunks, and a mutation copies only the path it
/// touches (copy-on-write), so snapshots for undo cost O(1). A run is never written once a
/// second copy or a view refers to it.
///
/// ```swift
/// var v = ChunkedVertices()
/// for i in 0..<1_000_000 { v.append(Point(Double(i), 0)) }   // O(1) amortised each
/// v.insert(Point(0, 1), at: 500_000)                           // O(log n)
/// v.nearestVertex(to: Point(10, 0), within: 0.5)               // (index: 10, distanceSquared: 0)
/// ```
///
/// Memory: 16 bytes a vertex for x and y, 32 more for z and m once some vertex of the run or
/// chunk carries either, and about 0.4 bytes a vertex of envelopes. A run stays allocated while
/// a view of any of its chunks does, so a part edited in the middle keeps the run it was loaded
/// as plus a copy of each chunk edited since (at most twice its vertices).
///
/// Indices are checked with `precondition` here; ``VertexStore`` checks them first and throws
/// ``GeometryError`` instead, which is what editing code should call.
///
/// Source: B+trees (Comer, "The Ubiquitous B-Tree", ACM Computing Surveys 11(2), 1979) with
/// subtree counts as in order-statistic trees, and per-node bounding boxes as in R-trees
/// (Guttman, SIGMOD 1984), here over a linear order instead of a spatial split; the run is the
/// "tail" of persistent vectors (Bagwell & Rompf, RRB-Trees, EPFL 2011) grown geometrically.
///
/// `@unchecked Sendable`: runs and nodes are shared between copies but only mutated when
/// uniquely referenced, so a value sent to another task never sees a change made through
/// another copy.
public struct ChunkedVertices: @unchecked Sendable {
    @usableFromInline var _root: _VertexNode?
    /// The run being appended to: the vertices after the tree's last one (nil until the first
    /// append, and after the run moved into the tree).
    @usableFromInline var _tail: _VertexRun?

    /// An empty part.
    @inlinable
    public init() {
        _root = nil
        _tail = nil
    }

    /// A part holding `points` in order: one run, with room for exactly them.
    /// - Complexity: O(n) for n points; two allocations (three with z or m).
    @_spi(MapSketchInternal) public init(_ points: some Sequence<Point>) {
        let all = Array(points)
        _root = nil
        _tail = all.isEmpty ? nil : all.withUnsafeBufferPointer { _VertexRun(copying: $0) }
        _checkInvariants()
    }

    @inline(__always) var treeCount: Int { _root?.count ?? 0 }
    @inline(__always) var tailCount: Int { _tail?.count ?? 0 }

    /// The number of vertices.
    public var count: Int { treeCount + tailCount }
    /// Whether there is no vertex.
    public var isEmpty: Bool { _root == nil && tailCount == 0 }

    /// The envelope of the vertices, or nil when empty.
    /// - Complexity: O(1).
    package var envelope: Envelope? {
        guard !isEmpty else { return nil }
        var e = _tail?.envelope ?? _VertexNode.emptyEnvelope
        if let r = _root { e.expand(toInclude: r.envelope) }
        return e
    }

    /// The first vertex.
    ///
    /// - Complexity: O(1).
    public var first: Point? {
        if let r = _root { return r.first }
        guard let t = _tail, t.count > 0 else { return nil }
        return t.point(at: 0)
    }

    /// The last vertex.
    ///
    /// - Complexity: O(1) with vertices in the run, else O(log n) for n vertices.
    public var last: Point? {
        if let t = _tail, t.count > 0 { return t.point(at: t.count - 1) }
        guard let r = _root else { return nil }
        return r.point(at: r.count - 1)
    }

    /// The vertex at `index` (`0 ..< count`).
    /// - Complexity: O(log n) for n vertices; O(1) in the run.
    public subscript(index: Int) -> Point {
        precondition(index >= 0 && index < count, "vertex index out of range")
        let t = treeCount
        if index >= t { return _tail.unsafelyUnwrapped.point(at: index - t) }
        return _root.unsafelyUnwrapped.point(at: index)
    }

    // MARK: Mutations

    /// Appends `p`: the fast path writes its x and y into the run's spare room and widens the
    /// envelope of the run's last chunk.
    /// - Complexity: O(1) amortised. The run doubles when full, so n appends from empty make
    ///   O(log n) allocations (about two per doubling, three with z or m): 0 per vertex in the
    ///   limit.
    @inlinable
    @_spi(MapSketchInternal) public mutating func append(_ p: Point) {
        if isKnownUniquelyReferenced(&_tail), _tail.unsafelyUnwrapped.canAppendXY(p) {
            _tail.unsafelyUnwrapped.appendXY(p)
        } else {
            _appendSlow(p)
        }
        _checkInvariants()
    }

    /// Appends `p` when the fast path cannot: no run yet, a shared or full run, or z/m.
    @usableFromInline @inline(never)
    mutating func _appendSlow(_ p: Point) {
        if _tail == nil {
            _tail = _VertexRun(capacity: _VertexRun.initialCapacity)
        } else if !ownTail() {
            sealTail()
            _tail = _VertexRun(capacity: _VertexRun.initialCapacity)
        }
        _tail.unsafelyUnwrapped.append(p)
    }

    /// Inserts `p` so that it becomes vertex `index` (`0 ... count`).
    /// - Complexity: O(log n) for n vertices (a chunk of at most 128 vertices is shifted).
    @_spi(MapSketchInternal) public mutating func insert(_ p: Point, at index: Int) {
        let t = treeCount
        let n = t + tailCount
        precondition(index >= 0 && index <= n, "vertex index out of range")
        if index == n { return append(p) }
        if index >= t {
            if tailCount < _VertexRun.chunkSize, ownTail() {
                _tail.unsafelyUnwrapped.insertInFirstChunk(p, at: index - t)
                return _checkInvariants()
            }
            sealTail()
        }
        let wrapped = prepareRoot()
        let root = _root.unsafelyUnwrapped
        if let split = root.insert(p, at: index) { _root = .branch([root, split]) }
        // An insert only adds vertices: the root can be left with one child only when it was
        // put over a view that held a single chunk.
        if wrapped { normaliseRoot() }
        _checkInvariants()
    }

    /// Replaces vertex `index` with `p` and returns the old vertex.
    /// - Complexity: O(log n) for n vertices.
    @discardableResult
    package mutating func replace(at index: Int, with p: Point) -> Point {
        precondition(index >= 0 && index < count, "vertex index out of range")
        let t = treeCount
        if index >= t {
            if ownTail() {
                let old = _tail.unsafelyUnwrapped.replace(at: index - t, with: p)
                _checkInvariants()
                return old
            }
            sealTail()
        }
        let wrapped = prepareRoot()
        let root = _root.unsafelyUnwrapped
        let (old, split) = root.replace(at: index, with: p)
        if let split { _root = .branch([root, split]) }
        if wrapped { normaliseRoot() }
        _checkInvariants()
        return old
    }

    /// Removes and returns vertex `index`.
    /// - Complexity: O(log n) for n vertices.
    @discardableResult
    @_spi(MapSketchInternal) public mutating func remove(at index: Int) -> Point {
        precondition(index >= 0 && index < count, "vertex index out of range")
        let t = treeCount
        if index >= t {
            let k = index - t
            let n = tailCount
            if k == n - 1 || n <= _VertexRun.chunkSize, ownTail() {
                let run = _tail.unsafelyUnwrapped
                let old = k == n - 1 ? run.removeLast() : run.removeInFirstChunk(at: k)
                _checkInvariants()
                return old
            }
            sealTail()
        }
        _ = prepareRoot()
        let root = _root.unsafelyUnwrapped
        let (old, split) = root.remove(at: index)
        if let split { _root = .branch([root, split]) }
        normaliseRoot()
        _checkInvariants()
        return old
    }

    /// Removes every vertex.
    ///
    /// - Complexity: O(1) (chunks and runs are freed as their last owner goes).
    package mutating func removeAll() {
        self = ChunkedVertices()
    }

    /// Makes the run this value's own: true when it is, after copying a shared run of at most
    /// two chunks; false (the run left shared) for a longer shared run, which the caller seals.
    mutating func ownTail() -> Bool {
        if isKnownUniquelyReferenced(&_tail) { return true }
        guard let t = _tail, t.count <= 2 * _VertexRun.chunkSize else { return false }
        _tail = _VertexRun(copying: t, capacity: Swift.max(_VertexRun.initialCapacity, 2 * t.count))
        return true
    }

    /// Moves the run into the tree as a view of all its vertices (its spare room given back when
    /// this value is its only owner); the run is never written again and the next append starts
    /// a new one.
    /// - Complexity: O(log n).
    mutating func sealTail() {
        if isKnownUniquelyReferenced(&_tail) { _tail.unsafelyUnwrapped.shrinkToFit() }
        guard let run = _tail else { return }
        _tail = nil
        guard run.count > 0 else { return }
        let leaf = _VertexNode.view(of: run, start: 0, count: run.count)
        // No local reference to the root may be alive here: it would make the root look shared
        // and copy the root's path.
        guard _root != nil else {
            _root = leaf
            return
        }
        if _root.unsafelyUnwrapped.isLeaf {
            _root = .branch([_root.unsafelyUnwrapped, leaf])
            return
        }
        makeRootUnique()
        let r = _root.unsafelyUnwrapped
        if let split = r.appendLeaf(leaf) {
            _root = .branch([r, split])
        }
    }

    /// Makes the root ready for an edit: a copy when shared; a view root is put under a new
    /// internal node, which splits it like any view child. Returns whether it was a view.
    @inline(__always)
    mutating func prepareRoot() -> Bool {
        if _root.unsafelyUnwrapped.isView {
            _root = .branch(CollectionOfOne(_root.unsafelyUnwrapped))
            return true
        }
        makeRootUnique()
        return false
    }

    @inline(__always)
    mutating func makeRootUnique() {
        if !isKnownUniquelyReferenced(&_root) { _root = _root?.copy() }
    }

    /// After an edit: an internal root with one child gives way to the child; an empty root goes.
    @inline(__always)
    mutating func normaliseRoot() {
        guard let root = _root else { return }
        if root.count == 0 {
            _root = nil
        } else if !root.isLeaf, root.h.pointee.children.count == 1 {
            collapseRoot()
        }
    }

    /// Replaces a chain of internal roots with one child each by the first node with more.
    mutating func collapseRoot() {
        while let r = _root, !r.isLeaf, r.children.count == 1 { _root = r.children[0] }
    }
}

extension ChunkedVertices: ExpressibleByArrayLiteral {
    /// A part holding the listed vertices.
    public init(arrayLiteral elements: Point...) { self.init(elements) }
}
