/// The vertices of one part, stored for editing at scale: a B+tree of fixed-size chunks.
///
/// Chunks (leaves) hold up to 128 vertices; internal nodes hold up to 64 children with their
/// vertex counts and envelopes. Appends go to a tail chunk outside the tree (the "tail"
/// optimisation of persistent vectors), which joins the tree when full. The type is a value:
/// copies share chunks and a mutation copies only the path it touches (copy-on-write), so
/// snapshots for undo cost O(1).
///
/// ```swift
/// var v = ChunkedVertices()
/// for i in 0..<1_000_000 { v.append(Point(Double(i), 0)) }   // O(1) amortised each
/// v.insert(Point(0, 1), at: 500_000)                           // O(log n)
/// v.nearestVertex(to: Point(10, 0), within: 0.5)               // (index: 10, distanceSquared: 0)
/// ```
///
/// Indices are checked with `precondition` here; ``VertexStore`` checks them first and throws
/// ``GeometryError`` instead, which is what editing code should call.
///
/// Source: B+trees (Comer, "The Ubiquitous B-Tree", ACM Computing Surveys 11(2), 1979) with
/// subtree counts as in order-statistic trees, and per-node bounding boxes as in R-trees
/// (Guttman, SIGMOD 1984), here over a linear order instead of a spatial split.
///
/// `@unchecked Sendable`: the nodes are shared between copies but only mutated when uniquely
/// referenced, so a value sent to another task never sees a change made through another copy.
public struct ChunkedVertices: @unchecked Sendable {
    @usableFromInline var _root: _VertexNode?
    /// The leaf being filled by appends: the vertices after the tree's last one (fewer than a
    /// chunk; nil until the first append after a flush). It joins the tree when it holds a full
    /// chunk, node and all, so an append writes straight into its spare room.
    @usableFromInline var _tailNode: _VertexNode?

    /// An empty part.
    @inlinable
    public init() {
        _root = nil
        _tailNode = nil
    }

    /// A part holding `points` in order, bulk-loaded into full chunks.
    /// - Complexity: O(n) for n points.
    public init(_ points: some Sequence<Point>) {
        let all = Array(points)
        let cap = _VertexNode.leafCapacity
        let fullChunks = all.count / cap
        (_root, _tailNode) = all.withUnsafeBufferPointer { buf -> (_VertexNode?, _VertexNode?) in
            var root: _VertexNode?
            if fullChunks > 0 {
                var level: [_VertexNode] = []
                level.reserveCapacity(fullChunks)
                for c in 0..<fullChunks {
                    level.append(.leaf(copying: UnsafeBufferPointer(rebasing: buf[(c * cap)..<((c + 1) * cap)])))
                }
                while level.count > 1 {
                    var next: [_VertexNode] = []
                    var i = 0
                    while i < level.count {
                        let j = Swift.min(i + _VertexNode.branchCapacity, level.count)
                        next.append(.branch(level[i..<j]))
                        i = j
                    }
                    level = next
                }
                root = level.first
            }
            let rest = UnsafeBufferPointer(rebasing: buf[(fullChunks * cap)...])
            let room = Swift.max(rest.count, _VertexNode.firstTailRoom)
            return (root, rest.isEmpty ? nil : .leaf(copying: rest, room: room))
        }
        _checkInvariants()
    }

    @inline(__always) var treeCount: Int { _root?.count ?? 0 }
    @inline(__always) var tailCount: Int { _tailNode?.count ?? 0 }

    /// The tail's vertices (empty when there is no tail); valid while `self` is unchanged.
    var tailPoints: LeafPoints {
        guard let t = _tailNode else { return LeafPoints(xy: nil, zm: [], count: 0) }
        return t.points
    }

    /// The tail's envelope (the empty envelope when there is no tail).
    var tailEnvelope: Envelope { _tailNode?.envelope ?? _VertexNode.emptyEnvelope }

    /// The number of vertices.
    public var count: Int { treeCount + tailCount }
    /// Whether there is no vertex.
    public var isEmpty: Bool { _root == nil && tailCount == 0 }

    /// The envelope of the vertices, or nil when empty.
    /// - Complexity: O(1).
    public var envelope: Envelope? {
        guard !isEmpty else { return nil }
        var e = tailEnvelope
        if let r = _root { e.expand(toInclude: r.envelope) }
        return e
    }

    /// The first vertex.
    ///
    /// - Complexity: O(1).
    public var first: Point? {
        if let r = _root { return r.first }
        return tailPoints.first
    }

