import MapSketchGeometry

/// How a tap hits a point graphic drawn with one symbol, precomputed per renderer symbol so the
/// hit test of a point needs neither the graphic nor its symbol (the same arithmetic as
/// `_HitTest.pointHit`, so the answers are identical).
struct _PointShape: Sendable {
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

    static let bare = _PointShape(kind: .bare)

    /// The shape a point drawn with `symbol` has.
    init(_ symbol: Symbol?) {
        let s = symbol.flatMap { $0._fits(.point) ? $0 : nil }
        switch s {
        case .simpleMarker(let m)?:
            let half = m.size / 2
            self.init(
                kind: m.style == .square ? .box : .round, halfWidth: half, halfHeight: half, xOffset: m.xOffset,
                yOffset: m.yOffset)
        case .pictureMarker(let m)?:
            self.init(kind: .box, halfWidth: m.width / 2, halfHeight: m.height / 2, xOffset: m.xOffset, yOffset: m.yOffset)
        case .text(let t)?:
            let (w, h) = _HitTest.textHalfSize(t)
            self.init(kind: .box, halfWidth: w, halfHeight: h, xOffset: t.xOffset, yOffset: t.yOffset)
        case .composite?:
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

/// The per-slot storage of a ``GraphicsLayer``: parallel arrays in ascending id order (dead
/// slots hold an empty placeholder), the spatial index over the slots, and the resolved
/// renderer symbols.
///
/// It lives outside the main actor so that a hit test runs as plain code: closures formed in a
/// main-actor method carry a run-time executor check, and class properties a dynamic exclusivity
/// check on every access. The layer is the only owner and mutates these arrays only from the main
/// actor, never during a hit test, so the checks are switched off for them.
final class _GraphicSlots {
    @exclusivity(unchecked) var graphics: [Graphic] = []
    @exclusivity(unchecked) var ids: [Int] = []
    @exclusivity(unchecked) var alive: [Bool] = []
    /// -2: own symbol; -1: none; ≥ 0: index in `rendererSymbols`.
    @exclusivity(unchecked) var symbol: [Int32] = []
    /// The coordinates of each slot holding a point geometry; NaN for every other slot.
    @exclusivity(unchecked) var points: [SIMD2<Double>] = []
    @exclusivity(unchecked) var index = SpatialIndex()
    @exclusivity(unchecked) var rendererSymbols: [Symbol] = [] {
        didSet { rendererShapes = rendererSymbols.map(_PointShape.init) }
    }
    @exclusivity(unchecked) private(set) var rendererShapes: [_PointShape] = []
    /// The largest symbol reach of any graphic, in points (only grows until a rebuild).
    @exclusivity(unchecked) var maxReach: Double = 0

    /// The coordinates `points` holds for a geometry.
    static func pointCoordinates(_ g: Geometry) -> SIMD2<Double> {
        if case .point(let p?) = g { return SIMD2(p.x, p.y) }
        return SIMD2(.nan, .nan)
    }

    /// The symbol slot `s` is drawn with.
    func resolved(_ s: Int) -> Symbol? {
        let k = symbol[s]
        if k == -2 { return graphics[s].symbol }
        return k >= 0 ? rendererSymbols[Int(k)] : nil
    }

    /// The ids of the graphics hit at map point `q`, topmost (highest id) first, at most `maxResults`.
    func hitIDs(_ q: Point, tolerance: Double, resolution: Double, maxResults: Int) -> [GraphicID] {
        var out: [GraphicID] = []
        ids.withUnsafeBufferPointer { ids in
            forEachHit(q, tolerance: tolerance, resolution: resolution) { s in
                out.append(GraphicID(rawValue: ids[s]))
                return true
            }
        }
        // Ids ascend with slots, so the topmost (last added) graphic has the highest id.
        if out.count > 1 { out.sort { $0.rawValue > $1.rawValue } }
        if out.count > maxResults { out.removeLast(out.count - maxResults) }
        return out
    }

    /// The topmost graphic hit at `q`.
    func topmostSlot(_ q: Point, tolerance: Double, resolution: Double) -> Int? {
        var best = -1
        forEachHit(q, tolerance: tolerance, resolution: resolution) { s in
            if s > best { best = s }
            return true
        }
        return best >= 0 ? best : nil
    }

    /// Calls `body` with the slot of every graphic hit, in index order, until it returns false.
    ///
    /// The index writes its candidates into a stack buffer (it calls no closure, so it is
    /// searched in place rather than copied), then each candidate gets the exact test.
    /// - Complexity: O(log n + k) for k candidates near the point.
    func forEachHit(_ q: Point, tolerance tol: Double, resolution res: Double, _ body: (Int) -> Bool) {
        guard res > 0, res.isFinite, q.isFinite, tol >= 0 else { return }
        let margin = (tol + maxReach) * res
        let query = Envelope(xmin: q.x - margin, ymin: q.y - margin, xmax: q.x + margin, ymax: q.y + margin)
        let capacity = 64
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity) { buffer in
            guard let stack = buffer.baseAddress else { return }
            let n = index.collect(query, into: stack, capacity: capacity)
            if n <= capacity {
                visit(UnsafeBufferPointer(start: stack, count: n), q, tol: tol, res: res, body)
            } else {
                var all = [Int32](repeating: 0, count: n)
                all.withUnsafeMutableBufferPointer { a in
                    guard let p = a.baseAddress else { return }
                    let m = index.collect(query, into: p, capacity: n)
                    visit(UnsafeBufferPointer(start: p, count: min(m, n)), q, tol: tol, res: res, body)
                }
            }
        }
    }

    /// The exact test of each candidate slot.
    private func visit(
        _ candidates: UnsafeBufferPointer<Int32>, _ q: Point, tol: Double, res: Double, _ body: (Int) -> Bool
    ) {
        for c in candidates {
            let s = Int(c)
            let p = points[s]
            let k = symbol[s]
            var hit: Bool
            if !p.x.isNaN, k != -2, k < 0 || rendererShapes[Int(k)].kind != .general {
                hit = (k < 0 ? _PointShape.bare : rendererShapes[Int(k)]).hits(q.x, q.y, p, tol: tol, res: res)
            } else {
                hit = _HitTest.hits(q, geometry: graphics[s].geometry, symbol: resolved(s), tol: tol, res: res)
            }
            if hit && !body(s) { return }
        }
    }
}
