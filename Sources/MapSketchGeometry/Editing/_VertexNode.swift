/// A node of the chunked vertex tree (a B+tree of fixed-capacity chunks).
///
/// A leaf holds up to ``leafCapacity`` vertices (a chunk); an internal node holds up to
/// ``branchCapacity`` children and each child's vertex count. Every node knows its vertex count,
/// its envelope and its first vertex (so mid-vertex queries can see the segment that crosses into
/// the next chunk). All leaves sit at the same depth.
///
/// Nodes are shared between copies of a ``ChunkedVertices`` and are only mutated when uniquely
/// referenced (copy-on-write, path copying), which is why the class is `@unchecked Sendable`.
@usableFromInline
final class _VertexNode: @unchecked Sendable {
    /// Most vertices in a leaf (chunk).
    static let leafCapacity = 128
    /// Most children of an internal node.
    static let branchCapacity = 64
    /// A leaf with fewer vertices than this is merged with a neighbour when the two fit in one.
    static let leafMinimum = leafCapacity / 4
    /// An internal node with fewer children than this is merged with a neighbour when they fit.
    static let branchMinimum = branchCapacity / 4

    /// The envelope of nothing: every query distance to it is infinite.
    static let emptyEnvelope = Envelope(xmin: .infinity, ymin: .infinity, xmax: -.infinity, ymax: -.infinity)

    let isLeaf: Bool
    /// The node's mutable state lives behind a pointer: accesses through it are not checked for
    /// exclusivity at run time, which class stored properties are (measured: about two thirds of
    /// a middle insert's instructions went to those checks). Mutation happens only on uniquely
    /// referenced nodes, so no two accesses can overlap.
    private let body: UnsafeMutablePointer<_VertexNodeBody>

    /// Leaf: the vertices, in order. Internal: empty.
    var points: [Point] {
        _read { yield body.pointee.points }
        _modify { yield &body.pointee.points }
    }
    /// Internal: the children, in order. Leaf: empty.
    var children: [_VertexNode] {
        _read { yield body.pointee.children }
        _modify { yield &body.pointee.children }
    }
    /// Internal: `childCounts[i] == children[i].count`.
    var childCounts: [Int] {
        _read { yield body.pointee.childCounts }
        _modify { yield &body.pointee.childCounts }
    }
    /// Vertices in this subtree.
    var count: Int {
        get { body.pointee.count }
        set { body.pointee.count = newValue }
    }
    /// The envelope of the subtree's vertices.
    var envelope: Envelope {
        get { body.pointee.envelope }
        set { body.pointee.envelope = newValue }
    }
    /// The subtree's first vertex.
    var first: Point {
        get { body.pointee.first }
        set { body.pointee.first = newValue }
    }

    deinit {
        body.deinitialize(count: 1)
        body.deallocate()
    }

    /// A leaf holding `points` (not empty).
    init(leaf points: [Point]) {
        isLeaf = true
        body = .allocate(capacity: 1)
        body.initialize(
            to: _VertexNodeBody(
                points: points, children: [], childCounts: [], count: points.count,
                envelope: _VertexNode.envelope(of: points), first: points.first ?? Point(0, 0)))
    }

    /// An internal node over `children` (not empty).
    init(children: [_VertexNode]) {
        isLeaf = false
        var e = _VertexNode.emptyEnvelope
        for c in children { e.expand(toInclude: c.envelope) }
        let counts = children.map(\.count)
        body = .allocate(capacity: 1)
        body.initialize(
            to: _VertexNodeBody(
                points: [], children: children, childCounts: counts, count: counts.reduce(0, +),
                envelope: e, first: children.first?.first ?? Point(0, 0)))
    }

    private init(copying other: _VertexNode) {
        isLeaf = other.isLeaf
        body = .allocate(capacity: 1)
        body.initialize(to: other.body.pointee)
    }

    /// A shallow copy: arrays are shared copy-on-write, children are shared.
    func copy() -> _VertexNode { _VertexNode(copying: self) }

    /// The number of entries: vertices of a leaf, children of an internal node.
    var size: Int { isLeaf ? points.count : children.count }

    static func envelope(of points: some Sequence<Point>) -> Envelope {
        var e = emptyEnvelope
        for p in points { e.expand(toInclude: p) }
        return e
    }

    /// Recomputes count, envelope and first from the entries.
    func recompute() {
        if isLeaf {
            count = points.count
            envelope = _VertexNode.envelope(of: points)
            if let f = points.first { first = f }
        } else {
            var n = 0
            var e = _VertexNode.emptyEnvelope
            for (i, c) in children.enumerated() {
                childCounts[i] = c.count
                n += c.count
                e.expand(toInclude: c.envelope)
            }
            count = n
            envelope = e
            if let f = children.first { first = f.first }
        }
    }

    /// Makes child `i` uniquely referenced so it may be mutated.
    @inline(__always)
    func makeChildUnique(_ i: Int) {
        if !isKnownUniquelyReferenced(&children[i]) { children[i] = children[i].copy() }
    }

