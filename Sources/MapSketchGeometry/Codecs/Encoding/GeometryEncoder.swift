/// The one encoder of each format — Esri JSON, GeoJSON, WKT — written once over any
/// ``VertexSource`` into a ``ByteOutput``: the codecs' `encode`, the `geometry` tool's flat
/// path and the streaming of a sketch's vertices (`replay`, `gps`) all write through it, so the
/// same geometry gives the same bytes from a tree, flat coordinates or chunked parts.
///
/// A multipoint, polyline or (Esri JSON) polygon is written from any source; points, envelopes
/// and the grouped polygons of GeoJSON and WKT from the tree (``esriJSON(_:into:)``,
/// ``geoJSON(wgs84:orientation:into:)``, ``wkt(_:into:)``), with the same vertex and part rules.
package enum GeometryEncoder {}

/// How one vertex is written, in one format: the one vertex rule of each.
package struct VertexFormat: Sendable {
    /// The format's vertex layout.
    package enum Kind: Sendable {
        /// `[x,y(,z|null)(,m|null)]`.
        case esriJSON
        /// `[x,y(,z)]`, z only where the vertex has one; projected first when there is a projection.
        case geoJSON
        /// `x y( z| NaN)( m| NaN)`.
        case wkt
        /// `(x y …)`, a WKT multipoint's member.
        case wktMember
    }

    /// The layout.
    package let kind: Kind
    /// Whether z is written (GeoJSON: each vertex's own z, when it has one).
    package let z: Bool
    /// Whether m is written (never in GeoJSON).
    package let m: Bool
    /// The projection applied to each vertex as it is written (GeoJSON into WGS 84).
    package let projection: PointProjection?

    /// A vertex format of `kind`, writing z and m when `z` and `m`, projecting by `projection`
    /// (GeoJSON only).
    package init(_ kind: Kind, z: Bool, m: Bool, projection: PointProjection? = nil) {
        self.kind = kind
        self.z = z
        self.m = m
        self.projection = projection
    }

    /// Appends what separates two vertices of a part: `,` in JSON, `, ` in WKT.
    @inline(__always)
    package func writeSeparator(to o: inout ByteOutput) {
        o.out.append(UInt8(ascii: ","))
        if kind == .wkt || kind == .wktMember { o.out.append(UInt8(ascii: " ")) }
    }

    /// Appends vertex `p`.
    @inline(__always)
    package func write(_ p: Point, to o: inout ByteOutput) {
        switch kind {
        case .esriJSON:
            o.out.append(UInt8(ascii: "["))
            o.number(p.x)
            o.out.append(UInt8(ascii: ","))
            o.number(p.y)
            if z {
                o.out.append(UInt8(ascii: ","))
                if let v = p.z { o.number(v) } else { o.ascii("null") }
            }
            if m {
                o.out.append(UInt8(ascii: ","))
                if let v = p.m { o.number(v) } else { o.ascii("null") }
            }
            o.out.append(UInt8(ascii: "]"))
        case .geoJSON:
            let q = projection?.project(p) ?? p
            o.out.append(UInt8(ascii: "["))
            o.number(q.x)
            o.out.append(UInt8(ascii: ","))
            o.number(q.y)
            if z, let v = q.z {
                o.out.append(UInt8(ascii: ","))
                o.number(v)
            }
            o.out.append(UInt8(ascii: "]"))
        case .wkt:
            wktCoordinate(p, to: &o)
        case .wktMember:
            o.out.append(UInt8(ascii: "("))
            wktCoordinate(p, to: &o)
            o.out.append(UInt8(ascii: ")"))
        }
    }

    @inline(__always)
    private func wktCoordinate(_ p: Point, to o: inout ByteOutput) {
        o.text(WKT.format(p.x))
        o.out.append(UInt8(ascii: " "))
        o.text(WKT.format(p.y))
        if z {
            o.out.append(UInt8(ascii: " "))
            o.text(WKT.format(p.z ?? .nan))
        }
        if m {
            o.out.append(UInt8(ascii: " "))
            o.text(WKT.format(p.m ?? .nan))
        }
    }
}

/// How the parts of a list are written around their vertices, and the list around them.
struct PartLayout {
    /// Before a part's first vertex, and after its last.
    var open: StaticString, close: StaticString
    /// An empty part.
    var empty: StaticString
    /// Between two parts.
    var separator: StaticString
    /// Whether a part's first vertex is written again after its last (a ring).
    var closeRings = false
    /// Before the first part of a list and after the last; a list without a part.
    var listOpen: StaticString, listClose: StaticString, emptyList: StaticString

