// Big two-dimensional multipoints and polylines held as flat coordinates (16 bytes a vertex), with
// the GeometryEngine operations the `geometry` tool applies to them, giving the same results.

/// A two-dimensional multipoint or polyline held as x, y pairs in one array plus the size of each
/// part — 16 bytes a vertex instead of the 48 of a ``Point`` — with the operations of
/// ``GeometryEngine`` that read and write coordinates only: ``simplify(tolerance:)``,
/// ``normalizeCentralMeridian(spatialReference:)``, ``project(from:to:)``, ``inWGS84(from:)``.
/// Each gives exactly the coordinates, parts and errors the engine gives for the same geometry
/// (``geometry``), and ``write(as:spatialReference:chunkSize:to:)`` writes the bytes of the
/// codecs' encoders a chunk at a time.
package struct FlatCoordinates: Sendable, Equatable {
    /// `.multipoint` or `.polyline`.
    package let type: GeometryType
    /// x and y of every vertex, interleaved, part after part.
    package private(set) var xy: [Double]
    /// The number of vertices of each part, each at least one (one part for a non-empty
    /// multipoint, none for an empty one).
    package private(set) var partSizes: [Int]

    /// Coordinates of `type` (`.multipoint` or `.polyline`); `partSizes` must add up to half of
    /// `xy`'s count, each at least one, and a multipoint has at most one part.
    package init(type: GeometryType, xy: [Double], partSizes: [Int]) {
        precondition(type == .multipoint || type == .polyline, "a multipoint or polyline")
        precondition(partSizes.reduce(0, +) * 2 == xy.count && partSizes.allSatisfy { $0 > 0 }, "part sizes of the coordinates")
        precondition(type == .polyline || partSizes.count <= 1, "one part for a multipoint")
        self.type = type
        self.xy = xy
        self.partSizes = partSizes
    }

    /// The coordinates of the geometry `flat` read from `text` (the text its
    /// `FlatLineGeometry.decode` read).
    /// - Complexity: O(n) in the coordinates' text; memory 16 bytes a vertex.
    package init(_ flat: FlatLineGeometry, in text: UnsafeBufferPointer<UInt8>) {
        var xy: [Double] = []
        xy.reserveCapacity(2 * flat.vertexCount)
        flat.forEachVertex(in: text) { _, _, x, y in
            xy.append(x)
            xy.append(y)
        }
        self.init(type: flat.type, xy: xy, partSizes: flat.partSizes)
    }

    /// A multipoint's or polyline's two-dimensional coordinates (z and m dropped); nil for
    /// other geometries, and for a polyline with an empty path.
    package init?(_ g: Geometry) {
        let parts: [[Point]]
        switch g {
        case .multipoint(let mp): (type, parts) = (.multipoint, mp.points.isEmpty ? [] : [mp.points])
        case .polyline(let pl): (type, parts) = (.polyline, pl.paths)
        default: return nil
        }
        guard parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        xy = parts.flatMap { $0.flatMap { [$0.x, $0.y] } }
        partSizes = parts.map(\.count)
    }

    /// The number of vertices.
    package var vertexCount: Int { xy.count / 2 }

    /// The geometry of ``Point``s these coordinates hold.
    /// - Complexity: O(n); memory 48 bytes a vertex.
    package var geometry: Geometry {
        var parts: [[Point]] = []
        parts.reserveCapacity(partSizes.count)
        var i = 0
        for n in partSizes {
            parts.append((i..<(i + n)).map { Point(xy[2 * $0], xy[2 * $0 + 1]) })
            i += n
        }
        if type == .multipoint { return .multipoint(Multipoint(points: parts.first ?? [])) }
        return .polyline(Polyline(paths: parts))
    }

    /// Calls `body` with every vertex, in order, as `(part, index in part, x, y)`.
    /// - Throws: what `body` throws.
    /// - Complexity: O(n).
    package func forEachVertex(_ body: (Int, Int, Double, Double) throws -> Void) rethrows {
        try xy.withUnsafeBufferPointer { c in
            var i = 0
            for (part, n) in partSizes.enumerated() {
                for k in 0..<n {
                    try body(part, k, c[2 * i], c[2 * i + 1])
                    i += 1
                }
            }
        }
    }

    // MARK: - Writing

    /// Writes the geometry as `out` by the format's encoder (``GeometryEncoder``) — with
    /// `spatialReference` in Esri JSON; GeoJSON is written as it is (bring it into WGS 84 first
    /// with ``inWGS84(from:)``) — handing `sink` a chunk of about `chunkSize` bytes at a time.
    /// - Throws: what `sink` throws.
    /// - Complexity: O(n); memory O(chunkSize).
    package func write(
        as out: GeometryFormat, spatialReference: SpatialReference?, chunkSize: Int = ByteOutput.chunkBytes,
        to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try ByteOutput.streaming(chunkSize: chunkSize, to: sink) { o in
            try GeometryEncoder.write(self, type: type, as: out, spatialReference: spatialReference, into: &o)
        }
    }

    // MARK: - Simplify

    /// ``GeometryEngine/simplify(_:tolerance:)`` in place: a multipoint loses every point closer
    /// than the tolerance to an earlier kept one (or equal to it); a polyline path loses each
    /// vertex closer than the tolerance to the vertex kept before it (its last vertex is kept in
    /// place of that one), then paths with fewer than two vertices go. The coordinates are
    /// finite, so none is dropped for being NaN or infinite.
    /// - Complexity: O(n) expected (a multipoint's kept points sit in a hash grid of cells one
    ///   tolerance wide, as the engine's); memory at most about 26 bytes a point for a multipoint's grid,
    ///   nothing for a polyline (the result is compacted into the same storage).
    package mutating func simplify(tolerance: Double) {
        let tolerance = tolerance.isFinite && tolerance > 0 ? tolerance : 0
        if type == .multipoint {
            simplifyPoints(tolerance: tolerance)
        } else {
            simplifyPaths(tolerance: tolerance)
        }
    }

    private mutating func simplifyPaths(tolerance: Double) {
        var sizes: [Int] = []
        let t2 = tolerance * tolerance
        // Kept vertices overwrite read ones in place: a path never keeps more than it has read.
        var w = 0, r = 0
        xy.withUnsafeMutableBufferPointer { c in
            for n in partSizes {
                let start = w
                var count = 0
                for k in 0..<n {
                    let x = c[2 * (r + k)], y = c[2 * (r + k) + 1]
                    if count > 0 {
                        let lx = c[2 * (w - 1)], ly = c[2 * (w - 1) + 1]
                        let dx = lx - x, dy = ly - y
                        if (lx == x && ly == y) || dx * dx + dy * dy < t2 {
                            // The path's last vertex replaces the one kept before it, unless that is the first.
                            if k == n - 1, count >= 2, !(lx == x && ly == y) {
                                c[2 * (w - 1)] = x
                                c[2 * (w - 1) + 1] = y
                            }
                            continue
                        }
                    }
                    c[2 * w] = x
                    c[2 * w + 1] = y
                    w += 1
                    count += 1
                }
                r += n
                if count >= 2 { sizes.append(count) } else { w = start }
            }
        }
        xy.removeSubrange((2 * w)...)
        partSizes = sizes
    }

    /// The multipoint rule of `VertexSnapper`, over flat storage: a point is kept when no kept
    /// point in its own or the eight neighbouring cells is equal to it or closer than the
    /// tolerance. Cells are computed and compared exactly as the snapper's are.
    private mutating func simplifyPoints(tolerance: Double) {
        guard let n = partSizes.first, n > 1 else { return }
        guard n <= PointGrid.maxCapacity else {
            // Beyond the grid's 32-bit point numbers: the engine's own snapper, with points.
            if let simplified = FlatCoordinates(GeometryEngine.simplify(geometry, tolerance: tolerance)) { self = simplified }
            return
        }
        var grid = PointGrid(tolerance: tolerance, capacity: n)
        var w = 0
        xy.withUnsafeMutableBufferPointer { c in
            for i in 0..<n {
                let x = c[2 * i], y = c[2 * i + 1]
                guard !grid.hasNear(x, y, in: c) else { continue }
                c[2 * w] = x
                c[2 * w + 1] = y
                grid.keep(w, in: c)
                w += 1
            }
        }
        xy.removeSubrange((2 * w)...)
        partSizes = [w]
    }

    // MARK: - Normalize

    /// ``GeometryEngine/normalizeCentralMeridian(_:spatialReference:)`` of the geometry: a
    /// multipoint's points folded into the world's x range, a polyline's paths cut at every
    /// antimeridian they cross and each piece shifted into it.
    /// - Throws: the engine's ``ProjectionError`` — an unsupported spatial reference; a path
    ///   vertex beyond ±2^50 in x or a segment wider than a world, naming its part and vertex —
    ///   before changing anything.
    /// - Complexity: O(n); memory a second copy of the coordinates for a polyline (the pieces
    ///   are written into new storage).
    package mutating func normalizeCentralMeridian(spatialReference sr: SpatialReference) throws(ProjectionError) {
        let wrap = try WorldWrap(normalizing: sr)
        if type == .multipoint {
            for i in 0..<vertexCount {
                xy[2 * i] = wrap.fold(Point(xy[2 * i], xy[2 * i + 1])).x
            }
            return
        }
        let starts = partStarts
        try xy.withUnsafeBufferPointer { c throws(ProjectionError) in
            try wrap.checkDomain(partCount: partSizes.count, size: { partSizes[$0] }, x: { c[2 * (starts[$0] + $1)] }, closed: false)
        }
        var out: [Double] = []
        out.reserveCapacity(xy.count + xy.count / 8)
        var sizes: [Int] = []
        xy.withUnsafeBufferPointer { c in
            for (i, n) in partSizes.enumerated() {
                let r = starts[i]
                wrap.split(count: n, vertex: { Point(c[2 * (r + $0)], c[2 * (r + $0) + 1]) }) { p, startsPiece in
                    if startsPiece { sizes.append(0) }
                    out.append(p.x)
                    out.append(p.y)
                    sizes[sizes.count - 1] += 1
                }
            }
        }
        xy = out
        partSizes = sizes
    }

    /// The index of each part's first vertex.
    private var partStarts: [Int] {
        var starts: [Int] = []
        starts.reserveCapacity(partSizes.count)
        var r = 0
        for n in partSizes {
            starts.append(r)
            r += n
        }
        return starts
    }

    // MARK: - Project

    /// ``GeometryEngine/project(_:from:to:)-(Geometry,_,_)`` in place: unchanged for identical
    /// spatial references, else every vertex checked against the projection's domain, then
    /// projected (with `decimal`, Web Mercator to WGS 84 as an output writes it:
    /// ``GeometryEngine/webMercatorToGeographicDecimal(_:)``).
    /// - Throws: the engine's ``ProjectionError`` — an unsupported pair, or the first vertex
    ///   outside the domain, naming its part and vertex — before changing anything.
    /// - Complexity: O(n).
    package mutating func project(from: SpatialReference, to: SpatialReference, decimal: Bool = false) throws {
        if from == to { return }
        let f = try GeometryEngine.projection(from: from, to: to, decimal: decimal)
        try checkProjectionDomain(from: from)
        xy.withUnsafeMutableBufferPointer { c in
            for i in 0..<(c.count / 2) {
                let q = f(Point(c[2 * i], c[2 * i + 1]))
                c[2 * i] = q.x
                c[2 * i + 1] = q.y
            }
        }
    }

    private func checkProjectionDomain(from: SpatialReference) throws(ProjectionError) {
        var r = 0
        for (i, n) in partSizes.enumerated() {
            for k in 0..<n { try GeometryEngine.checkDomain(Point(xy[2 * (r + k)], xy[2 * (r + k) + 1]), from: from, part: i, vertex: k) }
            r += n
        }
    }

    /// ``GeoJSON/inWGS84(_:)`` in place, for coordinates in `sr`, by the rule of GeoJSON output
    /// (``GeoJSON/wgs84Projection(from:)``): unchanged in WGS 84, projected from Web Mercator.
    /// - Throws: ``GeoJSONOutputError`` as ``GeoJSON/inWGS84(_:)`` — without a spatial
    ///   reference, ``GeoJSONOutputError/noSpatialReference`` — before changing anything.
    /// - Complexity: O(n).
    package mutating func inWGS84(from sr: SpatialReference?) throws(GeoJSONOutputError) {
        guard let projection = try GeoJSON.wgs84Projection(from: sr) else { return }
        do {
            try project(from: projection.from, to: .wgs84, decimal: true)
        } catch {
            throw .cannotProject(from: projection.from)
        }
    }
}

