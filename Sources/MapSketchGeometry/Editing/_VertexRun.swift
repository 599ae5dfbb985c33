#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A run: vertices laid out one after another in a single buffer that grows by doubling, read
/// as 128-vertex chunks, with an envelope pyramid over the chunks.
///
/// A part's appends go to its run (the part's tail, after its tree), and a part loaded in bulk is
/// one run. Growing reallocates the buffers (`realloc`, which moves big blocks by remapping pages
/// instead of copying them), so n appends make O(log n) allocations — none for the other
/// vertices. Only x and y live in the main buffer (16 bytes a vertex); z and m go to a side
/// buffer that exists only once some vertex carries either.
///
/// The pyramid: level 0 holds each chunk's envelope (exact, the last partial chunk included);
/// each higher level holds, per group of 64 entries below, the union of the *complete* chunks'
/// envelopes, up to a single entry. A completed chunk is folded into its ancestors once, so an
/// append only widens its own chunk's envelope; queries prune by the pyramid and visit the last
/// partial chunk on its own.
///
/// A run is written only through a uniquely referenced reference: by the one part that holds
/// it as its tail, in place. Once a view (a leaf of a part's tree, ``_VertexNode``) or a second
/// copy of the part refers to it, it is never written again; edits copy its chunks out.
@usableFromInline
final class _VertexRun {
    /// log2 of the chunk size (128 vertices).
    @inlinable static var chunkShift: Int { 7 }
    /// Vertices in a chunk.
    @inlinable static var chunkSize: Int { 1 << chunkShift }
    /// A new run's room: a small part (a ring, a short path) takes 256 bytes.
    static var initialCapacity: Int { 16 }

    /// x and y of vertex `i` at `xy[i]` (`count` initialised, room for `capacity`).
    @usableFromInline @exclusivity(unchecked) var xy: UnsafeMutablePointer<_ChunkXY>
    /// Vertices stored.
    @usableFromInline @exclusivity(unchecked) var count: Int
    /// Vertices the buffers have room for.
    @usableFromInline @exclusivity(unchecked) var capacity: Int
    /// The pyramid, level after level (level 0 first: one envelope per chunk of room). Its
    /// allocation starts with the level table, ``tableSlots`` envelopes before this pointer.
    @usableFromInline @exclusivity(unchecked) var envelopes: UnsafeMutablePointer<Envelope>
    /// z and m of vertex `i` at `zm[i]`, or nil while no vertex carries either.
    @usableFromInline @exclusivity(unchecked) var zm: UnsafeMutablePointer<_ZM>?
    /// The number of pyramid levels (1 when the run has room for one chunk).
    @exclusivity(unchecked) var levelCount: Int

    /// An empty run with room for `capacity` vertices.
    init(capacity: Int) {
        let room = Swift.max(1, capacity)
        self.capacity = room
        self.count = 0
        self.xy = Self.allocate(_ChunkXY.self, room)
        self.zm = nil
        (self.envelopes, self.levelCount) = Self.pyramid(chunks: Self.chunks(room), reallocating: nil)
        envelopes.initialize(repeating: _VertexNode.emptyEnvelope, count: levelOffset(levelCount))
    }

    /// A run holding a copy of `points`, with room for exactly them.
    /// - Complexity: O(n) for n points.
    convenience init(copying points: UnsafeBufferPointer<Point>) {
        self.init(capacity: points.count)
        guard let src = points.baseAddress else { return }
        var hasZM = false
        for i in 0..<points.count {
            let p = src[i]
            (xy + i).initialize(to: _ChunkXY(x: p.x, y: p.y))
            hasZM = hasZM || p.z != nil || p.m != nil
        }
        if hasZM {
            let zs = Self.allocate(_ZM.self, capacity)
            for i in 0..<points.count { (zs + i).initialize(to: _ZM(z: src[i].z, m: src[i].m)) }
            zm = zs
        }
        count = points.count
        for c in 0..<chunkCount { envelopes[c] = chunkReferenceFold(c) }
        rebuildUpperLevels()
    }

