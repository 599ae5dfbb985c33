import Foundation
package import MapSketchGeometry
import MapSketchReaders

/// Writes the geometry a vertex store holds by the format's encoder (`GeometryEncoder`), a
/// buffer at a time, without assembling it: the geometry as written — z and m only where every
/// vertex has them (`WrittenDimensions`, the one rule for all three formats) — at the cost of
/// one output buffer instead of the geometry (48 bytes a vertex) and its text.
///
/// GeoJSON is RFC 7946: in WGS 84 longitude/latitude, each vertex projected as it is written by
/// the rule of `GeoJSON.wgs84Projection(from:)` (a store without a spatial reference is an
/// error). Multipoints and polylines stream in every format, polygons in Esri JSON; a polygon in
/// GeoJSON or WKT (whose rings are first grouped into polygons with their holes) and a point are
/// encoded whole. A long part's vertices are formatted on two threads (``parallelChunk``).
package enum GeometryStreamWriter {
    /// Bytes gathered before they go to the sink.
    static let bufferSize = ByteOutput.chunkBytes
    /// Vertices in a chunk of a long part's sequence.
    static let parallelChunk = 16_384
    /// Chunks the helper thread may have formatted ahead of the writing.
    static let parallelDepth = 2

    /// Writes `store`'s geometry in `format`, then a newline when `newline`, to `sink`. A part of
    /// at least two chunks (``parallelChunk`` vertices each) is formatted on two threads: this
    /// one formats and writes the even chunks, a helper formats the odd ones into buffers of
    /// their own, at most ``parallelDepth`` ahead, and this one writes each in its turn — the
    /// same bytes in the same order as formatting every vertex here.
    /// - Throws: what `sink` throws; `GeoJSONOutputError` when GeoJSON is asked for and the
    ///   geometry cannot be given in WGS 84 longitude/latitude (no spatial reference, or one
    ///   that cannot be projected).
    /// - Complexity: O(n) for n vertices; memory O(1) beyond the store (see the type's notes).
    package static func write(
        _ store: VertexStore, spatialReference: SpatialReference?, format: GeometryFormat, newline: Bool = true,
        to sink: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var o = ByteOutput(chunkSize: bufferSize, sink: sink)
        let d = WrittenDimensions(store)
        switch (store.type, format) {
        case (.multipoint, _), (.polyline, _), (.polygon, .esriJSON):
            let projection = format == .geoJSON ? try GeoJSON.wgs84Projection(from: spatialReference) : nil
            try stream(store, format, d, spatialReference, projection, into: &o)
        default:
            o.text(try format.encode(SpatialGeometry(d.applied(to: store.geometry), spatialReference: spatialReference)))
        }
        if newline { o.out.append(ASCII.lf) }
        try o.finish()
    }

    private static func stream(
        _ store: VertexStore, _ format: GeometryFormat, _ d: WrittenDimensions, _ sr: SpatialReference?, _ projection: PointProjection?,
        into o: inout ByteOutput
    ) throws {
        let chunk = parallelChunk
        guard store.parts.contains(where: { $0.count >= 2 * chunk }) else {
            return try GeometryEncoder.write(
                store, as: format, z: d.hasZ, m: d.hasM, spatialReference: sr, projection: projection, into: &o, offload: nil)
        }
        let vertexFormat = GeometryEncoder.vertexFormat(format, type: store.type, z: d.hasZ, m: d.hasM, projection: projection)
        let queue = BoundedQueue<[UInt8], Void>(depth: parallelDepth)
        defer { queue.cancel() }  // a failed write stops the helper at its next chunk
        let helper = Thread {
            // The helper puts one buffer per odd chunk, in order, and stops only when cancelled.
            try? GeometryEncoder.formatOffloaded(store: store, format: vertexFormat, chunk: chunk) { buffer in
                guard queue.put(buffer) else { throw CancellationError() }
            }
            queue.end((), failure: nil)
        }
        helper.name = "mapsketch.format"
        helper.start()
        let offload = OffloadedChunks(chunk: chunk) { try queue.take() }
        try GeometryEncoder.write(
            store, as: format, z: d.hasZ, m: d.hasM, spatialReference: sr, projection: projection, into: &o, offload: offload)
    }
}
