// Edits of a node (self must be uniquely referenced and not a view): appends of leaves, inserts
// with splits, replacements, removals with merges. Each keeps the counts, envelopes and first
// vertices of the path current. An internal node edits a view child by splitting it first
// (``prepareChild(_:_:)``), which can add two children; so every edit of an internal node can
// split it and returns the new right sibling when it did.

extension _VertexNode {
    // MARK: Views

    /// View: the pieces an edit of vertex `offset` (`0 ... count`) leaves: a view of the chunks
    /// before the one holding it (nil when none), that chunk copied out into an owned leaf, a
    /// view of the chunks after it (nil when none), and the vertex's offset in the owned leaf.
    func splitView(at offset: Int) -> (left: _VertexNode?, chunk: _VertexNode, right: _VertexNode?, offset: Int) {
        let run = h.pointee.run.unsafelyUnwrapped
        let start = h.pointee.runStart
        let end = start + count
        let v = start + Swift.min(offset, count - 1)
        let chunkStart = v & ~(_VertexNode.leafCapacity - 1)
        let chunkEnd = Swift.min(chunkStart + _VertexNode.leafCapacity, end)
        let left = chunkStart > start ? _VertexNode.view(of: run, start: start, count: chunkStart - start) : nil
        let chunk = _VertexNode.leaf(copying: run.points(chunkStart..<chunkEnd))
        let right = chunkEnd < end ? _VertexNode.view(of: run, start: chunkEnd, count: end - chunkEnd) : nil
        return (left, chunk, right, start + offset - chunkStart)
    }

    /// Internal: makes child `c` ready to be edited at its vertex `offset`: a view is split (the
    /// chunk holding the vertex copied out, views of the rest beside it); a shared node is
    /// copied. Returns where the vertex is now.
    @inline(__always)
    func prepareChild(_ c: Int, _ offset: Int) -> (child: Int, offset: Int) {
        if children[c].isView { return expandView(c, offset) }
        makeChildUnique(c)
        return (c, offset)
    }

    /// Internal: splits view child `c` for an edit of its vertex `offset` (see ``splitView(at:)``).
    private func expandView(_ c: Int, _ offset: Int) -> (child: Int, offset: Int) {
        let (left, chunk, right, off) = children[c].splitView(at: offset)
        children[c] = chunk
        childCounts[c] = chunk.count
        childEnvelopes[c] = chunk.envelope
        if let right { insertChild(right, at: c + 1) }
        guard let left else { return (c, off) }
        insertChild(left, at: c)
        return (c + 1, off)
    }

    /// Internal: makes child `i` uniquely referenced so it may be mutated (not for views).
    @inline(__always)
    func makeChildUnique(_ i: Int) {
        if !isKnownUniquelyReferenced(&children[i]) { children[i] = children[i].copy() }
    }

    /// Internal: inserts `child` at `i` in the three child arrays (the count and envelope of the
    /// node itself are the caller's).
    private func insertChild(_ child: _VertexNode, at i: Int) {
        children.insert(child, at: i)
        childCounts.insert(child.count, at: i)
        childEnvelopes.insert(child.envelope, at: i)
    }

    /// Internal: removes child `i` from the three child arrays.
    private func removeChild(at i: Int) {
        children.remove(at: i)
        childCounts.remove(at: i)
        childEnvelopes.remove(at: i)
    }

    /// The right sibling split off when the node holds more children than it may.
    private var splitIfOverfull: _VertexNode? {
        children.count > _VertexNode.branchCapacity ? splitBranch() : nil
    }

    // MARK: Inserts

    /// Inserts `p` at `index` (`0 ... count`); returns the new right sibling when the node split.
    func insert(_ p: Point, at index: Int) -> _VertexNode? {
        if isLeaf { return insertInLeaf(p, at: index) }
        var (c, off) = locate(index)
        (c, off) = prepareChild(c, off)
        let child = children[c]
        let split = child.insert(p, at: off)
        count += 1
        envelope.expand(toInclude: p)
        childCounts[c] = child.count
        childEnvelopes[c] = child.envelope
        if let split { insertChild(split, at: c + 1) }
        if c == 0 { first = child.first }
        return splitIfOverfull
    }

    /// Owned leaf: inserts `p` at `index`; returns the right half when the chunk overflowed.
    private func insertInLeaf(_ p: Point, at index: Int) -> _VertexNode? {
        let n = count
        precondition(!isView && index >= 0 && index <= n && n < room, "chunk insert out of range")
        (base + index + 1).moveInitialize(from: base + index, count: n - index)
        (base + index).initialize(to: _ChunkXY(x: p.x, y: p.y))
        if needsZM(for: p), let z = zm {
            (z + index + 1).moveInitialize(from: z + index, count: n - index)
            (z + index).initialize(to: _ZM(z: p.z, m: p.m))
        }
        count = n + 1
        envelope.expand(toInclude: p)
        if index == 0 { first = p }
        return n + 1 > _VertexNode.leafCapacity ? splitLeaf() : nil
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
        insertChild(sibling, at: children.count)
        count += sibling.count
        envelope.expand(toInclude: sibling.envelope)
        return nil
    }