/// The hash grid of `VertexSnapper` for points kept in flat storage, finding exactly the kept
/// points the snapper's `nearest(to:)` compares: those whose cell — one tolerance wide (for a zero
/// tolerance, the point itself, −0 folded into 0) — is one of the nine cells around the query's,
/// computed with the same arithmetic.
///
/// The snapper looks nine cells up in a dictionary of arrays; a big random multipoint then costs
/// nine cache misses a point and a heap array a kept point. Here kept points are chained per
/// *block* of 2 × 2 cells, so the nine cells meet four blocks (fewer where cells coincide, far from
/// the origin); each chained point is then checked to lie in one of the nine cells, so the points
/// compared are the snapper's. An open-addressing table maps a block to its last kept point
/// (with 32 bits of the block's hash, so a slot of another block is passed over without reading
/// points), each kept point links to the one kept before it in its block, and a bitset of block
/// hashes, small enough to stay in cache, answers most lookups of empty blocks without touching
/// the table: 8 bytes a slot (at most 8/3 slots a point), 4 bytes a point and a bit or four.
struct PointGrid {
    let tolerance: Double
    /// The last kept point of a block (low 32 bits) and 32 bits of the block's hash (high), or
    /// `empty`.
    private var slots: [UInt64]
    /// The point kept before each kept point in its block, −1 for none.
    private var next: [Int32]
    /// One bit per block hash: set when some block with that hash holds a point.
    private var seen: [UInt64]
    private let mask: Int
    private let seenMask: Int
    private static let empty = UInt64.max

