// Seeded synthetic touch streams: taps, holds, drags, pans, pinches and mixtures.
package import MapSketch
import MapSketchGeometry

/// A kind of synthetic gesture.
package enum SyntheticGesture: String, Hashable, Sendable, Codable, CaseIterable {
    /// Down and up within the tap duration, moving less than the slop.
    case tap
    /// Down, still (within a third of the slop) for 1.2–2× the hold duration, up.
    case hold
    /// A hold, then the held finger moves 60–300 pt and lifts (the sketch's vertex drag).
    case drag
    /// Down and moving past the slop at once (before a hold could fire), 80–400 pt, up.
    case pan
    /// Two fingers down together about a center, spreading or closing by ×0.5–2, up together.
    case pinch
}

/// Makes seeded, deterministic touch streams over a screen: the same seed and settings give
/// identical `[TouchEvent]` on every machine (SplitMix64, IEEE-only arithmetic).
///
/// Each gesture starts after a pause of 0.5–1.0 s (longer than the tap duration, so recognizers
/// see separate gestures); fingers sample every `sampleInterval` seconds; all points stay at
/// least `margin` points inside the screen. Each finger that touches down gets a fresh id, counting
/// from 0; events are time-ordered (fingers of one frame in id order).
///
/// ```swift
/// let g = TouchGenerator(screen: ScreenSize(width: 390, height: 844))
/// let events = g.generate(.drag, count: 5, seed: 42)
/// let mixed = g.randomWalk(count: 100, seed: 7)
/// ```
package struct TouchGenerator: Hashable, Sendable {
    /// The screen, in points.
    package var screen: ScreenSize
    /// The thresholds the gestures are shaped against (tap duration, slop, hold duration).
    package var thresholds: GestureThresholds
    /// Seconds between samples of a moving finger (default 1/60).
    package var sampleInterval: Double
    /// Minimum distance from the screen edge, in points (default 20).
    package var margin: Double

    /// Makes a generator.
    package init(screen: ScreenSize, thresholds: GestureThresholds = .default, sampleInterval: Double = 1.0 / 60, margin: Double = 20) {
        self.screen = screen
        self.thresholds = thresholds
        self.sampleInterval = sampleInterval
        self.margin = margin
    }

    /// `count` gestures of one kind.
    /// - Complexity: O(events).
    package func generate(_ kind: SyntheticGesture, count: Int, seed: UInt64) -> [TouchEvent] {
        var state = TouchState(generator: self, rng: SplitMix64(seed: seed))
        for _ in 0..<max(0, count) { state.gesture(kind) }
        return state.events
    }

    /// `count` gestures, each kind drawn uniformly from `mix`.
    /// - Complexity: O(events).
    package func randomWalk(count: Int, seed: UInt64, mix: [SyntheticGesture] = SyntheticGesture.allCases) -> [TouchEvent] {
        var state = TouchState(generator: self, rng: SplitMix64(seed: seed))
        guard !mix.isEmpty else { return [] }
        for _ in 0..<max(0, count) { state.gesture(mix[state.rng.nextInt(in: 0...(mix.count - 1))]) }
        return state.events
    }
}

private struct TouchState {
    let g: TouchGenerator
    var rng: SplitMix64
    var events: [TouchEvent] = []
    var time = 0.0
    var nextID = 0

    init(generator: TouchGenerator, rng: SplitMix64) {
        g = generator
        self.rng = rng
    }

    mutating func point() -> ScreenPoint {
        ScreenPoint(
            x: rng.nextDouble(in: g.margin...max(g.margin, g.screen.width - g.margin)),
            y: rng.nextDouble(in: g.margin...max(g.margin, g.screen.height - g.margin)))
    }

    func clamp(_ p: ScreenPoint) -> ScreenPoint {
        ScreenPoint(
            x: min(max(p.x, g.margin), max(g.margin, g.screen.width - g.margin)),
            y: min(max(p.y, g.margin), max(g.margin, g.screen.height - g.margin)))
    }

    /// A point `distance` away from `p` in a random direction, kept on screen (it may end up closer).
    mutating func away(from p: ScreenPoint, distance: Double) -> ScreenPoint {
        let (s, c) = DeterministicMath.sinCos(rng.nextDouble(in: 0...(2 * Double.pi)))
        var q = clamp(ScreenPoint(x: p.x + c * distance, y: p.y + s * distance))
        if q.distance(to: p) < distance * 0.5 {  // hit an edge: go the other way
            q = clamp(ScreenPoint(x: p.x - c * distance, y: p.y - s * distance))
        }
        return q
    }

