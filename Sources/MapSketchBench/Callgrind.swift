import Foundation
package import MapSketchReplay

/// Instruction counts from valgrind's callgrind.
///
/// `mapsketch bench --instrument callgrind` measures the traces again in a server process under
/// callgrind (`CallgrindServer`), which counts instructions only inside the measured region (one
/// replay of one trace, set-up included; ``BenchRegion``) and writes one profile per measured run.
/// Instruction counts do not depend on the machine's load, so they can be gated tightly.
///
/// They depend on the code and the trace only. The server is started with fixed arguments, a
/// fixed environment (`SWIFT_DETERMINISTIC_HASHING=1` and the allocator's settings, nothing else) and
/// no path of the user's:
/// it is sent each trace's text on its standard input, and measures each one in a child process
/// forked from the same state, so nothing measured before (another trace, a longer name, a
/// deeper folder) changes the memory a trace is measured in.
package enum Callgrind {
    /// What callgrind counted in one measured run.
    package struct Run: Hashable, Sendable {
        /// Instructions in the whole region.
        package var total: UInt64
        /// Instructions in operations of some kind, each counted once at its outermost kind.
        package var attributed: UInt64
        /// Inclusive instructions of each operation kind.
        package var kinds: [BenchKind: UInt64]

        /// Creates a run's counts.
        package init(total: UInt64, attributed: UInt64, kinds: [BenchKind: UInt64]) {
            self.total = total
            self.attributed = attributed
            self.kinds = kinds
        }
    }

    /// An error running callgrind: valgrind missing, failing, or writing no profile.
    package struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// What went wrong.
        package var description: String
    }

    /// The valgrind executable on `PATH`, or nil.
    package static func locateValgrind(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        locate("valgrind", path: path)
    }

    /// The message when valgrind is missing.
    package static let missingMessage =
        "--instrument callgrind needs valgrind, which is not on PATH: install Debian's valgrind package (apt-get install valgrind)"

    /// The executable's name in the folder the server runs in (the server's fixed `argv[0]`).
    static let serverExecutable = "./mapsketch"

    /// valgrind's arguments for a server writing its profiles to `cg.<pid>.<n>` in its folder.
    package static func arguments(warmup: Int, runs: Int) -> [String] {
        [
            "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=\(BenchRegion.regionSymbol)",
            "--dump-after=\(BenchRegion.regionSymbol)", "--dump-instr=no", "--dump-line=no", "--compress-strings=no",
            "--compress-pos=no", "--callgrind-out-file=cg.%p", serverExecutable,
        ] + CallgrindServer.arguments(warmup: warmup, runs: runs)
    }

    /// Measures each of `traces` (their texts) `runs` times after `warmup` replays, in
    /// `executable`'s callgrind server, and returns each trace's runs in order.
    /// - Parameter progress: called with the number of traces measured so far.
    /// - Throws: ``Failure`` when valgrind cannot start or fails, when the executable does not
    ///   speak the server's protocol, or when a trace's profiles are missing.
    ///   - userKinds: the kind names of the executable's own registrations (``ReplayExtensions``),
    ///     whose markers follow the built-in kinds' (as its bench worker's hello names them).
    package static func measure(
        _ traces: [String], files: [TraceFiles?] = [], valgrind: String, executable: String, warmup: Int, runs: Int,
        userKinds: [String] = [], progress: (Int) -> Void = { _ in }
    ) throws(Failure) -> [[Run]] {
        guard !traces.isEmpty else { return [] }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapsketch-callgrind-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64(Date().timeIntervalSince1970 * 1e6))")
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "cannot create \(dir.path): \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        stripDebugInfo(executable, to: dir.appendingPathComponent("mapsketch").path)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: valgrind)
        p.arguments = arguments(warmup: warmup, runs: runs)
        p.currentDirectoryURL = dir
        // Swift's per-process hashing seed changes dictionary probing, and so instruction counts.
        p.environment = ["SWIFT_DETERMINISTIC_HASHING": "1", "MALLOC_CONF": BenchSession.allocatorConfiguration]
        let input = Pipe()
        let output = Pipe()
        let log = dir.appendingPathComponent("valgrind.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = FileHandle(forWritingAtPath: log.path)
        p.standardInput = input
        p.standardOutput = output
        p.standardError = logHandle
        do {
            try p.run()
        } catch {
            throw Failure(description: "cannot start \(valgrind): \(error.localizedDescription)")
        }
        let writer = input.fileHandleForWriting
        let texts = traces
        let placed = files
        Thread {
            for (i, t) in texts.enumerated() {
                let bytes = Data(t.utf8)
                let line = CallgrindServer.lengthLine(bytes.count, files: i < placed.count ? placed[i] : nil)
                try? writer.write(contentsOf: Data(line.utf8) + bytes)
            }
            try? writer.close()
        }.start()
        // Each child says `<index> <pid>` once it has measured its trace.
        var pids: [Int: Int32] = [:]
        var pending = Data()
        let reader = output.fileHandleForReading
        while let chunk = try? reader.read(upToCount: 4096), !chunk.isEmpty {
            pending += chunk
            while let nl = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<nl], as: UTF8.self)
                pending = Data(pending[(nl + 1)...])
                let f = line.split(separator: " ")
                if f.count == 2, let i = Int(f[0]), let pid = Int32(f[1]) {
                    pids[i] = pid
                    progress(pids.count)
                }
            }
        }
        p.waitUntilExit()
        try? logHandle?.close()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let tail = text.split(separator: "\n").suffix(15).joined(separator: "\n")
        guard p.terminationStatus == 0 else {
            throw Failure(description: "valgrind exited with status \(p.terminationStatus):\n\(tail)")
        }
        var out: [[Run]] = []
        for i in traces.indices {
            guard let pid = pids[i] else {
                throw Failure(
                    description: "the callgrind server measured \(pids.count) of \(traces.count) traces (does \(executable) speak this bench's server protocol?):\n\(tail)")
            }
            var runsOfTrace: [Run] = []
            for n in 1...max(runs, 1) {
                let file = dir.appendingPathComponent("cg.\(pid).\(n)").path
                guard let profile = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw Failure(description: "callgrind wrote \(n - 1) profile(s) for trace \(i + 1), expected \(runs)")
                }
                runsOfTrace.append(parse(profile, userKinds: userKinds))
            }
            out.append(runsOfTrace)
        }
        return out
    }

    /// Copies `executable` to `copy` without its DWARF debug information (valgrind 3.19 cannot
    /// read the DWARF 5 that Swift 6 writes and gives up), keeping its symbol table, which is all
    /// callgrind needs to name functions; a plain copy when binutils' `objcopy` is missing.
    static func stripDebugInfo(_ executable: String, to copy: String) {
        if let objcopy = locate("objcopy") {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: objcopy)
            p.arguments = ["--strip-debug", executable, copy]
            if (try? p.run()) != nil {
                p.waitUntilExit()
                if p.terminationStatus == 0 { return }
            }
        }
        try? FileManager.default.copyItem(atPath: executable, toPath: copy)
    }

    /// An executable on `PATH`, or nil.
    static func locate(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        for dir in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Reads one profile: the total (`summary:` or `totals:`), the attributed marker's inclusive
    /// cost, and each kind's (its function's own cost plus its calls' costs). The profile must
    /// have been written without name and position compression. `userKinds` names the kinds whose
    /// markers follow the built-in ones (slot `BenchKind.builtIn.count + i` is `userKinds[i]`).
    /// - Complexity: O(n) in the profile's size.
    package static func parse(_ text: String, userKinds: [String] = []) -> Run {
        var total: UInt64 = 0
        var attributed: UInt64 = 0
        var kinds: [BenchKind: UInt64] = [:]
        enum Current { case none, attributed, kind(BenchKind) }
        var current = Current.none
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if raw.hasPrefix("totals:") || raw.hasPrefix("summary:") {
                total = Swift.max(total, UInt64(raw.split(separator: " ").dropFirst().first ?? "") ?? 0)
                continue
            }
            if raw.hasPrefix("fn=") {
                let name = raw.dropFirst(3)
                if name == BenchRegion.attributedSymbol {
                    current = .attributed
                } else if let k = kind(inFunction: name, userKinds: userKinds) {
                    current = .kind(k)
                } else {
                    current = .none
                }
                continue
            }
            guard let first = raw.utf8.first, (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || first == UInt8(ascii: "+")
                || first == UInt8(ascii: "-") || first == UInt8(ascii: "*")
            else { continue }
            // A cost line: position then the event count (Ir); a call's line after `calls=` is
            // its inclusive cost. With --dump-line=no and --dump-instr=no there is one position
            // column.
            let fields = raw.split(separator: " ")
            guard fields.count >= 2, let ir = UInt64(fields[1]) else { continue }
            switch current {
            case .none: break
            case .attributed: attributed += ir
            case .kind(let k): kinds[k, default: 0] += ir
            }
        }
        return Run(total: total, attributed: attributed, kinds: kinds)
    }

    /// The kind whose marker function `name` is (`mapsketch_bench_kind_<slot>`), if any: a
    /// built-in kind, or after them one of `userKinds`.
    static func kind(inFunction name: Substring, userKinds: [String] = []) -> BenchKind? {
        guard name.hasPrefix(BenchRegion.kindSymbol), let slot = Int(name.dropFirst(BenchRegion.kindSymbol.count)), slot >= 0
        else { return nil }
        if slot < BenchKind.builtIn.count { return BenchKind.builtIn[slot] }
        let user = slot - BenchKind.builtIn.count
        return user < userKinds.count ? BenchKind(named: userKinds[user]) : nil
    }
}
