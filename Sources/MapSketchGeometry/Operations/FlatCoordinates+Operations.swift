// The GeometryEngine operations over flat coordinates, giving the engine's results.

extension FlatCoordinates {
    // MARK: - Simplify

    /// ``GeometryEngine/simplify(_:tolerance:)`` in place: a multipoint loses every point closer
    /// than the tolerance to an earlier kept one (or equal to it); a polyline path loses each
    /// vertex closer than the tolerance to the vertex kept before it (its last vertex is kept in
    /// place of that one), then paths with fewer than two vertices go. The coordinates are
    /// finite, so none is dropped for being NaN or infinite. These are the engine's rules
    /// (``SimplifyRule``), applied to the coordinates in place.
    /// - Complexity: O(n) expected (a multipoint's kept points sit in a hash grid of cells one
    ///   tolerance wide); memory at most about 42 bytes a point for a multipoint's grid, nothing
    ///   for a polyline (the result is compacted into the same storage).
    package mutating func simplify(tolerance: Double) {
        let tolerance = tolerance.isFinite && tolerance > 0 ? tolerance : 0
        if type == .multipoint {
            compact { view, keep in SimplifyRule.keptPoints(view, tolerance: tolerance) { keep(0, $0) } }
        } else {
            compact { view, keep in SimplifyRule.keptPathVertices(view, tolerance: tolerance, keep: keep) }
        }
    }

    /// Runs `rule` over the coordinates, writing the vertices it keeps over them in order (a
    /// rule hands a vertex over only after reading it, so no vertex is overwritten before it is
    /// read), then keeps only those.
    private mutating func compact(_ rule: (FlatView, _ keep: (Int, Point) -> Void) -> Void) {
        var sizes: [Int] = []
        var w = 0
        var lastPart = -1
        let partSizes = partSizes
        xy.withUnsafeMutableBufferPointer { c in
            rule(FlatView(xy: c, partSizes: partSizes)) { part, p in
                c[2 * w] = p.x
                c[2 * w + 1] = p.y
                w += 1
                if part != lastPart {
                    sizes.append(0)
                    lastPart = part
                }
                sizes[sizes.count - 1] += 1
            }
        }
        xy.removeSubrange((2 * w)...)
        self.partSizes = sizes
    }

    // MARK: - Normalize

    /// ``GeometryEngine/normalizeCentralMeridian(_:spatialReference:)`` of the geometry: a
    /// multipoint's points folded into the world's x range, a polyline's paths cut at every
    /// antimeridian they cross and each piece shifted into it.
    /// - Throws: the engine's ``ProjectionError`` — an unsupported spatial reference; a path
    ///   vertex beyond ±2^50 in x or a segment wider than a world, naming its part and vertex —
    ///   before changing anything.
    /// - Complexity: O(n); memory a second copy of the coordinates for a polyline (the pieces
    ///   are written into new storage).
    package mutating func normalizeCentralMeridian(spatialReference sr: SpatialReference) throws(ProjectionError) {
        let wrap = try WorldWrap(normalizing: sr)
        if type == .multipoint {
            for i in 0..<vertexCount {
                xy[2 * i] = wrap.fold(Point(xy[2 * i], xy[2 * i + 1])).x
            }
            return
        }
        let starts = partStarts
        try xy.withUnsafeBufferPointer { c throws(ProjectionError) in
            try wrap.checkDomain(partCount: partSizes.count, size: { partSizes[$0] }, x: { c[2 * (starts[$0] + $1)] }, closed: false)
        }
        var out: [Double] = []
        out.reserveCapacity(xy.count + xy.count / 8)
        var sizes: [Int] = []
        xy.withUnsafeBufferPointer { c in
            for (i, n) in partSizes.enumerated() {
                let r = starts[i]
                wrap.split(count: n, vertex: { Point(c[2 * (r + $0)], c[2 * (r + $0) + 1]) }) { p, startsPiece in
                    if startsPiece { sizes.append(0) }
                    out.append(p.x)
                    out.append(p.y)
                    sizes[sizes.count - 1] += 1
                }
            }
        }
        xy = out
        partSizes = sizes
    }

    /// The index of each part's first vertex.
    private var partStarts: [Int] {
        var starts: [Int] = []
        starts.reserveCapacity(partSizes.count)
        var r = 0
        for n in partSizes {
            starts.append(r)
            r += n
        }
        return starts
    }

    // MARK: - Project

    /// ``GeometryEngine/project(_:from:to:)-(Geometry,_,_)`` in place: unchanged for identical
    /// spatial references, else every vertex checked against the projection's domain, then
    /// projected (with `decimal`, Web Mercator to WGS 84 as an output writes it:
    /// ``GeometryEngine/webMercatorToGeographicDecimal(_:)``).
    /// - Throws: the engine's ``ProjectionError`` — an unsupported pair, or the first vertex
    ///   outside the domain, naming its part and vertex — before changing anything.
    /// - Complexity: O(n).
    package mutating func project(from: SpatialReference, to: SpatialReference, decimal: Bool = false) throws {
        if from == to { return }
        let f = try GeometryEngine.projection(from: from, to: to, decimal: decimal)
        try checkProjectionDomain(from: from)
        xy.withUnsafeMutableBufferPointer { c in
            for i in 0..<(c.count / 2) {
                let q = f(Point(c[2 * i], c[2 * i + 1]))
                c[2 * i] = q.x
                c[2 * i + 1] = q.y
            }
        }
    }

    private func checkProjectionDomain(from: SpatialReference) throws(ProjectionError) {
        var r = 0
        for (i, n) in partSizes.enumerated() {
            for k in 0..<n { try GeometryEngine.checkDomain(Point(xy[2 * (r + k)], xy[2 * (r + k) + 1]), from: from, part: i, vertex: k) }
            r += n
        }
    }

    /// ``GeoJSON/inWGS84(_:)`` in place, for coordinates in `sr`, by the rule of GeoJSON output
    /// (``GeoJSON/wgs84Projection(from:)``): unchanged in WGS 84, projected from Web Mercator.
    /// - Throws: ``GeoJSONOutputError`` as ``GeoJSON/inWGS84(_:)`` — without a spatial
    ///   reference, ``GeoJSONOutputError/noSpatialReference`` — before changing anything.
    /// - Complexity: O(n).
    package mutating func inWGS84(from sr: SpatialReference?) throws(GeoJSONOutputError) {
        guard let projection = try GeoJSON.wgs84Projection(from: sr) else { return }
        do {
            try project(from: projection.from, to: .wgs84, decimal: true)
        } catch {
            throw .cannotProject(from: projection.from)
        }
    }
}

/// Flat coordinates read through a pointer, while a rule's kept vertices are written over them.
private struct FlatView: VertexSource {
    let xy: UnsafeMutableBufferPointer<Double>
    let partSizes: [Int]

    func forEachVertex(_ body: (Int, Int, Point) throws -> Void) rethrows {
        var i = 0
        for (part, n) in partSizes.enumerated() {
            for k in 0..<n {
                try body(part, k, Point(xy[2 * i], xy[2 * i + 1]))
                i += 1
            }
        }
    }
}
