import MapSketchGeometry

// Writing the slots' geometry: appending, replacing and dropping shapes, the packed vertices and
// the general store, compaction and projection.

extension GraphicSlots {
    /// Appends a slot for `g` drawn with symbol code `k`, and its id.
    func appendShape(_ g: Geometry, symbol k: Int32, id: Int) {
        shapes.append(makeShape(g, symbol: k))
        appendID(id)
    }

    /// Appends a slot for row `row` of `column` (projected by `projection`), and its id.
    func appendShape(_ column: GeometryColumn, row: Int, projection: PointProjection?, symbol k: Int32, id: Int) {
        if column.isPlainPoint(row) {
            let v = column.vertexRange(row: row).lowerBound
            var p = Point(x: column.xyCoordinates[2 * v], y: column.xyCoordinates[2 * v + 1])
            if let projection { p = projection.project(p) }
            shapes.append(SlotShape(kind: .point, x: p.x, y: p.y, symbol: k))
        } else if column.isPlainSinglePart(row, .polyline) || column.isPlainSinglePart(row, .polygon) {
            let r = column.vertexRange(row: row)
            let start = reserveVertices(r.count)
            guard let base = vertexBase else { preconditionFailure("vertex storage missing after allocation") }
            column.xyCoordinates.withUnsafeBufferPointer { xy in
                for (i, v) in r.enumerated() {
                    var p = Point(x: xy[2 * v], y: xy[2 * v + 1])
                    if let projection { p = projection.project(p) }
                    (base + start + i).initialize(to: SIMD2(p.x, p.y))
                }
            }
            vertexCount += r.count
            let kind: SlotShape.Kind = column.type(at: row) == .polyline ? .path : .ring
            shapes.append(SlotShape(kind: kind, start: start, count: r.count, symbol: k))
        } else {
            var g = column[row]
            if let projection { g = g.mapPoints(projection.project) }
            shapes.append(makeShape(g, symbol: k))
        }
        appendID(id)
    }

    /// Replaces slot `s`'s geometry (it changed, or the slot died: `nil`).
    func setShape(_ s: Int, _ g: Geometry?, symbol k: Int32) {
        let old = shapes[s]
        if old.kind == .path || old.kind == .ring { deadVertices += old.count }
        if old.kind == .general { deadGeneralRows += 1 }
        shapes[s] = g.map { makeShape($0, symbol: k) } ?? .dead
        if deadVertices > 4_096 && deadVertices * 2 > vertexCount { compactVertices() }
        if deadGeneralRows > 1_024 && deadGeneralRows * 2 > general.count { compactGeneral() }
    }

    /// Drops every slot.
    func removeAllShapes() {
        shapes.removeAll()
        ids.removeAll()
        vertexBase?.deallocate()
        vertexBase = nil
        vertexCount = 0
        vertexCapacity = 0
        deadVertices = 0
        general = GeometryColumn()
        deadGeneralRows = 0
    }

    /// Keeps the live slots only, in order (the layer's compaction); ids become explicit.
    func compactShapes() -> [Bool] {
        let keep = shapes.map { $0.kind != .dead }
        var newIDs = SlotBuffer<Int>()
        var w = 0
        for s in shapes.indices where keep[s] {
            newIDs.append(id(s))
            shapes[w] = shapes[s]
            w += 1
        }
        shapes.removeLast(shapes.count - w)
        ids = newIDs
        denseIDs = false
        compactVertices()
        compactGeneral()
        return keep
    }

    func makeShape(_ g: Geometry, symbol k: Int32) -> SlotShape {
        let part: [Point]
        let kind: SlotShape.Kind
        switch g {
        case .point(nil):
            return SlotShape(kind: .emptyPoint, symbol: k)
        case .point(let p?) where p.z == nil && p.m == nil:
            return SlotShape(kind: .point, x: p.x, y: p.y, symbol: k)
        case .polyline(let pl) where pl.paths.count == 1 && Self.isPlainRun(pl.paths[0], pl.hasZ, pl.hasM):
            part = pl.paths[0]
            kind = .path
        case .polygon(let pg) where pg.rings.count == 1 && Self.isPlainRun(pg.rings[0], pg.hasZ, pg.hasM):
            part = pg.rings[0]
            kind = .ring
        default:
            general.append(g)
            return SlotShape(kind: .general, start: general.count - 1, symbol: k)
        }
        let start = reserveVertices(part.count)
        guard let base = vertexBase else { preconditionFailure("vertex storage missing after allocation") }
        for (i, p) in part.enumerated() { (base + start + i).initialize(to: SIMD2(p.x, p.y)) }
        vertexCount += part.count
        return SlotShape(kind: kind, start: start, count: part.count, symbol: k)
    }