    /// JSON parts: `[…]`, empty `[]`, separated by `,`, in `[…]`.
    static let json = PartLayout(open: "[", close: "]", empty: "[]", separator: ",", listOpen: "[", listClose: "]", emptyList: "[]")
    /// JSON rings: as ``json``, closed.
    static let jsonRings = PartLayout(
        open: "[", close: "]", empty: "[]", separator: ",", closeRings: true, listOpen: "[", listClose: "]", emptyList: "[]")
    /// WKT parts: `(…)`, empty `EMPTY`, separated by `, `, in ` (…)` or ` EMPTY`.
    static let wkt = PartLayout(open: "(", close: ")", empty: "EMPTY", separator: ", ", listOpen: " (", listClose: ")", emptyList: " EMPTY")
    /// WKT multipoint members (each vertex written as `(x y)`), one part in ` (…)`.
    static let wktMembers = PartLayout(open: "", close: "", empty: "", separator: ", ", listOpen: " (", listClose: ")", emptyList: " EMPTY")
}

/// Vertices formatted on another thread, a chunk at a time, for the encoders to write in their
/// turn: in a part of at least two chunks (``chunk`` vertices each), the odd chunks' vertices,
/// each preceded by the separator (``GeometryEncoder/formatOffloaded(_:format:chunk:put:)``
/// formats them; ``take`` gives them back in order).
package struct OffloadedChunks {
    /// Vertices in a chunk.
    package let chunk: Int
    /// The next formatted chunk, in order; nil when the formatting stopped.
    package let take: () throws -> [UInt8]?

    /// Chunks of `chunk` (positive) vertices, taken from `take`.
    package init(chunk: Int, take: @escaping () throws -> [UInt8]?) {
        precondition(chunk > 0, "a positive chunk size")
        self.chunk = chunk
        self.take = take
    }

    /// Whether vertex `index` of a part of `size` vertices is formatted elsewhere.
    @inline(__always)
    static func isOffloaded(size: Int, index: Int, chunk: Int) -> Bool {
        size >= 2 * chunk && (index / chunk) & 1 == 1
    }
}

/// The formatting of offloaded chunks stopped before the last one.
package struct OffloadStopped: Error, CustomStringConvertible {
    /// What stopped.
    package var description: String { "the formatting thread stopped early" }
}

extension GeometryEncoder {
    /// Writes the parts of `source` as `layout` lays them out, each vertex by `format`, parts
    /// separated (no brackets around the list); offloaded chunks (see ``OffloadedChunks``) are
    /// taken in their turn instead of formatted here.
    /// - Throws: ``OffloadStopped``, what `offload.take` throws, or the output's failure (which
    ///   stops the taking).
    static func parts<S: VertexSource>(
        _ source: S, _ layout: PartLayout, _ format: VertexFormat, into o: inout ByteOutput, offload: OffloadedChunks? = nil
    ) throws {
        let sizes = source.partSizes
        var opened = 0  // parts begun, empty ones included
        func skipEmpty(to part: Int, _ o: inout ByteOutput) {
            while opened < part {
                if opened > 0 { o.ascii(layout.separator) }
                o.ascii(layout.empty)
                opened += 1
            }
        }
        var first = Point(0, 0)
        let chunk = offload?.chunk ?? 0
        try source.forEachVertex { part, k, p in
            let size = sizes[part]
            if k == 0 {
                skipEmpty(to: part, &o)
                if part > 0 { o.ascii(layout.separator) }
                o.ascii(layout.open)
                opened += 1
                first = p
                format.write(p, to: &o)
            } else if let offload, OffloadedChunks.isOffloaded(size: size, index: k, chunk: chunk) {
                if k % chunk == 0 {
                    o.flush()
                    // A failed sink stops the formatting elsewhere, with the sink's error.
                    if let failure = o.failure { throw failure }
                    guard let formatted = try offload.take() else { throw OffloadStopped() }
                    o.write(formatted)
                }
            } else {
                format.writeSeparator(to: &o)
                format.write(p, to: &o)
            }
            if k == size - 1 {
                if layout.closeRings {
                    format.writeSeparator(to: &o)
                    format.write(first, to: &o)
                }
                o.ascii(layout.close)
            }
            o.flushIfFull()
        }
        skipEmpty(to: sizes.count, &o)
    }

