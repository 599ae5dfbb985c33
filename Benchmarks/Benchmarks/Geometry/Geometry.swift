import Benchmark
import BenchmarkSupport
import MapSketchGeometry

/// Ring sizes (vertices) of the self-intersecting polygons simplified.
let ringSizes: [(n: Int, label: String)] = [(1_000, "1k"), (10_000, "10k"), (100_000, "100k")]

let benchmarks: @Sendable () -> Void = {
    for size in ringSizes {
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

    // GEOS: prepared point-in-polygon on one large polygon, the exact test behind polygon hit tests.
    for size in ringSizes {
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
