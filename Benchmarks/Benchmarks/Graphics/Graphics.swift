import Benchmark
import BenchmarkSupport
@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry

/// Bytes the layer holds per graphic, spatial index included: the growth of the C library's
/// in-use count (`mallinfo2`) from before the input columns were made to after the layer was
/// built and the input let go of.
let bytesPerGraphic = BenchmarkMetric.custom("bytesPerGraphic", polarity: .prefersSmaller, useScalingFactor: false)
/// The same as resident memory: the growth of the process's RSS (`/proc/self/statm`).
let residentBytesPerGraphic = BenchmarkMetric.custom(
    "residentBytesPerGraphic", polarity: .prefersSmaller, useScalingFactor: false)
/// What one more numeric (double) attribute adds per graphic.
let bytesPerExtraNumeric = BenchmarkMetric.custom(
    "bytesPerExtraNumeric", polarity: .prefersSmaller, useScalingFactor: false)

/// A layer holding `batch`.
@MainActor
func layer(_ batch: GraphicColumns, renderer: Renderer? = nil) -> GraphicsLayer {
    let layer = GraphicsLayer()
    layer.renderer = renderer
    do {
        try layer.add(columns: batch)
    } catch {
        preconditionFailure("generated columns rejected: \(error)")
    }
    return layer
}

/// Builds a layer from freshly made columns and returns it with the bytes it holds (allocated and
/// resident) per graphic; the columns are let go of before the second reading.
@MainActor
func measuredLoad(count n: Int, density: Bool = false, names: Bool = false, _ timed: Benchmark? = nil)
    -> (GraphicsLayer, Int, Int)
{
    let a0 = Memory.allocatedBytes(), r0 = Memory.residentBytes()
    var l: GraphicsLayer?
    do {
        let batch = PointFeatures.columns(count: n, density: density, names: names)
        timed?.startMeasurement()
        l = layer(batch)
        timed?.stopMeasurement()
    }
    guard let l else { preconditionFailure("no layer") }
    return (l, (Memory.allocatedBytes() - a0) / n, (Memory.residentBytes() - r0) / n)
}

/// Registers a memory benchmark (three loads): `measure` runs on the main actor and returns the
/// figure reported as `metric`.
func memoryBenchmark(_ name: String, _ metric: BenchmarkMetric, _ measure: @escaping @MainActor @Sendable () -> Int) {
    Benchmark(
        name,
        configuration: Suite.configuration(maxSeconds: 10, maxIterations: 3, warmupIterations: 1, extraMetrics: [metric])
    ) { benchmark async in
        let handle = UncheckedSendable(benchmark)
        await MainActor.run { handle.value.measurement(metric, measure()) }
    }
}

/// 50 states, each its own marker size: a one-field unique value renderer (`variant` shifts the
/// sizes so two renderers differ).
func statesRenderer(_ variant: Int) -> Renderer {
    .uniqueValue(
        UniqueValueRenderer(
            field: "STATE",
            uniqueValues: PointFeatures.states.enumerated().map { i, s in
                UniqueValue(value: s, symbol: .simpleMarker(SimpleMarkerSymbol(size: Double(4 + (i + variant) % 12))))
            }, defaultSymbol: .simpleMarker(SimpleMarkerSymbol(size: 2))))
}

/// 16 class breaks over DENSITY, 0 … 1,600 (`variant` shifts the symbols).
func densityRenderer(_ variant: Int) -> Renderer {
    .classBreaks(
        ClassBreaksRenderer(
            field: "DENSITY", minValue: 0,
            breaks: (1...16).map {
                ClassBreak(
                    maxValue: Double($0 * 100),
                    symbol: .simpleMarker(SimpleMarkerSymbol(size: Double(($0 + variant) % 16 + 2))))
            },
            defaultSymbol: .simpleMarker(SimpleMarkerSymbol())))
}

