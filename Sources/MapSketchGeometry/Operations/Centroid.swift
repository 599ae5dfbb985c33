extension GeometryEngine {
    /// The centroid (centre of mass) of `geometry`, or nil when it has no vertex.
    ///
    /// - A polygon: the area centroid of its rings, each weighted by its signed area, so holes
    ///   (which run the other way) take their area out. A polygon of zero area falls back to the
    ///   centroid of its outline, then to the mean of its vertices.
    /// - A polyline: the centroid of its segments, each weighted by its length; a polyline of
    ///   zero length falls back to the mean of its vertices.
    /// - A point or multipoint: the mean of its points. An envelope: its centre.
    ///
    /// Sums are taken relative to the first vertex, so geometry far from the origin (Web Mercator
    /// coordinates of 10⁷) keeps its precision.
    ///
    /// ```swift
    /// let square = Geometry.polygon(Polygon(rings: [[Point(0, 0), Point(0, 2), Point(2, 2), Point(2, 0)]]))
    /// GeometryEngine.centroid(square)   // (1 1)
    /// ```
    /// - Complexity: O(n) for n vertices, no allocation.
    public static func centroid(_ geometry: Geometry) -> Point? {
        switch geometry {
        case .envelope(let e): return e.center
        case .point(let p): return p?.xy
        case .multipoint(let g): return CentroidSums.of(parts: [g.points], dimension: 0)
        case .polyline(let g): return CentroidSums.of(parts: g.paths, dimension: 1)
        case .polygon(let g): return CentroidSums.of(parts: g.rings, dimension: 2)
        }
    }
}

/// The running sums of a centroid over parts given as any sequences of points: the one place
/// the centroid rule lives, for geometry values and for chunked sketch storage alike.
package struct CentroidSums {
    /// The first vertex seen: every sum is relative to it.
    private var origin: Point?
    /// Twice the signed area (shoelace, y up) and the area-weighted sums of x and y (times 6).
    private var area2 = 0.0, areaX = 0.0, areaY = 0.0
    /// Total length and the length-weighted sums of the segment midpoints.
    private var length = 0.0, lengthX = 0.0, lengthY = 0.0
    /// Vertex count and sums.
    private var count = 0, sumX = 0.0, sumY = 0.0

    /// Empty sums.
    package init() {}

    /// The centroid of `parts`: rings (`dimension` 2, each closed back to its first vertex),
    /// paths (1) or points (0).
    package static func of<P: Sequence>(parts: some Sequence<P>, dimension: Int) -> Point? where P.Element == Point {
        var s = CentroidSums()
        for part in parts { s.add(part, closed: dimension == 2) }
        return s.centroid(dimension: dimension)
    }

    /// Adds one part: its vertices to the mean, its segments (and a ring's closing segment when
    /// `closed`) to the length sums, and, when `closed`, its area.
    package mutating func add(_ part: some Sequence<Point>, closed: Bool) {
        var first: (x: Double, y: Double)?
        var prev: (x: Double, y: Double)?
        for p in part {
            let o = origin ?? p
            if origin == nil { origin = o }
            let q = (x: p.x - o.x, y: p.y - o.y)
            count += 1
            sumX += q.x
            sumY += q.y
            if let a = prev { addSegment(a, q, area: closed) } else { first = q }
            prev = q
        }
        if closed, let a = prev, let b = first { addSegment(a, b, area: true) }
    }

    private mutating func addSegment(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), area: Bool) {
        let dx = b.x - a.x, dy = b.y - a.y
        let l = (dx * dx + dy * dy).squareRoot()
        length += l
        lengthX += l * (a.x + b.x) / 2
        lengthY += l * (a.y + b.y) / 2
        guard area else { return }
        let cross = a.x * b.y - b.x * a.y
        area2 += cross
        areaX += (a.x + b.x) * cross
        areaY += (a.y + b.y) * cross
    }

    /// The centroid for the highest dimension that has a non-zero measure, at most `dimension`;
    /// nil when no vertex was added.
    package func centroid(dimension: Int) -> Point? {
        guard let o = origin else { return nil }
        if dimension >= 2, area2 != 0 { return Point(o.x + areaX / (3 * area2), o.y + areaY / (3 * area2)) }
        if dimension >= 1, length > 0 { return Point(o.x + lengthX / length, o.y + lengthY / length) }
        return Point(o.x + sumX / Double(count), o.y + sumY / Double(count))
    }
}
