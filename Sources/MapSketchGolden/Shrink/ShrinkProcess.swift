import Foundation

/// Runs the child processes of the `crash` and `exit:` shrink outcomes: each candidate is written
/// to `candidate.trace.jsonl` in a temporary folder (removed when the runner goes), then a
/// process runs on it, stopped after ``timeout`` seconds.
final class ShrinkProcess {
    let folder: URL
    let candidate: URL
    let timeout: Double

    init(timeout: Double) throws(ShrinkError) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapsketch-shrink-\(UUID().uuidString)")
        candidate = folder.appendingPathComponent("candidate.trace.jsonl")
        self.timeout = timeout
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ShrinkError("cannot create a temporary folder for the candidates: \(error.localizedDescription)")
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Whether `mapsketch replay` of the text dies of a signal.
    func crashes(executable: URL, text: String) -> Bool {
        guard let r = run(executable, ["replay", candidate.path], text: text) else { return false }
        return r.reason == .uncaughtSignal
    }

    /// Whether `/bin/sh -c COMMAND` exits non-zero (or dies) with the candidate's path as `$1`
    /// and in `MAPSKETCH_TRACE`.
    func fails(command: String, text: String) -> Bool {
        guard let r = run(URL(fileURLWithPath: "/bin/sh"), ["-c", command, "mapsketch-shrink", candidate.path], text: text) else {
            return false
        }
        return r.reason == .uncaughtSignal || r.status != 0
    }

    /// Runs the program on the candidate; nil when it could not start or ran past the timeout.
    private func run(_ program: URL, _ arguments: [String], text: String) -> (status: Int32, reason: Process.TerminationReason)? {
        do {
            try Data(text.utf8).write(to: candidate)
        } catch {
            return nil
        }
        let p = Process()
        p.executableURL = program
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var env = ProcessInfo.processInfo.environment
        env["MAPSKETCH_TRACE"] = candidate.path
        p.environment = env
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in done.signal() }
        do {
            try p.run()
        } catch {
            return nil
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            p.terminate()
            done.wait()
            return nil
        }
        return (p.terminationStatus, p.terminationReason)
    }
}