    /// A copy of `other` with room for `capacity` (at least its count) vertices.
    convenience init(copying other: _VertexRun, capacity: Int) {
        self.init(capacity: Swift.max(capacity, other.count))
        xy.initialize(from: other.xy, count: other.count)
        if let ozm = other.zm {
            let zs = Self.allocate(_ZM.self, self.capacity)
            zs.initialize(from: ozm, count: other.count)
            zm = zs
        }
        count = other.count
        envelopes.initialize(from: other.envelopes, count: other.chunkCount)
        rebuildUpperLevels()
    }

    deinit {
        free(xy)
        free(UnsafeMutableRawPointer(envelopes) - Self.tableSlots * MemoryLayout<Envelope>.stride)
        if let zm { free(zm) }
    }

    // MARK: Layout

    /// Chunks needed for `n` vertices.
    @inline(__always)
    static func chunks(_ n: Int) -> Int { (n + chunkSize - 1) >> chunkShift }

    /// Envelope-sized slots at the start of a pyramid's allocation holding its level table: where
    /// each level starts, then the total (at most 12 integers: a run of 2^63 vertices has 11
    /// levels), so laying a pyramid out allocates nothing else.
    static var tableSlots: Int { 3 }

    /// Allocates (or reallocates `old`) a pyramid over `chunks` chunks — 64 entries of a level per
    /// entry of the next, up to a single entry — with its level table written; the entries are
    /// not initialised. Returns the first entry and the number of levels.
    static func pyramid(
        chunks: Int, reallocating old: UnsafeMutablePointer<Envelope>?
    ) -> (UnsafeMutablePointer<Envelope>, levels: Int) {
        var levels = 1
        var total = Swift.max(1, chunks)
        var size = total
        while size > 1 {
            size = (size + 63) >> 6
            total += size
            levels += 1
        }
        let tableBytes = tableSlots * MemoryLayout<Envelope>.stride
        let bytes = tableBytes + total * MemoryLayout<Envelope>.stride
        let block: UnsafeMutableRawPointer?
        if let old {
            block = realloc(UnsafeMutableRawPointer(old) - tableBytes, bytes)
        } else {
            block = malloc(bytes)
        }
        guard let table = block else { preconditionFailure("out of memory") }
        var offset = 0
        size = Swift.max(1, chunks)
        for level in 0...levels {
            table.storeBytes(of: offset, toByteOffset: level * MemoryLayout<Int>.stride, as: Int.self)
            offset += size
            size = (size + 63) >> 6
        }
        return ((table + tableBytes).bindMemory(to: Envelope.self, capacity: total), levels)
    }

    /// Where level `level` starts in ``envelopes`` (`level == levelCount`: the number of entries).
    @inline(__always)
    func levelOffset(_ level: Int) -> Int {
        let table = UnsafeRawPointer(envelopes) - Self.tableSlots * MemoryLayout<Envelope>.stride
        return table.load(fromByteOffset: level &* MemoryLayout<Int>.stride, as: Int.self)
    }

    /// Chunks of room (the size of level 0).
    var chunkCapacity: Int { levelOffset(1) }
    /// Chunks holding at least one vertex.
    var chunkCount: Int { Self.chunks(count) }
    /// Chunks holding a full 128 vertices (all but a last partial one).
    var completeChunks: Int { count >> Self.chunkShift }

    static func allocate<T>(_ type: T.Type, _ n: Int) -> UnsafeMutablePointer<T> {
        guard let raw = malloc(Swift.max(1, n) * MemoryLayout<T>.stride) else { preconditionFailure("out of memory") }
        return raw.bindMemory(to: T.self, capacity: n)
    }

