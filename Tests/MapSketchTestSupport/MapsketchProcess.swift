public import Foundation

/// The built `mapsketch` executable (built beside the test bundle by `swift build --build-tests`)
/// and one way to run it with its output collected.
public enum MapsketchProcess {
    /// What a run of the tool gave.
    public struct Run: Sendable {
        /// The exit status.
        public var code: Int32
        /// Standard output, decoded as UTF-8.
        public var out: String
        /// Standard error, decoded as UTF-8.
        public var err: String
    }

    /// The `mapsketch` executable beside the test bundle, else the package's debug build.
    public static var executable: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mapsketch")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return Fixtures.url(".build/debug/mapsketch")
    }

    /// Runs `p` (executable, arguments, folder, environment and any file on standard input set by
    /// the caller), writing `input` to its standard input from another thread when given, and
    /// collects standard output and error.
    public static func collect(_ p: Process, writing input: Data? = nil) throws -> Run {
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let stdin = input.map { _ in Pipe() }
        if let stdin { p.standardInput = stdin }
        try p.run()
        if let input, let stdin {
            Thread {
                stdin.fileHandleForWriting.write(input)
                try? stdin.fileHandleForWriting.close()
            }.start()
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(code: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }
}
