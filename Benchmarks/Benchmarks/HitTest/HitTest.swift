import Benchmark
import BenchmarkSupport
import MapSketch
@_spi(MapSketchInternal) import MapSketchGeometry

/// Tolerance of a tap in points, and the map's resolution (map units per point): together 5 map
/// units, the tolerance the GEOS peer and the brute-force reference use.
let tolerancePoints = 10.0
let resolution = 0.5
let tolerance = tolerancePoints * resolution
/// Query points cycled through by each benchmark (a power of two, so `& mask` picks one).
let queryCount = 1_024

/// Checks that `hits` answers the first queries of `map` exactly like the brute-force reference.
func verify(_ map: SyntheticMap, _ queries: [Point], engine: String, _ hits: (Point) -> [Int]) {
    for q in queries.prefix(32) {
        let expected = map.referenceHits(q, tolerance: tolerance)
        precondition(hits(q) == expected, "\(engine) hit test disagrees with the reference at \(q)")
    }
}

/// A graphics layer holding every graphic of `map` (no symbol, no renderer: the bare geometry
/// is hit within the tolerance, as in GEOS). Graphic ids are the indices in `map`.
@MainActor
func makeLayer(_ map: SyntheticMap) -> GraphicsLayer {
    let layer = GraphicsLayer()
    let graphics = (0..<map.count).map { Graphic(geometry: map.geometry($0)) }
    do {
        _ = try layer.add(contentsOf: graphics)
    } catch {
        preconditionFailure("generated graphics rejected: \(error)")
    }
    return layer
}

/// Measures the layer's hit test over the queries, cycled (the measured region is the loop only).
func measureHits(_ benchmark: Benchmark, _ layer: GraphicsLayer, _ queries: [Point]) async {
    let layer = UncheckedSendable(layer)
    await Suite.onMainActor(benchmark) { iterations in
        var found = 0
        for i in iterations {
            let q = queries[i & (queryCount - 1)]
            found &+= layer.value.hitTest(mapPoint: q, tolerance: tolerancePoints, resolution: resolution).count
        }
        blackHole(found)
    }
}

