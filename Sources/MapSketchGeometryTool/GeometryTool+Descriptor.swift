#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension GeometryTool {
    /// A read of the input that failed: the file's name and the system's error number.
    package struct ReadError: Error, CustomStringConvertible {
        /// The input's name in messages (`<stdin>` for standard input).
        package var file: String
        /// The `errno` of the failed `read(2)`.
        package var code: Int32

        package var description: String { "\(file): cannot read the file: \(String(cString: strerror(code)))" }
    }

    /// Runs the tool over an open file descriptor, read with `read(2)` in ``chunkSize`` pieces
    /// (a read interrupted by a signal is retried), and hands the output to `emit` in blocks of
    /// about ``chunkSize`` bytes: results are collected until a block is full, and a result of a
    /// block or more goes out on its own, uncopied. What was made before an error has been handed
    /// to `emit` when the error is thrown.
    /// - Returns: the exit code, as ``run(file:read:write:)``.
    /// - Throws: ``GeometryToolError`` as ``run(file:read:write:)``; ``ReadError`` when a read
    ///   fails; whatever `emit` throws.
    package func run(descriptor: Int32, file: String, emit: (UnsafeRawBufferPointer) throws -> Void) throws -> Int32 {
        var blocks = OutputBlocks()
        do {
            let code = try run(
                file: file,
                read: { buffer in
                    while true {
                        let n = read(descriptor, buffer.baseAddress, buffer.count)
                        if n >= 0 { return n }
                        if errno != EINTR { throw ReadError(file: file, code: errno) }
                    }
                },
                write: { line in try blocks.write(line, to: emit) })
            try blocks.flush(to: emit)
            return code
        } catch let e as GeometryToolError {
            try? blocks.flush(to: emit)
            throw e
        } catch let e as ReadError {
            try? blocks.flush(to: emit)
            throw e
        }
    }
}

/// Output collected into blocks of ``GeometryTool/chunkSize`` bytes before it goes out.
struct OutputBlocks {
    var pending: [UInt8] = []

    /// Adds `line`; a full block goes out to `emit`, and a line of a block or more goes out on
    /// its own.
    mutating func write(_ line: String, to emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        if line.utf8.count >= GeometryTool.chunkSize {
            try flush(to: emit)
            var text = line
            try text.withUTF8 { try emit(UnsafeRawBufferPointer($0)) }
        } else {
            pending.append(contentsOf: line.utf8)
            if pending.count >= GeometryTool.chunkSize { try flush(to: emit) }
        }
    }

    /// Hands what is collected to `emit`.
    mutating func flush(to emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !pending.isEmpty else { return }
        try pending.withUnsafeBytes { try emit($0) }
        pending.removeAll(keepingCapacity: true)
    }
}
