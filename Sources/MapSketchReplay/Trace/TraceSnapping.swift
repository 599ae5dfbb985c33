import MapSketch
import MapSketchGeometry

// Snapping in traces (format version 4): the header's `options.snapping` and the `setSnapping`
// call carry the same members, decoded and encoded here.

extension TraceDecoder {
    /// The members of a snapping object (`options.snapping`, or a `setSnapping` call's own
    /// members): `enabled` (default true), `tolerance` (points, ≥ 0, default 10),
    /// `sketchVertices`, `sketchEdges` (default true), `layers` (`[{"name","vertices","edges"}]`)
    /// and `guides` (`perpendicular`, `parallel`, `extension`, `angleTolerance` 0…90,
    /// `distanceTolerance` ≥ 0, `parallelSearchRadius` ≥ 0).
    static func decodeSnapMembers(_ f: inout TraceFields) throws -> SnapSettings {
        var s = SnapSettings(isEnabled: true)
        s.isEnabled = try f.bool("enabled") ?? true
        s.tolerance = try nonNegative(&f, "tolerance", what: "a tolerance ≥ 0 points") ?? SnapSettings.defaultTolerance
        s.snapsToSketchVertices = try f.bool("sketchVertices") ?? true
        s.snapsToSketchEdges = try f.bool("sketchEdges") ?? true
        s.layers = try f.nested("layers") { try decodeArray($0, what: "a list of snapping layers", decodeSnapLayer) } ?? []
        if let g = try f.nested("guides", decodeGuides) { s.guides = g }
        return s
    }

    /// The header's `options.snapping` object.
    static func decodeSnapping(_ v: JSONValue) throws -> SnapSettings {
        var f = try TraceFields(v, what: "snapping settings")
        let s = try decodeSnapMembers(&f)
        try f.rejectUnknown()
        return s
    }

    static func decodeSnapLayer(_ v: JSONValue) throws -> SnapLayerSource {
        var f = try TraceFields(v, what: "a snapping layer")
        let name = try f.requiredString("name")
        let source = SnapLayerSource(name: name, vertices: try f.bool("vertices") ?? true, edges: try f.bool("edges") ?? true)
        try f.rejectUnknown()
        return source
    }

    static func decodeGuides(_ v: JSONValue) throws -> GeometryGuides {
        var f = try TraceFields(v, what: "geometry guides")
        var g = GeometryGuides()
        g.perpendicular = try f.bool("perpendicular") ?? false
        g.parallel = try f.bool("parallel") ?? false
        g.extension = try f.bool("extension") ?? false
        if let a = try f.double("angleTolerance") {
            guard a.isFinite, (0...90).contains(a) else {
                throw JSONError("expected an angle tolerance of 0 to 90 degrees, found \(JSONWriter.format(a))", path: [.key("angleTolerance")])
            }
            g.angleTolerance = a
        }
        if let d = try nonNegative(&f, "distanceTolerance", what: "a distance tolerance ≥ 0 points") { g.distanceTolerance = d }
        if let r = try nonNegative(&f, "parallelSearchRadius", what: "a search radius ≥ 0 points") { g.parallelSearchRadius = r }
        try f.rejectUnknown()
        return g
    }

    private static func nonNegative(_ f: inout TraceFields, _ key: String, what: String) throws -> Double? {
        guard let d = try f.double(key) else { return nil }
        guard d.isFinite, d >= 0 else { throw JSONError("expected \(what), found \(JSONWriter.format(d))", path: [.key(key)]) }
        return d
    }
}

extension TraceEncoder {
    /// The members of `s` as a snapping object writes them (defaults left out).
    static func encodeSnapMembers(_ s: SnapSettings, into o: inout JSONObject) {
        if !s.isEnabled { o["enabled"] = false }
        if s.tolerance != SnapSettings.defaultTolerance { o["tolerance"] = .number(s.tolerance) }
        if !s.snapsToSketchVertices { o["sketchVertices"] = false }
        if !s.snapsToSketchEdges { o["sketchEdges"] = false }
        if !s.layers.isEmpty {
            o["layers"] = .array(
                s.layers.map { l in
                    var lo: JSONObject = ["name": .string(l.name)]
                    if !l.vertices { lo["vertices"] = false }
                    if !l.edges { lo["edges"] = false }
                    return .object(lo)
                })
        }
        let g = s.guides
        if g != GeometryGuides() {
            var go = JSONObject()
            if g.perpendicular { go["perpendicular"] = true }
            if g.parallel { go["parallel"] = true }
            if g.extension { go["extension"] = true }
            if g.angleTolerance != GeometryGuides.defaultAngleTolerance { go["angleTolerance"] = .number(g.angleTolerance) }
            if g.distanceTolerance != GeometryGuides.defaultDistanceTolerance { go["distanceTolerance"] = .number(g.distanceTolerance) }
            if g.parallelSearchRadius != GeometryGuides.defaultParallelSearchRadius {
                go["parallelSearchRadius"] = .number(g.parallelSearchRadius)
            }
            o["guides"] = .object(go)
        }
    }

    /// `s` as the header's `options.snapping` object.
    static func encodeSnapping(_ s: SnapSettings) -> JSONValue {
        var o = JSONObject()
        encodeSnapMembers(s, into: &o)
        return .object(o)
    }
}