    /// The most points a grid holds (their numbers are 32-bit).
    static let maxCapacity = Int(Int32.max) - 1

    /// A grid for up to `capacity` (at most ``maxCapacity``) kept points.
    init(tolerance: Double, capacity: Int) {
        precondition(capacity <= Self.maxCapacity, "at most 2^31 − 2 points")
        self.tolerance = tolerance
        var size = 16
        while size * 3 < capacity * 4 { size *= 2 }
        slots = Array(repeating: Self.empty, count: size)
        mask = size - 1
        // Four bits a slot: about one in six set at the fullest.
        seen = Array(repeating: 0, count: size / 16)
        seenMask = size * 4 - 1
        next = []
        next.reserveCapacity(capacity)
    }

    /// The snapper's cell of a point.
    @inline(__always)
    private func cell(_ x: Double, _ y: Double) -> (Double, Double) {
        if tolerance == 0 { return (x == 0 ? 0 : x, y == 0 ? 0 : y) }
        return ((x / tolerance).rounded(.down), (y / tolerance).rounded(.down))
    }

    /// The block of a cell: the cell itself for a zero tolerance (only one cell is looked up).
    @inline(__always)
    private func block(_ c: Double) -> Double {
        tolerance == 0 ? c : (c / 2).rounded(.down)
    }

