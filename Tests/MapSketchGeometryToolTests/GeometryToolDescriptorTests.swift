import Foundation
import MapSketchGeometry
import MapSketchGeometryTool
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `GeometryTool.run(descriptor:file:emit:)`: the read loop over a file descriptor and the output
/// blocks `mapsketch geometry` writes.
@Suite struct GeometryToolDescriptorTests {
    /// Runs the tool over `input` written to a temporary file, collecting every block emitted.
    static func run(_ tool: GeometryTool, _ input: String) throws -> (code: Int32, blocks: [[UInt8]]) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mapsketch-descriptor-\(UUID().uuidString).jsonl")
        try Data(input.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        var blocks: [[UInt8]] = []
        let code = try tool.run(descriptor: fd, file: "in.jsonl") { blocks.append(Array($0)) }
        return (code, blocks)
    }

    @Test func smallResultsGoOutInBlocksOfTheChunkSize() throws {
        // 20,000 points of ~40 bytes of WKT each: about 12 blocks.
        let input = (0..<20_000).map { #"{"x":\#($0),"y":\#($0 % 7),"spatialReference":{"wkid":3857}}"# }.joined(separator: "\n")
        let (code, blocks) = try Self.run(GeometryTool(operation: .convert, outputFormat: .wkt), input)
        #expect(code == 0)
        #expect(blocks.count > 2)
        for b in blocks.dropLast() { #expect(b.count >= GeometryTool.chunkSize && b.count < GeometryTool.chunkSize + 64) }
        let text = String(decoding: blocks.joined(), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 20_000)
        #expect(lines.first == "POINT (0 0)" && lines.last == "POINT (19999 0)")
    }

    @Test func aResultOfABlockOrMoreGoesOutOnItsOwn() throws {
        let ring = (0..<6_000).map { i -> String in
            let a = Double(i) / 6_000 * 2 * Double.pi
            return "[\(cos(a) * 1000),\(sin(a) * 1000)]"
        }
        let polygon = #"{"rings":[["# + ring.joined(separator: ",") + ",\(ring[0])" + #"]],"spatialReference":{"wkid":3857}}"#
        let (code, blocks) = try Self.run(GeometryTool(operation: .convert, outputFormat: .wkt), #"{"x":1,"y":2}"# + "\n" + polygon)
        #expect(code == 0)
        // The point's result, then the polygon's text uncopied, then its newline.
        #expect(blocks.count == 3)
        #expect(String(decoding: blocks[0], as: UTF8.self) == "POINT (1 2)\n")
        #expect(blocks[1].count >= GeometryTool.chunkSize)
        #expect(String(decoding: blocks[1].prefix(9), as: UTF8.self) == "POLYGON (")
        #expect(blocks[2] == Array("\n".utf8))
    }

    @Test func resultsBeforeAnInputErrorAreEmittedFirst() throws {
        let input = #"{"x":1,"y":2}"# + "\n" + #"{"x":3,"y":"#
        var blocks: [[UInt8]] = []
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mapsketch-descriptor-\(UUID().uuidString).jsonl")
        try Data(input.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_RDONLY)
        defer { close(fd) }
        #expect(throws: GeometryToolError.self) {
            _ = try GeometryTool(operation: .convert, outputFormat: .wkt).run(descriptor: fd, file: "in.jsonl") { blocks.append(Array($0)) }
        }
        #expect(blocks.map { String(decoding: $0, as: UTF8.self) } == ["POINT (1 2)\n"])
    }

    @Test func aFailedReadNamesTheFileAndTheSystemsReason() throws {
        do {
            _ = try GeometryTool(operation: .validate).run(descriptor: -1, file: "gone.json") { _ in }
            Issue.record("a read of descriptor -1 succeeded")
        } catch let e as GeometryTool.ReadError {
            #expect(e.code == EBADF)
            #expect(e.description == "gone.json: cannot read the file: \(String(cString: strerror(EBADF)))")
        }
    }
}