    /// The last vertex.
    ///
    /// - Complexity: O(1) with a tail, else O(log n) for n vertices.
    public var last: Point? {
        if let l = tailPoints.last { return l }
        guard let r = _root else { return nil }
        return r.point(at: r.count - 1)
    }

    /// The vertex at `index` (`0 ..< count`).
    /// - Complexity: O(log n) for n vertices.
    public subscript(index: Int) -> Point {
        precondition(index >= 0 && index < count, "vertex index out of range")
        let t = treeCount
        if index >= t { return _tailNode.unsafelyUnwrapped.leafPoint(index - t) }
        return _root.unsafelyUnwrapped.point(at: index)
    }

    // MARK: Mutations

    /// Appends `p`: the fast path writes into the tail chunk's spare room and widens its envelope.
    /// - Complexity: O(1) amortised (O(log n) once per full chunk, when the tail joins the tree).
    ///   One allocation per 128 vertices (the next chunk), none for the other 127.
    @inlinable
    public mutating func append(_ p: Point) {
        if !isKnownUniquelyReferenced(&_tailNode) || _tailNode.unsafelyUnwrapped.isFull { _prepareTail() }
        if _tailNode.unsafelyUnwrapped.appendNeedsZM(p) { _appendTailZM(p) }
        if _tailNode.unsafelyUnwrapped.appendToLeaf(p) >= _VertexNode.leafCapacity { _flushTail() }
        _checkInvariants()
    }

    /// Stores `p`'s z and m in the (unique) tail's side array, before its x and y are appended.
    @usableFromInline
    mutating func _appendTailZM(_ p: Point) {
        _tailNode.unsafelyUnwrapped.appendZM(p)
    }

    /// Inserts `p` so that it becomes vertex `index` (`0 ... count`).
    /// - Complexity: O(log n) for n vertices (a chunk of at most 128 vertices is shifted).
    public mutating func insert(_ p: Point, at index: Int) {
        precondition(index >= 0 && index <= count, "vertex index out of range")
        let t = treeCount
        if index >= t {
            if !isKnownUniquelyReferenced(&_tailNode) || _tailNode.unsafelyUnwrapped.isFull { _prepareTail() }
            _ = _tailNode.unsafelyUnwrapped.insert(p, at: index - t)
            if _tailNode.unsafelyUnwrapped.count >= _VertexNode.leafCapacity { _flushTail() }
        } else {
            makeRootUnique()
            let root = _root.unsafelyUnwrapped
            if let split = root.insert(p, at: index) {
                _root = .branch([root, split])
            }
        }
        _checkInvariants()
    }

    /// Replaces vertex `index` with `p` and returns the old vertex.
    /// - Complexity: O(log n) for n vertices.
    @discardableResult
    public mutating func replace(at index: Int, with p: Point) -> Point {
        precondition(index >= 0 && index < count, "vertex index out of range")
        let t = treeCount
        let old: Point
        if index >= t {
            if !isKnownUniquelyReferenced(&_tailNode) { makeTailUnique() }
            old = _tailNode.unsafelyUnwrapped.replace(at: index - t, with: p)
        } else {
            makeRootUnique()
            old = _root.unsafelyUnwrapped.replace(at: index, with: p)
        }
        _checkInvariants()
        return old
    }

    /// Removes and returns vertex `index`.
    /// - Complexity: O(log n) for n vertices.
    @discardableResult
    public mutating func remove(at index: Int) -> Point {
        precondition(index >= 0 && index < count, "vertex index out of range")
        let t = treeCount
        let old: Point
        if index >= t {
            if !isKnownUniquelyReferenced(&_tailNode) { makeTailUnique() }
            old = _tailNode.unsafelyUnwrapped.remove(at: index - t)
        } else {
            makeRootUnique()
            let root = _root.unsafelyUnwrapped
            old = root.remove(at: index)
            if root.count == 0 {
                _root = nil
            } else if !root.isLeaf, root.children.count == 1 {
                _root = root.children[0]
            }
        }
        _checkInvariants()
        return old
    }

    /// Removes every vertex.
    ///
    /// - Complexity: O(1) (chunks are freed as their last owner goes).
    public mutating func removeAll() {
        self = ChunkedVertices()
    }

    @inline(__always)
    mutating func makeRootUnique() {
        if !isKnownUniquelyReferenced(&_root) { _root = _root?.copy() }
    }

    /// Gives this value a tail of its own: a copy of a shared one.
    mutating func makeTailUnique() {
        _tailNode = _tailNode?.copy()
    }

