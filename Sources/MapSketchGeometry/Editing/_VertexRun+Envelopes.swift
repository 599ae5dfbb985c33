// The run's envelope pyramid: the queries that walk it, and its upkeep as chunks fill and change.

extension _VertexRun {
    // MARK: Queries

    /// The envelope of every vertex (the empty envelope when there is none).
    /// - Complexity: O(1).
    var envelope: Envelope {
        let top = envelopes[levelOffset(levelCount - 1)]
        let c = completeChunks
        guard c < chunkCount, levelCount > 1 else { return top }
        return top.union(envelopes[c])
    }

    /// The envelope of vertices `start ..< end`, where `start` begins a chunk and `end` ends one
    /// or is ``count``.
    /// - Complexity: O(log n) for n vertices.
    func envelope(of range: Range<Int>) -> Envelope {
        let lo = range.lowerBound >> Self.chunkShift
        let hi = Self.chunks(range.upperBound)
        var e = _VertexNode.emptyEnvelope
        let complete = Swift.min(hi, completeChunks)
        if lo < complete { unionOfCompleteChunks(level: levelCount - 1, index: 0, lo, complete, &e) }
        if hi > completeChunks, completeChunks < chunkCount { e.expand(toInclude: envelopes[completeChunks]) }
        return e
    }

    fileprivate func unionOfCompleteChunks(level: Int, index j: Int, _ lo: Int, _ hi: Int, _ e: inout Envelope) {
        let shift = 6 * level
        let a = j << shift
        let b = (j + 1) << shift
        guard a < hi, b > lo else { return }
        if a >= lo, b <= hi {
            e.expand(toInclude: envelopes[levelOffset(level) + j])
            return
        }
        let first = Swift.max(lo, a) >> (shift - 6)
        let last = (Swift.min(hi, b) - 1) >> (shift - 6)
        for k in first...last { unionOfCompleteChunks(level: level - 1, index: k, lo, hi, &e) }
    }

    /// Calls `body(c)` for each chunk `c` in `lo ..< hi`, in order, that passes `enter`; the
    /// pyramid entries above are tested first, so a subtree that fails is skipped whole.
    /// `enter(envelope, last)` gets an envelope holding every vertex of the chunks it stands for
    /// and the last of those chunks in `lo ..< hi` (for a caller that widens it by the vertex after).
    /// - Complexity: O(log n + k) for the k chunks entered.
    ///
    /// Depth first with a cursor per level on the stack (no recursion), and inlined into its
    /// caller, so `enter` and `body` are plain code there: a snap query tests a few hundred
    /// entries, and a call through a closure for each was most of its time.
    @inline(__always)
    func forEachChunk(from lo: Int, to hi: Int, enter: (Envelope, Int) -> Bool, _ body: (Int) -> Void) {
        let complete = Swift.min(hi, completeChunks)
        if lo < complete {
            let top = levelCount - 1
            // Entry (level, j) stands for chunks j << 6·level ..< (j + 1) << 6·level; its part in
            // lo ..< complete is tested against its envelope before its children are.
            if enter(envelopes[levelOffset(top)], Swift.min(complete, 1 << (6 * top)) - 1) {
                if top == 0 {
                    body(0)
                } else {
                    withUnsafeTemporaryAllocation(of: (next: Int, last: Int).self, capacity: top + 1) { cursor in
                        /// The children (one level down) of entry (level, j) that hold chunks of lo ..< complete.
                        func children(_ level: Int, _ j: Int) -> (next: Int, last: Int) {
                            let shift = 6 * level
                            let a = Swift.max(lo, j << shift), b = Swift.min(complete, (j + 1) << shift)
                            return (a >> (shift - 6), (b - 1) >> (shift - 6))
                        }
                        var level = top
                        cursor[level] = children(top, 0)
                        while true {
                            let (k, last) = cursor[level]
                            if k > last {
                                if level == top { break }
                                level += 1
                                continue
                            }
                            cursor[level].next = k + 1
                            let child = level - 1
                            let end = Swift.min(complete, (k + 1) << (6 * child))
                            guard enter(envelopes[levelOffset(child) + k], end - 1) else { continue }
                            if child == 0 {
                                body(k)
                            } else {
                                level = child
                                cursor[level] = children(child, k)
                            }
                        }
                    }
                }
            }
        }
        let p = completeChunks
        if p < chunkCount, p >= lo, p < hi, enter(envelopes[p], p) { body(p) }
    }

    /// The levels of index above a chunk in a pyramid over `chunks` chunks: 0 for one chunk.
    static func indexHeight(chunks: Int) -> Int {
        var h = 0
        var n = chunks
        while n > 1 {
            n = (n + 63) >> 6
            h += 1
        }
        return h
    }

    // MARK: Upkeep


    /// The envelope of chunk `c`'s vertices, branch-free (the empty envelope when it has none).
    func chunkEnvelope(_ c: Int) -> Envelope {
        let r = chunkRange(c)
        guard !r.isEmpty else { return _VertexNode.emptyEnvelope }
        return _VertexNode.envelope(of: UnsafeBufferPointer(start: xy + r.lowerBound, count: r.count))
    }

    /// The envelope of chunk `c` by the scalar fold (the invariant checks' reference).
    func chunkReferenceFold(_ c: Int) -> Envelope {
        var e = _VertexNode.emptyEnvelope
        for i in chunkRange(c) { e.expand(toInclude: Point(x: xy[i].x, y: xy[i].y)) }
        return e
    }

    /// Recomputes the levels above chunk `c` from the entries below them (complete chunks only).
    /// - Complexity: O(64 log n).
    func refreshAncestors(ofChunk c: Int) {
        var j = c
        for level in 1..<levelCount {
            j >>= 6
            envelopes[levelOffset(level) + j] = unionBelow(level: level, index: j)
        }
    }

    /// Recomputes every level above level 0 (after a bulk load, a copy or a new layout).
    func rebuildUpperLevels() {
        for level in 1..<Swift.max(1, levelCount) {
            for j in 0..<(levelOffset(level + 1) - levelOffset(level)) {
                envelopes[levelOffset(level) + j] = unionBelow(level: level, index: j)
            }
        }
    }

    /// The union of the entries under entry `j` of `level` (≥ 1): level-0 entries of complete
    /// chunks only.
    func unionBelow(level: Int, index j: Int) -> Envelope {
        let below = levelOffset(level - 1)
        var hi = Swift.min((j + 1) << 6, levelOffset(level) - below)
        if level == 1 { hi = Swift.min(hi, completeChunks) }
        var e = _VertexNode.emptyEnvelope
        var k = j << 6
        while k < hi {
            e.expand(toInclude: envelopes[below + k])
            k += 1
        }
        return e
    }
}
