import CGEOS
public import MapSketchGeometry

/// The GEOS way to find a snap target among graphics: the STRtree of ``GEOSHitIndex`` queried
/// with the tolerance square around the point, then `GEOSDistance_r` to each candidate and
/// `GEOSNearestPoints_r` on the nearest one (the point on it to snap to). For points that is a
/// vertex snap; for lines and polygons the nearest point of their linework (an edge snap).
public final class GEOSSnapIndex {
    let index: GEOSHitIndex
    var candidates: [Int] = []

    /// An index over every graphic of `graphics`.
    /// - Complexity: O(n log n) for n graphics.
    public init(graphics: GEOSGraphics) {
        index = GEOSHitIndex(graphics: graphics)
    }

    /// The point of the graphic nearest to `p` within `tolerance`, and its distance, or nil.
    /// - Complexity: O(log n + k) for the k candidates in the tolerance square.
    public func snap(_ p: Point, tolerance: Double) -> (point: Point, distance: Double)? {
        let graphics = index.graphics
        let h = graphics.context.handle
        candidates.removeAll(keepingCapacity: true)
        guard let box = GEOSGeom_createRectangle_r(h, p.x - tolerance, p.y - tolerance, p.x + tolerance, p.y + tolerance)
        else { return nil }
        withUnsafeMutablePointer(to: &candidates) { out in
            GEOSSTRtree_query_r(h, index.tree, box, { item, userdata in
                guard let list = userdata?.assumingMemoryBound(to: [Int].self) else { return }
                list.pointee.append(Int(bitPattern: item) - 1)
            }, out)
        }
        GEOSGeom_destroy_r(h, box)
        guard !candidates.isEmpty else { return nil }
        let q = graphics.context.must(GEOSGeom_createPointFromXY_r(h, p.x, p.y))
        defer { GEOSGeom_destroy_r(h, q) }
        var best = -1
        var bestDistance = tolerance
        for c in candidates {
            var d = 0.0
            guard GEOSDistance_r(h, graphics.geometries[c], q, &d) == 1 else { continue }
            if d < bestDistance || (best < 0 && d <= bestDistance) {
                best = c
                bestDistance = d
            }
        }
        guard best >= 0, let seq = GEOSNearestPoints_r(h, graphics.geometries[best], q) else { return nil }
        defer { GEOSCoordSeq_destroy_r(h, seq) }
        var x = 0.0, y = 0.0
        GEOSCoordSeq_getXY_r(h, seq, 0, &x, &y)
        return (Point(x: x, y: y), bestDistance)
    }
}

/// A GEOS line string prepared for nearest-point queries (`GEOSPreparedNearestPoints_r`, which
/// indexes its segments): the peer of a snap to a big sketch's edges.
public final class GEOSPreparedLine {
    let context: GEOSContext
    let line: OpaquePointer
    let prepared: OpaquePointer

    /// The line through `path`, prepared.
    public init(context: GEOSContext, path: [Point]) {
        self.context = context
        let h = context.handle
        let seq = context.must(GEOSCoordSeq_create_r(h, UInt32(path.count), 2))
        for (i, p) in path.enumerated() { GEOSCoordSeq_setXY_r(h, seq, UInt32(i), p.x, p.y) }
        line = context.must(GEOSGeom_createLineString_r(h, seq))
        prepared = context.must(GEOSPrepare_r(h, line))
    }

    deinit {
        GEOSPreparedGeom_destroy_r(context.handle, prepared)
        GEOSGeom_destroy_r(context.handle, line)
    }

    /// The point of the line nearest to `p` when it is within `tolerance`.
    public func snap(_ p: Point, tolerance: Double) -> Point? {
        let h = context.handle
        let q = context.must(GEOSGeom_createPointFromXY_r(h, p.x, p.y))
        defer { GEOSGeom_destroy_r(h, q) }
        guard let seq = GEOSPreparedNearestPoints_r(h, prepared, q) else { return nil }
        defer { GEOSCoordSeq_destroy_r(h, seq) }
        var x = 0.0, y = 0.0
        GEOSCoordSeq_getXY_r(h, seq, 0, &x, &y)
        let dx = x - p.x, dy = y - p.y
        return dx * dx + dy * dy <= tolerance * tolerance ? Point(x: x, y: y) : nil
    }
}
