import MapSketchGeometry

/// What the hit test needs of one slot, in one 24-byte record (one cache miss per candidate):
/// a point's coordinates, where a one-part line's or polygon's vertices lie in `GraphicSlots`'
/// packed vertices, or which row of the general geometry store holds the slot's geometry; and
/// the slot's symbol.
struct SlotShape: Sendable {
    enum Kind: UInt8, Sendable {
        /// A removed graphic.
        case dead
        /// The empty point (`.point(nil)`): nothing to draw or hit.
        case emptyPoint
        /// A point with x and y only: `x`, `y` hold it.
        case point
        /// A one-path polyline (x and y only): `count` packed vertices from `start`.
        case path
        /// A one-ring polygon (x and y only): `count` packed vertices from `start` (open: the
        /// last joins the first).
        case ring
        /// Any other geometry (multipart, multipoint, envelope, z or m): row `row` of the
        /// general store; the general test.
        case general
    }
    /// A point's x, or the bit pattern of a run's start or a general row.
    var x: Double
    /// A point's y, or the bit pattern of a run's vertex count.
    var y: Double
    /// ≥ 0: index in the renderer's symbols; -1: none; ≤ -2: the graphic's own symbol, index
    /// `-2 - symbol` in the layer's table of own symbols.
    var symbol: Int32
    var kind: Kind

    var point: SIMD2<Double> { SIMD2(x, y) }
    var start: Int { Int(truncatingIfNeeded: x.bitPattern) }
    var count: Int { Int(truncatingIfNeeded: y.bitPattern) }
    var row: Int { Int(truncatingIfNeeded: x.bitPattern) }

    init(kind: Kind, x: Double = 0, y: Double = 0, symbol: Int32 = -1) {
        self.kind = kind
        self.x = x
        self.y = y
        self.symbol = symbol
    }

    /// A run of `count` packed vertices from `start`, or a general row (`start`).
    init(kind: Kind, start: Int, count: Int = 0, symbol: Int32) {
        self.init(
            kind: kind, x: Double(bitPattern: UInt64(truncatingIfNeeded: start)),
            y: Double(bitPattern: UInt64(truncatingIfNeeded: count)), symbol: symbol)
    }

    static let dead = SlotShape(kind: .dead)
}

/// A key of the last graphic added through `appendGraphics` and its column. The key is stored
/// first, so its bytes (see `GraphicSlots.representation(of:)`) are read in place.
struct RememberedKey {
    var key: String
    var column: Int
}

/// The storage of a ``GraphicsLayer``, column by column, one slot per graphic in ascending id
/// order (a removed graphic's slot stays, dead, until the layer compacts):
///
/// - `shapes`: the geometry as the hit test reads it and the resolved symbol (24 bytes a slot);
/// - the vertices of one-part lines and polygons packed as x, y pairs; other geometries in a
///   ``GeometryColumn`` (the general store);
/// - the attributes as ``AttributeColumn``s, one per field name;
/// - own symbols and info templates as indices into tables of the distinct ones;
/// - ids: implicit (`firstID + slot`) until a compaction renumbers the slots;
/// - the spatial index over the slots and the renderer's symbols.
///
/// No graphic exists as a value: ``GraphicsLayer/graphic(_:)`` builds one from the columns.
///
/// It lives outside the main actor so that a hit test runs as plain code: closures formed in a
/// main-actor method carry a run-time executor check, and class properties a dynamic exclusivity
/// check on every access. The layer is the only owner and mutates these arrays only from the main
/// actor, never during a hit test, so the checks are switched off for them.
final class GraphicSlots {
    /// Per slot: geometry and symbol.
    @exclusivity(unchecked) var shapes = SlotBuffer<SlotShape>()
    /// Whether slot s holds id `firstID + s`; false after a compaction, when `ids` holds them.
    @exclusivity(unchecked) var denseIDs = true
    @exclusivity(unchecked) var firstID = 0
    @exclusivity(unchecked) var ids = SlotBuffer<Int>()
    /// The vertices of one-part lines and polygons, x and y, slot after slot, in memory this
    /// object owns (not an array: the hit test reads a run through the pointer, with no reference
    /// counting per candidate).
    @exclusivity(unchecked) var vertexBase: UnsafeMutablePointer<SIMD2<Double>>?
    @exclusivity(unchecked) var vertexCount = 0
    @exclusivity(unchecked) var vertexCapacity = 0
    /// How many packed vertices no slot refers to any more.
    @exclusivity(unchecked) var deadVertices = 0
    /// The geometries that are not points or one-part lines or polygons.
    @exclusivity(unchecked) var general = GeometryColumn()
    /// How many rows of `general` no slot refers to any more.
    var deadGeneralRows = 0

