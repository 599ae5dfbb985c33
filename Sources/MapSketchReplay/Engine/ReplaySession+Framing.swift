import MapSketch
package import MapSketchGeometry

/// What a picture of the map shows of what it draws (see ``ReplaySession/framing``).
package enum PictureFraming: Hashable, Sendable {
    /// The map has no sketch vertex and no graphic to draw.
    case empty
    /// Some of the sketch or of the graphics is on screen.
    case onScreen
    /// The sketch or the graphics exist but lie off screen: the picture shows none of them (the
    /// trace panned or zoomed away from them).
    case offScreen
}

extension ReplaySession {
    /// The geometries a picture of the map is about, in map coordinates: the sketch's (when it is
    /// drawn and has a vertex) and the graphics of every drawn graphics layer, bottom layer first.
    /// Service layers (tiles, map images) are backgrounds and are left out.
    /// - Complexity: O(n) in their vertices.
    package var drawnGeometries: [Geometry] {
        var out: [Geometry] = []
        for layer in mapView.layers where layer.isDrawn {
            if let graphics = layer as? GraphicsLayer {
                out += graphics.graphics.map(\.geometry).filter { !$0.isEmpty }
            } else if let sketch = layer as? SketchLayer, !sketch.geometry.isEmpty {
                out.append(sketch.geometry)
            }
        }
        return out
    }

    /// Whether the screen shows any of ``drawnGeometries``: a vertex on screen, a line or ring
    /// edge crossing it, or a polygon covering its centre (each world copy the screen shows
    /// counts, when the map wraps around).
    /// - Complexity: O(n) in the vertices, stopping at the first one seen.
    package var framing: PictureFraming {
        let geometries = drawnGeometries
        guard !geometries.isEmpty else { return .empty }
        let size = mapView.screenSize
        // One point of slack: a marker on the screen's edge shows.
        let screen = ScreenBox(x0: -1, y0: -1, x1: size.width + 1, y1: size.height + 1)
        for shift in mapView.visibleWorldShifts {
            for g in geometries where screen.shows(g, closed: g.type == .polygon || g.type == .envelope, { p in
                mapView.toScreen(Point(x: p.x + shift, y: p.y))
            }) {
                return .onScreen
            }
        }
        return .offScreen
    }

    /// Pans and zooms the map so that ``drawnGeometries`` fill the screen, less `margin` points on
    /// each side, keeping the map's rotation: what `render --fit` does. A single point is centred
    /// at the current scale. Returns false (and leaves the map alone) when there is nothing to
    /// frame.
    /// - Complexity: O(n) in the vertices.
    @discardableResult
    package func frameContent(margin: Double = 24) -> Bool {
        var box: ScreenBox?
        for g in drawnGeometries {
            for part in g.parts {
                for p in part {
                    let s = mapView.toScreen(p)
                    guard s.x.isFinite, s.y.isFinite else { continue }
                    box = box.map { $0.including(s) } ?? ScreenBox(x0: s.x, y0: s.y, x1: s.x, y1: s.y)
                }
            }
        }
        guard let box else { return false }
        let size = mapView.screenSize
        let roomX = size.width > 2 * margin ? size.width - 2 * margin : size.width
        let roomY = size.height > 2 * margin ? size.height - 2 * margin : size.height
        let scales = [box.x1 - box.x0 > 0 ? roomX / (box.x1 - box.x0) : nil, box.y1 - box.y0 > 0 ? roomY / (box.y1 - box.y0) : nil]
        let scale = scales.compactMap { $0 }.min() ?? 1
        let center = ScreenPoint(x: (box.x0 + box.x1) / 2, y: (box.y0 + box.y1) / 2)
        mapView.viewport = mapView.viewport.moved(
            from: center, to: ScreenPoint(x: size.width / 2, y: size.height / 2), scale: scale, size: size)
        return true
    }
}

/// A box in screen points, and whether a geometry drawn through a screen transform shows in it.
struct ScreenBox {
    var x0: Double
    var y0: Double
    var x1: Double
    var y1: Double

    func including(_ p: ScreenPoint) -> ScreenBox {
        ScreenBox(x0: min(x0, p.x), y0: min(y0, p.y), x1: max(x1, p.x), y1: max(y1, p.y))
    }

    func contains(_ p: ScreenPoint) -> Bool { p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1 }

    /// Whether `g`, drawn through `toScreen`, shows in the box: a vertex inside, an edge crossing
    /// it, or (`closed`: rings) the box's centre inside the rings (even–odd).
    func shows(_ g: Geometry, closed: Bool, _ toScreen: (Point) -> ScreenPoint) -> Bool {
        let center = ScreenPoint(x: (x0 + x1) / 2, y: (y0 + y1) / 2)
        var inside = false
        for part in g.parts {
            guard var a = part.last.map(toScreen) else { continue }
            var first = true
            for p in part {
                let b = toScreen(p)
                if contains(b) { return true }
                if !first || closed {
                    if g.type != .multipoint, g.type != .point, crosses(a, b) { return true }
                    if closed, (a.y > center.y) != (b.y > center.y),
                        center.x < a.x + (center.y - a.y) * (b.x - a.x) / (b.y - a.y)
                    {
                        inside.toggle()
                    }
                }
                first = false
                a = b
            }
        }
        return closed && inside
    }

    /// Whether the segment from `a` to `b` meets the box (Liang–Barsky clipping).
    func crosses(_ a: ScreenPoint, _ b: ScreenPoint) -> Bool {
        let dx = b.x - a.x
        let dy = b.y - a.y
        var t0 = 0.0
        var t1 = 1.0
        for (p, q) in [(-dx, a.x - x0), (dx, x1 - a.x), (-dy, a.y - y0), (dy, y1 - a.y)] {
            if p == 0 {
                if q < 0 { return false }
                continue
            }
            let t = q / p
            if p < 0 {
                if t > t1 { return false }
                t0 = max(t0, t)
            } else {
                if t < t0 { return false }
                t1 = min(t1, t)
            }
        }
        return t0 <= t1
    }
}
