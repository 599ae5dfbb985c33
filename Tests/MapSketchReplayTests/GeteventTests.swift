import Foundation
import MapSketch
@_spi(MapSketchInternal) import MapSketchReplay
import MapSketchTestSupport
import Testing
@testable import MapSketchReaders

/// Touch counts per real recording (`strokes` = contacts that began, `maxFingers` = most
/// contacts down at once). Cross-checked in the test against independent counts from the raw
/// text where the protocol allows (BTN_TOUCH DOWN/UP lines, tracking-id lines, empty frames).
struct GeteventExpectation: Sendable, CustomTestStringConvertible {
    var path: String
    var strokes: Int
    var moved: Int
    var cancelled: Int
    var maxFingers: Int
    var testDescription: String { path }
}

@Suite struct GeteventTests {
    static let expectations: [GeteventExpectation] = [
        .init(path: "Emulator/emulator-PeopleAddContact.txt", strokes: 4, moved: 0, cancelled: 0, maxFingers: 1),
        .init(path: "Emulator/emulator-drag.txt", strokes: 1, moved: 25, cancelled: 0, maxFingers: 1),
        .init(path: "Emulator/emulator-openPeople.txt", strokes: 3, moved: 17, cancelled: 0, maxFingers: 1),
        .init(path: "Emulator/emulator-single-touch.txt", strokes: 1, moved: 0, cancelled: 0, maxFingers: 1),
        .init(path: "Emulator/emulator-three-touches.txt", strokes: 3, moved: 0, cancelled: 0, maxFingers: 1),
        .init(path: "Phone/galaxy-paint-new.txt", strokes: 14, moved: 818, cancelled: 1, maxFingers: 1),
        .init(path: "Phone/galaxys-paint.txt", strokes: 34, moved: 856, cancelled: 0, maxFingers: 1),
        .init(path: "Phone/phone-CalenderaddEvent.txt", strokes: 8, moved: 17, cancelled: 0, maxFingers: 1),
        .init(path: "Phone/phone-openCalender.txt", strokes: 3, moved: 25, cancelled: 0, maxFingers: 1),
        .init(path: "Phone/phone-playAngryBirdsLevel1.txt", strokes: 1, moved: 65, cancelled: 0, maxFingers: 1),
        .init(path: "Phone/phone-single-drag.txt", strokes: 1, moved: 23, cancelled: 0, maxFingers: 1),
        .init(path: "Phone/phone-single-touch.txt", strokes: 1, moved: 0, cancelled: 0, maxFingers: 1),
        .init(path: "Phone/phone-three-touches.txt", strokes: 3, moved: 0, cancelled: 0, maxFingers: 1),
        .init(path: "Phone/phone-two-finger-drag.txt", strokes: 2, moved: 98, cancelled: 0, maxFingers: 2),
        .init(path: "Tablet/tablet-CalenderaddEvent.txt", strokes: 8, moved: 16, cancelled: 0, maxFingers: 1),
        .init(path: "Tablet/tablet-openAngryBirds-drag-tap-tap.txt", strokes: 3, moved: 26, cancelled: 0, maxFingers: 1),
        .init(path: "Tablet/tablet-openCalender-drag-tap-tap.txt", strokes: 3, moved: 23, cancelled: 0, maxFingers: 1),
        .init(path: "Tablet/tablet-playAngryBirdsLevel1.txt", strokes: 1, moved: 83, cancelled: 0, maxFingers: 1),
        .init(path: "Tablet/tablet-single-drag.txt", strokes: 1, moved: 76, cancelled: 0, maxFingers: 1),
        .init(path: "Tablet/tablet-single-touch.txt", strokes: 1, moved: 0, cancelled: 0, maxFingers: 1),
        .init(path: "Tablet/tablet-three-touches.txt", strokes: 3, moved: 0, cancelled: 0, maxFingers: 1),
        .init(path: "Tablet/tablet-two-finger-drag.txt", strokes: 2, moved: 257, cancelled: 0, maxFingers: 2),
    ]

    static func options(for path: String) -> GeteventReader.Options {
        if path.hasPrefix("Phone/") { return .galaxyS }
        if path.hasPrefix("Tablet/") { return .asusTF201 }
        return .androidEmulator
    }