    @inline(__always)
    private static func hash(_ bx: Double, _ by: Double) -> UInt64 {
        // Equal blocks hash alike: −0 == 0, so fold it (adding +0 does).
        var h = (bx + 0).bitPattern &* 0x9E37_79B9_7F4A_7C15 ^ ((by + 0).bitPattern &+ 0x632B_E59B_D9B4_E019)
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return h
    }

    /// The slot of block (bx, by) with hash `h`: the one holding it, or the empty one where it
    /// would go.
    @inline(__always)
    private func slot(_ bx: Double, _ by: Double, _ h: UInt64, in xy: UnsafeMutableBufferPointer<Double>) -> Int {
        let tag = h >> 32
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let s = slots[i]
            if s == Self.empty { return i }
            if s >> 32 == tag {
                let head = Int(s & 0xFFFF_FFFF)
                let c = cell(xy[2 * head], xy[2 * head + 1])
                if block(c.0) == bx && block(c.1) == by { return i }
            }
            i = (i + 1) & mask
        }
    }

    @inline(__always)
    private func seenBit(_ h: UInt64) -> (Int, UInt64) {
        let b = Int(truncatingIfNeeded: h >> 20) & seenMask
        return (b >> 6, 1 << UInt64(b & 63))
    }

    /// Whether a kept point (in `xy`) is equal to (x, y) or closer than the tolerance, among
    /// those in the cells `VertexSnapper.nearest(to:)` looks in.
    func hasNear(_ x: Double, _ y: Double, in xy: UnsafeMutableBufferPointer<Double>) -> Bool {
        let c = cell(x, y)
        let t2 = tolerance * tolerance
        // The nine cells are cx × cy; their blocks, without repeats.
        let cx = tolerance == 0 ? (c.0, c.0, c.0) : (c.0 - 1, c.0, c.0 + 1)
        let cy = tolerance == 0 ? (c.1, c.1, c.1) : (c.1 - 1, c.1, c.1 + 1)
        let bxs = Self.distinct(block(cx.0), block(cx.1), block(cx.2))
        let bys = Self.distinct(block(cy.0), block(cy.1), block(cy.2))
        for i in 0..<bxs.3 {
            let bx = i == 0 ? bxs.0 : (i == 1 ? bxs.1 : bxs.2)
            for j in 0..<bys.3 {
                let by = j == 0 ? bys.0 : (j == 1 ? bys.1 : bys.2)
                let h = Self.hash(bx, by)
                let (word, bit) = seenBit(h)
                guard seen[word] & bit != 0 else { continue }
                let s = slots[slot(bx, by, h, in: xy)]
                guard s != Self.empty else { continue }
                var id = Int(s & 0xFFFF_FFFF)
                while id >= 0 {
                    let vx = xy[2 * id], vy = xy[2 * id + 1]
                    let vc = cell(vx, vy)
                    // One of the nine cells, as the snapper's dictionary lookups find them.
                    if vc.0 == cx.0 || vc.0 == cx.1 || vc.0 == cx.2, vc.1 == cy.0 || vc.1 == cy.1 || vc.1 == cy.2 {
                        let ex = vx - x, ey = vy - y
                        if (vx == x && vy == y) || ex * ex + ey * ey < t2 { return true }
                    }
                    id = Int(next[id])
                }
            }
        }
        return false
    }

    /// The distinct values among three, and how many there are (first in the tuple).
    @inline(__always)
    private static func distinct(_ a: Double, _ b: Double, _ c: Double) -> (Double, Double, Double, Int) {
        if b == a { return c == a ? (a, a, a, 1) : (a, c, c, 2) }
        if c == a || c == b { return (a, b, b, 2) }
        return (a, b, c, 3)
    }

    /// Keeps point `id` (in `xy`, the next one: ids are 0, 1, 2, … in order).
    mutating func keep(_ id: Int, in xy: UnsafeMutableBufferPointer<Double>) {
        let c = cell(xy[2 * id], xy[2 * id + 1])
        let bx = block(c.0), by = block(c.1)
        let h = Self.hash(bx, by)
        let i = slot(bx, by, h, in: xy)
        let s = slots[i]
        next.append(s == Self.empty ? -1 : Int32(truncatingIfNeeded: s & 0xFFFF_FFFF))
        slots[i] = (h >> 32) << 32 | UInt64(id)
        let (word, bit) = seenBit(h)
        seen[word] |= bit
    }
}

extension FlatLineGeometry {
    /// ``GeometryEngine/validate(_:mode:)`` of the geometry read from `text` (the text
    /// ``decode(_:format:)`` read), straight from the text: its coordinates are finite, so a
    /// multipoint is valid and a polyline has an issue for each path without two distinct
    /// vertices.
    /// - Complexity: O(n) in the coordinates' text; memory O(issues).
    package func validate(in text: UnsafeBufferPointer<UInt8>) -> [ValidationIssue] {
        guard type == .polyline else { return [] }
        var v = Validator()
        var first = (0.0, 0.0)
        var distinct = false
        let sizes = partSizes
        forEachVertex(in: text) { part, index, x, y in
            if index == 0 {
                first = (x, y)
                distinct = false
            } else if !distinct, !(x == first.0 && y == first.1) {
                distinct = true
            }
            if index == sizes[part] - 1, !distinct { v.checkLineSize([Point(first.0, first.1)], part: part) }
        }
        return v.issues
    }
}