    // MARK: Replacements

    /// Replaces the vertex at `index` with `p`; returns the old vertex and the new right sibling
    /// when the node split.
    func replace(at index: Int, with p: Point) -> (old: Point, split: _VertexNode?) {
        if isLeaf { return (replaceInLeaf(at: index, with: p), nil) }
        var (c, off) = locate(index)
        (c, off) = prepareChild(c, off)
        let child = children[c]
        let before = childEnvelopes[c]
        let (old, split) = child.replace(at: off, with: p)
        if c == 0 { first = child.first }
        let after = child.envelope
        if let split {
            childCounts[c] = child.count
            childEnvelopes[c] = after
            insertChild(split, at: c + 1)
            envelope = unionOfChildEnvelopes()
        } else if after != before {
            childEnvelopes[c] = after
            if _VertexNode.onBoundary(before, envelope) {
                envelope = unionOfChildEnvelopes()
            } else {
                envelope.expand(toInclude: after)
            }
        }
        return (old, splitIfOverfull)
    }

    /// Owned leaf: replaces the vertex at `index` with `p` and returns the old vertex.
    private func replaceInLeaf(at index: Int, with p: Point) -> Point {
        precondition(!isView && index >= 0 && index < count, "chunk index out of range")
        let old = leafPoint(index)
        base[index] = _ChunkXY(x: p.x, y: p.y)
        if needsZM(for: p), let z = zm { z[index] = _ZM(z: p.z, m: p.m) }
        if index == 0 { first = p }
        envelope = _VertexNode.envelope(envelope, without: old, of: UnsafeBufferPointer(xy))
        envelope.expand(toInclude: p)
        return old
    }

    // MARK: Removals

    /// Removes the vertex at `index`; returns it and the new right sibling when the node split.
    /// The node may be left empty or under-full; the parent merges or drops it.
    func remove(at index: Int) -> (old: Point, split: _VertexNode?) {
        if isLeaf { return (removeInLeaf(at: index), nil) }
        var (c, off) = locate(index)
        (c, off) = prepareChild(c, off)
        let child = children[c]
        let before = childEnvelopes[c]
        let (old, split) = child.remove(at: off)
        count -= 1
        let after = child.envelope
        childCounts[c] = child.count
        childEnvelopes[c] = after
        if let split { insertChild(split, at: c + 1) }
        rebalance(c)
        if split != nil || (after != before && _VertexNode.onBoundary(before, envelope)) {
            envelope = unionOfChildEnvelopes()
        }
        if index == 0, count > 0 { first = children[0].first }
        return (old, splitIfOverfull)
    }

    /// Owned leaf: removes and returns the vertex at `index`.
    private func removeInLeaf(at index: Int) -> Point {
        let n = count
        precondition(!isView && index >= 0 && index < n, "chunk index out of range")
        let old = leafPoint(index)
        if let z = zm { (z + index).moveInitialize(from: z + index + 1, count: n - index - 1) }
        (base + index).moveInitialize(from: base + index + 1, count: n - index - 1)
        // The envelope may shrink only when the vertex was on it: only the bounds it was on are refolded.
        envelope = _VertexNode.envelope(envelope, without: old, of: UnsafeBufferPointer(start: base, count: n - 1))
        count = n - 1
        if index == 0, n > 1 { first = leafPoint(0) }
        return old
    }

    /// After a removal in child `c`: drops it when empty, or merges it with a neighbour when it is
    /// under-full and the two fit in one node (a view neighbour's vertices are copied in).
    private func rebalance(_ c: Int) {
        let child = children[c]
        if child.count == 0 {
            removeChild(at: c)
            return
        }
        let minimum = child.isLeaf ? _VertexNode.leafMinimum : _VertexNode.branchMinimum
        let capacity = child.isLeaf ? _VertexNode.leafCapacity : _VertexNode.branchCapacity
        guard child.size < minimum, children.count > 1 else { return }
        let (a, b) = c + 1 < children.count ? (c, c + 1) : (c - 1, c)
        guard children[a].size + children[b].size <= capacity else { return }
        if children[a].isView {
            children[a] = .leaf(copying: children[a].points)
        } else {
            makeChildUnique(a)
        }
        let left = children[a]
        let right = children[b]
        if left.isLeaf {
            let add = right.points
            if let src = add.xy { (left.base + left.count).initialize(from: src, count: add.count) }
            if left.zm != nil || add.hasZM {
                left.materialiseZM()
                let dst = left.zm.unsafelyUnwrapped + left.count
                if let szm = add.zm {
                    dst.initialize(from: szm, count: add.count)
                } else {
                    dst.initialize(repeating: _ZM(), count: add.count)
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
        removeChild(at: b)
    }

    // MARK: Splits

    private func splitLeaf() -> _VertexNode {
        let half = count / 2
        let right = _VertexNode.makeLeaf()
        let moved = count - half
        right.base.initialize(from: base + half, count: moved)
        right.count = moved
        right.envelope = _VertexNode.envelope(of: right.xy)
        if let z = zm {
            right.materialiseZM()
            right.zm.unsafelyUnwrapped.update(from: z + half, count: moved)
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