    @Test func everyRecordingIsInTheTable() {
        let onDisk = Fixtures.files(under: "Traces/real/getevent/monkeyhelper", suffix: ".txt")
            .filter { $0.lastPathComponent != "SOURCE.txt" }
            .map { $0.deletingLastPathComponent().lastPathComponent + "/" + $0.lastPathComponent }
        #expect(Set(onDisk) == Set(Self.expectations.map(\.path)))
    }

    @Test(arguments: expectations) func recording(_ e: GeteventExpectation) throws {
        let text = try Fixtures.string("Traces/real/getevent/monkeyhelper/" + e.path)
        let options = Self.options(for: e.path)
        let events = try GeteventReader.read(text: text, file: e.path, options: options)
        let began = events.filter { $0.phase == .began }
        let ended = events.filter { $0.phase == .ended }
        print("getevent \(e.path): \(events.count) events, \(began.count) strokes, \(ended.count) ended")
        #expect(began.count == e.strokes)
        #expect(events.filter { $0.phase == .moved }.count == e.moved)
        #expect(events.filter { $0.phase == .cancelled }.count == e.cancelled)
        #expect(ended.count == e.strokes - e.cancelled)
        // Time starts at 0 and never goes backwards.
        #expect(events.first?.time == 0)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
        // Every touch id: began, moved…, then ended or cancelled, exactly once each; ids count from 0.
        var phases: [Int: [TouchPhase]] = [:]
        for ev in events { phases[ev.id, default: []].append(ev.phase) }
        #expect(phases.keys.sorted() == Array(0..<e.strokes))
        for (_, p) in phases {
            #expect(p.first == .began)
            #expect(p.last == .ended || p.last == .cancelled)
            #expect(p.dropFirst().dropLast().allSatisfy { $0 == .moved })
        }
        // Simultaneous contacts.
        var down = Set<Int>()
        var most = 0
        for ev in events {
            if ev.phase == .began { down.insert(ev.id) } else if ev.phase != .moved { down.remove(ev.id) }
            most = max(most, down.count)
        }
        #expect(most == e.maxFingers)
        // Scaled into the device's screen.
        let screen = try #require(options.screen)
        #expect(events.allSatisfy { (0...screen.width).contains($0.location.x) && (0...screen.height).contains($0.location.y) })
        // Independent counts from the raw text.
        let lines = text.split(whereSeparator: \.isNewline)
        if !text.contains("ABS_MT_") {
            #expect(began.count == lines.filter { $0.contains("BTN_TOUCH") && $0.contains("DOWN") }.count)
            #expect(ended.count == lines.filter { $0.contains("BTN_TOUCH") && $0.contains("UP") }.count)
        } else if !text.contains("SYN_MT_REPORT") {
            let ids = lines.filter { $0.contains("ABS_MT_TRACKING_ID") }.map { $0.split(separator: " ").last.map(String.init) ?? "" }
            #expect(began.count == ids.filter { $0.lowercased() != "ffffffff" }.count)
            #expect(ended.count == ids.filter { $0.lowercased() == "ffffffff" }.count)
        } else if e.maxFingers == 1 {
            // Protocol A, one finger: each stroke ends in a frame with no contact data.
            var emptyFrames = 0
            var sawABS = false
            for l in lines {
                if l.contains("EV_ABS") { sawABS = true }
                if l.contains("SYN_REPORT") {
                    if !sawABS { emptyFrames += 1 }
                    sawABS = false
                }
            }
            #expect(ended.count == emptyFrames)
        }
    }

    @Test func singleTouchGivesBeganThenEnded() throws {
        let events = try GeteventReader.read(
            text: try Fixtures.string("Traces/real/getevent/monkeyhelper/Phone/phone-single-touch.txt"), options: .galaxyS)
        #expect(events.map(\.phase) == [.began, .ended])
        #expect(abs(events[0].location.x - Double(0x213) / 1023 * 320) < 1e-9)
        #expect(abs(events[0].location.y - Double(0x2F9) / 1023 * 800 / 1.5) < 1e-9)
        #expect(abs(events[1].time - (1193.676258 - 1193.605736)) < 1e-9)
    }

    @Test func twoFingerDragGivesTwoMovingIds() throws {
        for path in ["Phone/phone-two-finger-drag.txt", "Tablet/tablet-two-finger-drag.txt"] {
            let events = try GeteventReader.read(
                text: try Fixtures.string("Traces/real/getevent/monkeyhelper/" + path), options: Self.options(for: path))
            #expect(Set(events.map(\.id)) == [0, 1])
            for id in [0, 1] {
                let moves = events.filter { $0.id == id && $0.phase == .moved }
                #expect(moves.count > 40, "\(path) finger \(id) drags")
                let first = try #require(moves.first?.location), last = try #require(moves.last?.location)
                #expect(first.distance(to: last) > 20)
            }
        }
    }

