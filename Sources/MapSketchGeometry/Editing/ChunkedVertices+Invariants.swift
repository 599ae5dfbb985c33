// The tree's and the run's invariants, checked after every mutation in builds with
// MAPSKETCH_INTERNAL_CHECKS (debug builds, which `swift test` makes); release builds compile the
// check away.

extension ChunkedVertices {
    #if MAPSKETCH_INTERNAL_CHECKS
        /// Checks the storage after a mutation; traps on a violation.
        ///
        /// Every owned leaf holds 1…128 vertices, every view whole chunks of its run, and all leaves
        /// sit at the same depth; every internal node holds 1…64 children whose recorded counts,
        /// envelopes and first vertices match (the counts and envelopes the parent keeps inline
        /// included); the run's pyramid matches its vertices. Up to 1,024 vertices everything is
        /// checked; above that only the run's last chunk and top and the root's own entries, so a
        /// debug build stays O(log n) per edit on big sketches (``_checkInvariantsNow()`` checks
        /// everything).
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

    /// The run's last chunk and the root's own counts, envelope and first vertex: O(chunk + fanout).
    func checkShallow() {
        if let t = _tail {
            precondition(t.count <= t.capacity && t.capacity <= t.chunkCapacity * _VertexRun.chunkSize, "run room")
            if t.count > 0 {
                let c = t.chunkCount - 1
                precondition(t.envelopes[c] == t.chunkReferenceFold(c), "run chunk envelope is stale")
            }
        }
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

    /// The checks of ``_checkInvariants()`` over the whole tree and run, in any build; traps on a
    /// violation.
    ///
    /// - Complexity: O(n) for n vertices.
    package func _checkInvariantsNow() {
        var runs: Set<ObjectIdentifier> = []
        if let t = _tail {
            t.checkInvariants()
            runs.insert(ObjectIdentifier(t))
        }
        if let r = _root {
            precondition(r.count > 0, "empty root")
            if !r.isLeaf { precondition(r.children.count >= 2, "internal root with one child") }
            var leafDepth = -1
            checkNode(r, depth: 0, leafDepth: &leafDepth, runs: &runs)
        }
    }

    /// Checks the subtree `n`; each run its views show is checked once (`runs` holds those done).
    private func checkNode(_ n: _VertexNode, depth: Int, leafDepth: inout Int, runs: inout Set<ObjectIdentifier>) {
        if n.isLeaf {
            if let run = n.h.pointee.run {
                let s = n.h.pointee.runStart
                precondition(n.count > 0 && s & (_VertexNode.leafCapacity - 1) == 0, "view start")
                let e = s + n.count
                precondition(e <= run.count && (e & (_VertexNode.leafCapacity - 1) == 0 || e == run.count), "view end")
                precondition(n.room == 0 && n.zm == nil, "view storage")
                if runs.insert(ObjectIdentifier(run)).inserted { run.checkInvariants() }
            } else {
                precondition(n.count > 0 && n.count <= _VertexNode.leafCapacity, "chunk size")
                precondition(n.room == _VertexNode.leafStorage, "chunk room")
            }
            precondition(n.envelope == n.referenceLeafEnvelope, "leaf envelope is stale")
            precondition(n.first == n.points[0], "leaf first vertex is stale")
            if leafDepth < 0 { leafDepth = depth }
            precondition(leafDepth == depth, "leaves at different depths")
            return
        }
        precondition(!n.children.isEmpty && n.children.count <= _VertexNode.branchCapacity, "branch size")
        precondition(n.childCounts.count == n.children.count, "child counts length")
        precondition(n.childEnvelopes.count == n.children.count, "child envelopes length")
        precondition(n.h.pointee.run == nil && n.zm == nil, "branch storage")
        var total = 0
        var e = _VertexNode.emptyEnvelope
        for (i, c) in n.children.enumerated() {
            precondition(n.childCounts[i] == c.count, "child count is stale")
            precondition(n.childEnvelopes[i] == c.envelope, "child envelope is stale")
            total += c.count
            e.expand(toInclude: c.envelope)
            checkNode(c, depth: depth + 1, leafDepth: &leafDepth, runs: &runs)
        }
        precondition(n.count == total, "node count is stale")
        precondition(n.envelope == e, "node envelope is stale")
        precondition(n.first == n.children[0].first, "node first vertex is stale")
    }
}

extension _VertexRun {
    /// Checks the run: room, layout, every pyramid entry against its vertices (level 0) or the
    /// complete chunks below it (higher levels); traps on a violation.
    /// - Complexity: O(n) for n vertices.
    func checkInvariants() {
        precondition(count >= 0 && count <= capacity, "run count")
        precondition(capacity <= chunkCapacity * _VertexRun.chunkSize, "run room")
        var size = chunkCapacity
        var offset = 0
        for level in 0..<levelCount {
            precondition(levelOffset(level) == offset && levelOffset(level + 1) - offset == size, "pyramid layout")
            offset += size
            size = (size + 63) >> 6
        }
        precondition(levelOffset(levelCount - 1) + 1 == levelOffset(levelCount), "pyramid top")
        for c in 0..<chunkCapacity {
            precondition(envelopes[c] == chunkReferenceFold(c), "run chunk \(c) envelope is stale")
        }
        for level in 1..<levelCount {
            for j in 0..<(levelOffset(level + 1) - levelOffset(level)) {
                precondition(
                    envelopes[levelOffset(level) + j] == unionBelow(level: level, index: j), "pyramid entry is stale")
            }
        }
        let reference = _VertexNode.referenceEnvelope(of: points(0..<count))
        precondition(envelope == reference, "run envelope is stale")
    }
}
