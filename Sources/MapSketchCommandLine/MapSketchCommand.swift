import ArgumentParser
import Foundation
import MapSketchBench
import MapSketchGeometry
import MapSketchReplay

struct MapSketchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mapsketch",
        abstract: "Replay touch and GPS traces into a headless map and sketch model, and check the output geometry.",
        discussion: """
            With no subcommand, replays the bundled demo trace (Traces/demo/demo.trace.jsonl) and prints a summary.
            Exit codes: 0 ok; 1 a check failed; 2 usage or input error (reported as file:line:column: what was expected).
            """,
        version: CLI.version,
        subcommands: [
            ReplayCommand.self, GPSCommand.self, CheckCommand.self, AcceptCommand.self, GenerateCommand.self,
            RenderCommand.self, GeometryCommand.self, CorpusCommand.self, BenchCommand.self,
            RecordCommand.self, ViewCommand.self, ImportCommand.self, ShrinkCommand.self, CompletionsCommand.self,
            SoakCommand.self,
        ]
    )

    @MainActor
    mutating func run() async throws {
        let url = try CLI.locateDemo()
        let start = ContinuousClock.now
        let trace = try CLI.input { () throws(TraceError) in try Replayer.load(url, displayName: CLI.display(url)) }
        let session = try CLI.input { () throws(TraceError) in 
            try Replayer.replay(trace, name: "demo", file: CLI.display(url), extensions: CLI.extensions)
        }
        let out = session.output()
        print(CLI.summary(out.document, trace: trace, file: CLI.display(url), elapsed: ContinuousClock.now - start))
        if let g = out.geometry {
            print("geometry (Esri JSON):")
            print(EsriJSON.encode(g))
        }
    }

    /// Runs the command with the documented exit codes: a usage error exits 2 (not
    /// ArgumentParser's 64), as does an input error; a failed check exits 1.
    @MainActor
    static func main() async {
        // The bench's own processes, before anything reads the environment or allocates for the
        // command line: their measurements must not depend on either.
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let server = CallgrindServer.selected(by: arguments) {
            Foundation.exit(CallgrindServer.serve(warmup: server.warmup, runs: server.runs, extensions: CLI.extensions))
        }
        if let requested = BenchWorker.Setup.requestedProtocol(in: arguments) {
            guard requested == BenchWorker.protocolVersion, let setup = BenchWorker.Setup(arguments: arguments) else {
                CLI.printError("mapsketch: this build speaks bench worker protocol \(BenchWorker.protocolVersion), asked for \(requested)")
                Foundation.exit(2)
            }
            Foundation.exit(BenchWorker.serve(setup, version: CLI.version, extensions: CLI.extensions))
        }
        if let message = unknownSubcommand(arguments) {
            CLI.printError("mapsketch: " + message)
            CLI.printError("Usage: mapsketch <subcommand>\n  See 'mapsketch --help' for the subcommands.")
            Foundation.exit(2)
        }
        // `bench compare OLD NEW`: `bench` takes trace paths, so its subcommand is routed here.
        let root: any ParsableCommand.Type = arguments.starts(with: ["bench", "compare"]) ? BenchCompareCommand.self : Self.self
        do {
            var command = root == Self.self ? try parseAsRoot() : try root.parse(Array(arguments.dropFirst(2)))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = root.exitCode(for: error)
            if code == .validationFailure {
                CLI.printError(root.fullMessage(for: error))
                Foundation.exit(2)
            }
            root.exit(withError: error)
        }
    }
}

extension MapSketchCommand {
    /// The subcommands a user is offered (the hidden `corpus` is left out).
    static var visibleSubcommands: [String] {
        configuration.subcommands.filter { $0.configuration.shouldDisplay }.compactMap { $0.configuration.commandName } + ["help"]
    }

