import Foundation
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
            let device: GeteventImport.Device
            if rel.contains("Tablet") {
                device = .asusTF201
            } else if rel.contains("Emulator") {
                device = .emulator
            } else {
                device = .galaxyS
            }
            let folder = u.deletingLastPathComponent().lastPathComponent
            let base = slug(folder + "-" + u.deletingPathExtension().lastPathComponent)
            // The same conversion as `mapsketch import getevent FILE --device NAME --name NAME`.
            var trace: Trace
            do {
                trace = try GeteventImport.trace(
                    bytes: Array(text.utf8), file: u.lastPathComponent,
                    settings: GeteventImport.Settings(device: device, name: "getevent-\(base)"))
            } catch {
                skipped("\(rel): \(error)")
                continue
            }
            trace.header.description = Self.touchDescription(rel, touches: trace.events.count)
            out.append(Entry(path: "touch/real-\(base)", text: TraceEncoder.encode(trace)))
        }
        return out
    }

    /// The description of the corpus trace of the getevent recording at `rel`.
    package static func touchDescription(_ rel: String, touches: Int) -> String {
        "Real Android getevent recording \(rel) (\(touches) touches) replayed into a polyline sketch"
    }
}