    /// Whether a path or ring goes to the packed vertices: at least two vertices, x and y only.
    static func isPlainRun(_ part: [Point], _ hasZ: Bool, _ hasM: Bool) -> Bool {
        part.count >= 2 && !hasZ && !hasM && part.allSatisfy { $0.z == nil && $0.m == nil }
    }

    /// Makes room for `n` more packed vertices and returns where they go. Offsets are 32-bit
    /// in spirit (2³¹ vertices would be 32 GB); the storage itself is not limited.
    func reserveVertices(_ n: Int) -> Int {
        if vertexCount + n > vertexCapacity { reallocateVertices(max(vertexCapacity * 2, vertexCount + n, 1_024)) }
        return vertexCount
    }

    /// Moves the packed vertices into storage for `capacity` of them.
    func reallocateVertices(_ capacity: Int) {
        let fresh = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: capacity)
        // A hit test reads a candidate's run at random: huge pages spare it a page walk.
        HugePages.advise(fresh, bytes: capacity * MemoryLayout<SIMD2<Double>>.stride)
        if let old = vertexBase {
            fresh.moveInitialize(from: old, count: vertexCount)
            old.deallocate()
        }
        vertexBase = fresh
        vertexCapacity = capacity
    }

    /// Rewrites the packed vertices with only the live slots' runs, in slot order.
    func compactVertices() {
        var live = 0
        for s in shapes.indices where shapes[s].kind == .path || shapes[s].kind == .ring { live += shapes[s].count }
        guard live > 0 || vertexBase != nil else { return }
        let fresh = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: max(live, 1_024))
        HugePages.advise(fresh, bytes: max(live, 1_024) * MemoryLayout<SIMD2<Double>>.stride)
        var written = 0
        if let old = vertexBase {
            for s in shapes.indices where shapes[s].kind == .path || shapes[s].kind == .ring {
                let n = shapes[s].count
                (fresh + written).initialize(from: old + shapes[s].start, count: n)
                shapes[s] = SlotShape(kind: shapes[s].kind, start: written, count: n, symbol: shapes[s].symbol)
                written += n
            }
            old.deallocate()
        }
        vertexBase = fresh
        vertexCount = written
        vertexCapacity = max(live, 1_024)
        deadVertices = 0
    }

    /// Rewrites the general store with only the live slots' rows, in slot order.
    func compactGeneral() {
        guard deadGeneralRows > 0 else { return }
        var fresh = GeometryColumn()
        for s in shapes.indices where shapes[s].kind == .general {
            fresh.append(general[shapes[s].row])
            shapes[s] = SlotShape(kind: .general, start: fresh.count - 1, symbol: shapes[s].symbol)
        }
        general = fresh
        deadGeneralRows = 0
    }

    /// Applies `projection` to every stored coordinate (the layer joined a map in another
    /// spatial reference).
    func project(_ projection: PointProjection) {
        for s in shapes.indices where shapes[s].kind == .point {
            let p = projection.project(Point(x: shapes[s].x, y: shapes[s].y))
            shapes[s].x = p.x
            shapes[s].y = p.y
        }
        if let base = vertexBase {
            for v in 0..<vertexCount {
                let p = projection.project(Point(x: base[v].x, y: base[v].y))
                base[v] = SIMD2(p.x, p.y)
            }
        }
        var fresh = GeometryColumn()
        for s in shapes.indices where shapes[s].kind == .general {
            fresh.append(general[shapes[s].row].mapPoints(projection.project))
            shapes[s] = SlotShape(kind: .general, start: fresh.count - 1, symbol: shapes[s].symbol)
        }
        general = fresh
        deadGeneralRows = 0
    }

    /// Bulk-loads the spatial index from every live slot's envelope.
    /// - Complexity: O(n + v) for n slots with v vertices.
    func rebuildIndex() {
        // Points (the bulk of a large layer) straight from the slot records, read through their
        // buffer: no class property access or range check per slot.
        let shapes = self.shapes.buffer
        index.bulkLoad(count: count) { s in
            let shape = shapes[s]
            return shape.kind == .point
                ? Envelope(xmin: shape.x, ymin: shape.y, xmax: shape.x, ymax: shape.y) : envelope(s)
        }
    }
}