    mutating func jitter(_ p: ScreenPoint, _ radius: Double) -> ScreenPoint {
        clamp(ScreenPoint(x: p.x + rng.nextDouble(in: -radius...radius), y: p.y + rng.nextDouble(in: -radius...radius)))
    }

    mutating func emit(_ id: Int, _ phase: TouchPhase, _ p: ScreenPoint) {
        events.append(TouchEvent(time: time, id: id, phase: phase, location: p))
    }

    mutating func newID() -> Int {
        nextID += 1
        return nextID - 1
    }

    /// Moves finger `id` from `a` to `b` in straight samples over `duration` (ends exactly at b).
    mutating func move(_ id: Int, from a: ScreenPoint, to b: ScreenPoint, duration: Double) {
        let steps = max(1, Int((duration / g.sampleInterval).rounded()))
        for k in 1...steps {
            time += g.sampleInterval
            let f = Double(k) / Double(steps)
            emit(id, .moved, ScreenPoint(x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f))
        }
    }

    /// Keeps finger `id` near `p` (within a third of the slop) for `duration`.
    mutating func stay(_ id: Int, at p: ScreenPoint, duration: Double) -> ScreenPoint {
        let steps = max(1, Int((duration / g.sampleInterval).rounded(.up)))
        var last = p
        for _ in 0..<steps {
            time += g.sampleInterval
            last = jitter(p, g.thresholds.slop / 6)
            emit(id, .moved, last)
        }
        return last
    }

    mutating func gesture(_ kind: SyntheticGesture) {
        if !events.isEmpty { time += rng.nextDouble(in: 0.5...1.0) }
        let t = g.thresholds
        switch kind {
        case .tap:
            let id = newID()
            let p = point()
            emit(id, .began, p)
            time += rng.nextDouble(in: 0.05...max(0.05, 0.6 * t.tapDuration))
            emit(id, .ended, jitter(p, t.slop / 4))
        case .hold:
            let id = newID()
            let p = point()
            emit(id, .began, p)
            let last = stay(id, at: p, duration: t.holdDuration * rng.nextDouble(in: 1.2...2.0))
            time += g.sampleInterval
            emit(id, .ended, last)
        case .drag:
            let id = newID()
            let p = point()
            emit(id, .began, p)
            let held = stay(id, at: p, duration: t.holdDuration * rng.nextDouble(in: 1.2...1.5))
            let q = away(from: held, distance: rng.nextDouble(in: 60...300))
            move(id, from: held, to: q, duration: rng.nextDouble(in: 0.3...1.0))
            time += g.sampleInterval
            emit(id, .ended, q)
        case .pan:
            let id = newID()
            let p = point()
            emit(id, .began, p)
            let q = away(from: p, distance: rng.nextDouble(in: 80...400))
            move(id, from: p, to: q, duration: rng.nextDouble(in: 0.2...0.6))
            time += g.sampleInterval
            emit(id, .ended, q)
        case .pinch:
            let a = newID(), b = newID()
            let center = point()
            let room = min(center.x - g.margin, g.screen.width - g.margin - center.x, center.y - g.margin, g.screen.height - g.margin - center.y)
            let scale = rng.nextDouble(in: 0.5...2.0)
            let r1 = max(t.slop, rng.nextDouble(in: 20...max(20, room / max(1, scale))))
            let (s, c) = DeterministicMath.sinCos(rng.nextDouble(in: 0...Double.pi))
            func fingers(_ r: Double) -> (ScreenPoint, ScreenPoint) {
                (clamp(ScreenPoint(x: center.x + c * r, y: center.y + s * r)), clamp(ScreenPoint(x: center.x - c * r, y: center.y - s * r)))
            }
            let start = fingers(r1)
            emit(a, .began, start.0)
            emit(b, .began, start.1)
            let steps = max(1, Int((rng.nextDouble(in: 0.3...0.8) / g.sampleInterval).rounded()))
            var last = start
            for k in 1...steps {
                time += g.sampleInterval
                last = fingers(r1 * (1 + (scale - 1) * Double(k) / Double(steps)))
                emit(a, .moved, last.0)
                emit(b, .moved, last.1)
            }
            time += g.sampleInterval
            emit(a, .ended, last.0)
            emit(b, .ended, last.1)
        }
    }
}
