import Foundation
import MapSketch
import MapSketchGeometry
@testable import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchGolden

/// `mapsketch shrink`: delta debugging that keeps gestures whole and the planted event.
@MainActor
@Suite struct ShrinkTests {
    /// A seeded random walk of touches (taps, holds, drags, pans, pinches) into a polyline sketch,
    /// with `extra` calls planted after event `at`.
    static func walk(seed: UInt64, gestures: Int, plant extra: [TraceCall], at: Int? = nil) -> Trace {
        let screen = ScreenSize(width: 390, height: 844)
        let touches = TouchGenerator(screen: screen).randomWalk(count: gestures, seed: seed)
        var trace = TraceBuilder.touchTrace(touches, name: "walk-\(seed)", description: "seeded walk", screen: screen)
        let i = at ?? trace.events.count / 2
        let t = trace.events[i].t
        trace.events.insert(contentsOf: extra.map { TraceEntry(t: t, .call($0)) }, at: i + 1)
        return trace
    }

    static func shrink(_ trace: Trace, in dir: TraceFolder, until outcome: ShrinkOutcome, executable: URL? = nil) throws
        -> (result: TraceShrink.Result, trace: Trace, progress: [String])
    {
        let c = try dir.trace(trace.header.name ?? "t", TraceEncoder.encode(trace))
        var lines: [String] = []
        let r = try TraceShrink(file: c.trace, displayName: c.name, outcome: outcome, executable: executable).run { lines.append($0) }
        return (r, try TraceDecoder.decode(r.text, file: "min"), lines)
    }

    @Test func deltaDebuggingFindsAOneMinimalSubset() {
        var dd = DeltaDebugging()
        let kept = dd.minimize(count: 100) { s in s.contains(3) && s.contains(17) && s.contains(60) }
        #expect(kept == [3, 17, 60])
        #expect(dd.tests < 120, "\(dd.tests) tests")
        var none = DeltaDebugging()
        #expect(none.minimize(count: 10) { _ in true } == [], "an outcome that needs nothing keeps nothing")
    }

    @Test func aFingersTouchesGoOrStayTogether() {
        let touches: [(Double, TouchPhase, Int)] = [
            (0, .began, 0), (0.1, .began, 1), (0.2, .moved, 0), (0.2, .moved, 1), (0.3, .ended, 1), (0.4, .ended, 0),
            (0.5, .began, 0), (0.6, .moved, 0),
        ]
        var events = touches.map { TraceEntry(t: $0.0, .touch(phase: $0.1, id: $0.2, location: ScreenPoint(x: 1, y: 1))) }
        events.insert(TraceEntry(t: 0.2, .call(.undo)), at: 3)
        #expect(TraceShrinker.eventGroups(events) == [[0, 2, 6], [1, 4, 5], [3], [7, 8]])
    }

