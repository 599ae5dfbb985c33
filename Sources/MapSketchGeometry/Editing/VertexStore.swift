/// A geometry being edited, part by part, with each part in chunked storage: the sketch's
/// working copy at any size.
///
/// This is the geometry builder (also named ``GeometryBuilder``): insert, move and remove a vertex
/// by (part, index), add, insert and remove a part. Each edit costs O(log n) in the part's vertex
/// count (appends O(1) amortised), and copies are O(parts) snapshots that share chunks.
/// Every edit checks its indices and coordinates and throws ``GeometryError`` instead of trapping.
///
/// ```swift
/// var s = try VertexStore(type: .polygon)
/// try s.addPart()
/// try s.append(Point(0, 0)); try s.append(Point(0, 10)); try s.append(Point(10, 10))
/// try s.insertVertex(Point(5, 12), part: 0, at: 2)
/// s.geometry      // .polygon(rings: [[(0 0), (0 10), (5 12), (10 10)]])
/// ```
public struct VertexStore: Hashable, Sendable {
    /// The type being edited: point, multipoint, polyline or polygon.
    public let type: GeometryType
    /// Whether vertices carry z values.
    public var hasZ: Bool
    /// Whether vertices carry m values.
    public var hasM: Bool
    /// The parts (a point or multipoint has at most one).
    public private(set) var parts: [ChunkedVertices]

    /// An empty store of `type`.
    /// - Throws: ``GeometryError/unsupported(_:)`` for envelopes, which are not edited by vertex.
    public init(type: GeometryType, hasZ: Bool = false, hasM: Bool = false) throws {
        guard type != .envelope else { throw GeometryError.unsupported("an envelope cannot be edited by vertex") }
        self.type = type
        self.hasZ = hasZ
        self.hasM = hasM
        parts = []
        _checkInvariants()
    }

    /// A store holding `geometry`; an envelope becomes a one-ring polygon.
    /// - Throws: ``GeometryError/nonFiniteCoordinate(part:index:)`` for a NaN or infinite coordinate.
    /// - Complexity: O(n) for n vertices.
    public init(_ geometry: Geometry) throws {
        switch geometry {
        case .envelope:
            (type, hasZ, hasM) = (.polygon, false, false)
        case .point(let p):
            (type, hasZ, hasM) = (.point, p?.z != nil, p?.m != nil)
        case .multipoint(let g):
            (type, hasZ, hasM) = (.multipoint, g.hasZ, g.hasM)
        case .polyline(let g):
            (type, hasZ, hasM) = (.polyline, g.hasZ, g.hasM)
        case .polygon(let g):
            (type, hasZ, hasM) = (.polygon, g.hasZ, g.hasM)
        }
        let vertexParts = geometry.parts
        for (pi, part) in vertexParts.enumerated() {
            for (vi, p) in part.enumerated() where !p.isFinite {
                throw GeometryError.nonFiniteCoordinate(part: pi, index: vi)
            }
        }
        parts = vertexParts.map { ChunkedVertices($0) }
        if type == .multipoint, parts.count == 1, parts[0].isEmpty { parts = [] }
        _checkInvariants()
    }

    /// The geometry held. A `hasZ` or `hasM` flag that is true is kept; one that is false defers to
    /// the vertices (true when every vertex carries z or m), so a sketch started empty keeps the
    /// heights of the GPS fixes appended to it.
    ///
    /// - Complexity: O(n) for n vertices.
    public var geometry: Geometry {
        let z: Bool? = hasZ ? true : nil
        let m: Bool? = hasM ? true : nil
        switch type {
        case .point: return .point(parts.first?.first)
        case .multipoint: return .multipoint(Multipoint(points: parts.first?.array ?? [], hasZ: z, hasM: m))
        case .polyline: return .polyline(Polyline(paths: parts.map(\.array), hasZ: z, hasM: m))
        case .polygon, .envelope: return .polygon(Polygon(rings: parts.map(\.array), hasZ: z, hasM: m))
        }
    }

