import MapSketchReplay
public import MapSketchGeometry
import Foundation

/// A seeded simple (non-crossing) star-shaped ring about the origin, clockwise and open: a large,
/// valid polygon exterior for point-in-polygon tests at many vertex counts.
public enum StarRing {
    /// An open clockwise ring of `vertexCount` vertices, radius 500–1000 map units.
    /// - Complexity: O(vertexCount).
    public static func make(vertexCount: Int, seed: UInt64 = 5) -> [Point] {
        var rng = SplitMix64(seed: seed ^ UInt64(vertexCount))
        return (0..<vertexCount).map { k in
            let angle = -2 * Double.pi * Double(k) / Double(vertexCount)
            let radius = rng.double(500, 1000)
            return Point(x: radius * cos(angle), y: radius * sin(angle))
        }
    }

    /// Seeded query points uniform in the ring's bounding square (about half fall inside).
    public static func queryPoints(_ count: Int, seed: UInt64 = 3) -> [Point] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in Point(x: rng.double(-1000, 1000), y: rng.double(-1000, 1000)) }
    }

    /// Whether `p` is inside `ring` by the even-odd rule, testing every edge.
    /// - Complexity: O(n) for n vertices.
    public static func referenceContains(_ ring: [Point], _ p: Point) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i]
            let b = ring[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }
}
