import Foundation
import Benchmark
import BenchmarkSupport
import MapSketch
import MapSketchGeometry

/// The snap tolerance in points and the map's resolution: 5 map units, as in the HitTest suite.
let tolerancePoints = 10.0
let resolution = 0.5
let tolerance = tolerancePoints * resolution
/// Query points cycled through by each benchmark (a power of two, so `& mask` picks one).
let queryCount = 1_024

/// A map whose sketch (an empty polyline, or `sketch`) snaps to the graphics layer "g" holding
/// every graphic of `map` (vertices and edges on), at `resolution`. The caller keeps the map
/// alive (a layer holds its map weakly).
@MainActor
func makeSnappingMap(_ map: SyntheticMap?, sketch: Geometry? = nil) -> (MapView, SketchLayer) {
    let view = MapView(
        screenSize: ScreenSize(width: 800, height: 800), viewport: Viewport(center: Point(0, 0), resolution: resolution))
    do {
        if let map {
            let layer = GraphicsLayer()
            _ = try layer.add(contentsOf: (0..<map.count).map { Graphic(geometry: map.geometry($0)) })
            try view.addLayer(layer, named: "g")
        }
        let s = try sketch.map { try SketchLayer(geometry: $0) } ?? SketchLayer(geometryType: .polyline)
        try view.addLayer(s, named: "sketch")
        var settings = SnapSettings(isEnabled: true, tolerance: tolerancePoints)
        if map != nil { settings.layers = [SnapLayerSource(name: "g")] }
        s.snapSettings = settings
        return (view, s)
    } catch {
        preconditionFailure("benchmark map rejected: \(error)")
    }
}

/// Measures snap queries over `queries`, cycled (the measured region is the loop only).
///
/// Every loop here (and its GEOS peer's) counts the hits with `if case .some`, not `!= nil`: a
/// ``SnapTarget`` is `Hashable`, so `!= nil` on it picks `Optional`'s `Equatable` comparison,
/// which copies the 146-byte result and a nil into a tuple and destroys the tuple through the
/// runtime's generic witnesses on every query (about 165 instructions and 35 ns, a fifth of a
/// snap at 1M graphics), while a GEOS result (a tuple, not `Equatable`) is compared with nil
/// directly.
func measureSnaps(_ benchmark: Benchmark, _ sketch: SketchLayer, _ queries: [Point], context: SnapContext) async {
    let layer = UncheckedSendable(sketch)
    await Suite.onMainActor(benchmark) { iterations in
        var found = 0
        for i in iterations {
            if case .some = layer.value.snapTarget(for: queries[i & (queryCount - 1)], context: context) { found &+= 1 }
        }
        blackHole(found)
    }
}

/// Measures a GEOS peer's snap queries over `queries`, cycled, on the main actor as MapSketch's
/// are (`Suite.onMainActor`); `snaps` says whether a query found a target.
func measureGEOSSnaps(_ benchmark: Benchmark, _ queries: [Point], _ snaps: @escaping @MainActor @Sendable (Point) -> Bool) async {
    await Suite.onMainActor(benchmark) { iterations in
        var found = 0
        for i in iterations where snaps(queries[i & (queryCount - 1)]) { found &+= 1 }
        blackHole(found)
    }
}

/// A GPS-like track of `n` vertices: steps of 2 map units whose heading drifts by up to 0.1 rad a
/// step (a big traced or freehand sketch; a pure random walk, which crosses itself everywhere,
/// is a scribble no one edits).
func walk(_ n: Int) -> [Point] {
    var rng = SplitMix64(seed: 16)
    var p = Point(0, 0)
    var heading = 0.0
    return (0..<n).map { _ in
        defer {
            heading += rng.double(-0.1, 0.1)
            p = Point(x: p.x + 2 * cos(heading), y: p.y + 2 * sin(heading))
        }
        return p
    }
}

/// Queries near the sketch `path`: half within 3 map units of a random vertex, half 50 to its
/// right (mostly out of reach).
func sketchQueries(_ path: [Point]) -> [Point] {
    var rng = SplitMix64(seed: 7)
    return (0..<queryCount).map { q -> Point in
        let v = path[rng.int(below: path.count)]
        return q % 2 == 0 ? Point(x: v.x + rng.double(-3, 3), y: v.y + rng.double(-3, 3)) : Point(x: v.x + 50, y: v.y)
    }
}

