import MapSketchGeometry

/// What the hit test needs of one slot, in one 32-byte record (one cache miss per candidate):
/// a point graphic's coordinates, or where a one-part line's or polygon's vertices lie in
/// `GraphicSlots`' packed vertices, and the slot's symbol.
struct SlotShape: Sendable {
    enum Kind: UInt8, Sendable {
        /// Any other geometry (multipart, multipoint, envelope, empty): the general test.
        case general
        /// A point: `point` holds it.
        case point
        /// A one-path polyline: `count` vertices from `start`.
        case path
        /// A one-ring polygon: `count` vertices from `start` (open: the last joins the first).
        case ring
    }
    var point: SIMD2<Double>
    var start: Int32
    var count: Int32
    /// -2: own symbol; -1: none; ≥ 0: index in `rendererSymbols`.
    var symbol: Int32
    var kind: Kind

    static let empty = SlotShape(point: SIMD2(.nan, .nan), start: 0, count: 0, symbol: -1, kind: .general)
}

/// The per-slot storage of a ``GraphicsLayer``: parallel arrays in ascending id order (dead
/// slots hold an empty placeholder), the spatial index over the slots, and the resolved
/// renderer symbols.
///
/// It lives outside the main actor so that a hit test runs as plain code: closures formed in a
/// main-actor method carry a run-time executor check, and class properties a dynamic exclusivity
/// check on every access. The layer is the only owner and mutates these arrays only from the main
/// actor, never during a hit test, so the checks are switched off for them.
///
/// The hit test reads a candidate's `shapes` record and, for a one-part line or polygon, its
/// packed vertices (16 bytes each, contiguous), instead of following the graphic's
/// geometry through three levels of arrays of 48-byte points: at a million graphics each level is
/// a cache miss.
final class GraphicSlots {
    @exclusivity(unchecked) var graphics: [Graphic] = []
    @exclusivity(unchecked) var ids: [Int] = []
    @exclusivity(unchecked) var alive: [Bool] = []
    /// Per slot: its geometry as the hit test reads it, and its symbol.
    @exclusivity(unchecked) private(set) var shapes: [SlotShape] = []
    /// The vertices of one-part lines and polygons, x and y, slot after slot, in memory this
    /// object owns (not an array: the hit test reads a run through the pointer, with no reference
    /// counting per candidate).
    @exclusivity(unchecked) private(set) var vertexBase: UnsafeMutablePointer<SIMD2<Double>>?
    @exclusivity(unchecked) private(set) var vertexCount = 0
    @exclusivity(unchecked) private(set) var vertexCapacity = 0
    /// How many packed vertices no slot refers to any more.
    @exclusivity(unchecked) private(set) var deadVertices = 0

    deinit { vertexBase?.deallocate() }
    @exclusivity(unchecked) var index = SpatialIndex()
    @exclusivity(unchecked) var rendererSymbols: [Symbol] = [] {
        didSet { rendererShapes = rendererSymbols.map { SymbolShape($0) } }
    }
    @exclusivity(unchecked) private(set) var rendererShapes: [SymbolShape] = []
    /// The largest symbol reach of any graphic, in points (only grows until a rebuild).
    @exclusivity(unchecked) var maxReach: Double = 0

    /// The symbol index of slot `s`.
    func symbol(_ s: Int) -> Int32 { shapes[s].symbol }

    /// Sets the symbol index of slot `s`.
    func setSymbol(_ s: Int, _ k: Int32) { shapes[s].symbol = k }

    /// Appends a slot's shape for `g` drawn with symbol index `k`.
    func appendShape(_ g: Geometry, symbol k: Int32) {
        shapes.append(makeShape(g, symbol: k))
    }

    /// Replaces slot `s`'s shape (its geometry changed or it died).
    func setShape(_ s: Int, _ g: Geometry, symbol k: Int32) {
        let old = shapes[s]
        if old.kind == .path || old.kind == .ring { deadVertices += Int(old.count) }
        shapes[s] = makeShape(g, symbol: k)
        if deadVertices > 4_096 && deadVertices * 2 > vertexCount { compactVertices() }
    }

    /// Moves slot `s`'s shape to slot `w` (the layer's compaction).
    func moveShape(from s: Int, to w: Int) { shapes[w] = shapes[s] }

    /// Drops every slot from `count` on.
    func truncateShapes(to count: Int) {
        shapes.removeLast(shapes.count - count)
        compactVertices()
    }

    /// Drops every slot.
    func removeAllShapes() {
        shapes.removeAll()
        vertexBase?.deallocate()
        vertexBase = nil
        vertexCount = 0
        vertexCapacity = 0
        deadVertices = 0
    }

