import Foundation
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// Features read a batch at a time (a FeatureCollection streamed into columns, a file whose pages
/// are given back) and one document at a time (`GeoJSONFeatureReader`, GeoJSON Lines): the same
/// rows as the whole-document read, with errors located in their own text.
struct GeoJSONFeatureBatchTests {
    static let features = [
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"i":1,"s":"a"}}"#,
        #"{"type":"Feature","geometry":null,"properties":{"i":2,"n":2.5}}"#,
        #"{"type":"Feature","properties":{"s":"b","o":{"x":1}},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}"#,
        #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]},"properties":null}"#,
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[3,4]},"properties":{"i":5,"s":"a"}}"#,
    ]
    static let collection = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"

    /// Every row of `batches` in order: geometry and each field's value (nil: absent).
    static func rows(_ batches: [FeatureColumns]) -> [String] {
        batches.flatMap { c in
            (0..<c.count).map { r in
                let fields = c.fields.filter { !$0.isAbsent(r) }.map { "\($0.name)=\($0[r].map { JSONWriter.string($0) } ?? "nil")" }
                return "\(c.geometry[r]) \(fields.sorted())"
            }
        }
    }

    @Test(arguments: [1, 2, 3, 5, 100])
    func batchesHoldTheRowsOfTheWholeRead(_ size: Int) throws {
        var batches: [FeatureColumns] = []
        var read: [Int] = []
        var text = Self.collection
        try text.withUTF8 { bytes in
            try GeoJSON.decodeColumns(UnsafeRawBufferPointer(bytes), batchSize: size) { c, n in
                batches.append(c)
                read.append(n)
            }
        }
        #expect(batches.map(\.count) == Array(repeating: size, count: 5 / size) + (5 % size == 0 ? [] : [5 % size]))
        #expect(Self.rows(batches) == Self.rows([try GeoJSON.decodeColumns(Self.collection)]))
        #expect(read == read.sorted() && (read.first ?? 0) > 0 && (read.last ?? .max) <= Self.collection.utf8.count)
        #expect(batches.allSatisfy { $0.spatialReference == .wgs84 })
    }

    @Test func aCRSAfterAGivenBatchIsRefusedBeforeItIsRead() throws {
        let late = #"{"type":"FeatureCollection","features":["# + Self.features[0] + ","
            + Self.features[4] + #"],"crs":{"type":"name","properties":{"name":"EPSG:3857"}}}"#
        var text = late
        #expect(throws: JSONError.self) {
            try text.withUTF8 { try GeoJSON.decodeColumns(UnsafeRawBufferPointer($0), batchSize: 1) { _, _ in } }
        }
        do {
            try text.withUTF8 { try GeoJSON.decodeColumns(UnsafeRawBufferPointer($0), batchSize: 1) { _, _ in } }
        } catch {
            #expect("\(error)".contains("crs: expected the \"crs\" member before \"features\""), "\(error)")
        }
        // Read whole (one batch at the end), the crs applies as before.
        #expect(try GeoJSON.decodeColumns(late).spatialReference == .webMercator)
    }

    @Test func aFileIsReadInBatchesAndItsErrorsNameIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geojson-batches-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("f.geojson")
        try Data(Self.collection.utf8).write(to: good)
        var batches: [FeatureColumns] = []
        var read: [Int] = []
        try GeoJSON.decodeColumns(contentsOfFile: good.path, batchSize: 2) {
            batches.append($0)
            read.append($1)
        }
        #expect(read.count == 3 && read == read.sorted() && (read.last ?? 0) <= Self.collection.utf8.count)
        #expect(batches.map(\.count) == [2, 2, 1])
        #expect(Self.rows(batches) == Self.rows([try GeoJSON.decodeColumns(Self.collection)]))
        let bad = dir.appendingPathComponent("bad.geojson")
        try Data(Self.collection.replacingOccurrences(of: "[3,4]", with: "[3,\"4\"]").utf8).write(to: bad)
        do {
            try GeoJSON.decodeColumns(contentsOfFile: bad.path, batchSize: 2) { _, _ in }
            Issue.record("no error")
        } catch let e as InputError {
            #expect(e.file == bad.path && e.line == 5)
            #expect(e.message == "features[4].geometry.coordinates[1]: expected a number, found a string", "\(e)")
        }
    }

    @Test func theFeatureReaderReadsOneFeatureADocument() throws {
        var reader = GeoJSONFeatureReader()
        for f in Self.features {
            var line = " " + f + " "
            try line.withUTF8 { try reader.read(UnsafeRawBufferPointer($0)) }
        }
        #expect(reader.count == 5)
        let columns = reader.take()
        #expect(reader.count == 0 && columns.spatialReference == .wgs84)
        #expect(Self.rows([columns]) == Self.rows([try GeoJSON.decodeColumns(Self.collection)]))
    }

    @Test(arguments: [
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":["x",2]}}"#, #"1:61: geometry.coordinates[0]: expected a number, found a string"#),
        (#"{"type":"Feat","geometry":null}"#, #"1:9: type: expected a Feature, found "Feat""#),
        (#"{"type":"Feature","geometry":null} x"#, "1:36: expected the end of the Feature, found 'x'"),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]"#, "1:65: expected ',' or '}' after object member, found end of input"),
        ("[1]", "1:1: expected an object, found '['"),
    ])
    func theFeatureReaderLocatesErrorsInItsDocument(_ text: String, _ expected: String) {
        var reader = GeoJSONFeatureReader()
        var t = text
        do {
            try t.withUTF8 { try reader.read(UnsafeRawBufferPointer($0)) }
            Issue.record("no error for \(text)")
        } catch {
            #expect("\(error)" == expected)
        }
    }
}
