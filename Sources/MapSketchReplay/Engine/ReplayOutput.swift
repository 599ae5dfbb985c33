import MapSketch
public import MapSketchGeometry

/// What a replay produced: the output document (a golden file's content, described in the
/// <doc:TraceFormat> article) and the final geometry.
public struct ReplayOutput: Sendable {
    /// The output document: sketch (geometry as Esri JSON, validity, parts, vertices, selection,
    /// undo/redo depths, geometry-changed count), map (viewport, layers, graphics, callout), GPS
    /// statistics, event counts and the event log.
    public var document: JSONValue
    /// The final sketch geometry in the map's spatial reference, when the trace has a sketch.
    public var geometry: SpatialGeometry?

    /// The document as pretty JSON with a final newline: the golden file's text.
    public var json: String { JSONWriter.string(document, style: .pretty) + "\n" }

    /// Creates an output.
    package init(document: JSONValue, geometry: SpatialGeometry?) {
        self.document = document
        self.geometry = geometry
    }

    /// The final geometry as text in `format`: Esri JSON (with the map's spatial reference) and
    /// WKT in map coordinates; GeoJSON always in WGS 84 longitude/latitude as RFC 7946 requires,
    /// projected from the map's spatial reference. Heights (z) and measures (m) are written only
    /// when every vertex has them, in every format (``geometryWarnings`` says when some were
    /// left out). Nil when the trace has no sketch.
    /// - Throws: `GeoJSONOutputError` for GeoJSON when the map has no spatial reference or one
    ///   that cannot be projected to WGS 84.
    /// - Complexity: O(n) in the vertices.
    public func geometryText(_ format: GeometryFormat) throws(GeoJSONOutputError) -> String? {
        guard let geometry else { return nil }
        let written = WrittenDimensions(geometry.geometry).applied(to: geometry.geometry)
        return try format.encode(SpatialGeometry(written, spatialReference: geometry.spatialReference))
    }

    /// What ``geometryText(_:)`` leaves out of the final geometry, each a sentence: heights or
    /// measures that only some vertices have (`2 of 5 vertices have no z: the geometry is
    /// written without z, which is written only when every vertex has one`).
    /// - Complexity: O(n) in the vertices.
    public var geometryWarnings: [String] {
        guard let geometry else { return [] }
        let d = WrittenDimensions(geometry.geometry)
        var out: [String] = []
        for (missing, value) in [(d.missingZ, "z"), (d.missingM, "m")] where missing > 0 {
            out.append(
                "\(missing) of \(d.vertices) vertices \(missing == 1 ? "has" : "have") no \(value): the geometry is written without \(value), "
                    + "which is written only when every vertex has one")
        }
        return out
    }
}

extension ReplaySession {
    /// The output document for the events applied so far.
    /// - Complexity: O(n) in the sketch's vertices and the log's entries.
    public func output() -> ReplayOutput {
        log.flush()
        var doc: JSONObject = ["trace": .string(name)]
        if let d = trace.header.description { doc["description"] = .string(d) }
        doc["eventsApplied"] = .integer(Int64(position))
        var geometry: SpatialGeometry?
        if let sketch {
            let g = sketch.geometry
            geometry = SpatialGeometry(g, spatialReference: mapView.spatialReference)
            var s: JSONObject = ["geometryType": .string(sketch.geometryType.rawValue)]
            s["geometry"] = TraceGeometryJSON.encode(g)
            s["valid"] = .bool(sketch.hasEnoughVertices)
            s["parts"] = .integer(Int64(g.parts.count))
            s["vertices"] = .integer(Int64(g.pointCount))
            s["selection"] = ReplayLog.json(sketch.selection)
            s["undoDepth"] = .integer(Int64(sketch.undoCount))
            s["redoDepth"] = .integer(Int64(sketch.redoCount))
            s["geometryChanged"] = .integer(Int64(sketch.geometryChangeCount))
            doc["sketch"] = .object(s)
        }
        var m: JSONObject = [:]
        let v = mapView.viewport
        var vo: JSONObject = ["center": ["x": .number(v.center.x), "y": .number(v.center.y)], "resolution": .number(v.resolution)]
        if v.rotation != 0 { vo["rotation"] = .number(v.rotation) }
        m["viewport"] = .object(vo)
        m["layers"] = .array(mapView.layerNames.map { .string($0) })
        if !graphicsLayers.isEmpty {
            var counts = JSONObject()
            for name in mapView.layerNames { if let l = graphicsLayers[name] { counts[name] = .integer(Int64(l.layer.count)) } }
            m["graphics"] = .object(counts)
        }
        if let c = mapView.callout {
            m["callout"] = ["layer": .string(c.layerName), "title": .string(c.title), "detail": .string(c.detail)]
        }
        doc["map"] = .object(m)
        if gps.fixes > 0 { doc["gps"] = gps.report(sketch: sketch, mapSpatialReference: mapView.spatialReference) }
        var counts = JSONObject()
        for (event, n) in log.counts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { counts[event.rawValue] = .integer(Int64(n)) }
        doc["counts"] = .object(counts)
        doc["log"] = .array(log.entries)
        return ReplayOutput(document: .object(doc), geometry: geometry)
    }

    /// The map as SVG at this point of the replay.
    public func svg() -> String { mapView.renderSVG() }
}
