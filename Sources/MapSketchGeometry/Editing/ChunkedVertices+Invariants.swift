// The tree's invariants, checked after every mutation in builds with MAPSKETCH_INTERNAL_CHECKS
// (debug builds, which `swift test` makes); release builds compile the check away.

extension ChunkedVertices {
    #if MAPSKETCH_INTERNAL_CHECKS
    /// Checks the tree's structure after a mutation; traps on a violation.
    ///
    /// Every leaf holds 1…128 vertices and sits at the same depth; every internal node holds
    /// 1…64 children whose recorded counts, envelopes and first vertices match (the counts and
    /// envelopes the parent keeps inline included); the tail is shorter than a chunk and its
    /// envelope and first vertex match. Up to 1,024 vertices the whole tree is checked; above
    /// that only the tail and the root's own entries, so a debug build stays O(log n) per edit on
    /// big sketches (``_checkInvariantsNow()`` checks everything).
    @usableFromInline @inline(never)
    func _checkInvariants() {
        if count <= 1024 {
            _checkInvariantsNow()
        } else {
            checkShallow()
        }
    }
    #else
    /// Compiled away: this build does not check invariants.
    @inlinable @inline(__always)
    func _checkInvariants() {}
    #endif

    /// The tail: shorter than a chunk, its envelope and first vertex current.
    func checkTail() {
        precondition(tailPoints.count < _VertexNode.leafCapacity, "tail holds a full chunk")
        precondition(tailEnvelope == (_tailNode?.referenceLeafEnvelope ?? _VertexNode.emptyEnvelope), "tail envelope is stale")
        if let t = _tailNode {
            precondition(t.count <= t.room && t.room <= _VertexNode.leafStorage, "tail room")
            if t.count > 0 { precondition(t.first == t.leafPoint(0), "tail first vertex is stale") }
            precondition(t.h.pointee.hasZM ? t.zm.count == t.count : t.zm.isEmpty, "tail z/m length")
        }
    }

    /// The tail and the root's own counts, envelope and first vertex: O(chunk + fanout).
    func checkShallow() {
        checkTail()
        guard let r = _root, !r.isLeaf else { return }
        var total = 0
        var e = _VertexNode.emptyEnvelope
        precondition(r.childEnvelopes.count == r.children.count, "child envelopes length")
        for (i, c) in r.children.enumerated() {
            precondition(r.childCounts[i] == c.count, "child count is stale")
            precondition(r.childEnvelopes[i] == c.envelope, "child envelope is stale")
            total += c.count
            e.expand(toInclude: c.envelope)
        }
        precondition(r.count == total, "root count is stale")
        precondition(r.envelope == e, "root envelope is stale")
        precondition(r.first == r.children[0].first, "root first vertex is stale")
    }

    /// The checks of ``_checkInvariants()`` over the whole tree, in any build; traps on a
    /// violation.
    ///
    /// - Complexity: O(n) for n vertices.
    package func _checkInvariantsNow() {
        checkTail()
        if let r = _root {
            precondition(r.count > 0, "empty root")
            if !r.isLeaf { precondition(r.children.count >= 2, "internal root with one child") }
            var leafDepth = -1
            checkNode(r, depth: 0, leafDepth: &leafDepth)
        }
    }

    private func checkNode(_ n: _VertexNode, depth: Int, leafDepth: inout Int) {
        if n.isLeaf {
            precondition(n.count > 0 && n.count <= _VertexNode.leafCapacity, "chunk size")
            precondition(n.room == _VertexNode.leafStorage, "chunk room")
            precondition(n.envelope == n.referenceLeafEnvelope, "chunk envelope is stale")
            precondition(n.first == n.points[0], "chunk first vertex is stale")
            precondition(n.h.pointee.hasZM ? n.zm.count == n.count : n.zm.isEmpty, "chunk z/m length")
            if leafDepth < 0 { leafDepth = depth }
            precondition(leafDepth == depth, "chunks at different depths")
            return
        }
        precondition(!n.children.isEmpty && n.children.count <= _VertexNode.branchCapacity, "branch size")
        precondition(n.childCounts.count == n.children.count, "child counts length")
        precondition(n.childEnvelopes.count == n.children.count, "child envelopes length")
        var total = 0
        var e = _VertexNode.emptyEnvelope
        for (i, c) in n.children.enumerated() {
            precondition(n.childCounts[i] == c.count, "child count is stale")
            precondition(n.childEnvelopes[i] == c.envelope, "child envelope is stale")
            total += c.count
            e.expand(toInclude: c.envelope)
            checkNode(c, depth: depth + 1, leafDepth: &leafDepth)
        }
        precondition(n.count == total, "node count is stale")
        precondition(n.envelope == e, "node envelope is stale")
        precondition(n.first == n.children[0].first, "node first vertex is stale")
    }
}
