import CGEOS
public import MapSketchGeometry

/// The GEOS peer: a reentrant GEOS context (`GEOS_init_r`) and the operations the benchmarks
/// compare MapSketch with, all through GEOS's C API (`_r` functions only).
///
/// A context is not thread-safe; each benchmark makes its own. Every GEOS object made here is
/// owned by a Swift object and destroyed in its `deinit`.
public final class GEOSContext {
    let handle: GEOSContextHandle_t

    /// Creates a GEOS context; traps if GEOS cannot allocate one (benchmark setup, not input).
    public init() {
        guard let h = GEOS_init_r() else { preconditionFailure("GEOS_init_r failed") }
        handle = h
    }

    deinit { GEOS_finish_r(handle) }

    /// The GEOS library version string, e.g. "3.11.1-CAPI-1.17.1".
    public var version: String { String(cString: GEOSversion()) }

    /// A GEOS geometry for graphic `i` of `map` (point, line string, or polygon with its ring closed).
    func makeGeometry(_ map: SyntheticMap, _ i: Int) -> OpaquePointer {
        let start = Int(map.offsets[i])
        let end = Int(map.offsets[i + 1])
        return map.coordinates.withUnsafeBufferPointer { buf in
            switch map.kind {
            case .point:
                return must(GEOSGeom_createPointFromXY_r(handle, buf[2 * start], buf[2 * start + 1]))
            case .polyline:
                let seq = must(GEOSCoordSeq_copyFromBuffer_r(handle, buf.baseAddress! + 2 * start, UInt32(end - start), 0, 0))
                return must(GEOSGeom_createLineString_r(handle, seq))
            case .polygon:
                var closed = Array(buf[(2 * start)..<(2 * end)])
                closed.append(buf[2 * start])
                closed.append(buf[2 * start + 1])
                return makePolygon(closed)
            }
        }
    }

    /// A GEOS polygon from one closed ring given as x, y pairs (first pair repeated last).
    func makePolygon(_ closedRing: [Double]) -> OpaquePointer {
        let seq = closedRing.withUnsafeBufferPointer {
            must(GEOSCoordSeq_copyFromBuffer_r(handle, $0.baseAddress!, UInt32($0.count / 2), 0, 0))
        }
        let ring = must(GEOSGeom_createLinearRing_r(handle, seq))
        return must(GEOSGeom_createPolygon_r(handle, ring, nil, 0))
    }

    /// A GEOS polygon from an open MapSketch ring (the closing vertex is added).
    public func polygon(ring: [Point]) -> GEOSGeometryBox {
        var coords: [Double] = []
        coords.reserveCapacity(2 * ring.count + 2)
        for p in ring + ring.prefix(1) {
            coords.append(p.x)
            coords.append(p.y)
        }
        return GEOSGeometryBox(context: self, geometry: makePolygon(coords))
    }

    func must(_ p: OpaquePointer?) -> OpaquePointer {
        guard let p else { preconditionFailure("GEOS returned null while building benchmark data") }
        return p
    }
}

/// One GEOS geometry owned by Swift.
public final class GEOSGeometryBox {
    let context: GEOSContext
    let geometry: OpaquePointer

    init(context: GEOSContext, geometry: OpaquePointer) {
        self.context = context
        self.geometry = geometry
    }

    deinit { GEOSGeom_destroy_r(context.handle, geometry) }

    /// `GEOSMakeValid_r`: the repaired geometry's area and whether GEOS calls it valid.
    /// - Complexity: GEOS's noding and polygonizing, O((n + k) log n) for n vertices and k crossings.
    public func makeValid() -> (area: Double, valid: Bool) {
        guard let fixed = GEOSMakeValid_r(context.handle, geometry) else { return (.nan, false) }
        defer { GEOSGeom_destroy_r(context.handle, fixed) }
        var area = 0.0
        _ = GEOSArea_r(context.handle, fixed, &area)
        return (area, GEOSisValid_r(context.handle, fixed) == 1)
    }

