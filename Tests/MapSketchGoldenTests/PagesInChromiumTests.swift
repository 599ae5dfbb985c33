import Foundation
import MapSketch
import MapSketchGeometry
@testable import MapSketchReplay
import MapSketchTestSupport
import Testing

/// The recorder and the step viewer in a real browser: headless Chromium driven over the
/// DevTools protocol (real touch events, keyboard, screenshots).
@MainActor
@Suite(
    .serialized,
    .enabled(
        if: Chromium.executable != nil,
        "chromium is not installed: the recorder and viewer tests need Debian's chromium (apt-get install chromium); .ci/run installs it"))
struct PagesInChromiumTests {
    /// Where the screenshots go (kept after the test, to be looked at).
    static let shots: URL = {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("mapsketch-page-screenshots")
        try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }()

    /// The share of pixels that are not near-white, and of each hue class.
    static func ink(_ png: Data) throws -> (ink: Double, width: Int, height: Int) {
        let p = try PNG(Array(png))
        var ink = 0
        for i in 0..<(p.width * p.height) {
            let (r, g, b) = p.rgb(i)
            if r < 230 || g < 230 || b < 230 { ink += 1 }
        }
        return (Double(ink) / Double(p.width * p.height), p.width, p.height)
    }

    // MARK: The recorder

    /// The header of the recorder test: a 400 × 400 pt map with a polygon sketch and one graphic.
    static var header: TraceHeader {
        var h = TraceHeader()
        h.name = "record-test"
        h.sketch = TraceSketchSetup(geometryType: .polygon)
        let dot = Symbol.simpleMarker(SimpleMarkerSymbol(style: .square, color: .green, size: 14))
        h.layers = [TraceGraphicsLayer(name: "pois", renderer: .simple(dot), graphics: [TraceGraphic(geometry: .point(Point(0, 0)))])]
        return h
    }

    /// The touches of the recorder test, as a hand-written trace: four taps make a polygon, a hold
    /// on the selected (last) vertex then a drag moves it, and two fingers pinch apart (zoom × 2).
    static func handTrace() -> Trace {
        var events: [TraceEntry] = []
        var t = 0.0
        func add(_ phase: TouchPhase, _ id: Int, _ x: Double, _ y: Double) {
            events.append(TraceEntry(t: t, .touch(phase: phase, id: id, location: ScreenPoint(x: x, y: y))))
        }
        var id = 0
        for (x, y) in [(100.0, 100.0), (300, 100), (300, 300), (100, 300)] {
            add(.began, id, x, y)
            t += 0.05
            add(.ended, id, x, y)
            id += 1
            t += 0.4
        }
        add(.began, id, 100, 300)
        t += 0.8
        for k in 1...5 { add(.moved, id, 100 + 10 * Double(k), 300 + 10 * Double(k)) }
        add(.ended, id, 150, 350)
        id += 1
        t += 0.4
        add(.began, id, 150, 200)
        add(.began, id + 1, 250, 200)
        for k in 1...5 {
            t += 0.05
            add(.moved, id, 150 - 10 * Double(k), 200)
            add(.moved, id + 1, 250 + 10 * Double(k), 200)
        }
        t += 0.05
        add(.ended, id, 100, 200)
        add(.ended, id + 1, 300, 200)
        return Trace(header: header, events: events)
    }

