import Foundation
import MapSketchGeometry
package import MapSketchReplay

/// The process `mapsketch bench --instrument callgrind` runs under callgrind (`Callgrind`).
///
/// It reads traces from its standard input — each as its length in bytes on a line, then its
/// text — and measures each in a child process it forks for it: the child reads the next trace,
/// replays it `warmup` times, measures it `runs` times inside the region callgrind collects, says
/// `<index> <pid>` on standard output and exits. The server does nothing between two forks, so
/// every child starts from the same memory: a trace's instruction counts depend on its text and
/// the code, not on what was measured before it, on its name or where it lies. A child that finds
/// no trace left exits with ``endOfInput``, which ends the server.
package enum CallgrindServer {
    /// The arguments that select the server (after the executable).
    package static func arguments(warmup: Int, runs: Int) -> [String] {
        ["bench-callgrind-server", "\(warmup)", "\(runs)"]
    }

    /// The server's warm-up and run counts when `arguments` (the process's, without the
    /// executable) select it; nil otherwise.
    package static func selected(by arguments: [String]) -> (warmup: Int, runs: Int)? {
        guard arguments.count == 3, arguments[0] == "bench-callgrind-server", let w = Int(arguments[1]), let r = Int(arguments[2]),
            w >= 0, r >= 1
        else { return nil }
        return (w, r)
    }

    /// A child's exit status when the input holds no further trace.
    static let endOfInput: Int32 = 3

    /// Serves until the input ends; returns the exit status for the process (0, or 1 when a child
    /// failed). `extensions` (the executable's own registrations) are installed in every replay,
    /// each inside its user kind's marker.
    @MainActor
    package static func serve(warmup: Int, runs: Int, extensions: ReplayExtensions = .none) -> Int32 {
        #if os(Linux)
        var index = 0
        var status: Int32 = 0
        while true {
            let pid = fork()
            if pid == 0 { measureNext(index: index, warmup: warmup, runs: runs, extensions: extensions) }
            if pid < 0 { return 1 }
            var s: Int32 = 0
            while waitpid(pid, &s, 0) < 0 && errno == EINTR {}
            // WIFEXITED / WEXITSTATUS, spelled out (the C macros are not imported).
            let exited = s & 0x7f == 0
            let code = (s >> 8) & 0xff
            if exited && code == endOfInput { return status }
            if !exited || code != 0 { status = 1 }
            index += 1
        }
        #else
        FileHandle.standardError.write(Data("the callgrind server runs on Linux only\n".utf8))
        return 1
        #endif
    }

    /// In the child: reads the next trace, measures it and exits.
    @MainActor
    private static func measureNext(index: Int, warmup: Int, runs: Int, extensions: ReplayExtensions) -> Never {
        guard let (text, files) = readTrace() else { _exit(endOfInput) }
        let file = "trace \(index + 1)"
        let runner = BenchRunner(
            options: BenchOptions(warmup: warmup, runs: runs, countAllocations: false), underCallgrind: true, extensions: extensions)
        do throws(InputError) {
            guard case .trace(let trace, let text) = try BenchRunner.prepare(text: text, file: file, files: files) else { _exit(2) }
            _ = try runner.measureKeepingOutput(trace, name: "trace", file: file, text: text)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            _exit(2)
        }
        let line = "\(index) \(getpid())\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(1, $0.baseAddress, $0.count - 1) }
        _exit(0)
    }

    /// The next trace's text from standard input (its length on a line, then its bytes), read with
    /// exact reads so that nothing of the next trace is taken; nil at the end of the input. A
    /// trace whose header names layer files has its file and layer root on the length line, after
    /// tabs (``lengthLine(_:files:)``): the files are read from there.
    private static func readTrace() -> (String, TraceFiles?)? {
        var length = 0
        var digits = 0
        var byte: UInt8 = 0
        var rest: [UInt8]?
        while true {
            guard read(0, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { break }
            if rest != nil || byte == UInt8(ascii: "\t") {
                rest = (rest ?? []) + [byte]
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 12 else { return nil }
            length = length * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits > 0 else { return nil }
        var files: TraceFiles?
        if let rest {
            let f = String(decoding: rest, as: UTF8.self).split(separator: "\t", omittingEmptySubsequences: false).dropFirst()
            guard let trace = f.first, !trace.isEmpty else { return nil }
            let root = f.dropFirst().first.flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: String($0)) }
            files = TraceFiles(trace: URL(fileURLWithPath: String(trace)), layerRoot: root)
        }
        var bytes = [UInt8](repeating: 0, count: length)
        var got = 0
        while got < length {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return read(0, base + got, length - got)
            }
            guard n > 0 else { return nil }
            got += n
        }
        return (String(decoding: bytes, as: UTF8.self), files)
    }

    /// The line that goes before a trace's `count` bytes: the count, and for a trace read with
    /// layer files its file and layer root, each after a tab.
    static func lengthLine(_ count: Int, files: TraceFiles?) -> String {
        guard let files else { return "\(count)\n" }
        return "\(count)\t\(files.trace.path)\t\(files.layerRoot?.path ?? "")\n"
    }
}