    /// Formats the vertices ``parts(_:_:_:into:offload:)`` takes from `OffloadedChunks` of `chunk`
    /// vertices, handing `put` each chunk's bytes in order.
    /// - Throws: what `put` throws (it stops the formatting).
    package static func formatOffloaded<S: VertexSource>(
        _ source: S, format: VertexFormat, chunk: Int, put: ([UInt8]) throws -> Void
    ) throws {
        let sizes = source.partSizes
        var buffer = ByteOutput()
        try source.forEachVertex { part, k, p in
            let size = sizes[part]
            guard OffloadedChunks.isOffloaded(size: size, index: k, chunk: chunk) else { return }
            format.writeSeparator(to: &buffer)
            format.write(p, to: &buffer)
            if (k + 1) % chunk == 0 || k == size - 1 {
                try put(buffer.out)
                buffer.out = []
            }
        }
    }

    /// A list of parts in the layout's brackets (`[…]`, ` (…)`), or its empty list (`[]`,
    /// ` EMPTY`) without a part.
    static func list<S: VertexSource>(
        _ source: S, _ layout: PartLayout, _ format: VertexFormat, into o: inout ByteOutput, offload: OffloadedChunks? = nil
    ) throws {
        guard !source.partSizes.isEmpty else { return o.ascii(layout.emptyList) }
        o.ascii(layout.listOpen)
        try parts(source, layout, format, into: &o, offload: offload)
        o.ascii(layout.listClose)
    }

    /// A source of one part (a multipoint's points, a line string) written as that part; an
    /// empty part without one.
    static func single<S: VertexSource>(
        _ source: S, _ layout: PartLayout, _ format: VertexFormat, into o: inout ByteOutput, offload: OffloadedChunks? = nil
    ) throws {
        if source.partSizes.isEmpty { return o.ascii(layout.empty) }
        try parts(source, layout, format, into: &o, offload: offload)
    }

    /// Runs an encoding that takes no offloaded chunks, so cannot fail.
    @inline(__always)
    static func unfailing(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            preconditionFailure("an encoding without offloaded chunks does not fail: \(error)")
        }
    }
}

extension GeometryEncoder {
    /// Writes a multipoint, polyline or (Esri JSON) polygon held by `source` in `format`: Esri
    /// JSON with `spatialReference`, GeoJSON with each vertex projected by `projection` (into
    /// WGS 84), z and m written when `z` and `m` (GeoJSON: no m). Offloaded chunks must be
    /// formatted by ``vertexFormat(_:type:z:m:projection:)`` of the same arguments.
    /// - Throws: only for offloaded chunks (see ``OffloadedChunks``).
    /// - Complexity: O(n) for n vertices.
    package static func write<S: VertexSource>(
        _ source: S, type: GeometryType, as format: GeometryFormat, z: Bool = false, m: Bool = false,
        spatialReference sr: SpatialReference?, projection: PointProjection? = nil, into o: inout ByteOutput,
        offload: OffloadedChunks? = nil
    ) throws {
        switch format {
        case .esriJSON: try esriJSON(source, type: type, z: z, m: m, spatialReference: sr, into: &o, offload: offload)
        case .geoJSON: try geoJSON(source, type: type, z: z, projection: projection, into: &o, offload: offload)
        case .wkt: try wkt(source, type: type, z: z, m: m, into: &o, offload: offload)
        }
    }

    /// How ``write(_:type:as:z:m:spatialReference:projection:into:offload:)`` writes each vertex.
    package static func vertexFormat(
        _ format: GeometryFormat, type: GeometryType, z: Bool, m: Bool, projection: PointProjection? = nil
    ) -> VertexFormat {
        switch format {
        case .esriJSON: VertexFormat(.esriJSON, z: z, m: m)
        case .geoJSON: VertexFormat(.geoJSON, z: z, m: false, projection: projection)
        case .wkt: VertexFormat(type == .multipoint ? .wktMember : .wkt, z: z, m: m)
        }
    }

    /// ``write(_:type:as:z:m:spatialReference:projection:into:offload:)`` of a sketch's parts.
    package static func write(
        _ store: VertexStore, as format: GeometryFormat, z: Bool, m: Bool, spatialReference sr: SpatialReference?,
        projection: PointProjection?, into o: inout ByteOutput, offload: OffloadedChunks?
    ) throws {
        try write(store, type: store.type, as: format, z: z, m: m, spatialReference: sr, projection: projection, into: &o, offload: offload)
    }

    /// ``formatOffloaded(_:format:chunk:put:)`` of a sketch's parts.
    package static func formatOffloaded(store: VertexStore, format: VertexFormat, chunk: Int, put: ([UInt8]) throws -> Void) throws {
        try formatOffloaded(store, format: format, chunk: chunk, put: put)
    }
}
