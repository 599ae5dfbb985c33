/// The header of a ``_VertexNode``: what every node knows, plus an internal node's child arrays.
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
    /// Leaf: each vertex's z and m (`count` of them) when ``hasZM``, else empty.
    @usableFromInline var zm: [_ZM]
    /// Leaf: whether the chunk keeps z and m (set when a vertex with either is first stored; a
    /// flag, so the append path reads no array).
    @usableFromInline var hasZM: Bool
    /// Leaf: how many vertices fit in its storage. Internal: 0.
    @usableFromInline var room: Int
    /// Whether the node is a leaf.
    @usableFromInline let isLeaf: Bool

    @usableFromInline
    init(
        count: Int, envelope: Envelope, first: Point, children: [_VertexNode], childCounts: [Int],
        childEnvelopes: [Envelope], zm: [_ZM], room: Int, isLeaf: Bool
    ) {
        self.count = count
        self.envelope = envelope
        self.first = first
        self.children = children
        self.childCounts = childCounts
        self.childEnvelopes = childEnvelopes
        self.zm = zm
        self.hasZM = !zm.isEmpty
        self.room = room
        self.isLeaf = isLeaf
    }
}

/// A vertex's x and y, as a chunk stores them.
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

/// A vertex's z and m, in a chunk's side array (kept only when some vertex of the chunk has them).
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

/// A leaf's vertices as `Point`s, read in place: x and y from the chunk, z and m from its side
/// array. Valid while the leaf is alive and not mutated.
struct LeafPoints: RandomAccessCollection {
    /// The chunk's x and y (nil only for an empty view).
    let xy: UnsafePointer<_ChunkXY>?
    let zm: [_ZM]
    let count: Int

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
        if zm.isEmpty { return Point(x: q.x, y: q.y) }
        return Point(x: q.x, y: q.y, z: zm[i].z, m: zm[i].m)
    }
}