    /// The geometry's number of vertices (`GEOSGetNumCoordinates_r`).
    public var vertexCount: Int { Int(GEOSGetNumCoordinates_r(context.handle, geometry)) }

    /// A prepared form of this geometry (`GEOSPrepare_r`) for repeated predicates.
    public func prepared() -> GEOSPreparedBox { GEOSPreparedBox(owner: self) }
}

/// A prepared GEOS geometry: GEOS builds its internal segment index on first use.
public final class GEOSPreparedBox {
    let owner: GEOSGeometryBox
    let prepared: OpaquePointer

    init(owner: GEOSGeometryBox) {
        self.owner = owner
        prepared = owner.context.must(GEOSPrepare_r(owner.context.handle, owner.geometry))
    }

    deinit { GEOSPreparedGeom_destroy_r(owner.context.handle, prepared) }

    /// `GEOSPreparedContains_r` with a point made for the call (as a GEOS user must).
    public func contains(_ p: Point) -> Bool {
        let h = owner.context.handle
        let g = owner.context.must(GEOSGeom_createPointFromXY_r(h, p.x, p.y))
        defer { GEOSGeom_destroy_r(h, g) }
        return GEOSPreparedContains_r(h, prepared, g) == 1
    }
}

/// The graphics of a ``SyntheticMap`` as GEOS geometries, plus a prepared form of each line and
/// polygon (`GEOSPrepare_r`), made once outside any measurement.
public final class GEOSGraphics {
    let context: GEOSContext
    let kind: GraphicKind
    var geometries: [OpaquePointer] = []
    var prepared: [OpaquePointer] = []

    /// Makes a GEOS geometry for every graphic of `map`.
    /// - Complexity: O(v) for v vertices; GEOS allocates several objects per graphic.
    public init(context: GEOSContext, map: SyntheticMap) {
        self.context = context
        kind = map.kind
        geometries.reserveCapacity(map.count)
        for i in 0..<map.count { geometries.append(context.makeGeometry(map, i)) }
        if kind != .point {
            prepared = geometries.map { context.must(GEOSPrepare_r(context.handle, $0)) }
        }
    }

    deinit {
        let h = context.handle
        for p in prepared { GEOSPreparedGeom_destroy_r(h, p) }
        for g in geometries { GEOSGeom_destroy_r(h, g) }
    }

    /// The number of graphics.
    public var count: Int { geometries.count }
}

/// The GEOS way to hit-test graphics: an STRtree (node capacity 10) over every graphic's
/// envelope, queried with the tolerance square around the tap, then an exact test on each
/// candidate with `GEOSPreparedDistanceWithin_r` on prepared geometries (points use the
/// unprepared `GEOSDistanceWithin_r`, which is cheaper for them).
///
/// Hits are returned as graphic indices, topmost (highest index) first, like MapSketch.
public final class GEOSHitIndex {
    let graphics: GEOSGraphics
    let tree: OpaquePointer
    var candidates: [Int] = []

    /// Inserts every graphic into a new STRtree and forces its bulk load (GEOS 3.11 has no
    /// `GEOSSTRtree_build`; the tree is built on its first query).
    /// - Complexity: O(n log n) for n graphics (STR sort).
    public init(graphics: GEOSGraphics) {
        self.graphics = graphics
        let h = graphics.context.handle
        tree = graphics.context.must(GEOSSTRtree_create_r(h, 10))
        for (i, g) in graphics.geometries.enumerated() {
            GEOSSTRtree_insert_r(h, tree, g, UnsafeMutableRawPointer(bitPattern: i + 1))
        }
        _ = hitTest(Point(x: -1e12, y: -1e12), tolerance: 0)
    }

    deinit { GEOSSTRtree_destroy_r(graphics.context.handle, tree) }