    @Test func theRecorderRecordsRealTouchesAsTheTraceTheyMean() throws {
        let dir = try MapsketchProcess.tempDir(prefix: "record")
        defer { try? FileManager.default.removeItem(at: dir) }
        let headerFile = dir.appendingPathComponent("map.trace.jsonl")
        try TraceEncoder.encode(Trace(header: Self.header)).write(to: headerFile, atomically: true, encoding: .utf8)
        let page = dir.appendingPathComponent("recorder.html")
        let made = try MapsketchProcess.run(["record", headerFile.path, "-o", page.path])
        #expect(made.code == 0, "\(made.err)")
        let html = try String(contentsOf: page, encoding: .utf8)
        for outside in ["src=\"http", "href=\"http", "url(http", "@import", "<link", "<script src"] { #expect(!html.contains(outside), "\(outside)") }

        let browser = try Chromium(width: 900, height: 700)
        defer { browser.quit() }
        try browser.enableTouch()
        try browser.load(page)
        let empty = try Self.ink(browser.screenshot())
        let rect = try #require(browser.evaluate("(() => { const b = document.getElementById('map').getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; })()") as? [Double])
        let k = rect[2] / 400
        #expect(abs(rect[3] / 400 - k) < 1e-6, "the map is scaled uniformly: \(rect)")
        func at(_ x: Double, _ y: Double) -> (Double, Double) { (rect[0] + x * k, rect[1] + y * k) }
        func touch(_ type: String, _ fingers: [(Int, Double, Double)]) throws {
            try browser.touch(type, fingers.map { f in let p = at(f.1, f.2); return (id: f.0, x: p.0, y: p.1) })
        }
        // Four taps.
        for (x, y) in [(100.0, 100.0), (300, 100), (300, 300), (100, 300)] {
            try touch("touchStart", [(0, x, y)])
            Thread.sleep(forTimeInterval: 0.05)
            try touch("touchEnd", [])
            Thread.sleep(forTimeInterval: 0.4)
        }
        let afterTaps = try #require(browser.evaluate("document.querySelectorAll('.preview-vertex').length") as? Int)
        #expect(afterTaps == 4, "the preview shows the four vertices")
        try browser.screenshot().write(to: Self.shots.appendingPathComponent("recorder-after-taps.png"))
        // Hold on the selected vertex, then drag it.
        try touch("touchStart", [(0, 100, 300)])
        Thread.sleep(forTimeInterval: 0.8)
        for s in 1...5 { try touch("touchMove", [(0, 100 + 10 * Double(s), 300 + 10 * Double(s))]) }
        try browser.screenshot().write(to: Self.shots.appendingPathComponent("recorder-dragging.png"))
        try touch("touchEnd", [])
        Thread.sleep(forTimeInterval: 0.4)
        // Two fingers pinch apart.
        try touch("touchStart", [(0, 150, 200), (1, 250, 200)])
        for s in 1...5 {
            Thread.sleep(forTimeInterval: 0.05)
            try touch("touchMove", [(0, 150 - 10 * Double(s), 200), (1, 250 + 10 * Double(s), 200)])
        }
        Thread.sleep(forTimeInterval: 0.05)
        try touch("touchEnd", [])
        let shot = try browser.screenshot()
        try shot.write(to: Self.shots.appendingPathComponent("recorder-done.png"))
        #expect(try Self.ink(shot).ink > empty.ink, "the touches and the preview are drawn")

        let text = try #require(browser.evaluate("window.mapsketchTrace()") as? String)
        try text.write(to: dir.appendingPathComponent("recorded.trace.jsonl"), atomically: true, encoding: .utf8)
        try text.write(to: Self.shots.appendingPathComponent("recorded.trace.jsonl"), atomically: true, encoding: .utf8)
        let recorded = try TraceDecoder.decode(text, file: "recorded.trace.jsonl")
        let hand = Self.handTrace()
        #expect(recorded.header == hand.header)
        #expect(recorded.events.count == hand.events.count, "\(text)")
        // The recorded trace replays, through the command too.
        let replay = try MapsketchProcess.run(["replay", dir.appendingPathComponent("recorded.trace.jsonl").path])
        #expect(replay.code == 0, "\(replay.err)")

        let a = try Replayer.replay(recorded, name: "recorded", file: "recorded")
        let b = try Replayer.replay(hand, name: "hand", file: "hand")
        let ga = try #require(a.sketch?.geometry), gb = try #require(b.sketch?.geometry)
        #expect(ga.pointCount == 4, "four taps, one moved vertex: \(ga)")
        #expect(ga.parts.count == gb.parts.count)
        for (pa, pb) in zip(ga.parts.flatMap { $0 }, gb.parts.flatMap { $0 }) {
            #expect(abs(pa.x - pb.x) < 0.01 && abs(pa.y - pb.y) < 0.01, "\(pa) against \(pb)")
        }
        #expect(abs(a.mapView.viewport.resolution - b.mapView.viewport.resolution) < 1e-4, "\(a.mapView.viewport) against \(b.mapView.viewport)")
        #expect(abs(a.mapView.viewport.resolution - 0.5) < 1e-3, "the pinch zoomed in twice")
        #expect(abs(a.mapView.viewport.center.x - b.mapView.viewport.center.x) < 0.01)
        #expect(abs(a.mapView.viewport.center.y - b.mapView.viewport.center.y) < 0.01)
        let log = a.output().document["counts"]
        #expect(log?["tap"]?.int64Value == 4 && log?["hold"]?.int64Value == 1 && log?["pinch"]?.int64Value == 1, "\(String(describing: log))")
    }

    // MARK: The step viewer

    @Test func theViewersStepsAreTheRenderedFrames() throws {
        let dir = try MapsketchProcess.tempDir(prefix: "view")
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = Fixtures.url("Traces/demo/demo.trace.jsonl")
        let page = dir.appendingPathComponent("view.html")
        let made = try MapsketchProcess.run(["view", trace.path, "-o", page.path])
        #expect(made.code == 0, "\(made.err)")
        let html = try String(contentsOf: page, encoding: .utf8)
        for outside in ["src=\"http", "href=\"http", "url(http", "@import", "<link", "<script src"] { #expect(!html.contains(outside), "\(outside)") }
        let count = try TraceDecoder.decode(String(contentsOf: trace, encoding: .utf8), file: "demo").events.count

        let browser = try Chromium(width: 1200, height: 800)
        defer { browser.quit() }
        try browser.load(page)
        #expect(try browser.evaluate("document.getElementById('golden-verdict').textContent") as? String == "The replay matches its golden.")
        for n in [0, 4, 13, count] {
            #expect(try browser.evaluate("window.mapsketchShow(\(n))") as? Int == n)
            let svg = try #require(browser.evaluate("window.mapsketchFrameSVG()") as? String)
            let rendered = dir.appendingPathComponent("step-\(n).svg")
            let r = try MapsketchProcess.run(["render", trace.path, "--svg", rendered.path, "--step", "\(n)"])
            #expect(r.code == 0, "\(r.err)")
            #expect(svg == (try String(contentsOf: rendered, encoding: .utf8)), "step \(n)'s frame is render --step \(n)'s")
            let shot = try browser.screenshot()
            try shot.write(to: Self.shots.appendingPathComponent("viewer-step-\(n).png"))
            let ink = try Self.ink(shot)
            #expect(ink.width == 1200 && ink.ink > 0.01, "step \(n) is not blank: \(ink.ink)")
        }
        // The keyboard steps.
        _ = try browser.evaluate("window.mapsketchShow(0)")
        try browser.press("End", code: 35)
        #expect(try browser.evaluate("window.mapsketchStep()") as? Int == count)
        try browser.press("ArrowLeft", code: 37)
        try browser.press("ArrowLeft", code: 37)
        #expect(try browser.evaluate("window.mapsketchStep()") as? Int == count - 2)
        let event = try #require(browser.evaluate("document.getElementById('event').textContent") as? String)
        #expect(event.hasPrefix("{\"t\":"), "the event's trace line: \(event)")
    }
}
