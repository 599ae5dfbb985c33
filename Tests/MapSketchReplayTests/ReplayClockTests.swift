import Foundation
import MapSketch
import MapSketchGeometry
import MapSketchReplay
import MapSketchTestSupport
import Testing

/// The replay's virtual clock: the map's timers (the hold, and the magnifier it shows) fire at
/// their own times, in order with the trace's events, whatever the gaps between them.
@MainActor
@Suite struct ReplayClockTests {
    /// A polyline from map (−100, 0) to (100, 0) — screen (100, 200) to (300, 200) — with the
    /// magnifier on and `holdDuration` `hold`.
    static func header(hold: Double = 0.5, slop: Double = 10) -> TraceHeader {
        var h = TraceHeader()
        h.screen = ScreenSize(width: 400, height: 400)
        h.viewport = Viewport(center: Point(0, 0), resolution: 1)
        h.sketch = TraceSketchSetup(geometryType: .polyline, geometry: .polyline(Polyline(paths: [[Point(-100, 0), Point(100, 0)]])))
        h.thresholds = GestureThresholds(tapDuration: 0.3, slop: slop, holdDuration: hold)
        h.options.showMagnifierOnTapAndHold = true
        return h
    }

    static func touch(_ t: Double, _ phase: TouchPhase, _ x: Double, _ y: Double) -> TraceEntry {
        TraceEntry(t: t, .touch(phase: phase, id: 0, location: ScreenPoint(x: x, y: y)))
    }

    /// Selects vertex 1 (screen (300, 200)) at t 0.
    static let selectVertex1 = TraceEntry(t: 0, .call(.selectVertex(part: 0, index: 1)))

    /// The log's entries named `event`.
    static func entries(_ session: ReplaySession, _ event: String) -> [JSONValue] {
        session.output().document["log"]?.arrayValue?.filter { $0["event"]?.stringValue == event } ?? []
    }

    static func times(_ session: ReplaySession, _ event: String) -> [Double] {
        entries(session, event).compactMap { $0["t"]?.doubleValue }
    }

    @Test func aHoldBetweenTwoDistantEventsIsLoggedAtItsDueTime() throws {
        // Down on the selected vertex at 1.0, next move at 5.0: the hold is due at 1.5.
        let trace = Trace(
            header: Self.header(),
            events: [Self.selectVertex1, Self.touch(1, .began, 300, 200), Self.touch(5, .moved, 340, 160), Self.touch(5.1, .ended, 340, 160)])
        let s = try Replayer.replay(trace, name: "t", file: "t")
        #expect(Self.times(s, "hold") == [1.5])
        #expect(Self.times(s, "magnifier") == [1.5])
        #expect(Self.times(s, "holdMove") == [5])
        #expect(Self.times(s, "holdEnd") == [5.1])
        #expect(s.sketch?.geometry == .polyline(Polyline(paths: [[Point(-100, 0), Point(140, 40)]])))
    }

    @Test func aTraceWithoutAnEndLineEndsAtItsLastEvent() throws {
        // The finger is still down at the last event (1.0): the trace ends there, before the hold.
        let trace = Trace(header: Self.header(), events: [Self.selectVertex1, Self.touch(1, .began, 300, 200)])
        #expect(trace.endTime == 1)
        let s = try Replayer.replay(trace, name: "t", file: "t")
        #expect(Self.times(s, "hold").isEmpty)
    }

    @Test func anEndLineFiresTheHoldOfAFingerStillDown() throws {
        let text = """
            {"t":0,"type":"header","version":5,"sketch":{"geometryType":"polyline","geometry":{"paths":[[[-100,0],[100,0]]]}},"options":{"showMagnifierOnTapAndHold":true}}
            {"t":0,"type":"selectVertex","part":0,"index":1}
            {"t":1,"type":"touch","phase":"began","x":300,"y":200}
            {"t":3,"type":"end"}

            """
        let trace = try TraceDecoder.decode(text, file: "end.trace.jsonl")
        #expect(trace.end == 3)
        #expect(trace.endTime == 3)
        #expect(trace.events.count == 2)
        let s = try Replayer.replay(trace, name: "t", file: "t")
        #expect(Self.times(s, "hold") == [1.5])
        #expect(Self.times(s, "magnifier") == [1.5])
        // An end before the hold is due fires nothing.
        var early = trace
        early.end = 1.4
        #expect(Self.times(try Replayer.replay(early, name: "t", file: "t"), "hold").isEmpty)
        // An end exactly at the due time fires it.
        var exact = trace
        exact.end = 1.5
        #expect(Self.times(try Replayer.replay(exact, name: "t", file: "t"), "hold") == [1.5])
    }

    @Test func theEndLineRoundTripsAndNeedsVersion5() throws {
        var trace = Trace(header: Self.header(), events: [Self.selectVertex1, Self.touch(1, .began, 300, 200)])
        #expect(trace.minimumVersion == 1)
        trace.end = 2.5
        #expect(trace.minimumVersion == 5)
        let text = TraceEncoder.encode(trace)
        #expect(text.hasSuffix("\n{\"t\":2.5,\"type\":\"end\"}\n"))
        #expect(text.hasPrefix(#"{"t":0,"type":"header","format":"mapsketch-trace","version":5"#))
        let back = try TraceDecoder.decode(text, file: "t.trace.jsonl")
        #expect(back.end == 2.5)
        #expect(back.events.map(\.event) == trace.events.map(\.event))
    }

