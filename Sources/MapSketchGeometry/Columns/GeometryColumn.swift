/// Geometries stored as columns: one flat buffer of vertex coordinates, the parts as offsets into
/// it, and the rows (one geometry each) as offsets into the parts — the layout of GeoArrow's
/// native encodings (Apache Arrow offset buffers over interleaved `x, y` coordinates), with a
/// type per row so that one column can mix points, lines and polygons as a GeoJSON file does.
///
/// A million geometries are a handful of arrays, not a million `Geometry` values: a point costs
/// 25 bytes (its type, two offsets and its x and y), and a column of plain points (no z or m)
/// drops the offsets and costs 17. z and m live in buffers of their own, allocated only once a
/// vertex carries one. A row becomes a ``Geometry`` only when asked for (``subscript(_:)``).
///
/// - Points: one part with one vertex; the empty point (`.point(nil)`) has no part.
/// - Multipoints: one part holding every point (none when empty).
/// - Polylines and polygons: one part per path or ring, as stored (rings open, as ``Polygon``
///   keeps them); empty parts are kept.
/// - Envelopes: one part with two vertices, the lower-left and the upper-right corner.
/// - `hasZ` / `hasM` of multipoints, polylines and polygons are kept per row.
///
/// Reading a row back gives exactly the geometry that was appended (``Geometry`` equality; an
/// absent z or m is marked by a NaN of its own, so even a NaN z reads back as NaN).
///
/// ```swift
/// var column = GeometryColumn(x: [0, 10], y: [0, 5])       // two points
/// column.append(.polyline(Polyline(paths: [[Point(0, 0), Point(3, 4)]])))
/// column.startGeometry(.polygon)                            // or vertex by vertex
/// column.appendVertex(x: 0, y: 0)
/// column.appendVertex(x: 0, y: 1)
/// column.appendVertex(x: 1, y: 1)
/// column[3]   // .polygon(Polygon(rings: [[(0 0), (0 1), (1 1)]]))
/// ```
public struct GeometryColumn: Sendable, Equatable, RandomAccessCollection {
    /// Per row: the geometry type (low 3 bits, ``GeometryType`` in declaration order), hasZ
    /// (bit 3), hasM (bit 4), and the empty point (bit 5).
    private var kinds: [UInt8] = []
    /// Per row: its first part. Empty while every row is a plain point (row i is part i).
    private var rowParts: [Int32] = []
    /// Per part: its first vertex. Empty while every row is a plain point (part i is vertex i).
    private var partVertices: [Int32] = []
    /// x, y of every vertex, interleaved.
    private var xy: [Double] = []
    /// z of every vertex (NaN: none), or empty while no vertex has one.
    private var zs: [Double] = []
    /// m of every vertex (NaN: none), or empty while no vertex has one.
    private var ms: [Double] = []
    /// Whether every row is a plain point (x and y only), so the offsets are implicit.
    private var plainPoints = true

    private static let zFlag: UInt8 = 1 << 3
    private static let mFlag: UInt8 = 1 << 4
    private static let emptyFlag: UInt8 = 1 << 5

    /// An empty column.
    package init() {}

    /// A column of points, one per (x[i], y[i]).
    /// - Precondition: `x` and `y` have the same count.
    /// - Complexity: O(n) for n points.
    public init(x: [Double], y: [Double]) {
        precondition(x.count == y.count, "one y per x")
        let n = x.count
        kinds = [UInt8](repeating: 0, count: n)
        xy = [Double](unsafeUninitializedCapacity: 2 * n) { buffer, initialized in
            for i in 0..<n {
                buffer[2 * i] = x[i]
                buffer[2 * i + 1] = y[i]
            }
            initialized = 2 * n
        }
    }

    /// A column holding `geometries` in order.
    /// - Complexity: O(v) for v vertices in all.
    package init(_ geometries: some Sequence<Geometry>) {
        for g in geometries { append(g) }
    }

    // MARK: Collection

