import Foundation
import MapSketch
import MapSketchGeometry
@testable import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchReaders
@testable import MapSketchGolden

/// The HTML report of a check: one self-contained page with every failing trace.
@MainActor
@Suite struct GoldenHTMLReportTests {
    /// A folder with a real GPS trace whose golden moves one vertex by 1.7 cm and drops another,
    /// a trace that cannot be read, and a passing one; the report of checking them.
    static func report() throws -> (html: String, folder: TraceFolder) {
        let dir = try TraceFolder()
        let source = Fixtures.url("Traces/gps/real-gpx-gpxpy-mojstrovka.trace.jsonl")
        let moved = dir.url.appendingPathComponent("mojstrovka.trace.jsonl")
        try FileManager.default.copyItem(at: source, to: moved)
        let c = GoldenCase(name: "mojstrovka", trace: moved)
        _ = GoldenRunner(record: .all).run(c)
        var golden = try JSONParser.parse(String(contentsOf: c.expected, encoding: .utf8))
        guard case .object(var doc) = golden, case .object(var sketch)? = doc["sketch"],
            case .object(var geometry)? = sketch["geometry"],
            case .array(var paths)? = geometry["paths"], case .array(var path)? = paths.first,
            case .array(var v)? = path[safe: 5],
            let x = v.first?.doubleValue
        else { throw TestFailure("unexpected golden layout") }
        v[0] = .number(x + 0.017)
        path[5] = .array(v)
        path.remove(at: 12)
        paths[0] = .array(path)
        geometry["paths"] = .array(paths)
        sketch["geometry"] = .object(geometry)
        doc["sketch"] = .object(sketch)
        golden = .object(doc)
        try JSONWriter.string(golden, style: .pretty).write(to: c.expected, atomically: true, encoding: .utf8)
        let broken = try dir.trace(
            "broken",
            #"{"t":0,"type":"header","version":1}"# + "\n" + #"{"t":0.1,"type":"touch","phase":"begun"}"# + "\n")
        let fine = try dir.lineTrace("fine", [(0, 0), (1, 1)])
        _ = GoldenRunner(record: .all).run(fine)

        var report = GoldenHTMLReport(title: "check of a test folder")
        for k in [broken, c, fine] { report.add(GoldenRunner().run(k)) }
        #expect(report.checked == 3)
        return (report.html(summary: "3 traces: 1 passed, 1 failed, 1 input error"), dir)
    }

    @Test func thePageIsSelfContainedAndShowsEveryFailingTrace() throws {
        let (html, dir) = try Self.report()
        defer { dir.remove() }
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        // No script, no stylesheet or image from elsewhere: nothing to fetch.
        for outside in ["<script", "<link", "src=\"http", "url(http", "@import"] {
            #expect(!html.contains(outside), "\(outside)")
        }
        #expect(
            html.components(separatedBy: "<img ").count - 1 == 3,
            "expected, actual and overlay of the one failing trace")
        #expect(html.contains("src=\"data:image/svg+xml;base64,"))
        #expect(html.contains("<figcaption>overlay</figcaption>"))
        #expect(html.contains(">mojstrovka <span class=\"tag\">failed</span>"))
        #expect(html.contains("mojstrovka.expected.json: "), "the text diff")
        #expect(html.contains("Event log (actual)"))
        #expect(html.contains(">broken <span class=\"tag\">input error</span>"))
        #expect(html.contains("broken.trace.jsonl:2:"), "the input error with its line and column")
        #expect(!html.contains(">fine "), "passing traces have no section")
        // The overlay picture in the page marks the moved vertex.
        let images = html.components(separatedBy: "data:image/svg+xml;base64,").dropFirst().compactMap {
            $0.split(separator: "\"").first
        }
        let overlay =
            images.last.flatMap { Data(base64Encoded: String($0)) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(overlay.contains(">moved 1.7 cm</text>"))
        #expect(GoldenHTMLReport().html(summary: "ok").contains("Every trace passed."))
    }

    /// Chromium, when installed (Debian's `chromium`; `.ci/run` installs it).
    nonisolated static let chromium: String? = Chromium.executable

    @Test(
        .enabled(
            if: chromium != nil,
            "chromium is not installed: the HTML report's screenshot test needs Debian's chromium (apt-get install chromium); .ci/run installs it"
        ))
    func theReportRendersInHeadlessChromium() throws {
        let (html, dir) = try Self.report()
        defer { dir.remove() }
        let page = dir.url.appendingPathComponent("report.html")
        try html.write(to: page, atomically: true, encoding: .utf8)
        let shot = dir.url.appendingPathComponent("report.png")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(Self.chromium))
        p.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--user-data-dir=\(dir.url.appendingPathComponent("profile").path)",
            "--screenshot=\(shot.path)", "--window-size=1200,1600", page.absoluteString,
        ]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(120)
        while p.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if p.isRunning {
            p.terminate()
            Issue.record("chromium did not finish within 120 s")
            return
        }
        let png = try PNG(Array(Data(contentsOf: shot)))
        #expect(png.width == 1200 && png.height == 1600)
        var ink = 0
        var red = 0
        var green = 0
        for i in 0..<(png.width * png.height) {
            let (r, g, b) = png.rgb(i)
            if r < 235 || g < 235 || b < 235 { ink += 1 }
            if r > 170, g < 90, b < 90 { red += 1 }
            if g > 110, r < 120, b < 120 { green += 1 }
        }
        // Not blank: text, pictures and the pictures' lines in their colors.
        #expect(Double(ink) / Double(png.width * png.height) > 0.03, "\(ink) pixels with ink")
        #expect(red > 200, "the actual line (red): \(red) pixels")
        #expect(green > 200, "the expected line (green): \(green) pixels")
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}