    @Test func badEndLinesAreLocatedErrors() {
        let v5 = #"{"t":0,"type":"header","version":5}"#
        func error(_ lines: [String]) -> String? {
            do {
                _ = try TraceDecoder.decode(lines.joined(separator: "\n") + "\n", file: "e.trace.jsonl")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(error([v5, #"{"t":1,"type":"undo"}"#, #"{"t":0.5,"type":"end"}"#]) == "e.trace.jsonl:3:6: t: expected a time ≥ 1 (the previous line's), found 0.5")
        #expect(error([v5, #"{"t":1,"type":"end","why":"done"}"#]) == #"e.trace.jsonl:2:27: why: unknown member "why""#)
        #expect(error([v5, #"{"t":1,"type":"end"}"#, #"{"t":1,"type":"end"}"#]) == #"e.trace.jsonl:3:1: expected the "end" line (line 2) to be the trace's last, found another line after it"#)
        #expect(error([#"{"t":0,"type":"header","version":4}"#, #"{"t":1,"type":"end"}"#]) == #"e.trace.jsonl:2:15: type: expected a line of format version 4; "end" needs "version":5 in the header"#)
    }

    @Test func steppingAndPacedReplaysFireTheSameTimersAtTheSameTimes() async throws {
        var trace = Trace(
            header: Self.header(),
            events: [
                Self.selectVertex1, Self.touch(0.5, .began, 300, 200), Self.touch(0.8, .moved, 302, 200),
                Self.touch(1.2, .moved, 330, 180), Self.touch(1.3, .ended, 330, 180), Self.touch(1.4, .began, 330, 180),
            ])
        trace.end = 2.0
        let run = try Replayer.replay(trace, name: "t", file: "t")
        #expect(Self.times(run, "hold") == [0.5 + 0.5, 1.4 + 0.5])
        #expect(Self.times(run, "magnifier") == [0.5 + 0.5, 1.4 + 0.5])
        let stepped = try Replayer.replay(trace, name: "t", file: "t", upTo: 0)
        while stepped.step() {}
        #expect(stepped.output().json == run.output().json)
        let paced = try Replayer.replay(trace, name: "t", file: "t", upTo: 0)
        let start = ContinuousClock.now
        await paced.runPaced(speed: 10)
        #expect(ContinuousClock.now - start >= .milliseconds(140), "it slept on to the end, 1.5 s at 10×")
        #expect(paced.output().json == run.output().json)
        // Replaying part of the trace stops at its last event: no timer after it fires.
        let part = try Replayer.replay(trace, name: "t", file: "t", upTo: 2)
        #expect(Self.times(part, "hold").isEmpty)
    }

    /// The property: with random gaps between the events, the hold is logged at the touch-down
    /// plus `holdDuration` exactly when the finger stays within the slop until then (no release,
    /// cancel or move past the slop earlier) and the trace lasts that long; never otherwise.
    @Test(arguments: [false, true])
    func theHoldIsLoggedAtItsDueTimeWheneverTheFingerStaysWithinTheSlop(withEndLines: Bool) throws {
        var rng = SeededRandom(seed: withEndLines ? 17 : 16)
        var held = 0, notHeld = 0
        for _ in 0..<300 {
            let hold = [0.05, 0.2, 0.5, 1.0, rng.double(in: 0.05...2)].randomElement(using: &rng) ?? 0.5
            let slop = 10.0
            func ms(_ t: Double) -> Double { (t * 1000).rounded() / 1000 }
            let down = ms(rng.double(in: 0.1...3))
            let due = down + hold
            var events = [Self.selectVertex1, Self.touch(down, .began, 300, 200)]
            var t = down
            // When the finger leaves the slop or lifts, if it does.
            var left: Double?
            for _ in 0..<rng.int(in: 0...6) {
                switch rng.int(in: 0...3) {
                case 0: t += rng.double(in: 0...0.2)
                case 1: t += hold + rng.double(in: -0.05...0.05)
                case 2: t = due + [-0.001, 0, 0.001].randomElement(using: &rng)!
                default: t += rng.double(in: 1...10)
                }
                t = max(ms(t), events.last!.t)
                let angle = rng.double(in: 0...(2 * Double.pi))
                switch rng.int(in: 0...5) {
                case 0:
                    events.append(Self.touch(t, rng.int(in: 0...1) == 0 ? .ended : .cancelled, 300, 200))
                    if left == nil { left = t }
                case 1:
                    let r = rng.double(in: 1.5 * slop...5 * slop)
                    events.append(Self.touch(t, .moved, 300 + r * cos(angle), 200 + r * sin(angle)))
                    if left == nil { left = t }
                default:
                    let r = rng.double(in: 0...0.9 * slop)
                    events.append(Self.touch(t, .moved, 300 + r * cos(angle), 200 + r * sin(angle)))
                }
                if case .touch(.ended, _, _) = events.last!.event { break }
                if case .touch(.cancelled, _, _) = events.last!.event { break }
            }
            var trace = Trace(header: Self.header(hold: hold, slop: slop), events: events)
            if withEndLines, rng.int(in: 0...3) > 0 { trace.end = ms(events.last!.t + rng.double(in: 0...3)) }
            // A timer due with an event fires before it; one due by the trace's end fires too.
            let expectHold = (left.map { due <= $0 } ?? true) && due <= trace.endTime
            let s = try Replayer.replay(trace, name: "t", file: "t")
            let holds = Self.times(s, "hold")
            let context = "hold \(hold), down \(down), events \(events.map(\.t)), end \(trace.end.map { "\($0)" } ?? "-")"
            if expectHold {
                held += 1
                #expect(holds == [due], "\(context)")
                #expect(Self.times(s, "magnifier") == [due], "\(context)")
            } else {
                notHeld += 1
                #expect(holds.isEmpty, "\(context)")
                #expect(Self.times(s, "magnifier").isEmpty, "\(context)")
            }
        }
        // Both outcomes were exercised many times.
        #expect(held > 50 && notHeld > 50, "held \(held), not held \(notHeld)")
    }
}