let benchmarks: @Sendable () -> Void = {
    // Bulk load of point graphics with two attributes (an integer and a short string) through
    // add(columns:): time of the load, and bytes held per graphic (layer and index).
    for (n, label) in [(1_000_000, "1M"), (10_000_000, "10M")] {
        Benchmark(
            "Load.points.\(label).MapSketch",
            configuration: Suite.configuration(
                maxSeconds: n > 1_000_000 ? 60 : 10, maxIterations: n > 1_000_000 ? 3 : 10, warmupIterations: 1,
                extraMetrics: [.cpuTotal, bytesPerGraphic, residentBytesPerGraphic])
        ) { benchmark async in
            let handle = UncheckedSendable(benchmark)
            await MainActor.run {
                let (l, bytes, resident) = measuredLoad(count: n, handle.value)
                precondition(
                    l.count == n && l.graphic(GraphicID(rawValue: n - 1))?.attributes["OBJECTID"] == .integer(n - 1))
                handle.value.measurement(bytesPerGraphic, bytes)
                handle.value.measurement(residentBytesPerGraphic, resident)
                blackHole(l)
            }
        }
    }

    // What a third attribute (a double) adds per graphic: two loads, with and without it.
    memoryBenchmark("Memory.extraNumeric.1M.MapSketch", bytesPerExtraNumeric) {
        let (two, bytes2, _) = measuredLoad(count: 1_000_000)
        let (three, bytes3, _) = measuredLoad(count: 1_000_000, density: true)
        blackHole((two, three))
        return bytes3 - bytes2
    }

    // The same points with a third, unique string per graphic ("Feature 123456"): interning
    // cannot share it, so each costs its bytes and a dictionary entry (reported, no target).
    memoryBenchmark("Memory.uniqueNames.1M.MapSketch", bytesPerGraphic) {
        let (l, bytes, _) = measuredLoad(count: 1_000_000, names: true)
        blackHole(l)
        return bytes
    }

    // The same 1M points added as Graphic values (each with its attribute dictionary).
    Benchmark(
        "AddGraphics.points.1M.MapSketch",
        configuration: Suite.configuration(
            maxSeconds: 10, maxIterations: 10, warmupIterations: 1, extraMetrics: [.cpuTotal])
    ) {
        (benchmark: Benchmark, graphics: [Graphic]) async in
        let handle = UncheckedSendable(benchmark)
        await MainActor.run {
            let l = GraphicsLayer()
            handle.value.startMeasurement()
            do { try l.add(contentsOf: graphics) } catch { preconditionFailure("\(error)") }
            handle.value.stopMeasurement()
            precondition(l.count == graphics.count)
            blackHole(l)
        }
    } setup: {
        let batch = PointFeatures.columns(count: 1_000_000)
        return (0..<batch.count).map { batch.graphic(at: $0) }
    }

    // Symbol resolution of every graphic of a 1M layer (setting its renderer: one pass over the
    // attribute column), alternating two renderers so each pass changes every symbol.
    for (name, make, density) in [("uniqueValue", statesRenderer, false), ("classBreaks", densityRenderer, true)] {
        Benchmark(
            "SymbolPass.\(name).1M.MapSketch", configuration: Suite.configuration(maxSeconds: 5, maxIterations: 200)
        ) {
            (benchmark: Benchmark, l: UncheckedSendable<GraphicsLayer>) async in
            let handle = UncheckedSendable(benchmark)
            await MainActor.run {
                handle.value.startMeasurement()
                for i in handle.value.scaledIterations { l.value.renderer = make(i & 1) }
                handle.value.stopMeasurement()
                blackHole(l.value.symbolMismatchCount)
            }
        } setup: {
            await MainActor.run {
                let l = layer(PointFeatures.columns(count: 1_000_000, density: density), renderer: make(1))
                // Checked against the dictionary path on a sample of graphics.
                let r = make(0)
                l.renderer = r
                for id in stride(from: 0, to: 1_000_000, by: 997).map({ GraphicID(rawValue: $0) }) {
                    precondition(l.resolvedSymbol(id) == l.graphic(id).flatMap { r.symbol(for: $0.attributes) })
                }
                return UncheckedSendable(l)
            }
        }
    }

    // A callout built from the columns for a graphic a tap hit, in a 1M layer.
    Benchmark("Callout.points.1M.MapSketch", configuration: Suite.configuration(scalingFactor: .kilo)) {
        (benchmark: Benchmark, state: (UncheckedSendable<GraphicsLayer>, [GraphicID])) async in
        let handle = UncheckedSendable(benchmark)
        await MainActor.run {
            let (l, hits) = state
            handle.value.startMeasurement()
            var length = 0
            for i in handle.value.scaledIterations {
                length &+=
                    l.value.calloutContent(hits[i & 1023], screen: ScreenPoint(x: 0, y: 0), mapPoint: Point(0, 0))?
                    .title.utf8.count ?? 0
            }
            handle.value.stopMeasurement()
            blackHole(length)
        }
    } setup: {
        await MainActor.run {
            var batch = PointFeatures.columns(count: 1_000_000)
            batch.infoTemplate = .callout(
                CalloutTemplate(title: "${STATE} #${OBJECTID}", detail: "Feature ${OBJECTID}"))
            let l = layer(batch)
            // Taps a point beside 1,024 graphics spread over the layer: the topmost graphic hit.
            var hits: [GraphicID] = []
            for row in stride(from: 0, to: 1_000_000, by: 976).prefix(1024) {
                guard case .point(let p?) = batch.geometry[row] else { preconditionFailure("not a point") }
                if let id = l.topmostHit(mapPoint: Point(p.x + 1, p.y), tolerance: 10, resolution: 0.5) {
                    hits.append(id)
                }
            }
            precondition(hits.count == 1024, "every tap hits")
            for id in hits.prefix(32) {
                let g = l.graphic(id)
                let want = g.flatMap {
                    $0.infoTemplate?.content(for: $0, screen: ScreenPoint(x: 0, y: 0), mapPoint: Point(0, 0))
                }
                precondition(l.calloutContent(id, screen: ScreenPoint(x: 0, y: 0), mapPoint: Point(0, 0)) == want)
            }
            return (UncheckedSendable(l), hits)
        }
    }

    // A GeoJSON FeatureCollection of 100k points with their two properties read into columns and
    // loaded into a layer (the reader: points and property strings straight from the bytes into
    // the columns).
    Benchmark(
        "ReadGeoJSON.points.100k.MapSketch",
        configuration: Suite.configuration(maxSeconds: 5, maxIterations: 50, extraMetrics: [.cpuTotal])
    ) { (benchmark: Benchmark, text: [UInt8]) async in
        let handle = UncheckedSendable(benchmark)
        await MainActor.run {
            handle.value.startMeasurement()
            let l = text.withUnsafeBytes { bytes -> GraphicsLayer? in
                guard let columns = try? GeoJSON.decodeColumns(bytes) else { return nil }
                return layer(GraphicColumns(columns))
            }
            handle.value.stopMeasurement()
            precondition(l?.count == 100_000)
            blackHole(l)
        }
    } setup: {
        try geoJSONPoints(100_000)
    }

    // GEOS: the same text through GEOS's GeoJSON reader (one GeometryCollection of the points;
    // the properties parsed and dropped), the geometry destroyed outside the measurement.
    Benchmark(
        "ReadGeoJSON.points.100k.GEOS",
        configuration: Suite.configuration(maxSeconds: 5, maxIterations: 50, extraMetrics: [.cpuTotal])
    ) { (benchmark: Benchmark, state: (GEOSGeoJSONPeer, [CChar])) in
        let (reader, text) = state
        benchmark.startMeasurement()
        let g = reader.read(text)
        benchmark.stopMeasurement()
        precondition(g?.geometryCount == 100_000)
        blackHole(g)
    } setup: {
        let text = try geoJSONPoints(100_000).map { CChar(bitPattern: $0) } + [0]
        return (GEOSGeoJSONPeer(context: GEOSContext()), text)
    }
}

