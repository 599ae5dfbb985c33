import MapSketchReplay
public import Foundation

/// Instruction counts from valgrind's callgrind: `mapsketch bench --instrument callgrind` runs the
/// bench again under callgrind, which counts instructions only inside the measured region (one
/// replay of one trace, set-up included; ``BenchRegion``) and writes one profile per measured
/// run. Instruction counts do not depend on the machine's load, so they can be gated tightly.
public enum Callgrind {
    /// What callgrind counted in one measured run.
    public struct Run: Hashable, Sendable {
        /// Instructions in the whole region.
        public var total: UInt64
        /// Inclusive instructions of each operation kind.
        public var kinds: [BenchOperation: UInt64]

        /// Creates a run's counts.
        public init(total: UInt64, kinds: [BenchOperation: UInt64]) {
            self.total = total
            self.kinds = kinds
        }
    }

    /// An error running callgrind: valgrind missing, failing, or writing no profile.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// The valgrind executable on `PATH`, or nil.
    public static func locateValgrind(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        locate("valgrind", path: path)
    }

    /// The message when valgrind is missing.
    public static let missingMessage =
        "--instrument callgrind needs valgrind, which is not on PATH: install Debian's valgrind package (apt-get install valgrind)"

    /// valgrind's arguments for a child bench writing its profiles to `outFile`.N.
    public static func arguments(outFile: String, executable: String, childArguments: [String]) -> [String] {
        [
            "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=\(BenchRegion.regionSymbol)",
            "--dump-after=\(BenchRegion.regionSymbol)", "--dump-instr=no", "--dump-line=no", "--compress-strings=no",
            "--compress-pos=no", "--callgrind-out-file=\(outFile)", executable,
        ] + childArguments
    }

    /// Runs `executable childArguments` under callgrind and returns the counts of each measured
    /// region, in the order the child ran them.
    /// - Throws: ``Failure`` when valgrind cannot start, exits with a failure, or writes no profile.
    public static func run(valgrind: String, executable: String, childArguments: [String], expectedRuns: Int) throws(Failure) -> [Run] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mapsketch-callgrind-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64(Date().timeIntervalSince1970 * 1e6))")
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "cannot create \(dir.path): \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("callgrind.out").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: valgrind)
        p.arguments = arguments(outFile: out, executable: withoutDebugInfo(executable, in: dir), childArguments: childArguments)
        var env = ProcessInfo.processInfo.environment
        // Swift's per-process hashing seed changes dictionary probing, and so instruction counts.
        env["SWIFT_DETERMINISTIC_HASHING"] = "1"
        p.environment = env
        let log = dir.appendingPathComponent("valgrind.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = FileHandle(forWritingAtPath: log.path)
        p.standardOutput = handle
        p.standardError = handle
        do {
            try p.run()
        } catch {
            throw Failure(description: "cannot start \(valgrind): \(error.localizedDescription)")
        }
        p.waitUntilExit()
        try? handle?.close()
        guard p.terminationStatus == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let tail = text.split(separator: "\n").suffix(15).joined(separator: "\n")
            throw Failure(description: "valgrind exited with status \(p.terminationStatus):\n\(tail)")
        }
        var runs: [Run] = []
        for n in 1...max(expectedRuns, 1) {
            let file = "\(out).\(n)"
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw Failure(description: "callgrind wrote \(n - 1) profile(s), expected \(expectedRuns)")
            }
            runs.append(parse(text))
        }
        return runs
    }

    /// A copy of `executable` without its DWARF debug information (valgrind 3.19 cannot read the
    /// DWARF 5 that Swift 6 writes and gives up), keeping its symbol table, which is all callgrind
    /// needs to name functions. The executable itself when binutils' `objcopy` is missing.
    static func withoutDebugInfo(_ executable: String, in dir: URL) -> String {
        let copy = dir.appendingPathComponent("mapsketch").path
        guard let objcopy = locate("objcopy") else { return executable }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: objcopy)
        p.arguments = ["--strip-debug", executable, copy]
        do {
            try p.run()
        } catch {
            return executable
        }
        p.waitUntilExit()
        return p.terminationStatus == 0 ? copy : executable
    }

    /// An executable on `PATH`, or nil.
    static func locate(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        for dir in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Reads one profile: the total (`summary:` or `totals:`), and each kind's inclusive cost (its
    /// function's own cost plus its calls' costs). The profile must have been written without name
    /// and position compression.
    /// - Complexity: O(n) in the profile's size.
    public static func parse(_ text: String) -> Run {
        var total: UInt64 = 0
        var kinds: [BenchOperation: UInt64] = [:]
        var current: BenchOperation?
        var afterCalls = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let line = raw.utf8
            if raw.hasPrefix("totals:") || raw.hasPrefix("summary:") {
                total = Swift.max(total, UInt64(raw.split(separator: " ").dropFirst().first ?? "") ?? 0)
                continue
            }
            if raw.hasPrefix("fn=") {
                current = kind(inFunction: raw.dropFirst(3))
                afterCalls = false
                continue
            }
            if raw.hasPrefix("calls=") {
                afterCalls = true
                continue
            }
            guard let k = current, let first = line.first, (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || first == UInt8(ascii: "+") || first == UInt8(ascii: "-") || first == UInt8(ascii: "*") else {
                continue
            }
            // A cost line: position(s) then the event count (Ir). With --dump-line=no and
            // --dump-instr=no there is one position column.
            let fields = raw.split(separator: " ")
            if fields.count >= 2, let ir = UInt64(fields[1]) { kinds[k, default: 0] += ir }
            _ = afterCalls
            afterCalls = false
        }
        return Run(total: total, kinds: kinds)
    }

    /// The kind whose per-kind function `name` is, if any: `mapsketch_bench_kind_<ordinal>`, or a
    /// copy the optimiser specialised for one caller, whose mangled name starts with the same
    /// identifier and its length (`$s22mapsketch_bench_kind_0…`).
    static func kind(inFunction name: Substring) -> BenchOperation? {
        guard let r = name.range(of: BenchRegion.kindSymbol) else { return nil }
        let before = name[..<r.lowerBound].reversed().prefix { $0.isNumber }
        let digits: Substring
        if !before.isEmpty, let length = Int(String(before.reversed())), length > BenchRegion.kindSymbol.count {
            digits = name[r.upperBound...].prefix(length - BenchRegion.kindSymbol.count)
        } else {
            digits = name[r.upperBound...].prefix { $0.isNumber }
        }
        guard let n = Int(digits) else { return nil }
        return BenchOperation.allCases.first { $0.ordinal == n }
    }
}