    static func reallocate<T>(_ p: UnsafeMutablePointer<T>, _ n: Int) -> UnsafeMutablePointer<T> {
        guard let raw = realloc(p, Swift.max(1, n) * MemoryLayout<T>.stride) else {
            preconditionFailure("out of memory")
        }
        return raw.bindMemory(to: T.self, capacity: n)
    }

    // MARK: Reads

    /// Vertex `i` (`0 ..< count`).
    @inline(__always)
    func point(at i: Int) -> Point {
        let q = xy[i]
        guard let zm else { return Point(x: q.x, y: q.y) }
        return Point(x: q.x, y: q.y, z: zm[i].z, m: zm[i].m)
    }

    /// Vertices `range` in place.
    @inline(__always)
    func points(_ range: Range<Int>) -> LeafPoints {
        LeafPoints(
            xy: UnsafePointer(xy + range.lowerBound), zm: zm.map { UnsafePointer($0 + range.lowerBound) },
            count: range.count)
    }

    /// The vertex range of chunk `c`.
    @inline(__always)
    func chunkRange(_ c: Int) -> Range<Int> {
        let s = c << Self.chunkShift
        return s..<Swift.max(s, Swift.min(s + Self.chunkSize, count))
    }

    // MARK: Appends (uniquely referenced runs only)

    /// Whether `p` can take the fast path: room left, and neither `p` nor the run has z or m.
    @inlinable @inline(__always)
    func canAppendXY(_ p: Point) -> Bool { count < capacity && zm == nil && p.z == nil && p.m == nil }

    /// Appends `p`'s x and y (``canAppendXY(_:)`` holds): one 16-byte write and the chunk's
    /// envelope widened branch-free (one `minsd`/`maxsd` a bound, with the comparisons of
    /// `Envelope.expand(toInclude:)`); a chunk that fills up is folded into the pyramid.
    @inlinable @inline(__always)
    func appendXY(_ p: Point) {
        let n = count
        (xy + n).initialize(to: _ChunkXY(x: p.x, y: p.y))
        let slot = envelopes + (n &>> Self.chunkShift)
        let e = slot.pointee
        slot.pointee = Envelope(
            xmin: p.x < e.xmin ? p.x : e.xmin, ymin: p.y < e.ymin ? p.y : e.ymin,
            xmax: p.x > e.xmax ? p.x : e.xmax, ymax: p.y > e.ymax ? p.y : e.ymax)
        count = n &+ 1
        if (n &+ 1) & (Self.chunkSize &- 1) == 0 { chunkCompleted(n &>> Self.chunkShift) }
    }

    /// Appends `p`, growing the run first when it is full and keeping z and m.
    func append(_ p: Point) {
        if count == capacity { grow() }
        storeZM(p, at: count)
        appendXY(p)
    }

    /// Stores `p`'s z and m at `i` (materialising the side buffer when `p` is the first to carry
    /// either); nothing when neither the run nor `p` has them.
    private func storeZM(_ p: Point, at i: Int) {
        if zm == nil {
            guard p.z != nil || p.m != nil else { return }
            let zs = Self.allocate(_ZM.self, capacity)
            zs.initialize(repeating: _ZM(), count: count)
            zm = zs
        }
        zm.unsafelyUnwrapped[i] = _ZM(z: p.z, m: p.m)
    }

    /// Grows the room: a run under a chunk grows to a full chunk, then doubles. The buffers are
    /// reallocated (big ones remapped, not copied); the pyramid is laid out anew when the chunk
    /// room changes (level 0 keeps its place, the levels above are recomputed).
    func grow() {
        let newCapacity = capacity < Self.chunkSize ? Self.chunkSize : capacity * 2
        xy = Self.reallocate(xy, newCapacity)
        if let zm { self.zm = Self.reallocate(zm, newCapacity) }
        capacity = newCapacity
        let chunkRoom = Self.chunks(newCapacity)
        guard chunkRoom > chunkCapacity else { return }
        let oldChunks = chunkCapacity
        (envelopes, levelCount) = Self.pyramid(chunks: chunkRoom, reallocating: envelopes)
        (envelopes + oldChunks).initialize(
            repeating: _VertexNode.emptyEnvelope, count: levelOffset(levelCount) - oldChunks)
        rebuildUpperLevels()
    }