    /// The number of parts.
    public var partCount: Int { parts.count }
    /// The number of vertices over all parts.
    ///
    /// - Complexity: O(p) for p parts.
    public var vertexCount: Int { parts.reduce(0) { $0 + $1.count } }
    /// Whether there is no vertex.
    public var isEmpty: Bool { parts.allSatisfy(\.isEmpty) }
    /// Whether polygon rings close back to their first vertex (and so have a closing segment).
    public var isClosed: Bool { type == .polygon }

    /// The envelope of every vertex, or nil when empty.
    ///
    /// - Complexity: O(p) for p parts.
    public var envelope: Envelope? {
        var e: Envelope?
        for p in parts { if let pe = p.envelope { e = e.map { $0.union(pe) } ?? pe } }
        return e
    }

    /// The vertices of `part`.
    /// - Throws: ``GeometryError/partIndexOutOfRange(part:partCount:)``.
    public func part(_ part: Int) throws -> ChunkedVertices {
        try checkPart(part)
        return parts[part]
    }

    /// The number of vertices in `part`.
    ///
    /// - Throws: ``GeometryError/partIndexOutOfRange(part:partCount:)``.
    public func vertexCount(part: Int) throws -> Int {
        try checkPart(part)
        return parts[part].count
    }

    /// The vertex at (part, index).
    ///
    /// - Complexity: O(log n) for n vertices in the part.
    /// - Throws: ``GeometryError`` for an index out of range.
    public func vertex(part: Int, index: Int) throws -> Point {
        try checkPart(part)
        try checkVertex(part: part, index: index, limit: parts[part].count)
        return parts[part][index]
    }

    /// Inserts `point` so that it becomes vertex `index` of `part` (`index == count` appends).
    /// A geometry without parts takes its first vertex at (0, 0), creating part 0, as
    /// ``append(_:)`` does: a point its one vertex, a multipoint, polyline or polygon its first part.
    /// - Throws: ``GeometryError`` for an index out of range, a non-finite coordinate, or a second
    ///   vertex in a point geometry (``GeometryError/pointHasOneVertex``).
    /// - Complexity: O(log n) for n vertices in the part.
    package mutating func insertVertex(_ point: Point, part: Int, at index: Int) throws {
        try checkFinite(point, part: part, index: index)
        if type == .point {
            guard part == 0, index == 0, isEmpty else { throw GeometryError.pointHasOneVertex }
            parts = [ChunkedVertices([point])]
            _checkInvariants()
            return
        }
        if parts.isEmpty, part == 0 {
            // Create the part only once the call is known to succeed: a refused edit changes nothing.
            guard index == 0 else { throw GeometryError.vertexIndexOutOfRange(part: 0, index: index, count: 0) }
            parts = [ChunkedVertices([point])]
            _checkInvariants()
            return
        }
        try checkPart(part)
        try checkVertex(part: part, index: index, limit: parts[part].count + 1)
        if index == parts[part].count {
            parts[part].append(point)
        } else {
            parts[part].insert(point, at: index)
        }
        _checkInvariants()
    }

    /// Appends `point` to the last part, adding a first part when there is none.
    /// - Throws: as ``insertVertex(_:part:at:)``.
    /// - Complexity: O(1) amortised.
    public mutating func append(_ point: Point) throws {
        if type == .point || parts.isEmpty { return try insertVertex(point, part: 0, at: 0) }
        try insertVertex(point, part: parts.count - 1, at: parts[parts.count - 1].count)
    }

    /// Moves vertex (part, index) to `point` and returns where it was.
    /// - Throws: ``GeometryError`` for an index out of range or a non-finite coordinate.
    /// - Complexity: O(log n) for n vertices in the part.
    @discardableResult
    package mutating func moveVertex(part: Int, index: Int, to point: Point) throws -> Point {
        try checkPart(part)
        try checkVertex(part: part, index: index, limit: parts[part].count)
        try checkFinite(point, part: part, index: index)
        let old = parts[part].replace(at: index, with: point)
        _checkInvariants()
        return old
    }