    /// The first row: 0.
    public var startIndex: Int { 0 }
    /// One past the last row.
    public var endIndex: Int { kinds.count }
    /// The number of vertices over all rows (an envelope counts two).
    public var vertexCount: Int { xy.count / 2 }

    /// The geometry of row `row`, made from the column.
    /// - Complexity: O(k) for the row's k vertices.
    public subscript(row: Int) -> Geometry {
        let k = kinds[row]
        let type = Self.type(k)
        let hasZ = k & Self.zFlag != 0
        let hasM = k & Self.mFlag != 0
        switch type {
        case .point:
            let r = vertexRange(row: row)
            guard k & Self.emptyFlag == 0, !r.isEmpty else { return .point(nil) }
            return .point(vertex(r.lowerBound))
        case .multipoint:
            var mp = Multipoint(points: [], hasZ: hasZ, hasM: hasM)
            mp.points = parts(row: row).first ?? []
            return .multipoint(mp)
        case .polyline:
            var pl = Polyline(paths: [], hasZ: hasZ, hasM: hasM)
            pl.paths = parts(row: row)
            return .polyline(pl)
        case .polygon:
            // Set directly: `Polygon(rings:)` would open a ring whose last vertex repeats its first.
            var pg = Polygon(rings: [], hasZ: hasZ, hasM: hasM)
            pg.rings = parts(row: row)
            return .polygon(pg)
        case .envelope:
            let v = vertexRange(row: row).lowerBound
            return .envelope(Envelope(xmin: xy[2 * v], ymin: xy[2 * v + 1], xmax: xy[2 * v + 2], ymax: xy[2 * v + 3]))
        }
    }

    /// The geometry type of row `row`.
    package func type(at row: Int) -> GeometryType { Self.type(kinds[row]) }

    /// The bounding envelope of row `row`, or nil when it has no vertex.
    /// - Complexity: O(k) for the row's k vertices.
    package func envelope(at row: Int) -> Envelope? {
        let r = vertexRange(row: row)
        guard !r.isEmpty else { return nil }
        var e = Envelope(
            xmin: xy[2 * r.lowerBound], ymin: xy[2 * r.lowerBound + 1], xmax: xy[2 * r.lowerBound],
            ymax: xy[2 * r.lowerBound + 1])
        for v in r.dropFirst() {
            let x = xy[2 * v], y = xy[2 * v + 1]
            e.xmin = Swift.min(e.xmin, x)
            e.ymin = Swift.min(e.ymin, y)
            e.xmax = Swift.max(e.xmax, x)
            e.ymax = Swift.max(e.ymax, y)
        }
        return e
    }

    /// Whether every coordinate of every row (x, y, and any z or m) is finite.
    /// - Complexity: O(v) for v vertices.
    public var isFinite: Bool {
        // Each value on its own (a sum of finite values can overflow); the absent-z/m marker is no NaN.
        for c in xy where !c.isFinite { return false }
        for c in zs where c.isInfinite || (c.isNaN && c.bitPattern != Self.none.bitPattern) { return false }
        for c in ms where c.isInfinite || (c.isNaN && c.bitPattern != Self.none.bitPattern) { return false }
        return true
    }

    public static func == (a: GeometryColumn, b: GeometryColumn) -> Bool {
        a.count == b.count && a.indices.allSatisfy { a[$0] == b[$0] }
    }

    // MARK: Appending

    /// Reserves room for `rows` more rows and `vertices` more vertices.
    package mutating func reserveCapacity(rows: Int, vertices: Int) {
        kinds.reserveCapacity(kinds.count + rows)
        xy.reserveCapacity(xy.count + 2 * vertices)
        if !plainPoints {
            rowParts.reserveCapacity(rowParts.count + rows)
            partVertices.reserveCapacity(partVertices.count + rows)
        }
    }

    /// Appends a point with x and y only.
    /// - Complexity: O(1) amortised.
    package mutating func appendPoint(x: Double, y: Double) {
        if !plainPoints {
            rowParts.append(Self.offset(partVertices.count))
            partVertices.append(Self.offset(vertexCount))
        }
        kinds.append(0)
        xy.append(x)
        xy.append(y)
        padZM()
    }

