import Foundation
import MapSketch
import MapSketchReplay
import MapSketchTestSupport
import Testing

@Suite struct TouchGeneratorTests {
    static let screen = ScreenSize(width: 390, height: 844)
    static let g = TouchGenerator(screen: screen)

    /// Each touch id's events, in order.
    static func strokes(_ events: [TouchEvent]) -> [Int: [TouchEvent]] {
        var out: [Int: [TouchEvent]] = [:]
        for e in events { out[e.id, default: []].append(e) }
        return out
    }

    @Test(arguments: SyntheticGesture.allCases) func deterministicAndWellFormed(kind: SyntheticGesture) {
        let a = Self.g.generate(kind, count: 20, seed: 5)
        #expect(a == Self.g.generate(kind, count: 20, seed: 5))
        #expect(a != Self.g.generate(kind, count: 20, seed: 6))
        #expect(zip(a, a.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(a.allSatisfy { (20...370).contains($0.location.x) && (20...824).contains($0.location.y) })
        let strokes = Self.strokes(a)
        #expect(strokes.count == (kind == .pinch ? 40 : 20))
        for (_, s) in strokes {
            #expect(s.first?.phase == .began && s.last?.phase == .ended)
            #expect(s.dropFirst().dropLast().allSatisfy { $0.phase == .moved })
        }
    }

    @Test func shapesRespectTheThresholds() {
        let t = GestureThresholds.default
        for s in Self.strokes(Self.g.generate(.tap, count: 30, seed: 1)).values {
            #expect(s.last!.time - s.first!.time < t.tapDuration)
            #expect(s.allSatisfy { $0.location.distance(to: s[0].location) < t.slop })
        }
        for s in Self.strokes(Self.g.generate(.hold, count: 30, seed: 2)).values {
            #expect(s.last!.time - s.first!.time >= t.holdDuration)
            #expect(s.allSatisfy { $0.location.distance(to: s[0].location) < t.slop })
        }
        for s in Self.strokes(Self.g.generate(.drag, count: 30, seed: 3)).values {
            let firstFar = s.first { $0.location.distance(to: s[0].location) >= t.slop }
            #expect(firstFar.map { $0.time - s[0].time >= t.holdDuration } == true, "held before moving")
        }
        for s in Self.strokes(Self.g.generate(.pan, count: 30, seed: 4)).values {
            let firstFar = s.first { $0.location.distance(to: s[0].location) >= t.slop }
            #expect(firstFar.map { $0.time - s[0].time < t.holdDuration } == true, "moved before a hold")
        }
    }

    @Test func recognizerSeesTheIntendedGestures() {
        func gestures(_ events: [TouchEvent]) -> [Gesture] {
            var r = GestureRecognizer()
            var out: [Gesture] = []
            for e in events {
                out += r.advance(to: e.time)
                out += r.process(e)
            }
            out += r.advance(to: (events.last?.time ?? 0) + 5)
            return out
        }
        let taps = gestures(Self.g.generate(.tap, count: 10, seed: 8))
        #expect(taps.filter { if case .tap = $0 { true } else { false } }.count == 10)
        let holds = gestures(Self.g.generate(.hold, count: 10, seed: 9))
        #expect(holds.filter { if case .holdBegan = $0 { true } else { false } }.count == 10)
        #expect(holds.filter { if case .holdEnded = $0 { true } else { false } }.count == 10)
        let drags = gestures(Self.g.generate(.drag, count: 10, seed: 10))
        #expect(drags.filter { if case .holdBegan = $0 { true } else { false } }.count == 10)
        #expect(drags.contains { if case .holdMoved = $0 { true } else { false } })
        let pans = gestures(Self.g.generate(.pan, count: 10, seed: 11))
        #expect(pans.filter { if case .panEnded = $0 { true } else { false } }.count == 10)
        let pinches = gestures(Self.g.generate(.pinch, count: 10, seed: 12))
        #expect(pinches.contains { if case .pinch = $0 { true } else { false } })
    }

