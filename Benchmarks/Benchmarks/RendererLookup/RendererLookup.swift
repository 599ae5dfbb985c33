import Benchmark
import BenchmarkSupport
@_spi(MapSketchInternal) import MapSketch
import MapSketchGeometry
import MapSketchReplay

/// Lookups per benchmark input set (a power of two, so `& mask` picks one).
let inputCount = 4_096

/// 16 class breaks over population density, 0 ... 1,600 in steps of 100.
func classBreaks() -> ClassBreaksRenderer {
    let breaks = (1...16).map { k in
        ClassBreak(label: "≤ \(k * 100)", maxValue: Double(k * 100), symbol: .simpleMarker(.init(size: Double(4 + k))))
    }
    return ClassBreaksRenderer(field: "DENSITY", minValue: 0, breaks: breaks, defaultSymbol: .simpleMarker(.init()))
}

/// The 50 US state abbreviations: the unique values of the one-field renderer.
let states = [
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
    "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND",
    "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
]
let roadClasses = ["motorway", "trunk", "primary", "secondary", "tertiary", "residential", "service", "track"]
let surfaces = ["paved", "gravel", "dirt", "unknown"]

/// Graphic attribute dictionaries as a layer holds them: the rendered fields plus a few others.
func attributes(_ count: Int, seed: UInt64 = 9) -> [[String: AttributeValue]] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { i in
        [
            "OBJECTID": .integer(i),
            "NAME": .string("Feature \(i)"),
            "DENSITY": .double(rng.double(-50, 1_700)),  // some below the minimum, some above the last break
            "STATE": .string(rng.int(below: 20) == 0 ? "PR" : states[rng.int(below: states.count)]),  // 5% unmatched
            "CLASS": .string(roadClasses[rng.int(below: roadClasses.count)]),
            "LANES": .integer(1 + rng.int(below: 4)),
            "SURFACE": .string(surfaces[rng.int(below: surfaces.count)]),
        ]
    }
}

/// The attribute columns of a graphics layer holding one point graphic per attribute dictionary
/// (`GraphicsLayer.attributeColumns`: typed, strings interned once per field), as the layer
/// stores them and its renderer pass reads them.
func layerColumns(_ rows: [[String: AttributeValue]]) async -> [AttributeColumn] {
    await MainActor.run {
        let names = ["OBJECTID", "NAME", "DENSITY", "STATE", "CLASS", "LANES", "SURFACE"]
        let batch = GraphicColumns(
            geometry: GeometryColumn(x: rows.indices.map(Double.init), y: rows.indices.map { _ in 0 }),
            attributes: names.map { name in AttributeColumn(name, values: rows.map { $0[name] }) })
        let layer = GraphicsLayer()
        do { try layer.add(columns: batch) } catch { preconditionFailure("\(error)") }
        precondition(layer.attributeColumns.allSatisfy { $0.kind != .boxed }, "typed columns")
        return layer.attributeColumns
    }
}

/// A renderer bound to a layer's columns, checked row by row against the dictionary path.
func boundColumns(_ renderer: Renderer, _ rows: [[String: AttributeValue]]) async -> (BoundRenderer, [AttributeColumn]) {
    let columns = await layerColumns(rows)
    let bound = BoundRenderer(renderer, columns: columns)
    for (i, row) in rows.enumerated() {
        precondition(bound.symbolIndex(row: i, in: columns) == renderer.symbolIndex(for: row), "bound lookup disagrees at row \(i)")
    }
    return (bound, columns)
}

/// Looks up every row's symbol through `bound`, cycling over the rows.
func measureBound(_ benchmark: Benchmark, _ state: (BoundRenderer, [AttributeColumn])) {
    let (bound, columns) = state
    var sum = 0
    for i in benchmark.scaledIterations { sum &+= bound.symbolIndex(row: i & (inputCount - 1), in: columns) }
    blackHole(sum)
}

/// Runs `lookup` over every input and checks it against `reference`, then returns the inputs.
func checked<T>(_ inputs: [T], _ lookup: (T) -> Int, _ reference: (T) -> Int) -> [T] {
    for x in inputs { precondition(lookup(x) == reference(x), "renderer lookup disagrees with the reference") }
    return inputs
}