    /// Appends a geometry as a new row.
    /// - Complexity: O(k) amortised for its k vertices.
    package mutating func append(_ g: Geometry) {
        switch g {
        case .point(let p?) where p.z == nil && p.m == nil:
            appendPoint(x: p.x, y: p.y)
        case .point(let p):
            startGeometry(.point)
            if let p { appendVertex(x: p.x, y: p.y, z: p.z, m: p.m) } else { kinds[kinds.count - 1] |= Self.emptyFlag }
        case .multipoint(let mp):
            startGeometry(.multipoint, hasZ: mp.hasZ, hasM: mp.hasM)
            for p in mp.points { appendVertex(x: p.x, y: p.y, z: p.z, m: p.m) }
        case .polyline(let pl):
            startGeometry(.polyline, hasZ: pl.hasZ, hasM: pl.hasM)
            appendParts(pl.paths)
        case .polygon(let pg):
            startGeometry(.polygon, hasZ: pg.hasZ, hasM: pg.hasM)
            appendParts(pg.rings)
        case .envelope(let e):
            startRow(Self.code(.envelope))
            startPart()
            appendVertex(x: e.xmin, y: e.ymin)
            appendVertex(x: e.xmax, y: e.ymax)
        }
    }

    /// Starts a new row of `type`, whose vertices follow through ``appendVertex(x:y:z:m:)``
    /// (and, for polylines and polygons, whose parts start with ``startPart()``). A point row
    /// takes one vertex (none: the empty point); a multipoint row all its points.
    /// - Precondition: `type` is not `.envelope` (append an envelope with ``append(_:)``).
    package mutating func startGeometry(_ type: GeometryType, hasZ: Bool = false, hasM: Bool = false) {
        precondition(type != .envelope, "append envelopes with append(_:)")
        var k = Self.code(type)
        if type != .point {
            if hasZ { k |= Self.zFlag }
            if hasM { k |= Self.mFlag }
        }
        startRow(k)
    }

    /// Starts a new part (path or ring) of the current row.
    /// - Precondition: a row was started.
    package mutating func startPart() {
        precondition(!kinds.isEmpty, "startGeometry before startPart")
        makeOffsetsExplicit()
        partVertices.append(Self.offset(vertexCount))
    }

    /// Appends a vertex to the current part (starting the row's first part if it has none).
    /// - Precondition: a row was started.
    /// - Complexity: O(1) amortised.
    package mutating func appendVertex(x: Double, y: Double, z: Double? = nil, m: Double? = nil) {
        precondition(!kinds.isEmpty, "startGeometry before appendVertex")
        makeOffsetsExplicit()
        if partVertices.count == Int(rowParts[rowParts.count - 1]) { partVertices.append(Self.offset(vertexCount)) }
        xy.append(x)
        xy.append(y)
        if let z {
            if zs.isEmpty { zs = [Double](repeating: Self.none, count: vertexCount - 1) }
            zs.append(z)
        }
        if let m {
            if ms.isEmpty { ms = [Double](repeating: Self.none, count: vertexCount - 1) }
            ms.append(m)
        }
        padZM()
    }

    // MARK: Layout, for readers of the buffers

    /// The parts of row `row`: indices for ``vertexRange(part:)``.
    package func partRange(row: Int) -> Range<Int> {
        if plainPoints { return row..<(row + 1) }
        let start = Int(rowParts[row])
        return start..<(row + 1 < rowParts.count ? Int(rowParts[row + 1]) : partVertices.count)
    }

    /// The vertices of part `part`: indices for ``xyCoordinates`` (times two).
    package func vertexRange(part: Int) -> Range<Int> {
        if plainPoints { return part..<(part + 1) }
        let start = Int(partVertices[part])
        return start..<(part + 1 < partVertices.count ? Int(partVertices[part + 1]) : vertexCount)
    }

