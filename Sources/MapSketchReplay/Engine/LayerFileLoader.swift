import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReaders

/// Reads a header layer's file (`source`) into a new graphics layer, a batch of features at a
/// time: memory holds the layer and one batch, not the file.
///
/// The path is resolved against the trace's folder and must stay in its tree (or in that of
/// ``TraceFiles/layerRoot``), both as written and with symbolic links followed. The features are
/// WGS 84 longitude/latitude (RFC 7946; a legacy `crs` member naming another spatial reference is
/// an error), the spatial reference the layer takes them in: the layer joins the map before the
/// first batch (`configure`), and projects each batch into the map's spatial reference as it is
/// added; its index is built once, after the last batch (`GraphicsLayer.add(batches:)`).
@MainActor
enum LayerFileLoader {
    /// The features read before they are handed to the layer.
    static let batchSize = 65_536

    /// The layer of `source`'s features, set up by `configure` before the first is added, their
    /// ids appended to `ids` in file order; measured as ``ReplayOperation/layerLoad`` under a
    /// probe.
    /// - Throws: ``ReplayError`` at the `source` member naming the layer and what is wrong: the
    ///   trace was not read from a file, the path leaves the allowed folders, or the file cannot be
    ///   read or decoded (then the message locates the problem in the layer file,
    ///   file:line:column); what `configure` throws.
    static func load(
        _ source: TraceLayerSource, layer name: String, files: TraceFiles?, ids: inout GraphicIDList,
        probe: (any ReplayProbe)?, configure: (GraphicsLayer) throws -> Void
    ) throws -> GraphicsLayer {
        let file = try resolve(source, layer: name, files: files)
        func body() throws -> GraphicsLayer {
            try read(source.format, url: file.url, display: file.display, ids: &ids, configure: configure)
        }
        do {
            guard let probe else { return try body() }
            return try probe.measure(.layerLoad) { () throws -> GraphicsLayer in try body() }
        } catch let e as InputError {
            throw failure(source, name, e.description)
        } catch let e as GraphicsLayerError {
            throw failure(source, name, "\(file.display): \(e)")
        }
    }

    /// The error at `source`'s member for layer `name`.
    private static func failure(_ source: TraceLayerSource, _ name: String, _ message: String) -> ReplayError {
        ReplayError(line: source.line, column: source.column, message: "layers: layer \"\(name)\": \(message)")
    }

    /// The file `source` names and its name in messages (the trace's displayed folder and the
    /// path as written).
    /// - Throws: ``ReplayError`` when there is no trace file to resolve against, or when the file
    ///   is outside the trace's folder tree and outside ``TraceFiles/layerRoot``'s.
    static func resolve(_ source: TraceLayerSource, layer name: String, files: TraceFiles?) throws(ReplayError) -> (
        url: URL, display: String
    ) {
        guard let files else {
            throw failure(
                source, name,
                "source \"\(source.path)\" is resolved against the trace's folder, and this trace was not read from a file")
        }
        let folder = files.trace.deletingLastPathComponent().standardizedFileURL
        let url =
            (source.path.hasPrefix("/") ? URL(fileURLWithPath: source.path) : folder.appendingPathComponent(source.path))
            .standardizedFileURL
        let roots = [folder] + (files.layerRoot.map { [$0.standardizedFileURL] } ?? [])
        let inside =
            roots.contains { Self.isInside(url, $0) }
            && roots.contains { Self.isInside(url.resolvingSymlinksInPath(), $0.resolvingSymlinksInPath()) }
        let displayFolder = (files.displayName as NSString).deletingLastPathComponent
        guard inside else {
            let allowed = files.layerRoot.map { " or under --layer-root \(InputFile.displayPath($0))" } ?? ""
            throw failure(
                source, name,
                "source \"\(source.path)\" leaves the trace's folder (\(displayFolder.isEmpty ? "." : displayFolder))\(allowed); "
                    + "layer files must be in the trace's folder tree, or under the folder given with --layer-root DIR")
        }
        let display = source.path.hasPrefix("/") ? source.path : (displayFolder as NSString).appendingPathComponent(source.path)
        return (url, display)
    }