    /// The attributes, one column per field name (every column has a row per slot).
    @exclusivity(unchecked) var columns: [AttributeColumn] = []
    var columnIndex: [String: Int] = [:]
    /// The keys of the last graphic added through `appendGraphics`, by position in its attribute
    /// dictionary, and their columns (see `fieldColumn(_:at:rows:reserve:)`).
    @exclusivity(unchecked) var rememberedKeys: [RememberedKey] = []
    /// Per slot: its info template's index in `templateTable`, or -1; empty while no graphic has one.
    var templates: [Int32] = []
    var templateTable: [InfoTemplate] = []
    var templateLookup: [InfoTemplate: Int32] = [:]
    /// The distinct own symbols of the graphics, and their hit-test shapes.
    var ownSymbols: [Symbol] = []
    var ownSymbolLookup: [Symbol: Int32] = [:]
    @exclusivity(unchecked) var ownShapes = SlotBuffer<SymbolShape>()

    @exclusivity(unchecked) var index = SpatialIndex()
    @exclusivity(unchecked) var rendererSymbols: [Symbol] = [] {
        didSet {
            rendererShapes.removeAll()
            for s in rendererSymbols { rendererShapes.append(SymbolShape(s)) }
        }
    }
    @exclusivity(unchecked) private(set) var rendererShapes = SlotBuffer<SymbolShape>()
    /// The hit test's candidates (grows to the most a query has had).
    @exclusivity(unchecked) var candidates = SlotBuffer<Int32>()
    /// The last hit test's result, reused when the caller has let go of it (no allocation).
    @exclusivity(unchecked) var hitResult: [GraphicID] = []
    /// The largest symbol reach of any graphic, in points (only grows until a rebuild).
    @exclusivity(unchecked) var maxReach: Double = 0

    deinit { vertexBase?.deallocate() }

    /// The number of slots, dead ones included.
    var count: Int { shapes.count }

    /// Whether slot `s` holds a graphic.
    func isAlive(_ s: Int) -> Bool { shapes[s].kind != .dead }

    // MARK: Ids

    /// The id of slot `s`.
    @inline(__always)
    func id(_ s: Int) -> Int { denseIDs ? firstID &+ s : ids[s] }

    /// The live slot holding `id`, if any.
    /// - Complexity: O(1) while ids are dense, O(log n) after a compaction.
    func slot(of id: Int) -> Int? {
        var s: Int
        if denseIDs {
            s = id &- firstID
            guard s >= 0, s < shapes.count else { return nil }
        } else {
            var lo = 0
            var hi = ids.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if ids[mid] < id { lo = mid + 1 } else { hi = mid }
            }
            guard lo < ids.count, ids[lo] == id else { return nil }
            s = lo
        }
        return isAlive(s) ? s : nil
    }

    /// Records the id of the slot just appended.
    func appendID(_ id: Int) {
        if denseIDs {
            precondition(id == firstID + shapes.count - 1, "ids are handed out in order")
        } else {
            ids.append(id)
        }
    }

    // MARK: Geometry

    /// The geometry of slot `s`, made from the columns.
    /// - Complexity: O(k) for its k vertices.
    func geometry(_ s: Int) -> Geometry {
        let shape = shapes[s]
        switch shape.kind {
        case .dead, .emptyPoint: return .point(nil)
        case .point: return .point(Point(x: shape.x, y: shape.y))
        case .path:
            var pl = Polyline(paths: [])
            pl.paths = [points(shape)]
            return .polyline(pl)
        case .ring:
            // Set directly: `Polygon(rings:)` would open a ring whose last vertex repeats its first.
            var pg = Polygon(rings: [])
            pg.rings = [points(shape)]
            return .polygon(pg)
        case .general: return general[shape.row]
        }
    }

    /// The geometry type of slot `s`.
    func geometryType(_ s: Int) -> GeometryType { geometryType(of: shapes[s]) }

    /// The geometry type of a slot's shape.
    @inline(__always)
    func geometryType(of shape: SlotShape) -> GeometryType {
        switch shape.kind {
        case .dead, .emptyPoint, .point: .point
        case .path: .polyline
        case .ring: .polygon
        case .general: general.type(at: shape.row)
        }
    }

    /// The bounding envelope of slot `s`'s geometry, or nil when it has none.
    func envelope(_ s: Int) -> Envelope? {
        let shape = shapes[s]
        switch shape.kind {
        case .dead, .emptyPoint: return nil
        case .point: return Envelope(xmin: shape.x, ymin: shape.y, xmax: shape.x, ymax: shape.y)
        case .path, .ring:
            let r = run(shape)
            guard var lo = r.first else { return nil }
            var hi = lo
            for v in r {
                lo = pointwiseMin(lo, v)
                hi = pointwiseMax(hi, v)
            }
            return Envelope(xmin: lo.x, ymin: lo.y, xmax: hi.x, ymax: hi.y)
        case .general: return general.envelope(at: shape.row)
        }
    }

    /// The packed vertices of a path or ring shape (range-checked).
    @inline(__always)
    func run(_ shape: SlotShape) -> UnsafeBufferPointer<SIMD2<Double>> {
        let start = shape.start, count = shape.count
        guard let base = vertexBase, start >= 0, start + count <= vertexCount else {
            preconditionFailure("packed vertex run out of range")
        }
        return UnsafeBufferPointer(start: base + start, count: count)
    }

    /// The packed vertices of a path or ring shape as points.
    private func points(_ shape: SlotShape) -> [Point] {
        run(shape).map { Point(x: $0.x, y: $0.y) }
    }
}