let benchmarks: @Sendable () -> Void = {
    for kind in [GraphicKind.point, .polyline] {
        let name = "\(kind.rawValue)s.1M"

        // MapSketch: the sketch's snap query with a 1M-graphic layer as its source: the layer's
        // nearest vertex and nearest edge through its R-tree, the sketch's own (empty) sources,
        // the precedence.
        Benchmark("Snap.\(name).MapSketch", configuration: Suite.configuration(scalingFactor: .kilo)) {
            (benchmark: Benchmark, state: UncheckedSendable<(MapView, SketchLayer, [Point])>) async in
            await measureSnaps(benchmark, state.value.1, state.value.2, context: .free)
        } setup: {
            let map = SyntheticMap(kind: kind, count: 1_000_000)
            let queries = map.queryPoints(queryCount)
            let (view, sketch) = await makeSnappingMap(map)
            // Check against GEOS: the vertex snap of points, the edge snap of lines, the same
            // point at the same distance.
            let geos = GEOSSnapIndex(graphics: GEOSGraphics(context: GEOSContext(), map: map))
            await MainActor.run {
                var s = sketch.snapSettings
                s.layers = [SnapLayerSource(name: "g", vertices: kind == .point, edges: kind != .point)]
                sketch.snapSettings = s
                for q in queries.prefix(64) {
                    let a = sketch.snapTarget(for: q, context: .free)
                    let b = geos.snap(q, tolerance: tolerance)
                    precondition((a == nil) == (b == nil), "MapSketch and GEOS disagree on a snap at \(q)")
                    if let a, let b { precondition(abs(a.distance - b.distance) < 1e-9, "snap distances differ at \(q): \(a) vs \(b)") }
                }
                s.layers = [SnapLayerSource(name: "g")]
                sketch.snapSettings = s
            }
            return UncheckedSendable((view, sketch, queries))
        }

        // GEOS: STRtree query with the tolerance square, GEOSDistance to each candidate,
        // GEOSNearestPoints on the nearest.
        // Measured on the main actor like MapSketch's (see `Suite.onMainActor`).
        Benchmark("Snap.\(name).GEOS", configuration: Suite.configuration(scalingFactor: .kilo)) {
            (benchmark: Benchmark, state: (GEOSSnapIndex, [Point])) async in
            let index = UncheckedSendable(state.0)
            await measureGEOSSnaps(benchmark, state.1) {
                if case .some = index.value.snap($0, tolerance: tolerance) { true } else { false }
            }
        } setup: {
            let map = SyntheticMap(kind: kind, count: 1_000_000)
            return (GEOSSnapIndex(graphics: GEOSGraphics(context: GEOSContext(), map: map)), map.queryPoints(queryCount))
        }
    }

    // MapSketch: the snap query on a 1M-vertex sketch (its own vertices and edges, through the
    // chunked storage's envelope-pruned walks), moving a vertex in the middle.
    Benchmark("Snap.sketch.1M.MapSketch", configuration: Suite.configuration(scalingFactor: .kilo)) {
        (benchmark: Benchmark, state: UncheckedSendable<(MapView, SketchLayer, [Point])>) async in
        await measureSnaps(benchmark, state.value.1, state.value.2, context: .move(part: 0, index: 500_000))
    } setup: {
        let path = walk(1_000_000)
        let queries = sketchQueries(path)
        let (view, sketch) = await makeSnappingMap(nil, sketch: .polyline(Polyline(paths: [path])))
        await MainActor.run {
            precondition(sketch.snapTarget(for: path[500_001], context: .move(part: 0, index: 500_000)) != nil, "no snap")
        }
        return UncheckedSendable((view, sketch, queries))
    }

    // GEOS: the nearest point of the same 1M-vertex line, prepared (its segments indexed).
    Benchmark("Snap.sketch.1M.GEOS", configuration: Suite.configuration(scalingFactor: .kilo)) {
        (benchmark: Benchmark, state: (GEOSPreparedLine, [Point])) async in
        let line = UncheckedSendable(state.0)
        await measureGEOSSnaps(benchmark, state.1) {
            if case .some = line.value.snap($0, tolerance: tolerance) { true } else { false }
        }
    } setup: {
        let path = walk(1_000_000)
        let queries = sketchQueries(path)
        return (GEOSPreparedLine(context: GEOSContext(), path: path), queries)
    }
}