    @Test(arguments: [3, 11, 29] as [UInt64])
    func aPlantedRefusedCallShrinksToItself(seed: UInt64) throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let planted = TraceCall.removeGraphic(layer: "nowhere", index: 4)
        let trace = Self.walk(seed: seed, gestures: 60, plant: [planted])
        let (r, small, progress) = try Self.shrink(trace, in: dir, until: .refused)
        #expect(small.events.map(\.event) == [.call(planted)])
        #expect(small.header.screen == trace.header.screen)
        #expect(progress.contains { $0.hasPrefix("round 1:") }, "progress lines: \(progress)")
        // Deterministic: the same trace gives the same result.
        let (again, _, _) = try Self.shrink(trace, in: dir, until: .refused)
        #expect(again.text == r.text)
    }

    @Test func aPlantedGoldenFailureKeepsTheEventAndWhatItNeeds() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        // The golden is of the walk without the planted move; the planted move sends vertex 1 far away.
        var trace = Self.walk(seed: 5, gestures: 40, plant: [])
        trace.header.name = "walk"
        trace.header.sketch = TraceSketchSetup(geometryType: .polyline)
        trace.events.insert(TraceEntry(t: 0, .call(.setGeometry(.polyline(Polyline(paths: [[Point(0, 0), Point(10, 0), Point(20, 5)]]))))), at: 0)
        let clean = try dir.trace("walk", TraceEncoder.encode(trace))
        #expect(GoldenRunner(record: .all).run(clean).status.isRecorded)
        let move = TraceCall.moveVertex(part: 0, index: 1, point: Point(9999, 9999))
        trace.events.insert(TraceEntry(t: trace.events[20].t, .call(move)), at: 21)
        let (_, small, _) = try Self.shrink(trace, in: dir, until: .failing)
        let calls = small.events.compactMap { e -> TraceCall? in if case .call(let c) = e.event { c } else { nil } }
        #expect(calls.contains(move))
        #expect(small.events.count <= 3, "the setGeometry, the move and at most one more: \(small.events.map(\.event))")
    }

    @Test func aSetUpErrorShrinksTheHeaderToWhatCausesIt() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        var trace = Self.walk(seed: 2, gestures: 10, plant: [])
        let dot = Symbol.simpleMarker(SimpleMarkerSymbol(style: .circle, color: .red, size: 8))
        func layer(_ name: String) -> TraceGraphicsLayer {
            TraceGraphicsLayer(name: name, renderer: .simple(dot), graphics: (0..<5).map { TraceGraphic(geometry: .point(Point(Double($0), 0))) })
        }
        trace.header.layers = [layer("a"), layer("b"), layer("c"), layer("b")]
        let (_, small, _) = try Self.shrink(trace, in: dir, until: .error)
        #expect(small.events.isEmpty)
        #expect(small.header.layers.map(\.name) == ["b", "b"])
        #expect(small.header.layers.allSatisfy { $0.graphics.isEmpty })
    }

    @Test func aReadErrorShrinksTheLines() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        var text = TraceEncoder.encode(Self.walk(seed: 4, gestures: 20, plant: []))
        var lines = text.split(separator: "\n").map(String.init)
        lines.insert(#"{"t":2,"type":"touch","phase":"down","x":1,"y":1}"#, at: 30)
        text = lines.joined(separator: "\n") + "\n"
        let c = try dir.trace("bad", text)
        let r = try TraceShrink(file: c.trace, displayName: "bad.trace.jsonl", outcome: .error).run()
        #expect(r.text.split(separator: "\n").count == 2)
        #expect(r.text.contains(#""phase":"down""#))
        #expect(throws: ShrinkError.self) { try TraceShrink(file: c.trace, displayName: "bad", outcome: .refused).run() }
    }

    @Test func aTraceWithoutTheOutcomeIsRefused() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let c = try dir.trace("fine", TraceEncoder.encode(Self.walk(seed: 1, gestures: 5, plant: [])))
        #expect(throws: ShrinkError.self) { try TraceShrink(file: c.trace, displayName: "fine", outcome: .refused).run() }
        #expect(throws: ShrinkError.self) { try TraceShrink(file: c.trace, displayName: "fine", outcome: .failing).run() }
    }

    @Test func aCrashIsADeathBySignalInAChildProcess() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        // A stand-in for mapsketch that dies of SIGSEGV when the trace holds the marker call, and
        // exits 2 (an input error, not a crash) when it holds a clear.
        let fake = dir.url.appendingPathComponent("fake-mapsketch")
        try """
        #!/bin/sh
        grep -q '"type":"selectGeometry"' "$2" && kill -SEGV $$
        grep -q '"type":"clear"' "$2" && exit 2
        exit 0

        """.write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let trace = Self.walk(seed: 8, gestures: 12, plant: [.selectGeometry, .clear])
        let (_, small, _) = try Self.shrink(trace, in: dir, until: .crash, executable: fake)
        #expect(small.events.map(\.event) == [.call(.selectGeometry)])
        let exit = try Self.shrink(trace, in: dir, until: .exit(command: #"! grep -q '"type":"clear"' "$MAPSKETCH_TRACE""#))
        #expect(exit.trace.events.map(\.event) == [.call(.clear)])
    }

    @Test func aThreeThousandEventTraceShrinksInSeconds() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        var trace = Self.walk(seed: 42, gestures: 75, plant: [.removePart(part: 40)])
        #expect(trace.events.count >= 3000, "\(trace.events.count) events")
        trace.events = Array(trace.events.prefix(3001))
        if !trace.events.contains(where: { $0.event == .call(.removePart(part: 40)) }) {
            trace.events.insert(TraceEntry(t: trace.events[1500].t, .call(.removePart(part: 40))), at: 1501)
        }
        let start = ContinuousClock.now
        let (r, small, _) = try Self.shrink(trace, in: dir, until: .refused)
        let elapsed = ContinuousClock.now - start
        #expect(small.events.map(\.event) == [.call(.removePart(part: 40))])
        #expect(elapsed < .seconds(10), "\(elapsed) for \(trace.events.count) events, \(r.tests) tests")
    }

    @Test func theCommandWritesTheMinimalTraceAndItsProgress() throws {
        let dir = try TraceFolder()
        defer { dir.remove() }
        let c = try dir.trace("planted", TraceEncoder.encode(Self.walk(seed: 9, gestures: 30, plant: [.removeVertex(part: 3, index: 3)])))
        let out = dir.url.appendingPathComponent("min.trace.jsonl")
        let run = try MapsketchProcess.run(["shrink", c.trace.path, "--until", "refused", "-o", out.path])
        #expect(run.code == 0, "\(run.err)")
        #expect(run.err.contains("shrink: round 1:"))
        #expect(run.err.contains("→ 1 event, 0 layers"))
        let replay = try MapsketchProcess.run(["replay", out.path])
        #expect(replay.err.contains("removeVertex refused"), "\(replay.err)")
        let bad = try MapsketchProcess.run(["shrink", c.trace.path, "--until", "sometimes"])
        #expect(bad.code == 2)
    }
}
