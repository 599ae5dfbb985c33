package import Foundation

/// The file a header graphics layer's features are read from: its `source` member, a path
/// relative to the trace's folder. A GeoJSON FeatureCollection (`.geojson`, `.json`) or GeoJSON
/// Lines — one Feature per line (`.geojsonl`, `.geojsons`, `.ndjson`) — in WGS 84 longitude and
/// latitude (RFC 7946), projected into the map's spatial reference; each feature's properties
/// become its graphic's attributes.
package struct TraceLayerSource: Hashable, Sendable {
    /// How a layer file is laid out, from its name's extension.
    package enum Format: String, Hashable, Sendable, CaseIterable {
        /// A GeoJSON FeatureCollection (`.geojson`, `.json`).
        case featureCollection
        /// GeoJSON Lines: one Feature per line (`.geojsonl`, `.geojsons`, `.ndjson`).
        case lines

        /// The format of a file named with `extension` (lowercased, without the dot), if any.
        package init?(extension ext: String) {
            switch ext.lowercased() {
            case "geojson", "json": self = .featureCollection
            case "geojsonl", "geojsons", "ndjson": self = .lines
            default: return nil
            }
        }

        /// The extensions of every format, for messages.
        static let extensionList = ".geojson, .json (a FeatureCollection), .geojsonl, .geojsons or .ndjson (one Feature per line)"
    }

    /// The path as written in the trace.
    package var path: String
    /// The file's layout.
    package var format: Format
    /// The 1-based line and column of the `source` member in the trace, for messages (0 when
    /// made in code); not part of equality.
    package var line: Int
    /// See ``line``.
    package var column: Int

    /// A source at `path`, in the format its extension names.
    /// - Returns: nil when the extension names no layer format.
    package init?(path: String, line: Int = 0, column: Int = 0) {
        guard let format = Format(extension: (path as NSString).pathExtension) else { return nil }
        self.path = path
        self.format = format
        self.line = line
        self.column = column
    }

    package static func == (a: Self, b: Self) -> Bool { a.path == b.path }
    package func hash(into h: inout Hasher) { h.combine(path) }
}

/// Where a trace was read from: its layers' ``TraceLayerSource`` paths are resolved against the
/// trace's folder, and may leave that folder's tree only for the tree of ``layerRoot`` (the
/// `--layer-root` option of `replay`, `check` and `bench`).
package struct TraceFiles: Hashable, Sendable {
    /// The trace file.
    package var trace: URL
    /// The trace file as messages name it; a layer file is named by its folder and the `source`.
    package var displayName: String
    /// Another folder whose tree layer files may be in, besides the trace's own folder tree.
    package var layerRoot: URL?

    /// The files of a trace read from `trace`.
    package init(trace: URL, displayName: String? = nil, layerRoot: URL? = nil) {
        self.trace = trace
        self.displayName = displayName ?? trace.lastPathComponent
        self.layerRoot = layerRoot
    }
}
