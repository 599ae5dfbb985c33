/// The header of a ``_VertexNode``: what every node knows, an internal node's child arrays, an
/// owned leaf's z/m side buffer, and a view leaf's run.
@usableFromInline
struct _VertexNodeHeader {
    /// Vertices in the subtree.
    @usableFromInline var count: Int
    /// The envelope of the subtree's vertices.
    @usableFromInline var envelope: Envelope
    /// The subtree's first vertex.
    @usableFromInline var first: Point
    /// Internal: the children, in order.
    var children: [_VertexNode]
    /// Internal: each child's vertex count.
    var childCounts: [Int]
    /// Internal: each child's envelope.
    var childEnvelopes: [Envelope]
    /// Owned leaf: each vertex's z and m (room for ``room``, the first `count` initialised), or
    /// nil while no vertex of the chunk carries either. Freed with the node.
    var zm: UnsafeMutablePointer<_ZM>?
    /// Owned leaf: how many vertices fit in its storage. Internal and view: 0.
    var room: Int
    /// View leaf: the run whose vertices it shows (never written while the view lives). Nil for
    /// owned leaves and internal nodes.
    var run: _VertexRun?
    /// View leaf: the index in ``run`` of its first vertex (a multiple of the chunk size).
    var runStart: Int
    /// Whether the node is a leaf (owned or view).
    let isLeaf: Bool

    init(
        count: Int, envelope: Envelope, first: Point, children: [_VertexNode] = [], childCounts: [Int] = [],
        childEnvelopes: [Envelope] = [], room: Int = 0, run: _VertexRun? = nil, runStart: Int = 0, isLeaf: Bool
    ) {
        self.count = count
        self.envelope = envelope
        self.first = first
        self.children = children
        self.childCounts = childCounts
        self.childEnvelopes = childEnvelopes
        self.zm = nil
        self.room = room
        self.run = run
        self.runStart = runStart
        self.isLeaf = isLeaf
    }
}

/// A vertex's x and y, as chunks and runs store them.
@usableFromInline
struct _ChunkXY {
    @usableFromInline var x: Double
    @usableFromInline var y: Double

    @inlinable @inline(__always)
    init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A vertex's z and m, in a side buffer kept only when some vertex carries them.
@usableFromInline
struct _ZM {
    @usableFromInline var z: Double?
    @usableFromInline var m: Double?

    @inlinable
    init(z: Double? = nil, m: Double? = nil) {
        self.z = z
        self.m = m
    }
}

/// Consecutive vertices read in place as `Point`s: x and y from a chunk or run, z and m from
/// its side buffer when there is one. Valid while the storage is alive and not mutated.
struct LeafPoints: RandomAccessCollection {
    /// The x and y (nil only for an empty view).
    let xy: UnsafePointer<_ChunkXY>?
    /// The z and m of the same vertices, or nil when none carries either.
    let zm: UnsafePointer<_ZM>?
    let count: Int

    /// No vertices.
    static var empty: LeafPoints { LeafPoints(xy: nil, zm: nil, count: 0) }

    var startIndex: Int { 0 }
    var endIndex: Int { count }
    var indices: Range<Int> { 0..<count }

    // Concrete index steps: the generic defaults cost a metadata lookup per step in debug builds.
    @inline(__always) func index(after i: Int) -> Int { i + 1 }
    @inline(__always) func index(before i: Int) -> Int { i - 1 }

    /// Vertex `i` (`0 ..< count`).
    @inline(__always)
    subscript(i: Int) -> Point {
        precondition(i >= 0 && i < count, "chunk index out of range")
        let q = xy.unsafelyUnwrapped[i]
        guard let zm else { return Point(x: q.x, y: q.y) }
        return Point(x: q.x, y: q.y, z: zm[i].z, m: zm[i].m)
    }

    /// The vertices `range` of these (`range` within `0 ..< count`).
    func slice(_ range: Range<Int>) -> LeafPoints {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "chunk range out of range")
        guard let xy, !range.isEmpty else { return .empty }
        return LeafPoints(xy: xy + range.lowerBound, zm: zm.map { $0 + range.lowerBound }, count: range.count)
    }

    /// Whether some vertex carries z or m.
    var hasZM: Bool {
        guard let zm else { return false }
        for i in 0..<count where zm[i].z != nil || zm[i].m != nil { return true }
        return false
    }
}
