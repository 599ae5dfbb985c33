// Opening, closing and reversing rings: the one home of these rules. Rings are stored open (see
// ``Polygon``); codecs and operations that need the closing vertex, or a ring the other way
// round, come here. Orientation by signed area is the kernel's (``Kernel/oriented(_:clockwise:)``).

extension Polygon {
    /// Whether the ring's last vertex repeats its first in x and y (true for a single vertex,
    /// false for an empty ring).
    static func isClosed(_ ring: [Point]) -> Bool {
        guard let f = ring.first, let l = ring.last else { return false }
        return f.equals2D(l)
    }

    /// A ring with its closing vertex dropped if it repeats the first (2D comparison); exactly
    /// one vertex is dropped, so a ring written with a duplicate closing vertex keeps one.
    ///
    /// - Complexity: O(n) for n vertices when a vertex is dropped, else O(1).
    package static func open(_ ring: [Point]) -> [Point] {
        guard ring.count >= 2, isClosed(ring) else { return ring }
        return Array(ring.dropLast())
    }

    /// A ring with its closing vertex appended, unless it already ends on its first vertex
    /// (no-op on an empty ring).
    ///
    /// - Complexity: O(n) for n vertices.
    package static func closed(_ ring: [Point]) -> [Point] {
        guard let f = ring.first else { return ring }
        if ring.count >= 2, isClosed(ring) { return ring }
        return ring + [f]
    }

    /// A stored (open) ring as the JSON codecs write it: its first vertex appended, always, so a
    /// stored duplicate of the first vertex at the end survives a write and a read.
    static func withClosingVertex(_ ring: [Point]) -> [Point] {
        guard let f = ring.first else { return ring }
        return ring + [f]
    }

    /// An open ring reversed, keeping its first vertex first: [v0, v1, …, vn-1] → [v0, vn-1, …, v1].
    static func reversedKeepingStart(_ ring: [Point]) -> [Point] {
        guard ring.count > 2 else { return ring }
        var out = [ring[0]]
        out.reserveCapacity(ring.count)
        out.append(contentsOf: ring[1...].reversed())
        return out
    }

    /// A polygon holding `rings` exactly as given: the codecs open their rings once themselves
    /// (``init(rings:hasZ:hasM:)`` would open a ring again when it has a duplicate closing
    /// vertex). A flag is true when given true or when every vertex carries the value.
    init(openRings rings: [[Point]], hasZ: Bool, hasM: Bool) {
        self.init(
            rings: [], hasZ: hasZ || allVertices(rings) { $0.z != nil }, hasM: hasM || allVertices(rings) { $0.m != nil })
        self.rings = rings
    }
}
