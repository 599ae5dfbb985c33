import Foundation
import MapSketchGeometry
package import MapSketchReplay

/// The process `mapsketch bench` makes each measured run in (`BenchSession`), and the protocol it
/// speaks over its standard input and output.
///
/// It is started as `mapsketch bench-worker <protocol> <warmup> <timing> <operations> TRACE...`
/// and first writes a hello line: a JSON object with `mapsketchBenchWorker` (the protocol version,
/// ``protocolVersion``), the build's `version` and `configuration`, whether it counts
/// `allocations`, and its `clock`. Then for each line `run <i>` it reads, it replays trace `i` of
/// its arguments `warmup` times and measures it once on fresh model state, and writes one JSON
/// line: the trace's figures for that run (the trace object of the report's schema, with `index`),
/// or `failure` / `expectedFailure` with the trace's error. It exits at the end of its input.
package enum BenchWorker {
    /// The protocol's version: two builds compare runs only when they speak the same one.
    package static let protocolVersion = 1
    /// The word that selects the worker.
    package static let command = "bench-worker"

    /// What a worker is asked to do.
    package struct Setup: Hashable, Sendable {
        /// Warm-up replays before each measured run.
        package var warmup: Int
        /// Which operations are timed.
        package var timing: BenchTiming
        /// Whether operations are measured by kind (else whole replays only).
        package var measureOperations: Bool
        /// The trace files.
        package var traces: [String]
        /// The folder layer files may be in besides each trace's folder tree (`--layer-root`),
        /// passed as a `--layer-root=DIR` argument before the traces only when set.
        package var layerRoot: String?

        /// The argument that carries ``layerRoot``.
        static let layerRootPrefix = "--layer-root="

        /// Creates a setup.
        package init(warmup: Int, timing: BenchTiming, measureOperations: Bool, traces: [String], layerRoot: String? = nil) {
            self.warmup = warmup
            self.timing = timing
            self.measureOperations = measureOperations
            self.traces = traces
            self.layerRoot = layerRoot
        }

        /// The worker's arguments (after the executable).
        package var arguments: [String] {
            let t: String
            switch timing {
            case .automatic: t = "auto"
            case .everyOperation: t = "1"
            case .every(let n): t = "\(n)"
            }
            return [command, "\(protocolVersion)", "\(warmup)", t, measureOperations ? "operations" : "totals"]
                + (layerRoot.map { [Self.layerRootPrefix + $0] } ?? []) + traces
        }

        /// The setup `arguments` (the process's, without the executable) select, or nil.
        package init?(arguments a: [String]) {
            guard a.count >= 5, a[0] == BenchWorker.command, let w = Int(a[2]), w >= 0 else { return nil }
            switch a[3] {
            case "auto": timing = .automatic
            case "1": timing = .everyOperation
            default:
                guard let n = Int(a[3]), n > 1 else { return nil }
                timing = .every(n)
            }
            guard a[4] == "operations" || a[4] == "totals" else { return nil }
            warmup = w
            measureOperations = a[4] == "operations"
            var rest = Array(a.dropFirst(5))
            if let first = rest.first, first.hasPrefix(Self.layerRootPrefix) {
                layerRoot = String(first.dropFirst(Self.layerRootPrefix.count))
                rest.removeFirst()
            }
            traces = rest
        }

        /// The protocol version the arguments ask for (when they select the worker at all).
        package static func requestedProtocol(in a: [String]) -> Int? {
            guard a.count >= 2, a[0] == BenchWorker.command else { return nil }
            return Int(a[1])
        }
    }

    /// Runs the worker on standard input and output; returns the exit status. `extensions` (the
    /// executable's own registrations) are installed in every replay and measured as user kinds;
    /// the hello names their kinds (`userKinds`), so that the bench can read their instruction
    /// counts from the executable's callgrind markers.
    @MainActor
    package static func serve(_ setup: Setup, version: String, extensions: ReplayExtensions = .none) -> Int32 {
        let runner = BenchRunner(
            options: BenchOptions(warmup: setup.warmup, runs: 1, measureOperations: setup.measureOperations, timing: setup.timing),
            extensions: extensions)
        var hello: JSONObject = [
            "mapsketchBenchWorker": .integer(Int64(protocolVersion)), "version": .string(version),
            "configuration": .string(BenchBuild.currentConfiguration), "allocations": .bool(runner.counters.allocations),
            "clock": ["source": .string(runner.clock.source), "resolutionNs": .number(runner.clock.resolution)],
        ]
        if !extensions.isEmpty { hello["userKinds"] = .array(extensions.kindNames.map { .string($0) }) }
        send(.object(hello))
        var prepared: [Int: BenchRunner.Prepared] = [:]
        while let line = readLine() {
            let parts = line.split(separator: " ")
            guard parts.count == 2, parts[0] == "run", let i = Int(parts[1]), setup.traces.indices.contains(i) else {
                send(["error": .string("expected `run <index>` with an index below \(setup.traces.count), found \"\(line)\"")])
                return 2
            }
            let url = URL(fileURLWithPath: setup.traces[i])
            let p = prepared[i] ?? BenchRunner.prepare(url, layerRoot: setup.layerRoot.map { URL(fileURLWithPath: $0) })
            prepared[i] = p
            switch p {
            case .trace(let trace, let text):
                do throws(InputError) {
                    let result = try runner.measure(trace, name: "\(i)", file: BenchRunner.display(url), text: text)
                    guard case .object(var o) = result.json else { return 2 }
                    o["index"] = .integer(Int64(i))
                    send(.object(o))
                } catch {
                    send(["index": .integer(Int64(i)), "failure": BenchFailure(trace: "\(i)", error: error).json])
                }
            case .failure(let e): send(["index": .integer(Int64(i)), "failure": BenchFailure(trace: "\(i)", error: e).json])
            case .expectedFailure(let e): send(["index": .integer(Int64(i)), "expectedFailure": BenchFailure(trace: "\(i)", error: e).json])
            }
        }
        return 0
    }

    private static func send(_ value: JSONValue) {
        FileHandle.standardOutput.write(Data((JSONWriter.string(value) + "\n").utf8))
    }

    /// What a worker says it is, from its hello line.
    struct Hello: Hashable, Sendable {
        var version: String
        var configuration: String
        var allocations: Bool
        var clock: BenchClock
        /// The kind names of the build's own registrations, in slot order (none when it has none).
        var userKinds: [String]

        init?(_ v: JSONValue) {
            guard v["mapsketchBenchWorker"]?.int64Value == Int64(protocolVersion), let version = v["version"]?.stringValue,
                let configuration = v["configuration"]?.stringValue, let allocations = v["allocations"]?.boolValue,
                let source = v["clock"]?["source"]?.stringValue, let resolution = v["clock"]?["resolutionNs"]?.doubleValue
            else { return nil }
            self.version = version
            self.configuration = configuration
            self.allocations = allocations
            clock = BenchClock(source: source, resolution: resolution)
            userKinds = v["userKinds"]?.arrayValue?.compactMap(\.stringValue) ?? []
        }
    }

    /// What a worker answered to `run <i>`.
    enum Answer {
        case measured(BenchTraceResult)
        case failure(InputError)
        case expectedFailure(InputError)

        /// Reads an answer line; throws a message for a line that is none.
        init(_ v: JSONValue) throws {
            if let f = v["failure"] {
                self = .failure(try BenchFailure(f, path: [.key("failure")]).error)
            } else if let f = v["expectedFailure"] {
                self = .expectedFailure(try BenchFailure(f, path: [.key("expectedFailure")]).error)
            } else {
                self = .measured(try BenchTraceResult(v, path: []))
            }
        }
    }
}
