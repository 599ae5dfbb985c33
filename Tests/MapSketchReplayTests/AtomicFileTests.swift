import Foundation
@testable import MapSketchReplay
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct AtomicFileTests {
    func tempDir() throws -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }

    func names(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    @Test func writesReplaceTheFileAndLeaveNoTemporaryFile() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("sub/out.json")
        try AtomicFile.write("one\n", to: url)
        try AtomicFile.write("two\n", to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "two\n")
        #expect(try names(dir.appendingPathComponent("sub")) == ["out.json"])
    }

    @Test func theTemporaryFileHasOneRecognisableName() throws {
        let url = URL(fileURLWithPath: "/x/Traces/t.expected.json")
        #expect(AtomicFile.temporaryURL(for: url, pid: 4242).path == "/x/Traces/.t.expected.json.mapsketch-tmp-4242")
        #expect(AtomicFile.writerProcess(ofTemporaryFile: ".t.expected.json.mapsketch-tmp-4242") == 4242)
        #expect(AtomicFile.writerProcess(ofTemporaryFile: ".t.expected.json.tmp-17") == 17, "the older name")
        #expect(AtomicFile.writerProcess(ofTemporaryFile: ".dat.nosync1a2b.Xy12Zq") == 0x1a2b, "Foundation's")
        for name in ["t.expected.json", ".mapsketch-tmp-12", ".t.mapsketch-tmp-", ".t.mapsketch-tmp-1x", ".dat.nosyncxyz.abcdef", ".dat.nosync12.abc"] {
            #expect(AtomicFile.writerProcess(ofTemporaryFile: name) == nil, "\(name)")
        }
    }

    @Test func aWriterThatIsNotCommittedLeavesTheOldFile() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("golden.json")
        try AtomicFile.write("old\n", to: url)
        do {
            let w = try AtomicFileWriter(url)
            try w.write("half of the n")
            #expect(try names(dir) == [".golden.json.mapsketch-tmp-\(getpid())", "golden.json"])
        }  // released without commit, as when an error ends the write
        #expect(try String(contentsOf: url, encoding: .utf8) == "old\n")
        #expect(try names(dir) == ["golden.json"])
    }

    @Test func keepsTheDestinationsPermissions() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("run.sh")
        try AtomicFile.write("#!/bin/sh\n", to: url)
        #expect(chmod(url.path, 0o751) == 0)
        try AtomicFile.write("#!/bin/sh\necho\n", to: url)
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o751)
    }

    @Test func anUnwritableFolderSaysWhy() throws {
        let r = Result { () throws(OutputError) in try AtomicFile.write("x", to: URL(fileURLWithPath: "/proc/no/such/file")) }
        guard case .failure(let e) = r else {
            Issue.record("writing under /proc succeeded")
            return
        }
        #expect(e.description.contains("cannot create the folder"), "\(e)")
    }

    @Test func staleTemporaryFilesOfKilledRunsAreRemoved() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        func make(_ name: String, ageSeconds: Double = 0) throws {
            let url = dir.appendingPathComponent(name)
            try Data("partial".utf8).write(to: url)
            let date = Date(timeIntervalSinceNow: -ageSeconds)
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
        }
        // No process has id 2^31 − 2 (Linux pid_max is at most 2^22): a killed run's files.
        let dead: Int32 = 2_147_483_646
        try make(".t.expected.json.mapsketch-tmp-\(dead)")
        try make(".t.expected.json.tmp-\(dead)")
        try make(".dat.nosync\(String(dead, radix: 16)).aB3dE9")
        // A live process's (pid 1) recent file is a write in progress; its two-hour-old one is a
        // leftover of a reused id. Our own files and ordinary files stay.
        try make(".u.expected.json.mapsketch-tmp-1")
        try make(".v.expected.json.mapsketch-tmp-1", ageSeconds: 7200)
        try make(".w.expected.json.mapsketch-tmp-\(getpid())", ageSeconds: 7200)
        try make("t.expected.json")
        try make(".hidden-notes")
        let removed = AtomicFile.removeStaleTemporaryFiles(in: dir)
        #expect(
            removed == [
                ".dat.nosync\(String(dead, radix: 16)).aB3dE9", ".t.expected.json.mapsketch-tmp-\(dead)", ".t.expected.json.tmp-\(dead)",
                ".v.expected.json.mapsketch-tmp-1",
            ])
        #expect(
            try names(dir) == [
                ".hidden-notes", ".u.expected.json.mapsketch-tmp-1", ".w.expected.json.mapsketch-tmp-\(getpid())", "t.expected.json",
            ])
    }
}
