import Foundation
package import MapSketchGeometry
import MapSketchReaders

/// Writes the geometry a vertex store holds, a buffer at a time, without assembling it: the
/// bytes `GeometryFormat.encode` would give of the geometry as written — `store.geometry` with
/// z and m only where every vertex has them (`WrittenDimensions`, the one rule for all three
/// formats) — (the tests compare the two on every type and format), at the cost of one output
/// buffer instead of the geometry (48 bytes a vertex) and its text.
///
/// GeoJSON is RFC 7946: in WGS 84 longitude/latitude, each vertex projected as it is written by
/// the rule of `GeoJSON.wgs84Projection(from:)` (a store without a spatial reference is an
/// error). Multipoints and polylines stream in every format, polygons in Esri JSON; a polygon in
/// GeoJSON or WKT (whose rings are first grouped into polygons with their holes) and a point are
/// encoded whole.
package struct GeometryStreamWriter {
    /// Bytes gathered before they go to the sink.
    static let bufferSize = POSIX.chunkBytes

    private var out: [UInt8] = []
    private let sink: (UnsafeRawBufferPointer) throws -> Void

    private init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.sink = sink
        out.reserveCapacity(Self.bufferSize + 256)
    }

    /// Writes `store`'s geometry in `format`, then a newline when `newline`, to `sink`.
    /// - Throws: what `sink` throws; `GeoJSONOutputError` when GeoJSON is asked for and the
    ///   geometry cannot be given in WGS 84 longitude/latitude (no spatial reference, or one
    ///   that cannot be projected).
    /// - Complexity: O(n) for n vertices; memory O(1) beyond the store (see the type's notes).
    package static func write(
        _ store: VertexStore, spatialReference: SpatialReference?, format: GeometryFormat, newline: Bool = true,
        to sink: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var w = GeometryStreamWriter(sink: sink)
        let streams: Bool
        switch (store.type, format) {
        case (.multipoint, _), (.polyline, _), (.polygon, .esriJSON): streams = true
        default: streams = false
        }
        let d = WrittenDimensions(store)
        if streams {
            switch format {
            case .esriJSON: try w.esri(store, spatialReference, d)
            case .geoJSON: try w.geoJSON(store, toWGS84: try GeoJSON.wgs84Projection(from: spatialReference), z: d.hasZ)
            case .wkt: try w.wkt(store, d)
            }
        } else {
            w.text(try format.encode(SpatialGeometry(d.applied(to: store.geometry), spatialReference: spatialReference)))
        }
        if newline { w.out.append(ASCII.lf) }
        try w.flush()
    }

    // MARK: - Esri JSON

    private mutating func esri(_ store: VertexStore, _ sr: SpatialReference?, _ d: WrittenDimensions) throws {
        let z = d.hasZ, m = d.hasM
        text("{")
        if z { text("\"hasZ\":true,") }
        if m { text("\"hasM\":true,") }
        switch store.type {
        case .multipoint:
            text("\"points\":")
            try vertices(store.parts.first, z: z, m: m, close: false)
        case .polyline, .polygon:
            text(store.type == .polyline ? "\"paths\":[" : "\"rings\":[")
            for (k, part) in store.parts.enumerated() {
                if k > 0 { text(",") }
                try vertices(part, z: z, m: m, close: store.type == .polygon)
            }
            text("]")
        default: break
        }
        if let sr {
            text(",\"spatialReference\":")
            text(JSONWriter.string(EsriJSON.jsonValue(sr)))
        }
        text("}")
    }

    /// `[[x,y(,z|null)(,m|null)],…]`, the first vertex repeated at the end when `close`.
    private mutating func vertices(_ part: ChunkedVertices?, z: Bool, m: Bool, close: Bool) throws {
        text("[")
        try sequence(part ?? ChunkedVertices(), separator: ",") { p, out in Self.esriVertex(p, z: z, m: m, to: &out) }
        if close, let f = part?.first {
            text(",")
            Self.esriVertex(f, z: z, m: m, to: &out)
        }
        text("]")
    }

    private static func esriVertex(_ p: Point, z: Bool, m: Bool, to out: inout [UInt8]) {
        out.append(0x5B)  // [
        JSONWriter.appendNumber(p.x, to: &out)
        out.append(0x2C)
        JSONWriter.appendNumber(p.y, to: &out)
        if z {
            out.append(0x2C)
            if let v = p.z { JSONWriter.appendNumber(v, to: &out) } else { out.append(contentsOf: "null".utf8) }
        }
        if m {
            out.append(0x2C)
            if let v = p.m { JSONWriter.appendNumber(v, to: &out) } else { out.append(contentsOf: "null".utf8) }
        }
        out.append(0x5D)  // ]
    }

    // MARK: - GeoJSON

    private mutating func geoJSON(_ store: VertexStore, toWGS84 projection: PointProjection?, z: Bool) throws {
        if store.type == .multipoint {
            text("{\"type\":\"MultiPoint\",\"coordinates\":")
            try positions(store.parts.first, projection, z: z)
        } else if store.partCount == 1 {
            text("{\"type\":\"LineString\",\"coordinates\":")
            try positions(store.parts[0], projection, z: z)
        } else if store.partCount == 0 {
            text("{\"type\":\"LineString\",\"coordinates\":[]")
        } else {
            text("{\"type\":\"MultiLineString\",\"coordinates\":[")
            for (k, part) in store.parts.enumerated() {
                if k > 0 { text(",") }
                try positions(part, projection, z: z)
            }
            text("]")
        }
        text("}")
    }

    /// `[[x,y(,z)],…]`, z when `z` (every vertex has one): GeoJSON positions have no m.
    private mutating func positions(_ part: ChunkedVertices?, _ projection: PointProjection?, z: Bool) throws {
        text("[")
        try sequence(part ?? ChunkedVertices(), separator: ",") { v, out in
            let p = projection?.project(v) ?? v
            out.append(0x5B)
            JSONWriter.appendNumber(p.x, to: &out)
            out.append(0x2C)
            JSONWriter.appendNumber(p.y, to: &out)
            if z, let h = p.z {
                out.append(0x2C)
                JSONWriter.appendNumber(h, to: &out)
            }
            out.append(0x5D)
        }
        text("]")
    }

    // MARK: - WKT

    private mutating func wkt(_ store: VertexStore, _ d: WrittenDimensions) throws {
        let z = d.hasZ, m = d.hasM
        let dims = z && m ? " ZM" : z ? " Z" : m ? " M" : ""
        switch store.type {
        case .multipoint:
            text("MULTIPOINT" + dims)
            let part = store.parts.first ?? ChunkedVertices()
            guard !part.isEmpty else { return text(" EMPTY") }
            text(" (")
            try sequence(part, separator: ", ") { p, out in
                out.append(0x28)  // (
                Self.wktCoordinate(p, z: z, m: m, to: &out)
                out.append(0x29)  // )
            }
            text(")")
        default:  // polyline
            if store.partCount == 1 {
                text("LINESTRING" + dims)
                if store.parts[0].isEmpty { return text(" EMPTY") }
                text(" ")
                try wktSequence(store.parts[0], z: z, m: m)
                return
            }
            text("MULTILINESTRING" + dims)
            guard store.partCount > 0 else { return text(" EMPTY") }
            text(" (")
            for (k, part) in store.parts.enumerated() {
                if k > 0 { text(", ") }
                if part.isEmpty { text("EMPTY") } else { try wktSequence(part, z: z, m: m) }
            }
            text(")")
        }
    }

    private mutating func wktSequence(_ part: ChunkedVertices, z: Bool, m: Bool) throws {
        text("(")
        try sequence(part, separator: ", ") { p, out in Self.wktCoordinate(p, z: z, m: m, to: &out) }
        text(")")
    }

    private static func wktCoordinate(_ p: Point, z: Bool, m: Bool, to out: inout [UInt8]) {
        out.append(contentsOf: WKT.format(p.x).utf8)
        out.append(0x20)
        out.append(contentsOf: WKT.format(p.y).utf8)
        if z { out.append(contentsOf: (" " + WKT.format(p.z ?? .nan)).utf8) }
        if m { out.append(contentsOf: (" " + WKT.format(p.m ?? .nan)).utf8) }
    }

    // MARK: - Vertex sequences

    /// Vertices in a chunk of a long part's sequence.
    static let parallelChunk = 16_384
    /// Chunks the helper thread may have formatted ahead of the writing.
    static let parallelDepth = 2

    /// Writes `part`'s vertices, each by `vertex`, with `separator` between them. A part of at
    /// least two chunks (``parallelChunk`` vertices each) is formatted on two threads: this one
    /// formats and writes the even chunks, a helper formats the odd ones into buffers of their
    /// own, at most ``parallelDepth`` ahead, and this one writes each in its turn — the same bytes
    /// in the same order as formatting every vertex here.
    private mutating func sequence(
        _ part: ChunkedVertices, separator: StaticString, _ vertex: @escaping @Sendable (Point, inout [UInt8]) -> Void
    ) throws {
        let sep = UnsafeBufferPointer(start: separator.utf8Start, count: separator.utf8CodeUnitCount)
        let chunk = Self.parallelChunk
        guard part.count >= 2 * chunk else {
            var first = true
            for p in part {
                if !first { out.append(contentsOf: sep) }
                first = false
                vertex(p, &out)
                if out.count >= Self.bufferSize { try flush() }
            }
            return
        }
        let queue = BoundedQueue<[UInt8], Void>(depth: Self.parallelDepth)
        defer { queue.cancel() }  // a failed write stops the helper at its next chunk
        let helper = Thread {
            let sep = UnsafeBufferPointer(start: separator.utf8Start, count: separator.utf8CodeUnitCount)
            var buffer: [UInt8] = []
            var i = 0
            for p in part {
                if (i / chunk) & 1 == 1 {
                    buffer.append(contentsOf: sep)  // never the first vertex: chunk 0 is this thread's
                    vertex(p, &buffer)
                    if (i + 1) % chunk == 0 {
                        guard queue.put(buffer) else { return }
                        buffer = []
                    }
                }
                i += 1
            }
            if !buffer.isEmpty { guard queue.put(buffer) else { return } }
            queue.end((), failure: nil)
        }
        helper.name = "mapsketch.format"
        helper.start()
        var i = 0
        for p in part {
            if (i / chunk) & 1 == 0 {
                if i > 0 { out.append(contentsOf: sep) }
                vertex(p, &out)
                if out.count >= Self.bufferSize { try flush() }
            } else if i % chunk == 0 {
                try flush()
                // The helper puts one buffer per odd chunk, in order, and stops only when cancelled.
                guard let formatted = try queue.take() else { throw HelperStopped() }
                try formatted.withUnsafeBytes { try sink($0) }
            }
            i += 1
        }
    }

    /// The formatting helper stopped before its last chunk (it is only ever stopped by a failed write).
    private struct HelperStopped: Error, CustomStringConvertible {
        var description: String { "the formatting thread stopped early" }
    }

    // MARK: - Output

    private mutating func text(_ s: String) {
        out.append(contentsOf: s.utf8)
    }

    private mutating func flush() throws {
        guard !out.isEmpty else { return }
        try out.withUnsafeBytes { try sink($0) }
        out.removeAll(keepingCapacity: true)
    }
}
