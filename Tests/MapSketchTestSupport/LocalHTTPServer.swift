public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 with an ephemeral port, for tests of service layers.
///
/// Each test starts its own server, with a handler that maps a request to a canned response
/// (status, body, optional delay), and stops it at the end. One thread accepts connections and
/// one thread serves each connection (one request, then `Connection: close`).
///
/// ```swift
/// let server = try LocalHTTPServer { req in .json(#"{"spatialReference":{"wkid":4326}}"#) }
/// let url = server.url("/arcgis/rest/services/World/MapServer")
/// defer { server.stop() }
/// ```
public final class LocalHTTPServer: @unchecked Sendable {
    /// A received request: method, path and decoded query parameters.
    public struct Request: Sendable, Hashable {
        public var method: String
        public var path: String
        public var query: [String: String]
    }

    /// A canned response.
    public struct Response: Sendable {
        public var status: Int
        public var contentType: String
        public var body: [UInt8]
        /// Seconds to wait before answering (for timeouts).
        public var delay: Double

        public init(status: Int, contentType: String = "application/json", body: [UInt8], delay: Double = 0) {
            self.status = status
            self.contentType = contentType
            self.body = body
            self.delay = delay
        }

        /// A 200 response with a JSON (or any text) body.
        public static func json(_ text: String, status: Int = 200, delay: Double = 0) -> Response {
            Response(status: status, body: Array(text.utf8), delay: delay)
        }
    }

    /// The port the server listens on.
    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request) -> Response
    private let lock = NSLock()
    private var _requests: [Request] = []
    private var stopped = false

    /// Starts a server answering every request with `handler`.
    /// - Throws: `POSIXError` when the socket cannot be opened, bound or listened on.
    public init(handler: @escaping @Sendable (Request) -> Response) throws {
        self.handler = handler
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let e = errno
            close(fd)
            throw POSIXError(.init(rawValue: e) ?? .EIO)
        }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        self.port = Int(UInt16(bigEndian: addr.sin_port))
        self.listener = fd
        let t = Thread { [self] in acceptLoop() }
        t.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT` + `path`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// The requests received so far, in order.
    public var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return _requests
    }

    /// Stops accepting connections (idempotent).
    public func stop() {
        lock.lock()
        let was = stopped
        stopped = true
        lock.unlock()
        guard !was else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let c = accept(listener, nil, nil)
            if c < 0 {
                lock.lock()
                let done = stopped
                lock.unlock()
                if done || errno != EINTR { return }
                continue
            }
            let conn = Thread { [self] in serve(c) }
            conn.start()
        }
    }

    private func serve(_ c: Int32) {
        defer { close(c) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !buffer.containsHeaderEnd {
            let n = chunk.withUnsafeMutableBytes { recv(c, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return }
            buffer.append(contentsOf: chunk[0..<n])
            if buffer.count > 1 << 16 { return }
        }
        let head = String(decoding: buffer, as: UTF8.self)
        let requestLine = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        let parts = requestLine.split(separator: " ")
        guard parts.count >= 2 else { return }
        let target = URLComponents(string: String(parts[1]))
        var query: [String: String] = [:]
        for item in target?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let request = Request(method: String(parts[0]), path: target?.path ?? String(parts[1]), query: query)
        lock.lock()
        _requests.append(request)
        lock.unlock()
        let response = handler(request)
        if response.delay > 0 { usleep(UInt32(min(response.delay, 60) * 1_000_000)) }
        var out = Array("HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n".utf8)
        out += Array("Content-Type: \(response.contentType)\r\nContent-Length: \(response.body.count)\r\nConnection: close\r\n\r\n".utf8)
        out += response.body
        var sent = 0
        while sent < out.count {
            let n = out[sent...].withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 498: "Invalid Token"
        case 499: "Token Required"
        case 500: "Internal Server Error"
        default: "Status"
        }
    }
}

extension [UInt8] {
    fileprivate var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for i in 0...(count - 4) where self[i] == 13 && self[i + 1] == 10 && self[i + 2] == 13 && self[i + 3] == 10 {
            return true
        }
        return false
    }
}
