extension GeometryEngine {
    /// The point of segment a–b closest to `p`, and its squared distance: the arithmetic of
    /// ``nearestSegment(to:in:)``, so both give the same point for the same segment (an end
    /// exactly when the projection falls outside the segment or on an end).
    /// - Complexity: O(1).
    @inlinable
    package static func closestPoint(to p: Point, onSegment a: Point, _ b: Point) -> (point: Point, distanceSquared: Double) {
        let dx = b.x - a.x, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0
        t = min(1, max(0, t))
        let cx = t == 0 ? a.x : (t == 1 ? b.x : a.x + t * dx)
        let cy = t == 0 ? a.y : (t == 1 ? b.y : a.y + t * dy)
        let ex = p.x - cx, ey = p.y - cy
        return (Point(x: cx, y: cy), ex * ex + ey * ey)
    }
}