let benchmarks: @Sendable () -> Void = {
    for kind in GraphicKind.allCases {
        let sizes = kind == .point ? Suite.sizes + [Suite.huge] : Suite.sizes
        for size in sizes {
            let name = "\(kind.rawValue)s.\(size.label)"

            // MapSketch: GraphicsLayer hit test (packed Hilbert R-tree walk, exact test, topmost first).
            Benchmark("HitTest.\(name).MapSketch", configuration: Suite.configuration(scalingFactor: .kilo)) {
                (benchmark: Benchmark, state: (GraphicsLayer, [Point])) async in
                await measureHits(benchmark, state.0, state.1)
            } setup: {
                let map = SyntheticMap(kind: kind, count: size.n)
                let queries = map.queryPoints(queryCount)
                let layer = await makeLayer(map)
                await MainActor.run {
                    verify(map, queries, engine: "MapSketch") {
                        layer.hitTest(mapPoint: $0, tolerance: tolerancePoints, resolution: resolution).map(\.rawValue)
                    }
                }
                return (layer, queries)
            }

            // MapSketch: bulk load of the spatial index from every graphic's envelope.
            Benchmark(
                "IndexBuild.\(name).MapSketch",
                configuration: Suite.configuration(
                    maxIterations: size.n >= 1_000_000 ? 10 : 100, extraMetrics: [Suite.indexBytesPerGraphic])
            ) { (benchmark: Benchmark, envelopes: [Envelope]) in
                for _ in benchmark.scaledIterations {
                    var index = SpatialIndex()
                    index.bulkLoad(count: envelopes.count) { envelopes[$0] }
                    precondition(index.count == envelopes.count)
                    benchmark.measurement(Suite.indexBytesPerGraphic, index.memoryFootprint / envelopes.count)
                    blackHole(index)
                }
            } setup: {
                let map = SyntheticMap(kind: kind, count: size.n)
                return (0..<map.count).map { Envelope(points: map.vertices(of: $0)) ?? Envelope(xmin: 0, ymin: 0, xmax: 0, ymax: 0) }
            }

            guard size.n <= 1_000_000 else { continue }

            // GEOS: STRtree query plus exact test on prepared geometries.
            // Measured on the main actor like MapSketch's (see `Suite.onMainActor`).
            Benchmark("HitTest.\(name).GEOS", configuration: Suite.configuration(scalingFactor: .kilo)) {
                (benchmark: Benchmark, state: (GEOSHitIndex, [Point])) async in
                let (index, queries) = (UncheckedSendable(state.0), state.1)
                await Suite.onMainActor(benchmark) { iterations in
                    var found = 0
                    for i in iterations {
                        found &+= index.value.hitTest(queries[i & (queryCount - 1)], tolerance: tolerance).count
                    }
                    blackHole(found)
                }
            } setup: {
                let map = SyntheticMap(kind: kind, count: size.n)
                let graphics = GEOSGraphics(context: GEOSContext(), map: map)
                let index = GEOSHitIndex(graphics: graphics)
                let queries = map.queryPoints(queryCount)
                verify(map, queries, engine: "GEOS") { index.hitTest($0, tolerance: tolerance) }
                return (index, queries)
            }

            // GEOS: STRtree bulk load of every graphic's envelope (geometries made in setup).
            Benchmark(
                "IndexBuild.\(name).GEOS",
                configuration: Suite.configuration(maxIterations: size.n >= 1_000_000 ? 10 : 100)
            ) { benchmark, graphics in
                for _ in benchmark.scaledIterations {
                    blackHole(GEOSHitIndex(graphics: graphics))
                }
            } setup: {
                GEOSGraphics(context: GEOSContext(), map: SyntheticMap(kind: kind, count: size.n))
            }
        }
    }

    // MapSketch: the same hit test on a layer fed one graphic at a time (100k single adds), so its
    // index is whatever the inserts left: a main tree rebuilt now and then plus the dynamic part
    // of the inserts since (before the log-structured runs, up to an eighth of the layer scanned
    // linearly on every query).
    Benchmark("HitTest.points.100k.incremental.MapSketch", configuration: Suite.configuration(scalingFactor: .kilo)) {
        (benchmark: Benchmark, state: (GraphicsLayer, [Point])) async in
        await measureHits(benchmark, state.0, state.1)
    } setup: {
        let map = SyntheticMap(kind: .point, count: 100_000)
        let queries = map.queryPoints(queryCount)
        let layer = await MainActor.run {
            let layer = GraphicsLayer()
            for i in 0..<map.count {
                do {
                    try layer.add(Graphic(geometry: map.geometry(i)))
                } catch {
                    preconditionFailure("generated graphic rejected: \(error)")
                }
            }
            verify(map, queries, engine: "MapSketch incremental") {
                layer.hitTest(mapPoint: $0, tolerance: tolerancePoints, resolution: resolution).map(\.rawValue)
            }
            return layer
        }
        return (layer, queries)
    }

    // The whole path a tap takes: screen → map transform, layers top to bottom, hit test.
    Benchmark("HitTest.points.1M.MapView", configuration: Suite.configuration(scalingFactor: .kilo)) {
        (benchmark: Benchmark, state: (MapView, [ScreenPoint])) async in
        let (map, taps) = state
        let handle = UncheckedSendable(benchmark)
        await MainActor.run {
            handle.value.startMeasurement()
            var found = 0
            for i in handle.value.scaledIterations {
                found &+= map.hitTest(at: taps[i & (queryCount - 1)], tolerance: tolerancePoints).count
            }
            handle.value.stopMeasurement()
            blackHole(found)
        }
    } setup: {
        let data = SyntheticMap(kind: .point, count: 1_000_000)
        let layer = await makeLayer(data)
        return await MainActor.run {
            let side = data.extent.width
            let map = MapView(
                screenSize: ScreenSize(width: 400, height: 800),
                viewport: Viewport(center: Point(x: side / 2, y: side / 2), resolution: resolution)
            )
            do { try map.addLayer(layer, named: "points") } catch { preconditionFailure("\(error)") }
            // The same query points as taps (many fall off screen: the hit test does not clip).
            let taps = data.queryPoints(queryCount).map { map.toScreen($0) }
            return (map, taps)
        }
    }
}