    /// Removes vertex (part, index) and returns it. The part stays even when it becomes empty,
    /// except in a point geometry, which becomes empty.
    /// - Throws: ``GeometryError`` for an index out of range.
    /// - Complexity: O(log n) for n vertices in the part.
    @discardableResult
    package mutating func removeVertex(part: Int, index: Int) throws -> Point {
        try checkPart(part)
        try checkVertex(part: part, index: index, limit: parts[part].count)
        let p = parts[part].remove(at: index)
        if type == .point { parts.removeAll() }
        _checkInvariants()
        return p
    }

    /// Adds a new empty part at the end and returns its index.
    /// - Throws: ``GeometryError/unsupported(_:)`` for a point, or a multipoint that has its part.
    @discardableResult
    public mutating func addPart() throws -> Int {
        if type == .point { throw GeometryError.unsupported("a point has a single part") }
        try insertPart(ChunkedVertices(), at: parts.count)
        return parts.count - 1
    }

    /// Inserts a part holding `vertices` at `index` (`index == partCount` appends). A point or
    /// multipoint takes a part only when it has none (a point's part holds exactly one vertex).
    /// - Throws: ``GeometryError`` for an index out of range, a non-finite coordinate, a second
    ///   part in a point or multipoint, or a point part without exactly one vertex.
    /// - Complexity: O(p + n) for p parts and the new part's n vertices (each is checked).
    package mutating func insertPart(_ vertices: ChunkedVertices, at index: Int) throws {
        if (type == .point || type == .multipoint) && !parts.isEmpty {
            throw GeometryError.unsupported("a \(type) has a single part")
        }
        if type == .point, vertices.count != 1 { throw GeometryError.pointHasOneVertex }
        guard index >= 0, index <= parts.count else {
            throw GeometryError.partIndexOutOfRange(part: index, partCount: parts.count)
        }
        for (i, p) in vertices.enumerated() { try checkFinite(p, part: index, index: i) }
        parts.insert(vertices, at: index)
        _checkInvariants()
    }

    /// Removes part `index` and returns its vertices.
    /// - Throws: ``GeometryError/partIndexOutOfRange(part:partCount:)``.
    @discardableResult
    package mutating func removePart(_ index: Int) throws -> ChunkedVertices {
        try checkPart(index)
        let removed = parts.remove(at: index)
        _checkInvariants()
        return removed
    }

    /// Removes every part.
    package mutating func removeAll() {
        parts.removeAll()
        _checkInvariants()
    }

    private func checkPart(_ part: Int) throws {
        guard part >= 0, part < parts.count else {
            throw GeometryError.partIndexOutOfRange(part: part, partCount: parts.count)
        }
    }

    /// Checks `0 <= index < limit`; the error reports the part's actual vertex count.
    private func checkVertex(part: Int, index: Int, limit: Int) throws {
        guard index >= 0, index < limit else {
            throw GeometryError.vertexIndexOutOfRange(part: part, index: index, count: parts[part].count)
        }
    }

    /// Replaces part `index` with `vertices`, the same number of vertices with finite
    /// coordinates (a transform of the part): no check of the coordinates again.
    mutating func replacePart(_ index: Int, withTransformed vertices: ChunkedVertices) {
        precondition(index >= 0 && index < parts.count && parts[index].count == vertices.count, "a transformed part keeps its count")
        parts[index] = vertices
        _checkInvariants()
    }

    private func checkFinite(_ p: Point, part: Int, index: Int) throws {
        guard p.isFinite else { throw GeometryError.nonFiniteCoordinate(part: part, index: index) }
    }
}

/// The builder for editing geometry by vertex: the sketch's mutable geometry (see ``VertexStore``).
public typealias GeometryBuilder = VertexStore
