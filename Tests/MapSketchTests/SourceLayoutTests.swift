import Foundation
import Testing

/// The folders of `Sources/MapSketch` depend one way: a file may name the types of its own folder
/// and of folders below it, never of a folder above or beside it. From the bottom:
///
/// - `Screen` (screen points and sizes) and `Symbols` (colors and symbols) need nothing;
/// - `Graphics` (graphics, attributes, info templates) uses symbols;
/// - `Renderers` (attributes → symbols) and `SVG` (the SVG canvas) use the above;
/// - `Map` (the map view, the base layer, viewport, touches and gestures, events, hit testing,
///   callouts, SVG output) uses all of those and asks its layers through the base `Layer`;
/// - `Layers` (graphics and service layers) and `Sketch` (the sketch layer and its editing
///   model) build on the map, and not on each other.
@Suite struct SourceLayoutTests {
    static let rank: [String: Int] = [
        "Screen": 0, "Symbols": 0, "Graphics": 1, "Renderers": 2, "SVG": 2, "Map": 3, "Layers": 4, "Sketch": 4,
    ]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/MapSketch").standardizedFileURL

    /// Folder name → its Swift files' text.
    static func files() throws -> [(folder: String, name: String, text: String)] {
        let fm = FileManager.default
        var out: [(String, String, String)] = []
        for entry in try fm.contentsOfDirectory(atPath: sources.path).sorted() {
            let dir = sources.appendingPathComponent(entry)
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: dir.path, isDirectory: &isDir), isDir.boolValue, !entry.hasSuffix(".docc")
            else {
                if entry.hasSuffix(".swift") { out.append(("", entry, "")) }
                continue
            }
            for file in try fm.contentsOfDirectory(atPath: dir.path).sorted() where file.hasSuffix(".swift") {
                out.append((entry, file, try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)))
            }
        }
        return out
    }

    /// The code of a file without comments and string literals.
    static func code(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var s = String(line)
            if let r = s.range(of: "//") { s = String(s[..<r.lowerBound]) }
            return s.replacingOccurrences(of: #""([^"\\]|\\.)*""#, with: "\"\"", options: .regularExpression)
        }.joined(separator: "\n")
    }

    /// The types a file declares at its top level.
    static func declaredTypes(_ text: String) -> [String] {
        let pattern =
            #"(?m)^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*(?:class|struct|enum|protocol|actor|typealias)\s+(\w+)"#
        let regex = try? NSRegularExpression(pattern: pattern)
        let ns = text as NSString
        return regex?.matches(in: text, range: NSRange(location: 0, length: ns.length)).map {
            ns.substring(with: $0.range(at: 1))
        } ?? []
    }

    @Test func everyFileIsInARankedFolder() throws {
        for f in try Self.files() {
            #expect(Self.rank[f.folder] != nil, "\(f.folder)/\(f.name): put it in one of \(Self.rank.keys.sorted())")
        }
    }

    /// A file past about 400 lines is usually two concerns: split it by `Type+Concern`, or name
    /// it here with the reason it is one cohesive type.
    @Test func noFileIsOverFourHundredLines() throws {
        let cohesive: [String: String] = [:]
        for f in try Self.files() where cohesive[f.name] == nil {
            let lines = f.text.split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(lines <= 400, "\(f.folder)/\(f.name) has \(lines) lines")
        }
    }

    @Test func foldersDependOneWay() throws {
        let files = try Self.files()
        var owner: [String: String] = [:]
        for f in files { for t in Self.declaredTypes(f.text) { owner[t] = f.folder } }
        #expect(owner["MapView"] == "Map" && owner["GraphicsLayer"] == "Layers", "the scan finds the declarations")
        for f in files {
            guard let mine = Self.rank[f.folder] else { continue }
            let code = Self.code(f.text)
            for (type, folder) in owner where folder != f.folder {
                guard let theirs = Self.rank[folder], theirs >= mine else { continue }
                let used = code.range(of: "\\b\(type)\\b", options: .regularExpression) != nil
                #expect(!used, "\(f.folder)/\(f.name) names \(type) from \(folder)/, which is not below it")
            }
        }
    }
}