    @Test func protocolBSlotsAndLpAxisInfo() throws {
        let text = """
            add device 1: /dev/input/event2
              name:     "touch"
                ABS (0003): ABS_MT_POSITION_X     : value 0, min 0, max 1000, fuzz 0, flat 0, resolution 0
                            ABS_MT_POSITION_Y     : value 0, min 0, max 2000, fuzz 0, flat 0, resolution 0
            [   10.000000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000000
            [   10.000000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   00000007
            [   10.000000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    000001f4
            [   10.000000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    000003e8
            [   10.000000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
            [   10.010000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000001
            [   10.010000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   00000008
            [   10.010000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    00000000
            [   10.010000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    00000000
            [   10.010000] /dev/input/event1: EV_ABS       ABS_MT_POSITION_Y    00000010
            [   10.010000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
            [   10.020000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000000
            [   10.020000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    000003e8
            [   10.020000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
            [   10.020000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
            [   10.030000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          00000001
            [   10.030000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
            [   10.030000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
            """
        let events = try GeteventReader.read(
            text: text, options: .init(screen: ScreenSize(width: 100, height: 200), device: "/dev/input/event2"))
        #expect(events.map(\.phase) == [.began, .began, .ended, .ended])
        #expect(events.map(\.id) == [0, 1, 0, 1])
        #expect(events[0].location == ScreenPoint(x: 50, y: 100))
        #expect(events[1].location == ScreenPoint(x: 0, y: 0), "event1's line is another device: ignored")
        #expect(events[2].location == ScreenPoint(x: 100, y: 100))
        #expect(events.map(\.time).map { ($0 * 1000).rounded() } == [0, 10, 20, 30])
    }

    @Test func numericCodesWithoutLabels() throws {
        // getevent -t (no -l): type 0003 code 0035 … ; protocol A.
        let text = """
            [ 1.0] 0003 0035 00000064
            [ 1.0] 0003 0036 000000c8
            [ 1.0] 0000 0002 00000000
            [ 1.0] 0000 0000 00000000
            [ 1.5] 0003 0035 00000065
            [ 1.5] 0003 0036 000000c8
            [ 1.5] 0000 0002 00000000
            [ 1.5] 0000 0000 00000000
            [ 2.0] 0000 0002 00000000
            [ 2.0] 0000 0000 00000000
            """
        let events = try GeteventReader.read(text: text)
        #expect(events == [
            TouchEvent(time: 0, id: 0, phase: .began, x: 100, y: 200),
            TouchEvent(time: 0.5, id: 0, phase: .moved, x: 101, y: 200),
            TouchEvent(time: 1, id: 0, phase: .ended, x: 101, y: 200),
        ])
    }

    @Test func errors() {
        #expect(throws: ReaderError(file: "t.txt", line: 2, column: 5, kind: .badNumber(field: "timestamp", found: "12x"))) {
            _ = try GeteventReader.read(text: "\n[   12x] EV_SYN SYN_REPORT 00000000", file: "t.txt")
        }
        #expect(throws: ReaderError(file: nil, line: 1, column: 39, kind: .badNumber(field: "event value (hex)", found: "zz"))) {
            _ = try GeteventReader.read(text: "[ 1.0] EV_ABS       ABS_MT_POSITION_X zz")
        }
        #expect(throws: ReaderError.self) {
            _ = try GeteventReader.read(text: "[ 1.0] EV_SYN SYN_REPORT 0", options: .init(screen: ScreenSize(width: 1, height: 1)))
        }
    }

    /// Corrupted logs fail with a located `ReaderError`, never a crash or another error.
    @Test func mutatedLogs() throws {
        let touch = Array(try Fixtures.data("Traces/real/getevent/monkeyhelper/Phone/phone-three-touches.txt"))
        let ok = ByteMutations.mutations(of: touch, seed: 3, count: 300).filter { m in
            ByteMutations.onlyReaderErrors({ _ = try GeteventReader.read(bytes: m, options: .galaxyS) })
        }
        #expect(ok.count == 300)
    }
}
