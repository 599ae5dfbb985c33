package import MapSketchGeometry

// The freehand tool (`SketchTool.freehand(tolerance:)`): a one-finger drag draws a stroke; when
// the finger lifts, the stroke, simplified by Douglas–Peucker (`GeometryEngine.generalize`) with
// the tool's tolerance in points (times the map's resolution: map units), becomes a new part —
// a path of a polyline sketch, a ring of a polygon sketch — as one undo step, and that part is
// selected. The drags and holds that feed it are routed in SketchTool.swift.
//
// While the finger moves, each position is appended to the stroke (O(1) amortised); nothing is
// simplified or copied until the finger lifts (O(m log m) expected for m positions then).

extension SketchLayer {
    /// The stroke being drawn, in map units (empty unless a freehand drag is under way).
    package var freehandStroke: [Point] {
        if case .stroke(let points) = toolState.drag { return points }
        return []
    }

    /// Adds a stroke through `screenPoints` as a freehand drag through them would (one undo
    /// step; the new part is selected), simplified with `tolerance` points (the freehand tool's
    /// own when nil, else ``SketchTool/defaultFreehandTolerance``). The tool need not be the
    /// freehand tool.
    /// - Throws: ``SketchError/toolUnsupported(tool:geometryType:)`` unless the sketch is a
    ///   polyline or polygon; ``SketchError/invalidToolSetting(_:)``; ``SketchError/notOnMap(operation:)``;
    ///   ``SketchError/editRejected(_:)``.
    /// - Returns: whether a part was added (not for a stroke too short to make one).
    @discardableResult
    public func drawFreehand(through screenPoints: [ScreenPoint], tolerance: Double? = nil) throws -> Bool {
        var points = tolerance ?? SketchTool.defaultFreehandTolerance
        if tolerance == nil, case .freehand(let t) = tool { points = t }
        try SketchTool.freehand(tolerance: points).check(for: geometryType)
        guard let map = mapView else { throw SketchError.notOnMap(operation: "drawFreehand") }
        let stroke = screenPoints.map(map.toMap)
        let deviation = points * map.viewport.resolution
        return try perform(.edit(.freehand)) { try $0.addFreehandStroke(stroke, maxDeviation: deviation) }
    }
}
