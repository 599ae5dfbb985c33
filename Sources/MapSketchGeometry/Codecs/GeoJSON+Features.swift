#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Features read a batch at a time: a FeatureCollection file whose pages are let go once read, and
// single Features (GeoJSON Lines, one per line) gathered into columns. Both read each feature as
// `GeoJSON.decodeColumns` does: one reader, one set of rules.

extension GeoJSON {
    /// Reads the FeatureCollection in the file at `path` a batch of `batchSize` features at a
    /// time (see ``decodeColumns(_:options:batchSize:_:)``): the file is memory-mapped and the
    /// pages already read are given back as the read goes on (a megabyte at a time), so memory
    /// holds one batch's columns and about a megabyte of the file, whatever its size. `body` gets
    /// each batch and how many bytes of the file have been read.
    /// - Throws: ``InputError`` naming the file, line and column of what is wrong (or that the file
    ///   cannot be read), or what `body` throws.
    /// - Complexity: O(n) for n bytes.
    public static func decodeColumns(
        contentsOfFile path: String, options: DecodingOptions = DecodingOptions(), batchSize: Int,
        _ body: (FeatureColumns, _ bytesRead: Int) throws -> Void
    ) throws {
        try MappedFile.read(path) { bytes in
            // Pages wholly read are not needed again (an error message that points back into
            // them faults them in from the file): given back a megabyte at a time.
            let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 1)
            let step = max(1 << 20, page)
            var released = 0
            try decodeColumns(
                bytes, options: options, batchSize: batchSize, body,
                afterFeature: { read in
                    let end = read / page * page
                    guard end - released >= step, let base = bytes.baseAddress else { return }
                    _ = madvise(UnsafeMutableRawPointer(mutating: base + released), end - released, MADV_DONTNEED)
                    released = end
                })
        }
    }
}

/// Reads GeoJSON Features one JSON document at a time — a line of GeoJSON Lines (newline-delimited
/// GeoJSON, GeoJSON text sequences) — into columns, each feature as
/// ``GeoJSON/decodeColumns(_:options:)-(String,_)`` reads the features of a collection: the
/// geometry through the same codec (null: the empty point), the properties into typed fields.
///
/// ```swift
/// var reader = GeoJSONFeatureReader()
/// for line in lines { try reader.read(line) }
/// let columns = reader.take()   // WGS 84
/// ```
package struct GeoJSONFeatureReader {
    private var reader: FeatureColumnsReader
    private let options: GeoJSON.DecodingOptions

    /// A reader with no features yet.
    public init(options: GeoJSON.DecodingOptions = GeoJSON.DecodingOptions()) {
        self.options = options
        reader = FeatureColumnsReader(UnsafeBufferPointer(start: nil, count: 0), options: options.parser)
    }

    /// The number of features read since the last ``take()``.
    public var count: Int { reader.geometry.count }

    /// Reads `bytes`, one GeoJSON Feature object (blank space around it allowed), into the next
    /// row. After an error the rows read are not to be used: start over with a new reader.
    /// - Throws: ``JSONError`` with the line and column within `bytes` and the path of what is
    ///   wrong, e.g. `1:40: geometry.coordinates[0]: expected a number, found a string`.
    /// - Complexity: O(n) for n bytes.
    public mutating func read(_ bytes: UnsafeRawBufferPointer) throws {
        reader.p = JSONScanner(bytes.bindMemory(to: UInt8.self), options: options.parser)
        reader.p.skipSpace()
        try reader.geoJSONFeature(index: nil, options: options)
        reader.p.skipSpace()
        if reader.p.i < reader.p.p.count {
            throw reader.p.error("expected the end of the Feature, found \(reader.p.foundDescription())")
        }
    }

    /// The features read since the last call, as columns in WGS 84 (RFC 7946); the reader starts
    /// over with none.
    /// - Complexity: O(f) for f fields.
    public mutating func take() -> FeatureColumns { reader.takeColumns(.wgs84) }
}
