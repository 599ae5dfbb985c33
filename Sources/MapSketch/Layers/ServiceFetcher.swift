import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches a service description off the main actor: `file://` by reading the file, `http(s)://`
/// with URLSession (`?f=json`, plus `token=` when given). Never blocks the caller.
enum ServiceFetcher {
    /// The parsed description, or the reason there is none: what loading and refreshing a
    /// service layer both ask.
    static func fetchServiceInfo(_ url: URL, token: String?, timeout: Double) async -> Result<MapServiceInfo, LayerError> {
        await fetch(url, token: token, timeout: timeout).flatMap { bytes in
            Result { () throws(LayerError) in try MapServiceInfo.parse(bytes) }
        }
    }

    /// The bytes of the description, or the reason there are none.
    static func fetch(_ url: URL, token: String?, timeout: Double) async -> Result<[UInt8], LayerError> {
        if url.isFileURL {
            return await Task.detached {
                do {
                    return .success([UInt8](try Data(contentsOf: url)))
                } catch {
                    return .failure(LayerError.network("cannot read \(url.path): \(error.localizedDescription)"))
                }
            }.value
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return .failure(.network("unsupported URL scheme in \(url.absoluteString) (expected file, http or https)"))
        }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return .failure(.network("malformed URL \(url.absoluteString)"))
        }
        var items = (components.queryItems ?? []).filter { $0.name != "f" && $0.name != "token" }
        items.append(URLQueryItem(name: "f", value: "json"))
        if let token { items.append(URLQueryItem(name: "token", value: token)) }
        components.queryItems = items
        guard let requestURL = components.url else { return .failure(.network("malformed URL \(url.absoluteString)")) }
        var request = URLRequest(url: requestURL, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "GET"
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = timeout
        config.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: config)
        defer { session.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await session.data(for: request)
            if let http = response as? HTTPURLResponse, http.statusCode != 200 {
                if [401, 403, 498, 499].contains(http.statusCode) {
                    return .failure(.unauthorized("HTTP \(http.statusCode)"))
                }
                return .failure(.httpStatus(http.statusCode))
            }
            return .success([UInt8](data))
        } catch let e as URLError where e.code == .timedOut {
            return .failure(.timeout(timeout))
        } catch {
            return .failure(.network(error.localizedDescription))
        }
    }
}
