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
            return SymbolShape(point: s).hits(q.x, q.y, SIMD2(p.x, p.y), tol: tol, res: res)
        case .multipoint(let m):
            let shape = SymbolShape(point: s)
            return m.points.contains { shape.hits(q.x, q.y, SIMD2($0.x, $0.y), tol: tol, res: res) }
        case .polyline, .polygon, .envelope:
            // Polygons: 0 inside (odd-even, so holes stay empty), else the distance to the outline.
            return GeometryEngine.isWithin((SymbolShape.reach(s, drawing: geometry.type) + tol) * res, of: q, geometry)
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
}

/// How a tap hits a graphic drawn with one symbol, precomputed per renderer symbol so the hit
/// test needs neither the graphic nor its symbol: for a point, its marker's shape; for a line or
/// polygon, how far beyond the geometry the symbol draws. ``SymbolHitTest`` computes its answers
/// through the same shape and reach, so the precomputed and the general test agree bit for bit.
struct SymbolShape: Sendable {
    enum Kind: UInt8, Sendable {
        /// No symbol (or one that cannot draw a point): within the tolerance of the point.
        case bare
        /// A round marker: within half its size plus the tolerance of its centre.
        case round
        /// A square marker, a picture or a text: within a box of half-width / half-height plus the tolerance.
        case box
        /// A composite symbol: the general test.
        case general
    }
    var kind: Kind
    var halfWidth: Double = 0
    var halfHeight: Double = 0
    var xOffset: Double = 0
    var yOffset: Double = 0
    /// How far beyond a polyline the symbol draws, in points; NaN: the general test (a composite).
    var pathReach: Double = 0
    /// How far beyond a polygon's outline the symbol draws, in points; NaN: the general test.
    var ringReach: Double = 0

    static let bare = SymbolShape(kind: .bare)

    /// The shape a graphic drawn with `symbol` has.
    init(_ symbol: Symbol?) {
        self.init(point: symbol)
        pathReach = Self.reach(symbol, drawing: .polyline)
        ringReach = Self.reach(symbol, drawing: .polygon)
    }

    /// What a line (a polyline's width) or an outline (a polygon's or envelope's) adds to the
    /// tolerance for a geometry of `type` drawn with `symbol`, in points: half its width; 0 for a
    /// symbol that draws neither or does not fit; NaN for a composite of several symbols, which
    /// takes the general test.
    static func reach(_ symbol: Symbol?, drawing type: GeometryType) -> Double {
        let s = symbol.flatMap { $0.fits(type) ? $0 : nil }
        switch s {
        case .composite(let parts)? where !parts.isEmpty: return .nan
        case .simpleLine(let l)? where type == .polyline: return l.width / 2
        case .simpleFill(let f)? where type == .polygon || type == .envelope: return (f.outline?.width ?? 0) / 2
        default: return 0
        }
    }

    /// The point shape alone: a marker's, a picture's or a text's box; bare for no symbol, one
    /// that cannot draw a point, or an empty composite (it draws nothing); the general test for
    /// a composite of several symbols.
    init(point symbol: Symbol?) {
        let s = symbol.flatMap { $0.fits(.point) ? $0 : nil }
        switch s {
        case .simpleMarker(let m)?:
            let half = m.size / 2
            self.init(
                kind: m.style == .square ? .box : .round, halfWidth: half, halfHeight: half, xOffset: m.xOffset,
                yOffset: m.yOffset)
        case .pictureMarker(let m)?:
            self.init(
                kind: .box, halfWidth: m.width / 2, halfHeight: m.height / 2, xOffset: m.xOffset, yOffset: m.yOffset)
        case .text(let t)?:
            let (w, h) = SymbolHitTest.textHalfSize(t)
            self.init(kind: .box, halfWidth: w, halfHeight: h, xOffset: t.xOffset, yOffset: t.yOffset)
        case .composite(let parts)? where !parts.isEmpty:
            self.init(kind: .general)
        default:
            self.init(kind: .bare)
        }
    }

    init(kind: Kind, halfWidth: Double = 0, halfHeight: Double = 0, xOffset: Double = 0, yOffset: Double = 0) {
        self.kind = kind
        self.halfWidth = halfWidth
        self.halfHeight = halfHeight
        self.xOffset = xOffset
        self.yOffset = yOffset
    }

    /// Whether a tap at (qx, qy) hits a point at `p` drawn with this shape (`kind` is not `.general`).
    @inline(__always)
    func hits(_ qx: Double, _ qy: Double, _ p: SIMD2<Double>, tol: Double, res: Double) -> Bool {
        switch kind {
        case .bare:
            let dx = qx - p.x, dy = qy - p.y
            let r = tol * res
            return dx * dx + dy * dy <= r * r
        case .round:
            let dx = qx - (p.x + xOffset * res), dy = qy - (p.y + yOffset * res)
            let r = (halfWidth + tol) * res
            return dx * dx + dy * dy <= r * r
        case .box:
            let dx = qx - (p.x + xOffset * res), dy = qy - (p.y + yOffset * res)
            return abs(dx) <= (halfWidth + tol) * res && abs(dy) <= (halfHeight + tol) * res
        case .general:
            return false
        }
    }
}