    /// The vertices of every part of row `row`.
    package func vertexRange(row: Int) -> Range<Int> {
        let parts = partRange(row: row)
        guard !parts.isEmpty else {
            // No part: an empty row; its position is where its next vertex would go.
            let at = parts.lowerBound < partVertices.count ? Int(partVertices[parts.lowerBound]) : vertexCount
            return at..<at
        }
        return vertexRange(part: parts.lowerBound).lowerBound..<vertexRange(part: parts.upperBound - 1).upperBound
    }

    /// Whether row `row` is a point with x and y only.
    package func isPlainPoint(_ row: Int) -> Bool {
        if plainPoints { return true }
        guard kinds[row] == 0 else { return false }
        let r = vertexRange(row: row)
        return r.count == 1 && !hasZM(r.lowerBound)
    }

    /// Whether row `row` is a polyline (or polygon) of exactly one part with at least two
    /// vertices, none with z or m, and neither flag set: what a flat run of x, y pairs holds.
    package func isPlainSinglePart(_ row: Int, _ type: GeometryType) -> Bool {
        guard kinds[row] == Self.code(type), partRange(row: row).count == 1 else { return false }
        let r = vertexRange(row: row)
        guard r.count >= 2 else { return false }
        if zs.isEmpty && ms.isEmpty { return true }
        return !r.contains { hasZM($0) }
    }

    /// Every vertex's x and y, interleaved.
    package var xyCoordinates: [Double] { xy }

    /// Whether every row is a point with x and y only (row i is vertex i).
    package var isPlainPoints: Bool { plainPoints }

    // MARK: Internals

    /// The marker of an absent z or m: a NaN with a payload of its own.
    private static let none = Double(bitPattern: 0x7FF8_0000_0000_4D53)

    private static func code(_ t: GeometryType) -> UInt8 {
        switch t {
        case .point: 0
        case .multipoint: 1
        case .polyline: 2
        case .polygon: 3
        case .envelope: 4
        }
    }

    private static func type(_ k: UInt8) -> GeometryType {
        switch k & 7 {
        case 0: .point
        case 1: .multipoint
        case 2: .polyline
        case 3: .polygon
        default: .envelope
        }
    }

    private static func offset(_ n: Int) -> Int32 {
        guard let o = Int32(exactly: n) else {
            preconditionFailure("a geometry column holds at most 2³¹ − 1 parts and vertices")
        }
        return o
    }

    private mutating func startRow(_ k: UInt8) {
        makeOffsetsExplicit()
        rowParts.append(Self.offset(partVertices.count))
        kinds.append(k)
    }

    private mutating func appendParts(_ parts: [[Point]]) {
        for part in parts {
            startPart()
            for p in part { appendVertex(x: p.x, y: p.y, z: p.z, m: p.m) }
        }
    }

    /// Leaves the plain-points layout: writes out the implicit offsets (row i is part i is vertex i).
    private mutating func makeOffsetsExplicit() {
        guard plainPoints else { return }
        plainPoints = false
        let n = kinds.count
        rowParts = (0..<n).map { Self.offset($0) }
        partVertices = rowParts
    }

    /// Keeps the z and m buffers one entry per vertex once they exist.
    private mutating func padZM() {
        if !zs.isEmpty, zs.count < vertexCount { zs.append(Self.none) }
        if !ms.isEmpty, ms.count < vertexCount { ms.append(Self.none) }
    }

    private func hasZM(_ v: Int) -> Bool {
        (!zs.isEmpty && zs[v].bitPattern != Self.none.bitPattern)
            || (!ms.isEmpty && ms[v].bitPattern != Self.none.bitPattern)
    }

    private func vertex(_ v: Int) -> Point {
        var p = Point(x: xy[2 * v], y: xy[2 * v + 1])
        if !zs.isEmpty, zs[v].bitPattern != Self.none.bitPattern { p.z = zs[v] }
        if !ms.isEmpty, ms[v].bitPattern != Self.none.bitPattern { p.m = ms[v] }
        return p
    }

    private func parts(row: Int) -> [[Point]] {
        partRange(row: row).map { part in vertexRange(part: part).map(vertex) }
    }
}
