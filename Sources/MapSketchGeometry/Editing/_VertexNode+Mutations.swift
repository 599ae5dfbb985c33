// Edits of a node (self must be uniquely referenced): appends, inserts with splits, replacements,
// removals with merges. Each keeps the counts, envelopes and first vertices of the path current.

extension _VertexNode {
    /// Whether storing `p` in this leaf needs its z/m side array: `p` carries z or m, or the
    /// chunk keeps them already (then ``appendZM(_:)`` must come before ``appendToLeaf(_:)``).
    @inlinable @inline(__always)
    func appendNeedsZM(_ p: Point) -> Bool { p.z != nil || p.m != nil || h.pointee.hasZM }

    /// Appends `p` to this leaf, which has room; returns the new count. Writes 16 bytes (x, y)
    /// and makes no call, so the caller keeps no extra reference to the node (a call here would
    /// make the compiler retain and release the node on every append); z and m go first, through
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
}
