import MapSketchGeometry

/// The shapes the shape tool draws (as ArcGIS's `ShapeTool`): each fills the box that a drag's
/// first and last points are opposite corners of, drawn upright on the screen.
///
/// Every outline runs clockwise as the screen shows it, so a polygon's ring is clockwise in map
/// units too (the Esri exterior convention; it is reversed, keeping its first vertex, in the rare
/// map whose view would turn it the other way). For a polyline sketch the outline is a closed
/// path: its first vertex is repeated at the end.
///
/// With the box from (x0, y0) at the top left to (x1, y1) at the bottom right, its centre
/// (cx, cy), width w and height h (screen points, y down):
/// - ``rectangle``: (x0, y0), (x1, y0), (x1, y1), (x0, y1).
/// - ``ellipse(vertexCount:)``: the ellipse inscribed in the box, vertex k at angle 360°·k/n from
///   the right-most point, going clockwise: (cx + w/2·cos, cy + h/2·sin); exact where the angle
///   is a multiple of 90°.
/// - ``triangle``: the apex at the top edge's middle (cx, y0), then (x1, y1) and (x0, y1).
/// - ``arrow``: pointing the way the drag went across the screen (right when it did not go
///   left), the head the last third of the box at full height, the shaft the first two thirds at
///   half the height: pointing right, (x1, cy), (x0 + 2w/3, y1), (x0 + 2w/3, cy + h/4),
///   (x0, cy + h/4), (x0, cy − h/4), (x0 + 2w/3, cy − h/4), (x0 + 2w/3, y0).
///
/// A drag whose box has no width or no height draws nothing.
public enum SketchShape: Hashable, Sendable {
    /// The box itself.
    case rectangle
    /// The ellipse inscribed in the box, as a polygon of `vertexCount` vertices (3 to 100,000).
    case ellipse(vertexCount: Int = SketchShape.defaultEllipseVertices)
    /// An isosceles triangle standing on the box's bottom edge.
    case triangle
    /// An arrow across the box.
    case arrow

    /// The ellipse's vertex count when none is given: 64.
    public static let defaultEllipseVertices = 64
    /// The most vertices an ellipse may have.
    package static let maximumEllipseVertices = 100_000

    /// The shape's name, as traces write it: `rectangle`, `ellipse`, `triangle` or `arrow`.
    public var name: String {
        switch self {
        case .rectangle: "rectangle"
        case .ellipse: "ellipse"
        case .triangle: "triangle"
        case .arrow: "arrow"
        }
    }

    /// The outline for a drag from `start` to `end` (screen points), clockwise as the screen
    /// shows it; empty when the box has no width or height.
    /// - Complexity: O(1), or O(n) for an ellipse of n vertices.
    package func outline(from start: ScreenPoint, to end: ScreenPoint) -> [ScreenPoint] {
        let x0 = min(start.x, end.x), x1 = max(start.x, end.x)
        let y0 = min(start.y, end.y), y1 = max(start.y, end.y)
        let w = x1 - x0, h = y1 - y0
        guard w > 0, h > 0, w.isFinite, h.isFinite else { return [] }
        let cx = (x0 + x1) / 2, cy = (y0 + y1) / 2
        func p(_ x: Double, _ y: Double) -> ScreenPoint { ScreenPoint(x: x, y: y) }
        switch self {
        case .rectangle:
            return [p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)]
        case .ellipse(let n):
            let count = Swift.min(Swift.max(n, 3), Self.maximumEllipseVertices)
            return (0..<count).map { k in
                let (s, c) = DeterministicMath.sinCos(degrees: 360 * Double(k) / Double(count))
                return p(cx + w / 2 * c, cy + h / 2 * s)
            }
        case .triangle:
            return [p(cx, y0), p(x1, y1), p(x0, y1)]
        case .arrow:
            let quarter = h / 4
            if end.x >= start.x {
                let neck = x0 + 2 * w / 3
                return [
                    p(x1, cy), p(neck, y1), p(neck, cy + quarter), p(x0, cy + quarter), p(x0, cy - quarter),
                    p(neck, cy - quarter), p(neck, y0),
                ]
            }
            let neck = x1 - 2 * w / 3
            return [
                p(x0, cy), p(neck, y0), p(neck, cy - quarter), p(x1, cy - quarter), p(x1, cy + quarter),
                p(neck, cy + quarter), p(neck, y1),
            ]
        }
    }

    /// The sketch vertices of an outline already in map units: a ring oriented clockwise (y up)
    /// for a polygon, or the outline closed back to its first vertex (`closedPath`) for a polyline.
    func vertices(_ outline: [Point], closedPath: Bool) -> [Point] {
        if closedPath { return outline.first.map { outline + [$0] } ?? [] }
        return Kernel.oriented(outline, clockwise: true)
    }
}

extension SketchLayer {
    /// Draws `shape` in the box from `start` to `end` (screen points) as a new part, as a drag of
    /// the shape tool would (one undo step; the new part is selected). The tool need not be the
    /// shape tool.
    /// - Throws: ``SketchError/toolUnsupported(tool:geometryType:)`` unless the sketch is a
    ///   polyline or polygon; ``SketchError/editRejected(_:)``; ``SketchError/invalidToolSetting(_:)``
    ///   for an ellipse vertex count out of range.
    /// - Returns: whether a part was added (nothing is for a box without width or height).
    @discardableResult
    public func drawShape(_ shape: SketchShape, from start: ScreenPoint, to end: ScreenPoint) throws -> Bool {
        try SketchTool.shape(shape).check(for: geometryType)
        guard let map = mapView else { throw SketchError.notOnMap(operation: "drawShape") }
        let vertices = shape.vertices(shape.outline(from: start, to: end).map(map.toMap), closedPath: geometryType == .polyline)
        return try perform(.edit(.shape)) { try $0.addShape(vertices) }
    }
}
