public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Headless Chromium driven over the DevTools protocol, for tests of the HTML pages.
///
/// Chromium is started with `--remote-debugging-pipe`: it reads protocol messages from file
/// descriptor 3 and writes to 4, each a JSON object ended by a NUL byte, so no port, socket or
/// WebSocket is needed. One page target is created and attached (flattened sessions); calls are
/// synchronous (``call(_:_:)`` waits for the answer with its id, skipping events).
///
/// ```swift
/// let browser = try Chromium(width: 800, height: 600)
/// defer { browser.quit() }
/// try browser.load(URL(fileURLWithPath: "/tmp/page.html"))
/// let title = try browser.evaluate("document.title") as? String
/// ```
public final class Chromium {
    /// The Chromium executable on the PATH (`chromium`, `chromium-browser`, `google-chrome`),
    /// nil when none is installed (Debian: `apt-get install chromium`; `.ci/run` installs it).
    public static let executable: String? = ["chromium", "chromium-browser", "google-chrome"].lazy.compactMap {
        name -> String? in
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }.first

    /// A DevTools protocol error, or Chromium gone.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(_ d: String) { description = d }
    }

    private let pid: pid_t
    private var toChromium: Int32
    private var fromChromium: Int32
    private let profile: URL
    private var nextID = 0
    private var buffer: [UInt8] = []
    private var sessionID: String?
    /// Seconds one call may take before it fails.
    public var timeout: Double = 60

    /// Starts headless Chromium with a window of `width` × `height` CSS pixels and one blank page.
    /// - Throws: ``Failure`` when Chromium is not installed or does not answer.
    public init(width: Int = 1000, height: Int = 800) throws {
        guard let exe = Self.executable else { throw Failure("chromium is not installed") }
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        var input: [Int32] = [0, 0]  // Chromium reads from input[0] as fd 3
        var output: [Int32] = [0, 0]  // Chromium writes to output[1] as fd 4
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw Failure("pipe failed") }
        let args = [
            exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--disable-extensions", "--disable-background-networking", "--remote-debugging-pipe",
            "--user-data-dir=\(profile.path)", "--window-size=\(width),\(height)", "about:blank",
        ]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 3)
        posix_spawn_file_actions_adddup2(&actions, output[1], 4)
        #if canImport(Glibc)
            let null = Glibc.open("/dev/null", O_RDWR)
        #else
            let null = Darwin.open("/dev/null", O_RDWR)
        #endif
        posix_spawn_file_actions_adddup2(&actions, null, 1)
        posix_spawn_file_actions_adddup2(&actions, null, 2)
        var cArgs = args.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, exe, &actions, nil, &cArgs, environ)
        Self.closeDescriptor(input[0])
        Self.closeDescriptor(output[1])
        Self.closeDescriptor(null)
        guard rc == 0 else { throw Failure("cannot start \(exe): error \(rc)") }
        pid = child
        toChromium = input[1]
        fromChromium = output[0]
        let target = try call("Target.createTarget", ["url": "about:blank"], session: false)
        guard let targetID = target["targetId"] as? String else { throw Failure("no target: \(target)") }
        let attached = try call("Target.attachToTarget", ["targetId": targetID, "flatten": true], session: false)
        sessionID = attached["sessionId"] as? String
        _ = try call("Page.enable")
        _ = try call("Runtime.enable")
    }

    deinit { quit() }

    /// Stops Chromium and removes its profile.
    public func quit() {
        guard toChromium >= 0 else { return }
        Self.closeDescriptor(toChromium)
        Self.closeDescriptor(fromChromium)
        toChromium = -1
        fromChromium = -1
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(at: profile)
    }

    /// Sends a protocol command to the page (or the browser) and returns its result.
    /// - Throws: ``Failure`` with the protocol's error, or when Chromium does not answer in time.
    @discardableResult
    public func call(_ method: String, _ params: [String: Any] = [:], session: Bool = true) throws -> [String: Any] {
        nextID += 1
        let id = nextID
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if session, let sessionID { message["sessionId"] = sessionID }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(toChromium, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure("chromium closed its pipe") }
            written += n
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let reply = try readMessage(until: deadline)
            guard reply["id"] as? Int == id else { continue }
            if let error = reply["error"] as? [String: Any] { throw Failure("\(method): \(error["message"] ?? error)") }
            return reply["result"] as? [String: Any] ?? [:]
        }
    }

    private func readMessage(until deadline: Date) throws -> [String: Any] {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let data = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                return (try JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            }
            var fds = pollfd(fd: fromChromium, events: Int16(POLLIN), revents: 0)
            let wait = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            guard wait > 0, poll(&fds, 1, wait) > 0 else { throw Failure("chromium did not answer in time") }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { read(fromChromium, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure("chromium closed its pipe") }
            buffer += chunk[..<n]
        }
    }

    private static func closeDescriptor(_ fd: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(fd)
        #else
            _ = Darwin.close(fd)
        #endif
    }

    /// Opens a page and waits until it has loaded.
    public func load(_ url: URL) throws {
        _ = try call("Page.navigate", ["url": url.absoluteString])
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try evaluate("document.readyState") as? String == "complete", try evaluate("location.href") as? String == url.absoluteString {
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure("\(url.lastPathComponent) did not load in time")
    }

    /// The value of a JavaScript expression (awaited when it is a promise), as JSON gives it.
    public func evaluate(_ expression: String) throws -> Any? {
        let r = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let e = r["exceptionDetails"] as? [String: Any] {
            let text = (e["exception"] as? [String: Any])?["description"] ?? e["text"] ?? e
            throw Failure("\(expression.prefix(80)): \(text)")
        }
        return (r["result"] as? [String: Any])?["value"]
    }

    /// Turns on touch events (as on a phone) with up to `points` fingers.
    public func enableTouch(points: Int = 5) throws {
        try call("Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": points])
    }

    /// Sends one touch event: `type` is `touchStart`, `touchMove`, `touchEnd` or `touchCancel`;
    /// `points` are the fingers down after it (id, x, y in CSS pixels).
    public func touch(_ type: String, _ points: [(id: Int, x: Double, y: Double)]) throws {
        try call(
            "Input.dispatchTouchEvent",
            ["type": type, "touchPoints": points.map { ["id": $0.id, "x": $0.x, "y": $0.y, "radiusX": 1, "radiusY": 1, "force": 1] }])
    }

    /// A PNG screenshot of the page's viewport.
    public func screenshot() throws -> Data {
        let r = try call("Page.captureScreenshot", ["format": "png"])
        guard let b64 = r["data"] as? String, let data = Data(base64Encoded: b64) else { throw Failure("no screenshot data") }
        return data
    }

    /// Presses and releases a key (`ArrowRight`, `End`, …) on the focused element.
    public func press(_ key: String, code: Int) throws {
        for type in ["rawKeyDown", "keyUp"] {
            try call("Input.dispatchKeyEvent", ["type": type, "key": key, "code": key, "windowsVirtualKeyCode": code])
        }
    }
}