    private func makeShape(_ g: Geometry, symbol k: Int32) -> SlotShape {
        var shape = SlotShape.empty
        shape.symbol = k
        let part: [Point]
        switch g {
        case .point(let p?):
            shape.point = SIMD2(p.x, p.y)
            shape.kind = .point
            return shape
        case .polyline(let pl) where pl.paths.count == 1 && pl.paths[0].count >= 2:
            part = pl.paths[0]
            shape.kind = .path
        case .polygon(let pg) where pg.rings.count == 1 && pg.rings[0].count >= 2:
            part = pg.rings[0]
            shape.kind = .ring
        default:
            return shape
        }
        // Offsets are 32-bit (2³¹ vertices would be 32 GB); past that, the general test.
        guard vertexCount + part.count < Int(Int32.max) else { return SlotShape.empty.with(symbol: k) }
        shape.start = Int32(vertexCount)
        shape.count = Int32(part.count)
        if vertexCount + part.count > vertexCapacity { reallocateVertices(max(vertexCapacity * 2, vertexCount + part.count, 1_024)) }
        guard let base = vertexBase else { preconditionFailure("vertex storage missing after allocation") }
        for (i, p) in part.enumerated() { (base + vertexCount + i).initialize(to: SIMD2(p.x, p.y)) }
        vertexCount += part.count
        return shape
    }

    /// Moves the packed vertices into storage for `capacity` of them.
    private func reallocateVertices(_ capacity: Int) {
        let fresh = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: capacity)
        if let old = vertexBase {
            fresh.moveInitialize(from: old, count: vertexCount)
            old.deallocate()
        }
        vertexBase = fresh
        vertexCapacity = capacity
    }

    /// Rewrites the packed vertices with only the live slots' runs, in slot order.
    private func compactVertices() {
        var live = 0
        for shape in shapes where shape.kind == .path || shape.kind == .ring { live += Int(shape.count) }
        let fresh = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: max(live, 1_024))
        var written = 0
        if let old = vertexBase {
            for s in shapes.indices where shapes[s].kind == .path || shapes[s].kind == .ring {
                let n = Int(shapes[s].count)
                (fresh + written).initialize(from: old + Int(shapes[s].start), count: n)
                shapes[s].start = Int32(written)
                written += n
            }
            old.deallocate()
        }
        vertexBase = fresh
        vertexCount = written
        vertexCapacity = max(live, 1_024)
        deadVertices = 0
    }

    /// The symbol slot `s` is drawn with.
    func resolved(_ s: Int) -> Symbol? {
        let k = shapes[s].symbol
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
            if hits(shapes[s], s, q, tol: tol, res: res) && !body(s) { return }
        }
    }

    /// The exact test of slot `s`: from its shape record when its symbol is none or a
    /// renderer's (precomputed), else the general test on the graphic.
    @inline(__always)
    private func hits(
        _ shape: SlotShape, _ s: Int, _ q: Point, tol: Double, res: Double
    ) -> Bool {
        let k = shape.symbol
        if k != -2 {
            let symbolShape = k < 0 ? SymbolShape.bare : rendererShapes[Int(k)]
            switch shape.kind {
            case .point where symbolShape.kind != .general:
                return symbolShape.hits(q.x, q.y, shape.point, tol: tol, res: res)
            case .path where !symbolShape.pathReach.isNaN:
                return GeometryEngine.isWithin((symbolShape.pathReach + tol) * res, of: q, path: run(shape))
            case .ring where !symbolShape.ringReach.isNaN:
                return GeometryEngine.isWithin((symbolShape.ringReach + tol) * res, of: q, ring: run(shape))
            default:
                break
            }
        }
        return SymbolHitTest.hits(q, geometry: graphics[s].geometry, symbol: resolved(s), tol: tol, res: res)
    }

    /// The packed vertices of a path or ring shape (range-checked).
    @inline(__always)
    private func run(_ shape: SlotShape) -> UnsafeBufferPointer<SIMD2<Double>> {
        let start = Int(shape.start), count = Int(shape.count)
        guard let base = vertexBase, start >= 0, start + count <= vertexCount else {
            preconditionFailure("packed vertex run out of range")
        }
        return UnsafeBufferPointer(start: base + start, count: count)
    }
}

extension SlotShape {
    /// This shape with symbol index `k`.
    func with(symbol k: Int32) -> SlotShape {
        var copy = self
        copy.symbol = k
        return copy
    }
}