    /// Gives the x/y and z/m buffers back down to the vertices held (the pyramid keeps its layout).
    func shrinkToFit() {
        guard count < capacity, count > 0 else { return }
        xy = Self.reallocate(xy, count)
        if let zm { self.zm = Self.reallocate(zm, count) }
        capacity = count
    }

    /// Folds the envelope of chunk `c`, just filled, into every level above.
    @usableFromInline @inline(never)
    func chunkCompleted(_ c: Int) {
        let e = envelopes[c]
        var j = c
        for level in 1..<levelCount {
            j >>= 6
            envelopes[levelOffset(level) + j].expand(toInclude: e)
        }
    }

    // MARK: Edits in place (uniquely referenced runs only)

    /// Replaces vertex `i` with `p` and returns the old vertex.
    /// - Complexity: O(log n): the chunk's envelope is recomputed when the old vertex was on it.
    func replace(at i: Int, with p: Point) -> Point {
        let old = point(at: i)
        xy[i] = _ChunkXY(x: p.x, y: p.y)
        storeZM(p, at: i)
        let c = i >> Self.chunkShift
        let before = envelopes[c]
        if _VertexNode.onBoundary(old, before) {
            envelopes[c] = chunkEnvelope(c)
        } else {
            envelopes[c].expand(toInclude: p)
        }
        if c < completeChunks, envelopes[c] != before { refreshAncestors(ofChunk: c) }
        return old
    }

    /// Removes and returns the last vertex.
    /// - Complexity: O(log n).
    func removeLast() -> Point {
        let i = count - 1
        let old = point(at: i)
        let c = i >> Self.chunkShift
        let wasComplete = c < completeChunks
        count = i
        if _VertexNode.onBoundary(old, envelopes[c]) { envelopes[c] = chunkEnvelope(c) }
        if wasComplete { refreshAncestors(ofChunk: c) }
        return old
    }

    /// Inserts `p` at `i` in a run of fewer than one chunk (the vertices after it shift).
    /// - Complexity: O(chunk).
    func insertInFirstChunk(_ p: Point, at i: Int) {
        precondition(count < Self.chunkSize && i >= 0 && i <= count, "run insert out of range")
        if count == capacity { grow() }
        (xy + i + 1).moveInitialize(from: xy + i, count: count - i)
        (xy + i).initialize(to: _ChunkXY(x: p.x, y: p.y))
        if let zm { (zm + i + 1).moveInitialize(from: zm + i, count: count - i) }
        count += 1
        if zm != nil || p.z != nil || p.m != nil {
            if zm == nil {
                let zs = Self.allocate(_ZM.self, capacity)
                zs.initialize(repeating: _ZM(), count: count)
                zm = zs
            }
            zm.unsafelyUnwrapped[i] = _ZM(z: p.z, m: p.m)
        }
        envelopes[0].expand(toInclude: p)
        if count == Self.chunkSize { chunkCompleted(0) }
    }

    /// Removes and returns vertex `i` of a run of at most one chunk (the vertices after it shift).
    /// - Complexity: O(chunk).
    func removeInFirstChunk(at i: Int) -> Point {
        precondition(count <= Self.chunkSize && i >= 0 && i < count, "run remove out of range")
        let old = point(at: i)
        let wasComplete = count == Self.chunkSize
        (xy + i).moveInitialize(from: xy + i + 1, count: count - i - 1)
        if let zm { (zm + i).moveInitialize(from: zm + i + 1, count: count - i - 1) }
        count -= 1
        if _VertexNode.onBoundary(old, envelopes[0]) { envelopes[0] = chunkEnvelope(0) }
        if wasComplete { refreshAncestors(ofChunk: 0) }
        return old
    }
}