    /// The message for a first argument that is no subcommand — `unknown subcommand 'chek'; did
    /// you mean 'check'?` — or nil when the arguments start with a subcommand, an option or
    /// nothing (the root command takes no argument of its own, so any other word is a misspelt
    /// subcommand).
    static func unknownSubcommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let all = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !all.contains(first) else { return nil }
        let candidates = visibleSubcommands.map { ($0, editDistance(first.lowercased(), $0)) }
        var message = "unknown subcommand '\(first)'"
        if let best = candidates.min(by: { $0.1 < $1.1 }), best.1 <= max(2, best.0.count / 3) {
            message += "; did you mean '\(best.0)'?"
        } else {
            message += "; the subcommands are " + visibleSubcommands.joined(separator: ", ")
        }
        return message
    }

    /// The Levenshtein distance between two strings (insertions, deletions, substitutions).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a)
        let y = Array(b)
        var row = Array(0...y.count)
        for i in 1...max(x.count, 1) where !x.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(y.count, 1) where !y.isEmpty {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (x[i - 1] == y[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[y.count]
    }
}

/// Shared helpers of the subcommands.
enum CLI {
    /// The version `mapsketch --version` prints: the next release while the CHANGELOG's
    /// Unreleased section collects it.
    static let version = "0.4.0-dev"

    /// The team's own code the commands install in every replay: what the executable's
    /// `MapSketchCommandLine.main(configure:)` registered (none for `mapsketch` itself).
    static var extensions: ReplayExtensions { MapSketchCommandLine.extensions }

    /// Prints an input error (file:line:column: what was expected) and exits 2.
    static func fail(_ message: String) -> ExitCode {
        printError("mapsketch: " + message)
        return ExitCode(2)
    }

    /// Writes a line to standard error.
    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The bytes of an input file, or exits 2 saying why it cannot be read (not found, a
    /// folder, permission denied).
    static func contents(of url: URL, file: String) throws(ExitCode) -> Data {
        do {
            return try InputFile.contents(of: url, displayName: file)
        } catch {
            throw fail(error.description)
        }
    }

    /// Runs `body`, turning a ``TraceError`` into exit code 2 with its message.
    static func input<T>(_ body: () throws(TraceError) -> T) throws(ExitCode) -> T {
        do {
            return try body()
        } catch {
            throw fail(error.description)
        }
    }

    /// Prints each refused call the trace does not declare (and each declared one the model
    /// applied) on stderr as `file:LINE: …`; with `strict`, exits 1 when there is any.
    static func reportRefusals(_ refusals: ReplayRefusals, file: String, strict: Bool) throws(ExitCode) {
        let messages = refusals.messages(file: file)
        for m in messages { printError((strict ? "error: " : "warning: ") + m) }
        if strict, !messages.isEmpty { throw ExitCode(1) }
    }

    /// A path as the user should see it: relative to the current directory when inside it.
    static func display(_ url: URL) -> String { InputFile.displayPath(url) }

    /// This executable's path (for the bench's worker processes).
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Whether stderr is a terminal (progress is shown only then).
    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Writes a progress line over the previous one (terminal only).
    static func progress(_ s: String) {
        guard stderrIsTerminal else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + s).utf8))
    }

    /// Ends a progress line.
    static func endProgress() {
        guard stderrIsTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    /// Finds the demo trace: in the current directory's `Traces/demo`, else in the package that
    /// built this executable (walking up from the executable, as `swift run` places it in
    /// `.build/<triple>/debug`).
    static func locateDemo() throws(ExitCode) -> URL {
        let rel = "Traces/demo/demo.trace.jsonl"
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(rel)]
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(dir.appendingPathComponent(rel))
            dir = dir.deletingLastPathComponent()
        }
        // The source tree this executable was compiled from.
        candidates.append(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(rel))
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw fail("cannot find \(rel): run from the package root, or pass a trace to `mapsketch replay`")
        }
        return found
    }

    /// Writes a file atomically or exits 2 naming it.
    static func write(_ text: String, to path: String) throws(ExitCode) {
        do {
            try AtomicFile.write(text, to: URL(fileURLWithPath: path))
        } catch {
            throw fail(error.description)
        }
    }

    /// Writes `text` to the file `output` atomically (exits 2 naming it when it cannot), or to
    /// standard output when there is none.
    static func emit(_ text: String, to output: String?) throws(ExitCode) {
        if let output {
            try write(text, to: output)
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    /// A duration in whole milliseconds.
    static func milliseconds(_ d: Duration) -> Int64 {
        d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
    }

    /// A human summary of an output document.
    static func summary(_ doc: JSONValue, trace: Trace, file: String, elapsed: Duration) -> String {
        var s = "\(file)"
        if let d = trace.header.description { s += " — \(d)" }
        s += "\n  events: \(trace.events.count), replayed in \(milliseconds(elapsed)) ms\n"
        if let sk = doc["sketch"] {
            let type = sk["geometryType"]?.stringValue ?? "?"
            s += "  sketch: \(type), \(sk["parts"].map { JSONWriter.string($0) } ?? "0") part(s), \(sk["vertices"].map { JSONWriter.string($0) } ?? "0") vertices, "
            // `valid` counts vertices (enough for the type); it does not judge the shape.
            s += (sk["valid"]?.boolValue == true ? "enough for a \(type)" : "too few for a \(type)") + "\n"
            s += "  undo depth \(sk["undoDepth"].map { JSONWriter.string($0) } ?? "0"), redo depth \(sk["redoDepth"].map { JSONWriter.string($0) } ?? "0"), geometry changed \(sk["geometryChanged"].map { JSONWriter.string($0) } ?? "0") times\n"
        }
        if let gps = doc["gps"] {
            s += "  gps: \(JSONWriter.string(gps))\n"
        }
        if let counts = doc["counts"]?.objectValue, !counts.isEmpty {
            s += "  events logged: " + zip(counts.keys, counts.values).map { "\($0) \(JSONWriter.string($1))" }.joined(separator: ", ") + "\n"
        }
        return s
    }
}
