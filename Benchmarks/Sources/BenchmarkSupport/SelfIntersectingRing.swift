import MapSketchReplay
public import MapSketchGeometry
import Foundation

/// A seeded ring that crosses itself, the kind of polygon a person sketches by hand: vertices go
/// around a centre with angle jitter of up to ±1.5 steps, so neighbouring edges cross; a few
/// vertices repeat (duplicates to drop); the ring runs counter-clockwise (wrong for an exterior).
///
/// Input for `GeometryEngine.simplify` and for its GEOS peer `GEOSMakeValid`.
public enum SelfIntersectingRing {
    /// An open ring of `vertexCount` vertices (radius ~1000 map units about the origin).
    /// - Complexity: O(vertexCount).
    public static func make(vertexCount: Int, seed: UInt64 = 11) -> [Point] {
        var rng = SplitMix64(seed: seed ^ UInt64(vertexCount))
        var ring: [Point] = []
        ring.reserveCapacity(vertexCount)
        let step = 2 * Double.pi / Double(vertexCount)
        while ring.count < vertexCount {
            let k = Double(ring.count)
            let angle = (k + rng.double(-1.5, 1.5)) * step
            let radius = 1000 * rng.double(0.6, 1.0)
            let p = Point(x: (radius * cos(angle) * 1e3).rounded() / 1e3, y: (radius * sin(angle) * 1e3).rounded() / 1e3)
            ring.append(p)
            if ring.count < vertexCount, rng.int(below: 50) == 0 { ring.append(p) }  // duplicate vertex
        }
        return ring
    }
}
