// The hash grid of kept points behind the multipoint simplify rule.

/// The hash grid of the multipoint simplify rule (``SimplifyRule/keptPoints(_:tolerance:keep:)``),
/// finding the kept points `VertexSnapper.nearest(to:)` would compare: those whose cell
/// (``SnapCell``, the one cell rule of both) is one of the nine cells around the query's.
///
/// The snapper looks nine cells up in a dictionary of arrays; a big random multipoint then costs
/// nine cache misses a point and a heap array a kept point. Here kept points are chained per
/// *block* of 2 × 2 cells, so the nine cells meet four blocks (fewer where cells coincide, far from
/// the origin); each chained point is then checked to lie in one of the nine cells, so the points
/// compared are the snapper's. An open-addressing table maps a block to its last kept point
/// (with 32 bits of the block's hash, so a slot of another block is passed over without reading
/// points), each kept point links to the one kept before it in its block, and a bitset of block
/// hashes, small enough to stay in cache, answers most lookups of empty blocks without touching
/// the table: 8 bytes a slot (at most 8/3 slots a point), 4 bytes a point and a bit or four, and
/// the kept points' x and y (16 bytes a point).
struct PointGrid {
    let tolerance: Double
    /// x and y of every kept point, in the order kept.
    private var xy: [Double] = []
    /// The last kept point of a block (low 32 bits) and 32 bits of the block's hash (high), or
    /// `empty`.
    private var slots: [UInt64]
    /// The point kept before each kept point in its block, −1 for none.
    private var next: [Int32]
    /// One bit per block hash: set when some block with that hash holds a point.
    private var seen: [UInt64]
    private let mask: Int
    private let seenMask: Int
    private static let empty = UInt64.max

    /// The most points a grid holds (their numbers are 32-bit).
    static let maxCapacity = Int(Int32.max) - 1

    /// The most points this grid keeps.
    let capacity: Int

    /// A grid for up to `capacity` (at most ``maxCapacity``) kept points, for a non-negative,
    /// finite `tolerance`.
    init(tolerance: Double, capacity: Int) {
        precondition(capacity <= Self.maxCapacity, "at most 2^31 − 2 points")
        self.tolerance = tolerance
        self.capacity = capacity
        var size = 16
        while size * 3 < capacity * 4 { size *= 2 }
        slots = Array(repeating: Self.empty, count: size)
        mask = size - 1
        // Four bits a slot: about one in six set at the fullest.
        seen = Array(repeating: 0, count: size / 16)
        seenMask = size * 4 - 1
        next = []
        next.reserveCapacity(capacity)
        xy.reserveCapacity(2 * capacity)
    }

    @inline(__always)
    private func cell(_ x: Double, _ y: Double) -> (Double, Double) { SnapCell.of(x, y, tolerance: tolerance) }

    /// The block of a cell: the cell itself for a zero tolerance (only one cell is looked up).
    @inline(__always)
    private func block(_ c: Double) -> Double {
        tolerance == 0 ? c : (c / 2).rounded(.down)
    }

    @inline(__always)
    private static func hash(_ bx: Double, _ by: Double) -> UInt64 {
        // Equal blocks hash alike: −0 == 0, so fold it (adding +0 does).
        var h = (bx + 0).bitPattern &* 0x9E37_79B9_7F4A_7C15 ^ ((by + 0).bitPattern &+ 0x632B_E59B_D9B4_E019)
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return h
    }

    /// The slot of block (bx, by) with hash `h`: the one holding it, or the empty one where it
    /// would go.
    @inline(__always)
    private func slot(_ bx: Double, _ by: Double, _ h: UInt64) -> Int {
        let tag = h >> 32
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let s = slots[i]
            if s == Self.empty { return i }
            if s >> 32 == tag {
                let head = Int(s & 0xFFFF_FFFF)
                let c = cell(xy[2 * head], xy[2 * head + 1])
                if block(c.0) == bx && block(c.1) == by { return i }
            }
            i = (i + 1) & mask
        }
    }

    @inline(__always)
    private func seenBit(_ h: UInt64) -> (Int, UInt64) {
        let b = Int(truncatingIfNeeded: h >> 20) & seenMask
        return (b >> 6, 1 << UInt64(b & 63))
    }

    /// Whether a kept point is equal to (x, y) or closer than the tolerance, among those in the
    /// nine cells around its own.
    func hasNear(_ x: Double, _ y: Double) -> Bool {
        let c = cell(x, y)
        let t2 = tolerance * tolerance
        // The nine cells are cx × cy; their blocks, without repeats.
        let cx = tolerance == 0 ? (c.0, c.0, c.0) : (c.0 - 1, c.0, c.0 + 1)
        let cy = tolerance == 0 ? (c.1, c.1, c.1) : (c.1 - 1, c.1, c.1 + 1)
        let bxs = Self.distinct(block(cx.0), block(cx.1), block(cx.2))
        let bys = Self.distinct(block(cy.0), block(cy.1), block(cy.2))
        for i in 0..<bxs.3 {
            let bx = i == 0 ? bxs.0 : (i == 1 ? bxs.1 : bxs.2)
            for j in 0..<bys.3 {
                let by = j == 0 ? bys.0 : (j == 1 ? bys.1 : bys.2)
                let h = Self.hash(bx, by)
                let (word, bit) = seenBit(h)
                guard seen[word] & bit != 0 else { continue }
                let s = slots[slot(bx, by, h)]
                guard s != Self.empty else { continue }
                var id = Int(s & 0xFFFF_FFFF)
                while id >= 0 {
                    let vx = xy[2 * id], vy = xy[2 * id + 1]
                    let vc = cell(vx, vy)
                    // One of the nine cells, as the snapper's dictionary lookups find them.
                    if vc.0 == cx.0 || vc.0 == cx.1 || vc.0 == cx.2, vc.1 == cy.0 || vc.1 == cy.1 || vc.1 == cy.2 {
                        let ex = vx - x, ey = vy - y
                        if (vx == x && vy == y) || ex * ex + ey * ey < t2 { return true }
                    }
                    id = Int(next[id])
                }
            }
        }
        return false
    }

    /// The distinct values among three, and how many there are (first in the tuple).
    @inline(__always)
    private static func distinct(_ a: Double, _ b: Double, _ c: Double) -> (Double, Double, Double, Int) {
        if b == a { return c == a ? (a, a, a, 1) : (a, c, c, 2) }
        if c == a || c == b { return (a, b, b, 2) }
        return (a, b, c, 3)
    }

    /// Keeps (x, y) (at most ``capacity`` points in all).
    mutating func keep(_ x: Double, _ y: Double) {
        precondition(next.count < capacity, "at most the grid's capacity")
        let id = next.count
        xy.append(x)
        xy.append(y)
        let c = cell(x, y)
        let bx = block(c.0), by = block(c.1)
        let h = Self.hash(bx, by)
        let i = slot(bx, by, h)
        let s = slots[i]
        next.append(s == Self.empty ? -1 : Int32(truncatingIfNeeded: s & 0xFFFF_FFFF))
        slots[i] = (h >> 32) << 32 | UInt64(id)
        let (word, bit) = seenBit(h)
        seen[word] |= bit
    }
}

