import MapSketchGeometry

/// Exact, symbol-aware hit tests in map coordinates (line and area distances from
/// ``GeometryEngine``). `res` is map units per point; `tol` the tolerance in points. Offsets of
/// markers are in points (x right, y up) and ignore rotation.
enum SymbolHitTest {
    /// Whether a tap at `q` hits `geometry` drawn with `symbol` (nil or a symbol that does not
    /// fit: the bare geometry, within the tolerance).
    static func hits(_ q: Point, geometry: Geometry, symbol: Symbol?, tol: Double, res: Double) -> Bool {
        let s = symbol.flatMap { $0.fits(geometry.type) ? $0 : nil }
        if case .composite(let parts)? = s, !parts.isEmpty {
            return parts.contains { hits(q, geometry: geometry, symbol: $0, tol: tol, res: res) }
        }
        switch geometry {
        case .point(let p):
            guard let p else { return false }
            return pointHit(q, p, symbol: s, tol: tol, res: res)
        case .multipoint(let m):
            return m.points.contains { pointHit(q, $0, symbol: s, tol: tol, res: res) }
        case .polyline:
            let reach: Double = if case .simpleLine(let ls)? = s { ls.width / 2 } else { 0 }
            return GeometryEngine.isWithin((reach + tol) * res, of: q, geometry)
        case .polygon, .envelope:
            // 0 inside (odd-even, so holes stay empty), else the distance to the outline.
            let outline: Double = if case .simpleFill(let f)? = s { (f.outline?.width ?? 0) / 2 } else { 0 }
            return GeometryEngine.isWithin((outline + tol) * res, of: q, geometry)
        }
    }

    /// How far beyond its geometry a symbol draws, in points (for the index query margin).
    static func reach(_ symbol: Symbol?) -> Double {
        switch symbol {
        case nil: return 0
        case .simpleMarker(let m)?:
            return m.size / 2 + (m.outline?.width ?? 0) / 2 + max(abs(m.xOffset), abs(m.yOffset))
        case .pictureMarker(let m)?:
            return max(m.width, m.height) / 2 + max(abs(m.xOffset), abs(m.yOffset))
        case .simpleLine(let l)?: return l.width / 2
        case .simpleFill(let f)?: return (f.outline?.width ?? 0) / 2
        case .text(let t)?: return textHalfSize(t).w + max(abs(t.xOffset), abs(t.yOffset))
        case .composite(let parts)?: return parts.map { reach($0) }.max() ?? 0
        }
    }

    static func textHalfSize(_ t: TextSymbol) -> (w: Double, h: Double) {
        (max(t.fontSize, Double(t.text.count) * t.fontSize * 0.6) / 2, t.fontSize / 2)
    }

    static func pointHit(_ q: Point, _ p: Point, symbol: Symbol?, tol: Double, res: Double) -> Bool {
        switch symbol {
        case .simpleMarker(let m)?:
            let dx = q.x - (p.x + m.xOffset * res), dy = q.y - (p.y + m.yOffset * res)
            let r = (m.size / 2 + tol) * res
            switch m.style {
            case .square: return abs(dx) <= r && abs(dy) <= r
            default: return dx * dx + dy * dy <= r * r
            }
        case .pictureMarker(let m)?:
            let dx = q.x - (p.x + m.xOffset * res), dy = q.y - (p.y + m.yOffset * res)
            return abs(dx) <= (m.width / 2 + tol) * res && abs(dy) <= (m.height / 2 + tol) * res
        case .text(let t)?:
            let (w, h) = textHalfSize(t)
            let dx = q.x - (p.x + t.xOffset * res), dy = q.y - (p.y + t.yOffset * res)
            return abs(dx) <= (w + tol) * res && abs(dy) <= (h + tol) * res
        default:
            let dx = q.x - p.x, dy = q.y - p.y
            let r = tol * res
            return dx * dx + dy * dy <= r * r
        }
    }
}