let benchmarks: @Sendable () -> Void = {
    let lookups = Suite.configuration(scalingFactor: .kilo)

    // Class breaks, 16 breaks: binary search over a flat array of upper bounds.
    Benchmark("ClassBreaks.16.value.MapSketch", configuration: lookups) {
        (benchmark: Benchmark, state: (ClassBreaksRenderer, [Double])) in
        let (renderer, values) = state
        var sum = 0
        for i in benchmark.scaledIterations { sum &+= renderer.breakIndex(for: values[i & (inputCount - 1)]) }
        blackHole(sum)
    } setup: {
        let r = classBreaks()
        var rng = SplitMix64(seed: 1)
        let values = (0..<inputCount).map { _ in rng.double(-50, 1_700) }
        let inputs = checked(values, r.breakIndex) { v in
            v < 0 ? -1 : (r.breaks.firstIndex { v < $0.maxValue } ?? -1)
        }
        return (r, inputs)
    }

    // The same through a graphic's attributes (the field looked up in its dictionary).
    Benchmark("ClassBreaks.16.attributes.MapSketch", configuration: lookups) {
        (benchmark: Benchmark, state: (Renderer, [[String: AttributeValue]])) in
        let (renderer, inputs) = state
        var sum = 0
        for i in benchmark.scaledIterations { sum &+= renderer.symbolIndex(for: inputs[i & (inputCount - 1)]) }
        blackHole(sum)
    } setup: {
        let r = classBreaks()
        let renderer = Renderer.classBreaks(r)
        let inputs = checked(attributes(inputCount), renderer.symbolIndex) { a in
            let v = a["DENSITY"]?.numericValue ?? -1
            return v < 0 ? r.breaks.count : (r.breaks.firstIndex { v < $0.maxValue } ?? r.breaks.count)
        }
        return (renderer, inputs)
    }

    // The same through the attribute columns a graphics layer stores (the double column read
    // unboxed), as the layer's renderer pass does.
    Benchmark("ClassBreaks.16.columns.MapSketch", configuration: lookups) { benchmark, state in
        measureBound(benchmark, state)
    } setup: {
        await boundColumns(.classBreaks(classBreaks()), attributes(inputCount))
    }

    // Unique value on one string field (50 values + default).
    let one = UniqueValueRenderer(
        field: "STATE", uniqueValues: states.map { UniqueValue(value: $0, symbol: .simpleMarker(.init())) },
        defaultSymbol: .simpleMarker(.init(size: 2)))
    Benchmark("UniqueValue.1field.value.MapSketch", configuration: lookups) {
        (benchmark: Benchmark, values: [AttributeValue]) in
        var sum = 0
        for i in benchmark.scaledIterations { sum &+= one.valueIndex(values[i & (inputCount - 1)]) }
        blackHole(sum)
    } setup: {
        checked(attributes(inputCount).map { $0["STATE"] ?? .null }, { one.valueIndex($0) }) { v in
            if case .string(let s) = v { states.firstIndex(of: s) ?? -1 } else { -1 }
        }
    }
    Benchmark("UniqueValue.1field.attributes.MapSketch", configuration: lookups) {
        (benchmark: Benchmark, inputs: [[String: AttributeValue]]) in
        let renderer = Renderer.uniqueValue(one)
        var sum = 0
        for i in benchmark.scaledIterations { sum &+= renderer.symbolIndex(for: inputs[i & (inputCount - 1)]) }
        blackHole(sum)
    } setup: {
        checked(attributes(inputCount), { Renderer.uniqueValue(one).symbolIndex(for: $0) }) { a in
            if case .string(let s)? = a["STATE"] { states.firstIndex(of: s) ?? states.count } else { states.count }
        }
    }

    // The same through the layer's columns: the string column's interned ids map to the
    // renderer's values through a table built once per binding.
    Benchmark("UniqueValue.1field.columns.MapSketch", configuration: lookups) { benchmark, state in
        measureBound(benchmark, state)
    } setup: {
        await boundColumns(.uniqueValue(one), attributes(inputCount))
    }

    // Unique value on three fields (class, lanes, surface: 8 × 4 × 4 = 128 combinations).
    let combos = roadClasses.flatMap { c in (1...4).flatMap { l in surfaces.map { s in "\(c),\(l),\(s)" } } }
    let three: UniqueValueRenderer
    do {
        three = try UniqueValueRenderer(
            fields: ["CLASS", "LANES", "SURFACE"], fieldDelimiter: ",",
            uniqueValues: combos.map { UniqueValue(value: $0, symbol: .simpleLine(.init())) },
            defaultSymbol: .simpleLine(.init(width: 0.5)))
    } catch {
        preconditionFailure("three-field renderer rejected: \(error)")
    }
    func reference3(_ a: [String: AttributeValue]) -> Int {
        let key = ["CLASS", "LANES", "SURFACE"].map { a[$0]?.displayString ?? "" }.joined(separator: ",")
        return combos.firstIndex(of: key) ?? -1
    }
    Benchmark("UniqueValue.3fields.value.MapSketch", configuration: lookups) {
        (benchmark: Benchmark, values: [(AttributeValue, AttributeValue, AttributeValue)]) in
        var sum = 0
        for i in benchmark.scaledIterations {
            let v = values[i & (inputCount - 1)]
            sum &+= three.valueIndex(v.0, v.1, v.2)
        }
        blackHole(sum)
    } setup: {
        let inputs = attributes(inputCount)
        for a in inputs { precondition(three.valueIndex(for: a) == reference3(a)) }
        return inputs.map { ($0["CLASS"] ?? .null, $0["LANES"] ?? .null, $0["SURFACE"] ?? .null) }
    }
    Benchmark("UniqueValue.3fields.attributes.MapSketch", configuration: lookups) {
        (benchmark: Benchmark, inputs: [[String: AttributeValue]]) in
        let renderer = Renderer.uniqueValue(three)
        var sum = 0
        for i in benchmark.scaledIterations { sum &+= renderer.symbolIndex(for: inputs[i & (inputCount - 1)]) }
        blackHole(sum)
    } setup: {
        checked(attributes(inputCount), { three.valueIndex(for: $0) }, reference3)
    }

    // The same through the layer's columns: two string columns by their interned ids, the
    // integer column (LANES) by its value.
    Benchmark("UniqueValue.3fields.columns.MapSketch", configuration: lookups) { benchmark, state in
        measureBound(benchmark, state)
    } setup: {
        await boundColumns(.uniqueValue(three), attributes(inputCount))
    }
}
