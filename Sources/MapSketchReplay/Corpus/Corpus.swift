package import Foundation
import MapSketch
import MapSketchGeometry

/// The corpus under `Traces/`: every trace is made here, reproducibly, from code or from the real
/// files under `Traces/real`, one category per file (`Corpus+Interaction.swift`, …).
/// `mapsketch corpus Traces` rewrites the trace files from it (never the goldens), and a test
/// checks that it gives the committed files.
package enum Corpus {
    /// A trace to write: its path relative to the corpus root (without `.trace.jsonl`) and text.
    package struct Entry: Hashable, Sendable {
        /// The path relative to the corpus root, without `.trace.jsonl` (e.g. `interaction/tap`).
        package var path: String
        /// The trace file's text.
        package var text: String
    }

    /// Every trace of the corpus, made from code and from the real files under `root/real`. A
    /// real file its reader refuses makes no trace: `skipped` gets its path and the reason.
    /// - Complexity: O(n) in the size of the corpus.
    package static func all(root: URL, skipped: (String) -> Void = { _ in }) -> [Entry] {
        var out: [Entry] = []
        for (p, t) in interaction() + programmatic() + tools() + snapping() + gpsSynthetic() + synthetic() + demo() {
            out.append(Entry(path: p, text: TraceEncoder.encode(t)))
        }
        out += malformed()
        out += realGPS(root: root, skipped: skipped)
        out += realTouches(root: root, skipped: skipped)
        return out
    }

    // MARK: Helpers

    /// A 400 × 400 pt screen at 1 map unit per point centered on the origin: screen (x, y) is
    /// map (x − 200, 200 − y).
    static func header(_ name: String, _ description: String, _ type: GeometryType?, _ geometry: Geometry? = nil) -> TraceHeader {
        var h = TraceHeader()
        h.name = name
        h.description = description
        h.screen = ScreenSize(width: 400, height: 400)
        h.viewport = Viewport(center: Point(0, 0), resolution: 1)
        h.spatialReference = .webMercator
        if let type { h.sketch = TraceSketchSetup(geometryType: type, geometry: geometry) }
        return h
    }

    static func script(
        _ name: String, _ description: String, _ type: GeometryType?, _ geometry: Geometry? = nil,
        configure: (inout TraceHeader) -> Void = { _ in }, _ body: (inout TraceScript) -> Void
    ) -> (String, Trace) {
        var h = header(name.split(separator: "/").last.map(String.init) ?? name, description, type, geometry)
        configure(&h)
        var s = TraceScript(header: h)
        body(&s)
        return (name, s.trace)
    }

    static func line(_ pts: [(Double, Double)]...) -> Geometry {
        .polyline(Polyline(paths: pts.map { $0.map { Point($0.0, $0.1) } }))
    }

    static func polygon(_ pts: [(Double, Double)]...) -> Geometry {
        .polygon(Polygon(rings: pts.map { $0.map { Point($0.0, $0.1) } }))
    }

    static func multipoint(_ pts: [(Double, Double)]) -> Geometry {
        .multipoint(Multipoint(points: pts.map { Point($0.0, $0.1) }))
    }

    /// A horizontal polyline from map (−100, 0) to (100, 0): screen (100, 200)–(300, 200).
    static let twoVertexLine = line([(-100, 0), (100, 0)])
    /// Three vertices: map (−100, 0), (100, 0), (100, 100) = screen (100, 200), (300, 200), (300, 100).
    static let threeVertexLine = line([(-100, 0), (100, 0), (100, 100)])
    /// A clockwise square: map (−100, −100), (−100, 100), (100, 100), (100, −100).
    static let square = polygon([(-100, -100), (-100, 100), (100, 100), (100, -100)])

    static func magnifier(_ h: inout TraceHeader) { h.options.showMagnifierOnTapAndHold = true }

    // MARK: Real files

    static func files(_ root: URL, _ folder: String, suffixes: [String]) -> [URL] {
        let dir = root.appendingPathComponent(folder)
        guard let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else { return [] }
        var out: [URL] = []
        for case let u as URL in e where suffixes.contains(where: { u.lastPathComponent.hasSuffix($0) }) { out.append(u) }
        return out.sorted { $0.path < $1.path }
    }

    static func slug(_ s: String) -> String {
        String(s.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }
}