/// The UTF-8 text of a GeoJSON FeatureCollection of `count` point features, each with the
/// `OBJECTID` (an integer) and `STATE` (a short string) properties of ``PointFeatures``.
func geoJSONPoints(_ count: Int) throws -> [UInt8] {
    let batch = PointFeatures.columns(count: count)
    // The library reads GeoJSON features into columns but writes only geometries: the
    // FeatureCollection's text is written here. Attribute names in sorted order, integers as
    // integers, anything else as its display string (the names here need no escaping).
    var out = #"{"type":"FeatureCollection","features":["#
    for row in 0..<batch.count {
        let g = batch.graphic(at: row)
        let point = GeoJSON.encode(wgs84: g.geometry)
        let properties = g.attributes.sorted { $0.key < $1.key }.map { name, value -> String in
            switch value {
            case .integer(let i): "\"\(name)\":\(i)"
            default: "\"\(name)\":\"\(value.displayString)\""
            }
        }
        if row > 0 { out += "," }
        out += #"{"type":"Feature","geometry":\#(point),"properties":{\#(properties.joined(separator: ","))}}"#
    }
    out += "]}"
    let text = Array(out.utf8)
    let check = try GeoJSON.decodeColumns(String(decoding: text, as: UTF8.self))
    precondition(check.count == count && check.field(named: "STATE")?.kind == .string)
    return text
}