    @Test func pinchFingersScaleAboutTheirCenter() {
        let events = Self.g.generate(.pinch, count: 1, seed: 13)
        let began = events.filter { $0.phase == .began }, ended = events.filter { $0.phase == .ended }
        #expect(began.count == 2 && began[0].time == began[1].time)
        let ratio = ended[0].location.distance(to: ended[1].location) / began[0].location.distance(to: began[1].location)
        #expect(ratio >= 0.45 && ratio <= 2.05)
        #expect(ended[0].time == ended[1].time)
    }

    @Test func randomWalkMixesKinds() {
        let events = Self.g.randomWalk(count: 60, seed: 21)
        #expect(events == Self.g.randomWalk(count: 60, seed: 21))
        let maxSimultaneous = Set(events.filter { $0.phase == .began }.map(\.time)).count
        #expect(maxSimultaneous < events.filter { $0.phase == .began }.count, "some pinches (two fingers at once)")
        let onlyTaps = Self.g.randomWalk(count: 10, seed: 21, mix: [.tap])
        #expect(onlyTaps.count == 20)
    }
}

@Suite struct GPSTrackGeneratorTests {
    @Test func deterministicAndSeedSensitive() {
        let g = GPSTrackGenerator(latitude: 46.05, longitude: 14.5)
        #expect(g.generate(count: 300, seed: 1) == g.generate(count: 300, seed: 1))
        #expect(g.generate(count: 300, seed: 1) != g.generate(count: 300, seed: 2))
        let fixes = g.generate(count: 300, seed: 1)
        #expect(fixes.count == 300)
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { ($1.time ?? 0) - ($0.time ?? 0) == 1 })
    }

    @Test func noiseStandardDeviationIsAsConfigured() {
        var noisy = GPSTrackGenerator(latitude: 10, longitude: 20, elevation: 100)
        noisy.noise = 4
        var clean = noisy
        clean.noise = 0
        let a = noisy.generate(count: 5000, seed: 77), b = clean.generate(count: 5000, seed: 77)
        let north = zip(a, b).map { ($0.latitude - $1.latitude) * GPSFilter.earthRadius * .pi / 180 }
        let up = zip(a, b).map { ($0.elevation ?? 0) - ($1.elevation ?? 0) }
        func sd(_ xs: [Double]) -> Double {
            let m = xs.reduce(0, +) / Double(xs.count)
            return (xs.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(xs.count - 1)).squareRoot()
        }
        #expect(abs(sd(north) - 4) < 0.2)  // standard error of the sd ≈ 0.04
        #expect(abs(sd(up) - 4) < 0.2)
        #expect(abs(north.reduce(0, +) / 5000) < 0.2)
        // The clean path moves at the configured speed.
        let step = GPSFilter.haversineDistance(b[100], b[101])
        #expect(abs(step - 5) < 0.01)
    }

    @Test func dropoutsLeaveGaps() {
        var g = GPSTrackGenerator(latitude: 0, longitude: 0)
        g.dropoutProbability = 0.02
        g.dropoutLength = 10...10
        let fixes = g.generate(count: 2000, seed: 5)
        let gaps = zip(fixes, fixes.dropFirst()).map { ($1.time ?? 0) - ($0.time ?? 0) }.filter { $0 > 1 }
        #expect(!gaps.isEmpty)
        #expect(gaps.allSatisfy { $0 == 11 }, "each drop-out skips exactly 10 fixes")
        let span = Int((fixes.last?.time ?? 0) - (fixes.first?.time ?? 0)) + 1
        #expect(fixes.count + 10 * gaps.count == span)
    }

    @Test func antimeridianTrackCrosses() {
        let fixes = GPSTrackGenerator.antimeridianCrossing().generate(count: 200, seed: 3)
        #expect(fixes.allSatisfy { $0.longitude >= -180 && $0.longitude < 180 })
        let crossings = zip(fixes, fixes.dropFirst()).filter { $0.longitude > 170 && $1.longitude < -170 }
        #expect(crossings.count >= 1)
        #expect(fixes.first!.longitude > 179 && fixes.last!.longitude < -179)
        // Consecutive fixes stay close even across the line (haversine handles the wrap).
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { GPSFilter.haversineDistance($0, $1) < 40 })
    }
}