    /// Whether `url` is `folder` or lies in its tree (both standardized).
    static func isInside(_ url: URL, _ folder: URL) -> Bool {
        let f = folder.pathComponents
        let u = url.pathComponents
        return u.count > f.count && Array(u.prefix(f.count)) == f
    }

    /// Reads the file into a new layer, made in WGS 84 and set up by `configure` before the first
    /// feature; its index is built once, after the last batch.
    private static func read(
        _ format: TraceLayerSource.Format, url: URL, display: String, ids: inout GraphicIDList,
        configure: (GraphicsLayer) throws -> Void
    ) throws -> GraphicsLayer {
        let layer = GraphicsLayer(spatialReference: .wgs84)
        try configure(layer)
        var first = 0
        let fileSize = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        func add(_ columns: FeatureColumns, read: Int, _ append: (GraphicColumns) throws -> Range<GraphicID>) throws {
            if let sr = columns.spatialReference, sr != .wgs84 {
                throw InputError(
                    file: display, line: 1, column: 1,
                    message: "expected WGS 84 longitude/latitude (RFC 7946), found a legacy \"crs\" member naming \(sr); "
                        + "a layer file's features are not projected from another spatial reference")
            }
            do {
                let added = try append(GraphicColumns(columns))
                ids.append(added)
            } catch GraphicsLayerError.nonFiniteGeometry(let row) {
                // A row of the batch: say which feature it is in the file.
                throw InputError(
                    file: display, line: 1, column: 1, message: "feature \(first + row + 1): expected finite coordinates")
            }
            if first == 0, read > 0, read < fileSize {
                // Room for the features the rest of the file holds at the first batch's bytes
                // per feature (and 1/64 more): the layer's buffers then grow once, not by
                // doubling, which would leave the old buffers' pages to the allocator.
                layer.reserveCapacity(Int(Double(fileSize) / Double(read) * Double(columns.count) * (1 + 1.0 / 64)))
            }
            first += columns.count
        }
        try layer.add { append in
            switch format {
            case .featureCollection:
                do {
                    try GeoJSON.decodeColumns(contentsOfFile: url.path, batchSize: batchSize) { try add($0, read: $1, append) }
                } catch var e as InputError where e.file == url.path {
                    e.file = display
                    throw e
                }
            case .lines:
                try readLines(url: url, display: display) { try add($0, read: $1, append) }
            }
        }
        return layer
    }

    /// Reads GeoJSON Lines (a Feature per line; blank lines skipped; a record separator before a
    /// feature, as GeoJSON text sequences write, allowed), streaming, handing `add` a batch at a
    /// time.
    private static func readLines(url: URL, display: String, _ add: (FeatureColumns, _ bytesRead: Int) throws -> Void) throws {
        let source: FileByteSource
        do {
            source = try FileByteSource(path: url.path, file: display)
        } catch let e as ReaderError {
            throw InputError(e, file: display)
        }
        var lines = LineReader(
            InputEncoding.buffer(source: source, limit: GeoJSONLinesReader.maximumLineLength, file: display), file: display)
        var features = GeoJSONFeatureReader()
        var read = 0
        do {
            while try lines.next({ line, number in
                read += line.count + 1
                var start = 0
                if start < line.count, line[start] == 0x1E { start += 1 }  // RS (RFC 8142)
                let rest = UnsafeBufferPointer(rebasing: line[start...])
                if rest.allSatisfy(ASCII.isSpace) { return }
                do {
                    try features.read(UnsafeRawBufferPointer(rest))
                } catch let e as JSONError {
                    throw InputError(
                        file: display, line: number, column: (e.column ?? 1) + start, message: InputExcerpt.message(e.pathAndMessage))
                }
            }) != nil {
                if features.count >= batchSize { try add(features.take(), read) }
            }
        } catch let e as ReaderError {
            throw InputError(e, file: display)
        }
        if features.count > 0 { try add(features.take(), read) }
    }
}
