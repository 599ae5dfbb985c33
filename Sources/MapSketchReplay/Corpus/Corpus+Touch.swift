import Foundation
import MapSketch
import MapSketchGeometry

extension Corpus {
    // MARK: touch/ — the real Android getevent recordings

    /// One touch/… trace per getevent recording under real/getevent, scaled with the device preset.
    static func realTouches(root: URL, skipped: (String) -> Void) -> [Entry] {
        var out: [Entry] = []
        let notRecordings: Set<String> = ["SOURCE.txt", "LICENSE", "LICENSE.txt", "README.md", "README.txt", "COPYING"]
        for u in files(root, "real/getevent", suffixes: [".txt", ".log", ".getevent"]) where !notRecordings.contains(u.lastPathComponent) {
            let rel = u.path.replacingOccurrences(of: root.path + "/", with: "")
            guard let text = try? String(contentsOf: u, encoding: .utf8) else { continue }
            let options: GeteventReader.Options
            if rel.contains("Tablet") {
                options = .asusTF201
            } else if rel.contains("Emulator") {
                options = .androidEmulator
            } else {
                options = .galaxyS
            }
            guard let screen = options.screen else { continue }
            let touches: [TouchEvent]
            do {
                touches = try GeteventReader.read(text: text, file: u.lastPathComponent, options: options)
            } catch {
                skipped("\(rel): \(error)")
                continue
            }
            let folder = u.deletingLastPathComponent().lastPathComponent
            let base = slug(folder + "-" + u.deletingPathExtension().lastPathComponent)
            let trace = TraceBuilder.touchTrace(
                touches, name: "getevent-\(base)", description: "Real Android getevent recording \(rel) (\(touches.count) touches) replayed into a polyline sketch",
                screen: screen)
            out.append(Entry(path: "touch/real-\(base)", text: TraceEncoder.encode(trace)))
        }
        return out
    }
}
