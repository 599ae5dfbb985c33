import Foundation
import MapSketchGeometry
import MapSketchReplay

/// What a pending output was made from: the digest of the trace that was replayed and the program
/// that replayed it, kept beside the pending output as `NAME.actual.origin.json`.
///
/// A pending output is only worth accepting while it is what the trace produces: when the trace
/// is edited after `check` wrote `NAME.actual.json`, accepting that file would make the old
/// output the golden and the next check fail. `GoldenAcceptance` compares the digest with the
/// trace's bytes as they are now and refuses a stale output (`stale: … run check again`).
///
/// ```json
/// {"trace": "tap.trace.jsonl", "traceDigest": "fnv1a64:5d9e1f0c2b7a4e31", "producer": "mapsketch 0.4.0-dev"}
/// ```
package struct PendingOrigin: Hashable, Sendable {
    /// The digest of the trace's bytes when it was replayed (``digest(of:)``).
    package var traceDigest: String
    /// The program (and its version) that replayed it, e.g. `mapsketch 0.4.0-dev`.
    package var producer: String

    /// Creates an origin.
    package init(traceDigest: String, producer: String) {
        self.traceDigest = traceDigest
        self.producer = producer
    }

    /// The digest of a trace's bytes: `fnv1a64:` and the 16 hexadecimal digits of their 64-bit
    /// FNV-1a hash. Any edit of the trace changes it (but for a chance of one in 2⁶⁴); it tells
    /// an edited trace from the one replayed, and is no defence against a forged one.
    /// - Complexity: O(n) in the bytes.
    package static func digest(of bytes: some Sequence<UInt8>) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The digest of the file at `url`, or nil when it cannot be read.
    static func digest(ofFile url: URL) -> String? {
        FileManager.default.contents(atPath: url.path).map { digest(of: $0) }
    }

    /// The origin file's text for the trace named `trace` (a JSON object, pretty, newline-ended).
    func json(trace: String) -> String {
        let doc: JSONValue = [
            "trace": .string(trace), "traceDigest": .string(traceDigest), "producer": .string(producer),
        ]
        return JSONWriter.string(doc, style: .pretty) + "\n"
    }

    /// The origin recorded beside the pending output of `c`, or nil when there is none or it is
    /// not an origin document.
    package static func read(_ c: GoldenCase) -> PendingOrigin? {
        guard let data = FileManager.default.contents(atPath: c.actualOrigin.path),
            let doc = try? JSONParser.parse(Array(data)),
            let digest = doc["traceDigest"]?.stringValue
        else { return nil }
        return PendingOrigin(traceDigest: digest, producer: doc["producer"]?.stringValue ?? "an unknown program")
    }

    /// Writes the origin of the pending output of `c` (atomically).
    /// - Throws: ``OutputError`` naming the file when it cannot be written.
    func write(for c: GoldenCase) throws(OutputError) {
        try AtomicFile.write(json(trace: c.trace.lastPathComponent), to: c.actualOrigin)
    }

    /// Why the pending output of `c` is stale — `stale: …; run check again` — or nil when its
    /// trace is still the one it was made from.
    package static func staleness(of c: GoldenCase) -> String? {
        let again = "run `mapsketch check \(c.displayPath)` again"
        guard let origin = read(c) else {
            return
                "stale: no record of the trace it was made from (\(c.actualOrigin.lastPathComponent) is missing or unreadable); \(again)"
        }
        guard let now = digest(ofFile: c.trace) else {
            return "stale: its trace \(c.displayPath) cannot be read; \(again)"
        }
        guard now == origin.traceDigest else {
            return "stale: its trace \(c.trace.lastPathComponent) changed since \(origin.producer) wrote it; \(again)"
        }
        return nil
    }
}