/// A PNG decoder for 8-bit RGB and RGBA images (what Chromium writes), using the replay
/// library's DEFLATE decoder.
struct PNG {
    var width = 0
    var height = 0
    var channels = 0
    var pixels: [UInt8] = []

    init(_ bytes: [UInt8]) throws {
        guard bytes.count > 8, bytes[0..<8].elementsEqual([137, 80, 78, 71, 13, 10, 26, 10]) else {
            throw TestFailure("not a PNG")
        }
        var p = 8
        var idat: [UInt8] = []
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        while p + 8 <= bytes.count {
            let length = u32(p)
            let type = String(decoding: bytes[(p + 4)..<(p + 8)], as: UTF8.self)
            let data = (p + 8)..<(p + 8 + length)
            switch type {
            case "IHDR":
                width = u32(data.lowerBound)
                height = u32(data.lowerBound + 4)
                guard bytes[data.lowerBound + 8] == 8, bytes[data.lowerBound + 12] == 0 else {
                    throw TestFailure("only 8-bit, non-interlaced PNGs")
                }
                switch bytes[data.lowerBound + 9] {
                case 2: channels = 3
                case 6: channels = 4
                default: throw TestFailure("only RGB and RGBA PNGs")
                }
            case "IDAT": idat += bytes[data]
            default: break
            }
            p = data.upperBound + 4
        }
        var raw: [UInt8] = []
        var inflater = Inflater(input: idat, position: 2)  // after the zlib header
        try inflater.run(into: &raw)
        let stride = width * channels
        guard raw.count >= height * (stride + 1) else { throw TestFailure("short image data") }
        pixels = [UInt8](repeating: 0, count: height * stride)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            for x in 0..<stride {
                let v = Int(raw[y * (stride + 1) + 1 + x])
                let a = x >= channels ? Int(pixels[y * stride + x - channels]) : 0
                let b = y > 0 ? Int(pixels[(y - 1) * stride + x]) : 0
                let c = x >= channels && y > 0 ? Int(pixels[(y - 1) * stride + x - channels]) : 0
                let predicted: Int
                switch filter {
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let pa = abs(b - c)
                    let pb = abs(a - c)
                    let pc = abs(a + b - 2 * c)
                    predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: predicted = 0
                }
                pixels[y * stride + x] = UInt8((v + predicted) & 0xFF)
            }
        }
    }

    /// The red, green and blue of pixel `i` (row-major).
    func rgb(_ i: Int) -> (Int, Int, Int) {
        let o = i * channels
        return (Int(pixels[o]), Int(pixels[o + 1]), Int(pixels[o + 2]))
    }
}
