public import Foundation

/// Locates test fixtures and corpus files inside this package, never outside it.
public enum Fixtures {
    /// The package root (the folder holding Package.swift).
    public static let packageRoot: URL = {
        // …/Tests/MapSketchTestSupport/Fixtures.swift → package root
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }()

    /// A path relative to the package root, e.g. `Traces/demo/demo.trace.jsonl`.
    public static func url(_ relativePath: String) -> URL {
        packageRoot.appendingPathComponent(relativePath)
    }

    /// The bytes of a fixture file.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// The text of a fixture file (UTF-8).
    public static func string(_ relativePath: String) throws -> String {
        String(decoding: try data(relativePath), as: UTF8.self)
    }

    /// The files under a folder (relative to the package root) whose names end with `suffix`, sorted.
    public static func files(under relativeFolder: String, suffix: String) -> [URL] {
        let root = url(relativeFolder)
        guard let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var out: [URL] = []
        for case let u as URL in e where u.lastPathComponent.hasSuffix(suffix) { out.append(u) }
        return out.sorted { $0.path < $1.path }
    }
}
