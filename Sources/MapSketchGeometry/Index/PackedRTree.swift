/// A static, packed Hilbert R-tree over axis-aligned boxes, stored in flat arrays.
///
/// Items are sorted by the Hilbert value of their box centres (a radix sort, O(n)) and packed 16
/// to a node; the levels above are packed the same way. Every node's 16 child boxes are one
/// *block* of 64 `Float`s laid out as structure-of-arrays (16 minX, 16 minY, 16 maxX, 16 maxY), so
/// a search tests all 16 children with four SIMD compares and walks only the set bits of the
/// resulting mask. Boxes are rounded outward to `Float` so no item is ever missed; unused lanes hold
/// an empty box (+∞, +∞, −∞, −∞) that no query hits. Each level starts on a block boundary, and the
/// children of entry `e` of a level are block `levelBlocks[level − 1] + e` (no child links).
/// The layout follows Vladimir Agafonkin's *flatbush* (ISC licence) and the packed Hilbert R-tree of
/// Kamel & Faloutsos, "On Packing R-trees" (CIKM 1993); the SIMD node test is the "SIMD-friendly
/// R-tree node" of Sprenger, Schäfer & Leser, "BB-Tree" (ICDE 2019) applied to R-tree nodes.
///
/// A tree of more than 256 items also has a *directory* (``RTreeDirectory``): a grid over its
/// bounds listing the leaf blocks (16 items each) that meet each cell, a cache line a cell. A
/// query that falls in one cell (or straddles two or four), as a tap does, tests that cell's
/// byte-sized leaf-block boxes and reads the leaf blocks they let through, instead of walking
/// from the root: the upper levels of a Hilbert-packed tree overlap, so a tap walked from the
/// root tests many nodes there that lead nowhere (at 100k uniformly spread points, 6.5 node tests
/// a tap from the root; from the directory, one cache line, about four byte compares and 1.2 leaf
/// blocks). A tap's reads then wait on each other only twice: the cell, then its leaf blocks
/// (whose item ids are read beside their boxes).
///
/// Memory: about `16 · n · 16/15 + 4 · n` bytes for n items (≈ 21.1 bytes per item), plus the
/// directory's, about 4.5 bytes per item.
///
/// ```swift
/// let tree = PackedRTree(envelopes: [Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1)])
/// tree.search(Envelope(xmin: 0.5, ymin: 0.5, xmax: 2, ymax: 2)) { id in print(id); return true }
/// ```
@usableFromInline
package struct PackedRTree: Sendable {
    /// The number of items.
    package let count: Int
    /// Children per node: one SIMD block.
    package var nodeSize: Int { 16 }
    /// Node boxes, 64 `Float`s per block of 16 entries (structure of arrays); leaves first, then
    /// each level up; the root is lane 0 of the last block.
    var blocks: [Float]
    /// The item id of each leaf entry (padded to whole blocks).
    var ids: [Int32]
    /// The first block of each level, leaves first (the root's level is last).
    var levelBlocks: [Int]
    /// Where a small query starts (see ``RTreeDirectory``).
    var directory = RTreeDirectory()

    /// An empty tree.
    package init() {
        self.count = 0
        self.blocks = []
        self.ids = []
        self.levelBlocks = []
    }

    /// The raw `Float` box of entry `e` of block-level `level` (0: leaves).
    func rawBox(level: Int, entry e: Int) -> (Float, Float, Float, Float) {
        let o = 64 * (levelBlocks[level] + e >> 4) + (e & 15)
        return (blocks[o], blocks[o + 16], blocks[o + 32], blocks[o + 48])
    }

    /// The box of the whole tree, or nil when it is empty.
    package var bounds: Envelope? {
        guard count > 0 else { return nil }
        let r = rawBox(level: levelBlocks.count - 1, entry: 0)
        return Envelope(xmin: Double(r.0), ymin: Double(r.1), xmax: Double(r.2), ymax: Double(r.3))
    }

    /// Bytes held by the tree's arrays.
    package var memoryFootprint: Int {
        blocks.capacity * 4 + ids.capacity * 4 + levelBlocks.capacity * 8 + directory.memoryFootprint
    }

    /// Calls `body` with (id, box) of every item, in tree order.
    package func forEachItem(_ body: (Int, Envelope) -> Void) {
        forEachItemRaw { id, r in
            body(id, Envelope(xmin: Double(r.0), ymin: Double(r.1), xmax: Double(r.2), ymax: Double(r.3)))
        }
    }

    /// Calls `body` with (id, raw Float box) of every item, in tree order.
    func forEachItemRaw(_ body: (Int, (Float, Float, Float, Float)) -> Void) {
        for j in 0..<count { body(Int(ids[j]), rawBox(level: 0, entry: j)) }
    }
}
