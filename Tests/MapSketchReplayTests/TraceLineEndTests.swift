import Foundation
import MapSketchGeometry
import MapSketchTestSupport
@testable import MapSketchReplay
import Testing

/// The trace reader's own line handling: a file edited on Windows (CR LF), a classic Mac file
/// (CR) and a Unix file (LF) read alike, and errors point at the right line and column.
@Suite struct TraceLineEndTests {
    /// The corpus traces that read, up to 100 KB each (the few larger synthetic ones add time, not cases).
    static let traces = Fixtures.files(under: "Traces", suffix: ".trace.jsonl").filter {
        !$0.path.contains("/malformed/") && ((try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) < 100_000
    }

    @Test func windowsAndClassicMacLineEndsReadAsUnix() throws {
        #expect(Self.traces.count > 100)
        for (i, url) in Self.traces.enumerated() {
            let text = try String(contentsOf: url, encoding: .utf8)
            let unix = try TraceDecoder.decode(text, file: "t")
            for ending in ["\r\n", "\r"] {
                let other = text.replacingOccurrences(of: "\n", with: ending)
                let same = try TraceDecoder.decode(other, file: "t") == unix
                #expect(same, "\(url.lastPathComponent) with \(ending.debugDescription) line ends")
                guard i % 8 == 0 else { continue }  // streamed in small pieces: a sample (slow in debug builds)
                let streamed = try TraceDecoder.decode(source: ChunkedSource(Array(other.utf8), seed: 3), file: "t") == unix
                #expect(streamed, "\(url.lastPathComponent) streamed in small pieces")
            }
        }
    }

    @Test func errorsInAWindowsFileAreLocatedAsInAUnixFile() throws {
        let url = Fixtures.url("Traces/malformed/bad-touch-phase.trace.jsonl")
        let text = try String(contentsOf: url, encoding: .utf8)
        func error(_ text: String) -> String {
            do {
                _ = try TraceDecoder.decode(text, file: "bad.trace.jsonl")
                return "no error"
            } catch {
                return error.description
            }
        }
        let unix = error(text)
        #expect(unix.hasPrefix("bad.trace.jsonl:2:33: phase: expected one of"))
        #expect(error(text.replacingOccurrences(of: "\n", with: "\r\n")) == unix)
        #expect(error("\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r")) == unix, "with a byte-order mark, CR only")
        // A syntax error on line 3 of a CR LF file: line 3, not 1:1.
        let header = text.split(separator: "\n")[0]
        #expect(error(header + "\r\n\r\n{\"t\":1,\"type\":\"undo\",}\r\n").hasPrefix("bad.trace.jsonl:3:22: "))
    }

    @Test func hostileTextInATraceIsEscapedAndCut() throws {
        let header = try String(contentsOf: Fixtures.url("Traces/interaction/polyline-taps-append.trace.jsonl"), encoding: .utf8)
            .split(separator: "\n")[0]
        let long = String(repeating: "A", count: 10_000_000)
        for line in [#"{"t":1,"type":"\u001b[2J\#(long)"}"#, #"{"t":1,"type":"undo","\u0000x":1}"#] {
            do {
                _ = try TraceDecoder.decode(header + "\n" + line + "\n", file: "h.trace.jsonl")
                Issue.record("read")
            } catch {
                let message = error.description
                #expect(message.count <= InputExcerpt.messageLimit + 100, "\(message.prefix(1200))")
                #expect(!message.unicodeScalars.contains { $0.value < 0x20 }, "no raw control characters")
                #expect(message.contains("\\u001B[2J") || message.contains("\\u0000x"), "\(message)")
            }
        }
    }

    @MainActor
    @Test func aTraceThatCannotBeReadSaysWhy() throws {
        func message(_ url: URL) -> String {
            do {
                _ = try Replayer.load(url, displayName: "t.trace.jsonl")
                return "read"
            } catch {
                return error.description
            }
        }
        #expect(message(URL(fileURLWithPath: "/no/such.trace.jsonl")) == "t.trace.jsonl:1:1: cannot read the file: not found")
        #expect(message(FileManager.default.temporaryDirectory) == "t.trace.jsonl:1:1: cannot read the file: is a folder, expected a file")
    }
}
