#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Reading feature columns from a file: the file is mapped into memory, not read into it, so a
// multi-gigabyte FeatureCollection costs the columns it fills and the pages the kernel keeps.

extension GeoJSON {
    /// Reads the FeatureCollection in the file at `path` into columns (see
    /// ``decodeColumns(_:options:)-(String,_)``). The file is memory-mapped and read once.
    /// - Throws: ``InputError`` naming the file, line and column of what is wrong (or that the file
    ///   cannot be read).
    /// - Complexity: O(n) for n bytes.
    public static func decodeColumns(contentsOfFile path: String, options: DecodingOptions = DecodingOptions())
        throws -> FeatureColumns
    {
        try MappedFile.read(path) { try decodeColumns($0, options: options) }
    }
}

extension EsriJSON {
    /// Reads the FeatureSet in the file at `path` into columns (see
    /// ``decodeColumns(_:options:)-(String,_)``). The file is memory-mapped.
    /// - Throws: ``InputError`` naming the file, line and column of what is wrong (or that the file
    ///   cannot be read).
    /// - Complexity: O(n) for n bytes.
    public static func decodeColumns(contentsOfFile path: String, options: DecodingOptions = DecodingOptions())
        throws -> FeatureColumns
    {
        try MappedFile.read(path) { try decodeColumns($0, options: options) }
    }
}

/// A file mapped read-only into memory for the duration of a read.
enum MappedFile {
    /// Calls `body` with the bytes of the file at `path`; a ``JSONError`` it throws becomes an
    /// ``InputError`` naming the file.
    static func read<T>(_ path: String, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw failure(path, "cannot open the file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw failure(path, "cannot read the file: \(String(cString: strerror(errno)))")
        }
        let size = Int(info.st_size)
        do {
            guard size > 0 else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
            guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
                throw failure(path, "cannot map the file: \(String(cString: strerror(errno)))")
            }
            defer { munmap(base, size) }
            return try body(UnsafeRawBufferPointer(start: base, count: size))
        } catch let e as JSONError {
            throw InputError(file: path, line: e.line ?? 1, column: e.column ?? 1, message: e.pathAndMessage)
        }
    }

    private static func failure(_ path: String, _ message: String) -> InputError {
        InputError(file: path, line: 1, column: 1, message: message)
    }
}
