// Reading a whole part: its chunks in place, its vertices in order (the iterator), equality
// and hashing vertex by vertex, and what the part is stored as (chunks, runs, views, nodes).

extension ChunkedVertices {
    /// Calls `body` with each chunk's vertices, in place, in order (views and the run chunk by
    /// chunk).
    func forEachChunkBuffer(_ body: (LeafPoints) throws -> Void) rethrows {
        func visit(_ n: _VertexNode) throws {
            if let run = n.h.pointee.run {
                let start = n.h.pointee.runStart
                var s = start
                while s < start + n.count {
                    let e = Swift.min(s + _VertexRun.chunkSize, start + n.count)
                    try body(run.points(s..<e))
                    s = e
                }
            } else if n.isLeaf {
                try body(n.points)
            } else {
                for c in n.children { try visit(c) }
            }
        }
        if let r = _root { try visit(r) }
        if let t = _tail {
            for c in 0..<t.chunkCount { try body(t.points(t.chunkRange(c))) }
        }
    }

    /// Calls `body` with each chunk's vertices, in order (each chunk copied into the slice).
    ///
    /// - Throws: what `body` throws.
    /// - Complexity: O(n) for n vertices.
    package func forEachChunk(_ body: (ArraySlice<Point>) throws -> Void) rethrows {
        try forEachChunkBuffer { try body(ArraySlice($0)) }
    }

    /// The vertices as an array.
    ///
    /// - Complexity: O(n) for n vertices.
    package var array: [Point] {
        var out: [Point] = []
        out.reserveCapacity(count)
        forEachChunkBuffer { out.append(contentsOf: $0) }
        return out
    }

    /// The number of chunks (owned chunks, and the 128-vertex chunks of views and the run): for
    /// tests and diagnostics.
    package var chunkCount: Int {
        var n = 0
        forEachChunkBuffer { _ in n += 1 }
        return n
    }

    /// What the part is stored as: runs (the tail and those its views show), views, owned
    /// chunks and internal nodes, and the allocations they stand for (a run: itself, its x/y buffer,
    /// pyramid (with its level table) and any z/m buffer; a node: itself, an internal node's three child arrays, an owned
    /// chunk's z/m buffer). For tests and diagnostics.
    /// - Complexity: O(k) for k tree nodes.
    package var storage: (runs: Int, views: Int, ownedChunks: Int, internalNodes: Int, allocations: Int) {
        var runs: [ObjectIdentifier: Int] = [:]
        var views = 0
        var owned = 0
        var internalNodes = 0
        var allocations = 0
        func add(_ r: _VertexRun) { runs[ObjectIdentifier(r)] = r.zm == nil ? 3 : 4 }
        func visit(_ n: _VertexNode) {
            allocations += 1
            if let r = n.h.pointee.run {
                views += 1
                add(r)
            } else if n.isLeaf {
                owned += 1
                if n.zm != nil { allocations += 1 }
            } else {
                internalNodes += 1
                allocations += 3
                for c in n.children { visit(c) }
            }
        }
        if let r = _root { visit(r) }
        if let t = _tail { add(t) }
        return (runs.count, views, owned, internalNodes, allocations + runs.values.reduce(0, +))
    }

    /// The levels of envelope index above the deepest chunk (tree levels, plus a run's pyramid
    /// levels over its chunks): 0 when the part is empty or a single chunk. For tests and
    /// diagnostics.
    package var height: Int {
        Swift.max(_root?.height ?? 0, _tail.map { _VertexRun.indexHeight(chunks: $0.chunkCount) } ?? 0)
    }
}

extension ChunkedVertices: Sequence {
    /// Iterates the vertices in order.
    ///
    /// - Complexity: O(1) amortised per vertex.
    public struct Iterator: IteratorProtocol {
        var stack: [(node: _VertexNode, next: Int)] = []
        /// What keeps ``current`` alive: the leaf or run being read.
        var holder: AnyObject?
        /// The vertices being read and the position in them.
        var current = LeafPoints.empty
        var position = 0
        var tail: _VertexRun?

        init(_ v: ChunkedVertices) {
            tail = v._tail
            if let r = v._root { stack.append((r, 0)) }
        }

        /// The next vertex, or nil after the last.
        public mutating func next() -> Point? {
            while true {
                if position < current.count {
                    defer { position += 1 }
                    return current[position]
                }
                guard let top = stack.last else {
                    guard let t = tail else { return nil }
                    tail = nil
                    holder = t
                    current = t.points(0..<t.count)
                    position = 0
                    continue
                }
                if top.node.isLeaf {
                    stack.removeLast()
                    holder = top.node
                    current = top.node.points
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
        if lhs._root === rhs._root, lhs._tail === rhs._tail { return true }
        return lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    /// Hashes the count and every vertex, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for p in self { hasher.combine(p) }
    }
}

extension ChunkedVertices: CustomStringConvertible {
    /// The vertex and chunk counts (not the vertices).
    public var description: String { "ChunkedVertices(\(count) vertices, \(chunkCount) chunks)" }
}
