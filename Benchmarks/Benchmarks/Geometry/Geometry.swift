import Benchmark
import BenchmarkSupport
import MapSketchGeometry

/// Ring sizes (vertices) of the self-intersecting polygons simplified and of the star polygons
/// tested for containment. (100k-vertex rings made a single run of this suite take minutes on
/// the 2-core CI machine; run them locally by adding the size here.)
let ringSizes: [(n: Int, label: String)] = [(1_000, "1k"), (10_000, "10k")]

/// The polygon's area after `GeometryEngine.simplify` (0 for anything but a polygon).
func simplifiedArea(_ ring: [Point]) -> Double {
    let g = GeometryEngine.simplify(.polygon(Polygon(rings: [ring])))
    return GeometryEngine.area(g)
}

let benchmarks: @Sendable () -> Void = {
    for size in ringSizes {
        // MapSketch: odd-even repair of the same ring (noding, arrangement, face parity).
        Benchmark("Simplify.selfIntersecting.\(size.label).MapSketch", configuration: Suite.configuration(maxIterations: 50)) {
            (benchmark: Benchmark, polygon: Geometry) in
            for _ in benchmark.scaledIterations {
                let result = GeometryEngine.simplify(polygon)
                guard case .polygon(let p) = result, !p.isEmpty else { preconditionFailure("simplify gave no polygon") }
                blackHole(result)
            }
        } setup: {
            let ring = SelfIntersectingRing.make(vertexCount: size.n)
            // Same answer as the peer: the odd-even area equals GEOSMakeValid's (linework) area.
            let ours = simplifiedArea(ring)
            let geos = GEOSContext().polygon(ring: ring).makeValid().area
            precondition(abs(ours - geos) <= 1e-6 * geos, "simplify area \(ours) differs from GEOSMakeValid's \(geos)")
            return .polygon(Polygon(rings: [ring]))
        }

        // GEOS: GEOSMakeValid on the same self-intersecting ring (linework method, GEOS default).
        Benchmark("Simplify.selfIntersecting.\(size.label).GEOS", configuration: Suite.configuration(maxIterations: 50)) {
            benchmark, polygon in
            for _ in benchmark.scaledIterations {
                let result = polygon.makeValid()
                precondition(result.valid && result.area > 0, "GEOSMakeValid gave an invalid or empty result")
                blackHole(result)
            }
        } setup: {
            GEOSContext().polygon(ring: SelfIntersectingRing.make(vertexCount: size.n))
        }
    }

    for size in ringSizes {
        // MapSketch: prepared point in polygon (the edges banded by y, each band sorted by x; the
        // exact even-odd crossing count over one band) on one large polygon.
        Benchmark("PointInPolygon.\(size.label).MapSketch", configuration: Suite.configuration(scalingFactor: .kilo)) {
            (benchmark: Benchmark, state: (PreparedPolygon, [Point])) in
            let (prepared, queries) = state
            var inside = 0
            for i in benchmark.scaledIterations where prepared.contains(queries[i & 1_023]) { inside &+= 1 }
            blackHole(inside)
        } setup: {
            let ring = StarRing.make(vertexCount: size.n)
            let polygon = Polygon(rings: [ring])
            let prepared = PreparedPolygon(polygon)
            let queries = StarRing.queryPoints(1_024)
            for q in queries {
                precondition(prepared.contains(q) == GeometryEngine.contains(polygon, q), "prepared contains disagrees with contains")
            }
            for q in queries.prefix(64) {
                precondition(GeometryEngine.contains(polygon, q) == StarRing.referenceContains(ring, q), "contains disagrees with the reference")
            }
            return (prepared, queries)
        }

        // MapSketch, unprepared: every edge of the ring per query (GeometryEngine.contains).
        Benchmark("PointInPolygon.\(size.label).unprepared.MapSketch", configuration: Suite.configuration(scalingFactor: .kilo)) {
            (benchmark: Benchmark, state: (Polygon, [Point])) in
            let (polygon, queries) = state
            var inside = 0
            for i in benchmark.scaledIterations where GeometryEngine.contains(polygon, queries[i & 1_023]) { inside &+= 1 }
            blackHole(inside)
        } setup: {
            (Polygon(rings: [StarRing.make(vertexCount: size.n)]), StarRing.queryPoints(1_024))
        }

        // GEOS: prepared point-in-polygon on the same polygon (GEOSPrepare builds a segment index).
        Benchmark("PointInPolygon.\(size.label).GEOS", configuration: Suite.configuration(scalingFactor: .kilo)) {
            (benchmark: Benchmark, state: (GEOSPreparedBox, [Point])) in
            let (prepared, queries) = state
            var inside = 0
            for i in benchmark.scaledIterations where prepared.contains(queries[i & 1_023]) { inside &+= 1 }
            blackHole(inside)
        } setup: {
            let ring = StarRing.make(vertexCount: size.n)
            let prepared = GEOSContext().polygon(ring: ring).prepared()
            let queries = StarRing.queryPoints(1_024)
            for q in queries.prefix(64) {
                precondition(prepared.contains(q) == StarRing.referenceContains(ring, q), "GEOS point-in-polygon disagrees with the reference")
            }
            return (prepared, queries)
        }
    }
}
