import Foundation
import MapSketch
import MapSketchGeometry
@testable import MapSketchReplay
import MapSketchTestSupport
import Testing

/// `mapsketch import getevent`: Android logs become traces, one conversion for the command and
/// the corpus.
@Suite struct GeteventImportTests {
    /// Every recording under Traces/real/getevent with its corpus trace.
    static func recordings() throws -> [(log: URL, rel: String, device: String, base: String)] {
        let root = Fixtures.url("Traces")
        let dir = root.appendingPathComponent("real/getevent/monkeyhelper")
        var out: [(URL, String, String, String)] = []
        for folder in ["Emulator", "Phone", "Tablet"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(folder).path).sorted()
            for f in files where f.hasSuffix(".txt") {
                let u = dir.appendingPathComponent(folder).appendingPathComponent(f)
                let device = folder == "Tablet" ? "asus-tf201" : folder == "Emulator" ? "emulator" : "galaxy-s"
                let base = Corpus.slug(folder + "-" + String(f.dropLast(4)))
                out.append((u, "real/getevent/monkeyhelper/\(folder)/\(f)", device, base))
            }
        }
        return out
    }

    @Test func theCorpusTouchTracesAreTheCommandsOutput() throws {
        let recordings = try Self.recordings()
        #expect(recordings.count == 22)
        let dir = try MapsketchProcess.tempDir(prefix: "import")
        defer { try? FileManager.default.removeItem(at: dir) }
        for r in recordings {
            let committed = Fixtures.url("Traces/touch/real-\(r.base).trace.jsonl")
            let touches = try TraceDecoder.decode(String(contentsOf: committed, encoding: .utf8), file: "c").events.count
            let out = dir.appendingPathComponent("\(r.base).trace.jsonl")
            let run = try MapsketchProcess.run([
                "import", "getevent", r.log.path, "--device", r.device, "--name", "getevent-\(r.base)",
                "--description", Corpus.touchDescription(r.rel, touches: touches), "-o", out.path,
            ])
            #expect(run.code == 0, "\(r.rel): \(run.err)")
            #expect(try Data(contentsOf: out) == Data(contentsOf: committed), "\(r.rel) re-derived differs from the corpus")
        }
    }

    @Test func errorsNameTheLogsLineAndColumn() throws {
        let log = "[ 1.000] EV_ABS ABS_MT_POSITION_X 00000010\n[ 1.000] EV_SYN SYN_REPORT 00000000\n[ 1.x] EV_ABS ABS_MT_POSITION_Y 00000010\n"
        #expect {
            try GeteventImport.trace(bytes: Array(log.utf8), file: "phone.txt")
        } throws: { e in
            "\(e)".hasPrefix("phone.txt:3:3: ")
        }
        #expect {
            try GeteventImport.trace(bytes: Array("hello\n".utf8), file: "empty.txt")
        } throws: { e in
            "\(e)".contains("empty.txt:1:1: expected getevent touch events")
        }
        #expect {
            try GeteventImport.trace(bytes: Array(log.split(separator: "\n")[0...1].joined(separator: "\n").utf8), file: "p.txt", settings: .init(screen: ScreenSize(width: 100, height: 100)))
        } throws: { e in
            "\(e)".contains("--axis-max")
        }
    }

    @Test func aScreenScalesTheAxesAndRawUnitsArePointsWithout() throws {
        let log = """
                ABS_MT_POSITION_X     : value 0, min 0, max 999, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_Y     : value 0, min 0, max 1999, fuzz 0, flat 0, resolution 0
            [ 1.000] EV_ABS ABS_MT_TRACKING_ID 00000001
            [ 1.000] EV_ABS ABS_MT_POSITION_X 000001f3
            [ 1.000] EV_ABS ABS_MT_POSITION_Y 000003e7
            [ 1.000] EV_SYN SYN_REPORT 00000000
            [ 1.100] EV_ABS ABS_MT_TRACKING_ID ffffffff
            [ 1.100] EV_SYN SYN_REPORT 00000000

            """
        let scaled = try GeteventImport.trace(bytes: Array(log.utf8), file: "l.txt", settings: .init(screen: ScreenSize(width: 100, height: 200)))
        #expect(scaled.header.screen == ScreenSize(width: 100, height: 200))
        guard case .touch(.began, 0, let p)? = scaled.events.first?.event else { throw TestFailure("no began") }
        #expect(abs(p.x - 49.95) < 0.01 && abs(p.y - 99.95) < 0.01)
        let raw = try GeteventImport.trace(bytes: Array(log.utf8), file: "l.txt")
        #expect(raw.header.screen == ScreenSize(width: 500, height: 1000))
        #expect(raw.events.count == 2)
        #expect(raw.header.description == "Android getevent recording l.txt (2 touches)")
    }

    @Test func replayingALogSaysToImportIt() throws {
        let log = Fixtures.url("Traces/real/getevent/monkeyhelper/Phone/phone-single-touch.txt")
        let run = try MapsketchProcess.run(["replay", log.path])
        #expect(run.code == 2)
        #expect(run.err.contains("is an Android getevent log, not a trace: import it first with `mapsketch import getevent"), "\(run.err)")
        #expect(GeteventImport.looksLikeGetevent(Array("\n  [  12.5] EV_SYN SYN_REPORT 0\n".utf8)))
        #expect(!GeteventImport.looksLikeGetevent(Array(#"{"t":0,"type":"header"}"#.utf8)))
    }
}