    /// The graphics within `tolerance` of `p`, topmost first.
    /// - Complexity: O(log n + k) for n graphics and k candidates in the tolerance square.
    public func hitTest(_ p: Point, tolerance: Double) -> [Int] {
        let h = graphics.context.handle
        candidates.removeAll(keepingCapacity: true)
        guard let box = GEOSGeom_createRectangle_r(h, p.x - tolerance, p.y - tolerance, p.x + tolerance, p.y + tolerance)
        else { return [] }
        withUnsafeMutablePointer(to: &candidates) { out in
            GEOSSTRtree_query_r(h, tree, box, { item, userdata in
                guard let list = userdata?.assumingMemoryBound(to: [Int].self) else { return }
                list.pointee.append(Int(bitPattern: item) - 1)
            }, out)
        }
        GEOSGeom_destroy_r(h, box)
        guard !candidates.isEmpty else { return [] }
        let q = graphics.context.must(GEOSGeom_createPointFromXY_r(h, p.x, p.y))
        defer { GEOSGeom_destroy_r(h, q) }
        var hits: [Int] = []
        for c in candidates {
            let within = graphics.kind == .point
                ? GEOSDistanceWithin_r(h, graphics.geometries[c], q, tolerance)
                : GEOSPreparedDistanceWithin_r(h, graphics.prepared[c], q, tolerance)
            if within == 1 { hits.append(c) }
        }
        hits.sort(by: >)
        return hits
    }
}

/// A GEOS line string and the sketch-tool operations the transform benchmarks compare.
extension GEOSContext {
    /// A GEOS line string through `path`.
    public func lineString(_ path: [Point]) -> GEOSGeometryBox {
        var coords: [Double] = []
        coords.reserveCapacity(2 * path.count)
        for p in path {
            coords.append(p.x)
            coords.append(p.y)
        }
        let seq = coords.withUnsafeBufferPointer {
            must(GEOSCoordSeq_copyFromBuffer_r(handle, $0.baseAddress!, UInt32($0.count / 2), 0, 0))
        }
        return GEOSGeometryBox(context: self, geometry: must(GEOSGeom_createLineString_r(handle, seq)))
    }
}

extension GEOSGeometryBox {
    /// `GEOSGeom_transformXY_r` with a rotation by the angle whose cosine and sine are `cos` and
    /// `sin` about (`x`, `y`): a new geometry, destroyed before returning; its vertex count.
    /// - Complexity: O(n): GEOS copies the geometry and calls back once per coordinate.
    public func rotatedVertexCount(cos: Double, sin: Double, aboutX x: Double, y: Double) -> Int {
        var params = (cos, sin, x, y)
        let h = context.handle
        let out = withUnsafeMutablePointer(to: &params) { ptr in
            GEOSGeom_transformXY_r(h, geometry, { px, py, userdata in
                guard let px, let py, let p = userdata?.assumingMemoryBound(to: (Double, Double, Double, Double).self)
                else { return 0 }
                let (c, s, ax, ay) = p.pointee
                let dx = px.pointee - ax, dy = py.pointee - ay
                px.pointee = ax + (c * dx - s * dy)
                py.pointee = ay + (s * dx + c * dy)
                return 1
            }, ptr)
        }
        guard let out else { preconditionFailure("GEOSGeom_transformXY_r failed") }
        defer { GEOSGeom_destroy_r(h, out) }
        return Int(GEOSGetNumCoordinates_r(h, out))
    }

    /// `GEOSSimplify_r` (Douglas–Peucker) at `tolerance`: the simplified geometry's vertex count.
    /// - Complexity: GEOS's Douglas–Peucker, O(n log n) expected for n vertices.
    public func simplifiedVertexCount(tolerance: Double) -> Int {
        let h = context.handle
        guard let out = GEOSSimplify_r(h, geometry, tolerance) else { preconditionFailure("GEOSSimplify_r failed") }
        defer { GEOSGeom_destroy_r(h, out) }
        return Int(GEOSGetNumCoordinates_r(h, out))
    }
}
