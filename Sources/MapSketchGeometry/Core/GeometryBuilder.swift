/// A mutable geometry for editing: the sketch's working copy.
///
/// Edits address vertices by (part, index). Every edit checks its indices and throws
/// ``GeometryError`` instead of trapping. Polygon rings are open (see ``Polygon``).
///
/// ```swift
/// var b = GeometryBuilder(type: .polyline)
/// try b.append(Point(0, 0))
/// try b.append(Point(10, 0))
/// try b.insertVertex(Point(5, 5), part: 0, at: 1)
/// b.geometry   // .polyline([[ (0 0), (5 5), (10 0) ]])
/// ```
public struct GeometryBuilder: Hashable, Sendable {
    /// The type being built: point, multipoint, polyline or polygon.
    public let type: GeometryType
    /// The parts, each a list of vertices.
    public private(set) var parts: [[Point]]
    public var hasZ: Bool
    public var hasM: Bool

    /// Creates an empty builder.
    /// - Throws: ``GeometryError/unsupported(_:)`` for envelopes, which are not edited by vertex.
    public init(type: GeometryType, hasZ: Bool = false, hasM: Bool = false) throws {
        guard type != .envelope else { throw GeometryError.unsupported("an envelope cannot be edited by vertex") }
        self.type = type
        self.parts = []
        self.hasZ = hasZ
        self.hasM = hasM
    }

    /// Creates a builder holding `geometry`; an envelope becomes a one-ring polygon.
    public init(_ geometry: Geometry) {
        switch geometry {
        case .envelope:
            type = .polygon
            hasZ = false
            hasM = false
        case .point(let p):
            type = .point
            hasZ = p?.z != nil
            hasM = p?.m != nil
        case .multipoint(let g):
            type = .multipoint
            hasZ = g.hasZ
            hasM = g.hasM
        case .polyline(let g):
            type = .polyline
            hasZ = g.hasZ
            hasM = g.hasM
        case .polygon(let g):
            type = .polygon
            hasZ = g.hasZ
            hasM = g.hasM
        }
        parts = geometry.parts
    }

    /// The geometry built so far.
    public var geometry: Geometry {
        switch type {
        case .point: .point(parts.first?.first)
        case .multipoint: .multipoint(Multipoint(points: parts.flatMap { $0 }, hasZ: hasZ, hasM: hasM))
        case .polyline: .polyline(Polyline(paths: parts, hasZ: hasZ, hasM: hasM))
        case .polygon, .envelope: .polygon(Polygon(rings: parts, hasZ: hasZ, hasM: hasM))
        }
    }

    public var partCount: Int { parts.count }
    public var isEmpty: Bool { parts.allSatisfy(\.isEmpty) }

    /// The number of vertices in `part`.
    public func vertexCount(part: Int) throws -> Int {
        try checkPart(part)
        return parts[part].count
    }

    /// The vertex at (part, index).
    public func vertex(part: Int, index: Int) throws -> Point {
        try checkPart(part)
        try checkVertex(part: part, index: index, count: parts[part].count)
        return parts[part][index]
    }

    /// Inserts `point` so that it becomes vertex `index` of `part` (`index == count` appends).
    /// A point geometry takes the point as its one vertex instead.
    public mutating func insertVertex(_ point: Point, part: Int, at index: Int) throws {
        try checkFinite(point, part: part, index: index)
        if type == .point {
            guard part == 0, index == 0 else { throw GeometryError.pointHasOneVertex }
            parts = [[point]]
            return
        }
        try checkPart(part)
        try checkVertex(part: part, index: index, count: parts[part].count + 1)
        parts[part].insert(point, at: index)
    }

    /// Appends `point` to the last part, adding a first part when there is none.
    public mutating func append(_ point: Point) throws {
        if type == .point { return try insertVertex(point, part: 0, at: 0) }
        if parts.isEmpty { parts.append([]) }
        try insertVertex(point, part: parts.count - 1, at: parts[parts.count - 1].count)
    }

    /// Moves vertex (part, index) to `point`.
    public mutating func moveVertex(part: Int, index: Int, to point: Point) throws {
        try checkPart(part)
        try checkVertex(part: part, index: index, count: parts[part].count)
        try checkFinite(point, part: part, index: index)
        parts[part][index] = point
    }

    /// Removes vertex (part, index) and returns it. The part stays even when it becomes empty.
    @discardableResult
    public mutating func removeVertex(part: Int, index: Int) throws -> Point {
        try checkPart(part)
        try checkVertex(part: part, index: index, count: parts[part].count)
        let p = parts[part].remove(at: index)
        if type == .point { parts.removeAll() }
        return p
    }

    /// Adds a new empty part at the end and returns its index.
    @discardableResult
    public mutating func addPart() throws -> Int {
        if type == .point || (type == .multipoint && !parts.isEmpty) {
            throw GeometryError.unsupported("a \(type) has a single part")
        }
        parts.append([])
        return parts.count - 1
    }

    /// Inserts a part with the given vertices at `index` (`index == partCount` appends).
    public mutating func insertPart(_ vertices: [Point], at index: Int) throws {
        guard index >= 0, index <= parts.count else {
            throw GeometryError.partIndexOutOfRange(part: index, partCount: parts.count)
        }
        for (i, p) in vertices.enumerated() { try checkFinite(p, part: index, index: i) }
        parts.insert(vertices, at: index)
    }

    /// Removes part `index` and returns its vertices.
    @discardableResult
    public mutating func removePart(_ index: Int) throws -> [Point] {
        try checkPart(index)
        return parts.remove(at: index)
    }

    /// Removes every part.
    public mutating func removeAll() { parts.removeAll() }

    private func checkPart(_ part: Int) throws {
        guard part >= 0, part < parts.count else {
            throw GeometryError.partIndexOutOfRange(part: part, partCount: parts.count)
        }
    }

    /// Checks `0 <= index < limit`; the error reports the part's actual vertex count.
    private func checkVertex(part: Int, index: Int, count limit: Int) throws {
        guard index >= 0, index < limit else {
            throw GeometryError.vertexIndexOutOfRange(part: part, index: index, count: parts[part].count)
        }
    }

    private func checkFinite(_ p: Point, part: Int, index: Int) throws {
        guard p.isFinite else { throw GeometryError.nonFiniteCoordinate(part: part, index: index) }
    }
}