    /// The child holding vertex `index` and the index within it (`index < count`).
    @inline(__always)
    func locate(_ index: Int) -> (child: Int, offset: Int) {
        var i = index
        var c = 0
        let last = childCounts.count - 1
        while c < last, i >= childCounts[c] {
            i -= childCounts[c]
            c += 1
        }
        return (c, i)
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
        return node.points[i]
    }

    // MARK: Mutations (self must be uniquely referenced)

    /// Inserts `p` at `index` (`0 ... count`); returns the new right sibling when the node split.
    func insert(_ p: Point, at index: Int) -> _VertexNode? {
        if isLeaf {
            points.insert(p, at: index)
            count += 1
            envelope.expand(toInclude: p)
            if index == 0 { first = p }
            return points.count > _VertexNode.leafCapacity ? splitLeaf() : nil
        }
        var (c, off) = locate(index)
        // Past the end goes to the end of the last child.
        if off > childCounts[c] { off = childCounts[c] }
        makeChildUnique(c)
        let split = children[c].insert(p, at: off)
        count += 1
        envelope.expand(toInclude: p)
        childCounts[c] = children[c].count
        if let split {
            children.insert(split, at: c + 1)
            childCounts.insert(split.count, at: c + 1)
        }
        if c == 0 { first = children[0].first }
        return children.count > _VertexNode.branchCapacity ? splitBranch() : nil
    }

    /// Appends the leaf `leaf` after every leaf of this (internal) subtree; returns a split sibling.
    func appendLeaf(_ leaf: _VertexNode) -> _VertexNode? {
        let last = children.count - 1
        if children[last].isLeaf {
            children.append(leaf)
            childCounts.append(leaf.count)
        } else {
            makeChildUnique(last)
            let split = children[last].appendLeaf(leaf)
            childCounts[last] = children[last].count
            if let split {
                children.append(split)
                childCounts.append(split.count)
            }
        }
        count += leaf.count
        envelope.expand(toInclude: leaf.envelope)
        return children.count > _VertexNode.branchCapacity ? splitBranch() : nil
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

    /// Replaces the vertex at `index` with `p` and returns the old vertex.
    func replace(at index: Int, with p: Point) -> Point {
        if isLeaf {
            let old = points[index]
            points[index] = p
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
        let before = child.envelope
        let old = child.replace(at: off, with: p)
        if c == 0 { first = child.first }
        if child.envelope != before {
            if _VertexNode.onBoundary(before, envelope) {
                var e = _VertexNode.emptyEnvelope
                for ch in children { e.expand(toInclude: ch.envelope) }
                envelope = e
            } else {
                envelope.expand(toInclude: child.envelope)
            }
        }
        return old
    }

    /// Removes and returns the vertex at `index`. The node may be left empty or under-full; the
    /// parent merges or drops it.
    func remove(at index: Int) -> Point {
        if isLeaf {
            let old = points.remove(at: index)
            count -= 1
            if _VertexNode.onBoundary(old, envelope) { envelope = _VertexNode.envelope(of: points) }
            if index == 0, let f = points.first { first = f }
            return old
        }
        let (c, off) = locate(index)
        makeChildUnique(c)
        let child = children[c]
        let before = child.envelope
        let old = child.remove(at: off)
        count -= 1
        childCounts[c] = child.count
        let shrank = child.envelope != before
        rebalance(c)
        if shrank, _VertexNode.onBoundary(before, envelope) {
            var e = _VertexNode.emptyEnvelope
            for ch in children { e.expand(toInclude: ch.envelope) }
            envelope = e
        }
        if let f = children.first { first = f.first }
        return old
    }

    /// After a removal in child `c`: drops it when empty, or merges it with a neighbour when it is
    /// under-full and the two fit in one node.
    private func rebalance(_ c: Int) {
        let child = children[c]
        if child.count == 0 {
            children.remove(at: c)
            childCounts.remove(at: c)
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
            left.points.append(contentsOf: right.points)
        } else {
            left.children.append(contentsOf: right.children)
            left.childCounts.append(contentsOf: right.childCounts)
        }
        left.count += right.count
        left.envelope.expand(toInclude: right.envelope)
        childCounts[a] = left.count
        children.remove(at: b)
        childCounts.remove(at: b)
    }

    private func splitLeaf() -> _VertexNode {
        let half = points.count / 2
        let right = _VertexNode(leaf: Array(points[half...]))
        points.removeSubrange(half...)
        recompute()
        return right
    }

    private func splitBranch() -> _VertexNode {
        let half = children.count / 2
        let right = _VertexNode(children: Array(children[half...]))
        children.removeSubrange(half...)
        childCounts.removeSubrange(half...)
        recompute()
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

/// The mutable state of a ``_VertexNode``.
struct _VertexNodeBody {
    var points: [Point]
    var children: [_VertexNode]
    var childCounts: [Int]
    var count: Int
    var envelope: Envelope
    var first: Point
}
