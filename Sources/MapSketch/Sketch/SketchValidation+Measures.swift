import MapSketchGeometry

/// The area and length the minimum rules compare, kept as running sums so a vertex edit
/// updates them from its neighbours in O(log n) instead of measuring the geometry again.
///
/// Cross products are taken relative to a fixed origin (the first vertex when the sums were
/// made), so a sketch far from the origin keeps its precision. The sums are deterministic (the
/// same edits give the same bits) but, being updated edit by edit, may differ in the last bits
/// from a measure taken from scratch.
struct SketchMeasures {
    /// The point cross products are taken relative to.
    let origin: Point
    /// Twice the shoelace sum over every ring (y up, counter-clockwise positive); 0 unless a polygon.
    var doubleShoelace: Double
    /// The total length: paths, or ring perimeters with their closing segments.
    var length: Double

    /// The area as ``GeometryEngine/area(_:)`` counts it: clockwise rings positive (Esri).
    var area: Double { -doubleShoelace / 2 }

    /// The measures of `store`, from scratch.
    /// - Complexity: O(n) for n vertices.
    init(_ store: VertexStore) {
        origin = store.parts.first(where: { !$0.isEmpty })?.first?.xy ?? Point(0, 0)
        doubleShoelace = 0
        length = 0
        for part in store.parts { add(part, closed: store.isClosed, sign: 1) }
    }

    private mutating func add(_ part: ChunkedVertices, closed: Bool, sign: Double) {
        guard let first = part.first else { return }
        var prev: Point?
        for p in part {
            if let a = prev { addSegment(a, p, closed: closed, sign: sign) }
            prev = p
        }
        if closed, let last = prev { addSegment(last, first, closed: true, sign: sign) }
    }

    private mutating func addSegment(_ a: Point, _ b: Point, closed: Bool, sign: Double) {
        length += sign * distance(a, b)
        if closed { doubleShoelace += sign * cross(a, b) }
    }

    private func cross(_ a: Point, _ b: Point) -> Double {
        (a.x - origin.x) * (b.y - origin.y) - (b.x - origin.x) * (a.y - origin.y)
    }

    private func distance(_ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The measures after `change`, which turned `before` into `after`.
    /// - Complexity: O(log n) for a vertex change, O(m) for a part of m vertices, O(n) otherwise.
    func updated(by change: SketchChange, before: VertexStore, after: VertexStore) -> SketchMeasures {
        let closed = after.isClosed
        var m = self
        switch change {
        case .vertexInserted(let p, let i):
            let part = after.parts[p]
            m.addVertex(part[i], between: Self.neighbours(of: i, in: part, closed: closed), closed: closed, sign: 1)
        case .vertexMoved(let p, let i, let from):
            let part = after.parts[p]
            let around = Self.neighbours(of: i, in: part, closed: closed)
            m.addVertex(from, between: around, closed: closed, sign: -1)
            m.addVertex(part[i], between: around, closed: closed, sign: 1)
        case .vertexRemoved(let p, let i, let point):
            m.addVertex(point, between: Self.neighbours(of: i, in: before.parts[p], closed: closed), closed: closed, sign: -1)
        case .partInserted(let p):
            m.add(after.parts[p], closed: closed, sign: 1)
        case .partRemoved(_, let vertices):
            m.add(vertices, closed: closed, sign: -1)
        case .partReplaced(let p):
            m.add(before.parts[p], closed: closed, sign: -1)
            m.add(after.parts[p], closed: closed, sign: 1)
        case .verticesAppended(let p, let i):
            // The new segments from the last old vertex on; a ring's closing segment moves.
            let part = after.parts[p]
            let n = part.count
            guard i < n, let first = part.first else { break }
            if closed, i > 0 { m.addSegment(part[i - 1], first, closed: true, sign: -1) }
            var prev: Point? = i > 0 ? part[i - 1] : nil
            for k in i..<n {
                let q = part[k]
                if let a = prev { m.addSegment(a, q, closed: closed, sign: 1) }
                prev = q
            }
            if closed, let last = prev { m.addSegment(last, first, closed: true, sign: 1) }
        case .transformed, .replaced:
            return SketchMeasures(after)
        }
        return m
    }

    /// Adds (sign 1) or takes out (−1) vertex `v` sitting between `around`'s vertices: its two
    /// segments in place of the one that would join its neighbours.
    private mutating func addVertex(_ v: Point, between around: (prev: Point?, next: Point?), closed: Bool, sign: Double) {
        if let a = around.prev { addSegment(a, v, closed: closed, sign: sign) }
        if let b = around.next { addSegment(v, b, closed: closed, sign: sign) }
        if let a = around.prev, let b = around.next { addSegment(a, b, closed: closed, sign: -sign) }
    }

    /// The vertices before and after vertex `i` of `part` (which holds it), wrapping around a
    /// ring; in a ring of two vertices both are the other vertex.
    static func neighbours(of i: Int, in part: ChunkedVertices, closed: Bool) -> (prev: Point?, next: Point?) {
        let n = part.count
        if closed {
            guard n >= 2 else { return (nil, nil) }
            return (part[(i - 1 + n) % n], part[(i + 1) % n])
        }
        return (i > 0 ? part[i - 1] : nil, i + 1 < n ? part[i + 1] : nil)
    }
}