    /// Gives this value a tail of its own with room for one more vertex: a small new leaf when
    /// the part has no tail yet, else a copy (of a shared tail, same room) or a full-size move (of
    /// a small tail that is full).
    @usableFromInline
    mutating func _prepareTail() {
        guard let t = _tailNode else {
            // After a flush the part is growing: start a full chunk; a new part starts small.
            _tailNode = _VertexNode.makeLeaf(room: _root == nil ? _VertexNode.firstTailRoom : _VertexNode.leafStorage)
            return
        }
        _tailNode = t.copy(room: t.isFull ? _VertexNode.leafStorage : t.room)
    }

    /// Moves the full tail into the tree as its last chunk; the next append starts a new one.
    @usableFromInline
    mutating func _flushTail() {
        let leaf = _tailNode.unsafelyUnwrapped
        _tailNode = nil
        precondition(leaf.room == _VertexNode.leafStorage, "a chunk joins the tree with full room")
        // No local reference to the root may be alive here: it would make the root look shared
        // and every flush would copy the root's path.
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

    // MARK: Bulk reads

    /// Calls `body` with each chunk's vertices, in place, in order.
    func forEachChunkBuffer(_ body: (LeafPoints) throws -> Void) rethrows {
        func visit(_ n: _VertexNode) throws {
            if n.isLeaf {
                try body(n.points)
            } else {
                for c in n.children { try visit(c) }
            }
        }
        if let r = _root { try visit(r) }
        if let t = _tailNode, t.count > 0 { try body(t.points) }
    }

    /// Calls `body` with each chunk's vertices, in order (each chunk copied into the slice).
    ///
    /// - Throws: what `body` throws.
    /// - Complexity: O(n) for n vertices.
    public func forEachChunk(_ body: (ArraySlice<Point>) throws -> Void) rethrows {
        try forEachChunkBuffer { try body(ArraySlice($0)) }
    }

    /// The vertices as an array.
    ///
    /// - Complexity: O(n) for n vertices.
    public var array: [Point] {
        var out: [Point] = []
        out.reserveCapacity(count)
        forEachChunkBuffer { out.append(contentsOf: $0) }
        return out
    }

    /// The number of chunks (tree leaves plus a non-empty tail): for tests and diagnostics.
    package var chunkCount: Int {
        var n = 0
        forEachChunkBuffer { _ in n += 1 }
        return n
    }

    /// The tree's height: 0 when the tree is empty or a single chunk.
    package var height: Int { _root?.height ?? 0 }
}

extension ChunkedVertices: Sequence {
    /// Iterates the vertices in order.
    ///
    /// - Complexity: O(1) amortised per vertex.
    public struct Iterator: IteratorProtocol {
        var stack: [(node: _VertexNode, next: Int)] = []
        /// The chunk being read (kept alive by this reference) and its vertex count.
        var leaf: _VertexNode?
        var leafCount = 0
        var position = 0
        var tail: _VertexNode?

        init(_ v: ChunkedVertices) {
            tail = v._tailNode
            if let r = v._root { stack.append((r, 0)) }
        }

        /// The next vertex, or nil after the last.
        public mutating func next() -> Point? {
            while true {
                if position < leafCount, let l = leaf {
                    defer { position += 1 }
                    return l.leafPoint(position)
                }
                guard let top = stack.last else {
                    guard let t = tail else { return nil }
                    tail = nil
                    leaf = t
                    leafCount = t.count
                    position = 0
                    continue
                }
                if top.node.isLeaf {
                    stack.removeLast()
                    leaf = top.node
                    leafCount = top.node.count
                    position = 0
                } else if top.next < top.node.children.count {
                    stack[stack.count - 1].next += 1
                    stack.append((top.node.children[top.next], 0))
                } else {
                    stack.removeLast()
                }
            }
        }
    }

    /// An iterator over the vertices in order.
    public func makeIterator() -> Iterator { Iterator(self) }
    /// The vertex count (exact).
    public var underestimatedCount: Int { count }
}

extension ChunkedVertices: Hashable {
    /// Vertex-by-vertex equality; chunk boundaries do not matter.
    ///
    /// - Complexity: O(n) for n vertices.
    public static func == (lhs: ChunkedVertices, rhs: ChunkedVertices) -> Bool {
        if lhs._root === rhs._root, lhs._tailNode === rhs._tailNode { return true }
        return lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    /// Hashes the count and every vertex, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for p in self { hasher.combine(p) }
    }
}

extension ChunkedVertices: ExpressibleByArrayLiteral {
    /// A part holding the listed vertices.
    public init(arrayLiteral elements: Point...) { self.init(elements) }
}

extension ChunkedVertices: CustomStringConvertible {
    /// The vertex and chunk counts (not the vertices).
    public var description: String { "ChunkedVertices(\(count) vertices, \(chunkCount) chunks)" }
}
