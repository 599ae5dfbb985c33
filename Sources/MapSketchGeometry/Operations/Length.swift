extension GeometryEngine {
    /// The planar length: the sum of path lengths, or of ring perimeters (closing segments
    /// included) for polygons and envelopes; 0 for points and multipoints. In the units of the
    /// coordinates.
    /// - Complexity: O(n) for n vertices, no allocation.
    public static func length(_ g: Geometry) -> Double {
        switch g {
        case .point, .multipoint: return 0
        case .envelope(let e): return 2 * (e.width + e.height)
        case .polyline(let pl):
            var s = 0.0
            for path in pl.paths where path.count >= 2 {
                for i in 1..<path.count { s += hypot2(path[i - 1], path[i]) }
            }
            return s
        case .polygon(let pg):
            var s = 0.0
            for ring in pg.rings where ring.count >= 2 {
                var prev = ring[ring.count - 1]
                for p in ring {
                    s += hypot2(prev, p)
                    prev = p
                }
            }
            return s
        }
    }

    @inline(__always) static func hypot2(_ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        return (dx * dx + dy * dy).squareRoot()
    }
}
