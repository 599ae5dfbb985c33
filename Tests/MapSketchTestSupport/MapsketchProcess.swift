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

    /// Runs `mapsketch args` in `cwd` with the test's environment minus `CI` and
    /// `MAPSKETCH_RECORD` (so a CI machine's settings do not change what is tested), plus `env`.
    /// - Throws: when the executable is missing (build it first) or cannot start.
    public static func run(_ args: [String], in cwd: URL = Fixtures.packageRoot, env: [String: String] = [:]) throws -> Run {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: executable.path, NSLocalizedDescriptionKey: "build the mapsketch executable first"])
        }
        let p = Process()
        p.executableURL = executable
        p.arguments = args
        p.currentDirectoryURL = cwd
        var environment = ProcessInfo.processInfo.environment
        environment["CI"] = nil
        environment["MAPSKETCH_RECORD"] = nil
        for (k, v) in env { environment[k] = v }
        p.environment = environment
        return try collect(p)
    }

    /// A new empty temporary folder.
    public static func tempDir(prefix: String = "cli") throws -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
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
