/// Turns raw touches into gestures, driven by event times only (no clocks, no sleeping).
///
/// One finger: down→up within ``GestureThresholds/tapDuration`` and ``GestureThresholds/slop``
/// is a tap; staying within the slop for ``GestureThresholds/holdDuration`` fires a hold, after
/// which moves are hold moves until the finger lifts; moving past the slop before the hold
/// fires is a pan. A second finger cancels any one-finger gesture and starts a pinch: every move
/// of either finger is a ``PinchStep`` measured from where the two fingers were when the pinch
/// began (focal point, scale, rotation), so the steps never accumulate rounding. The pinch lasts
/// until one of its fingers lifts (``Gesture/pinchEnded``); a finger still down then goes on at
/// once, from where it is: as a pan when it is alone, or as a new pinch with the finger that
/// came down first among the others (the lowest id) when more are down.
///
/// Time passes only through events: call ``advance(to:)`` when the clock moves without a touch
/// (the replay engine does this before every event) so a hold fires at the right time.
///
/// Robustness rules (bad input never traps and never corrupts the state):
/// - time never runs backwards: an earlier or non-finite time counts as the latest time seen;
/// - a touch with a non-finite position is ignored, except an end or cancel, which ends the
///   finger at its last known position;
/// - a `began` for a finger already down restarts that finger (the lost end is taken as a cancel);
/// - moves, ends and cancels of fingers never seen going down are ignored;
/// - a third finger during a pinch is tracked but changes nothing; the pinch ends only when one
///   of its two fingers lifts (or is cancelled);
/// - a pinch whose two fingers came down on one spot waits: its start is where they first move
///   apart; a move that puts them on one spot gives no step (there is no scale to measure);
/// - a pinch finger's move to where it already is gives no step;
/// - a cancelled touch never completes a tap, and a cancelled pan does not move the map further.
public struct GestureRecognizer: Sendable {
    /// The thresholds in force (changing them affects later touches).
    public var thresholds: GestureThresholds

    private enum State: Sendable {
        case idle
        case pending(id: Int, start: ScreenPoint, time: Double)
        case holding(id: Int, last: ScreenPoint)
        case panning(id: Int, last: ScreenPoint)
        /// Fingers `a` and `b` pinch; `startA`, `startB` are where they were when it began.
        case pinching(a: Int, b: Int, startA: ScreenPoint, startB: ScreenPoint)
        /// A gesture ended or was cancelled while fingers are still down; wait for all to lift.
        case draining
    }

    private var state: State = .idle
    private var down: [Int: ScreenPoint] = [:]
    /// The latest event time seen.
    private var now: Double = -.infinity

    /// A recognizer with no finger down.
    public init(thresholds: GestureThresholds = .default) {
        self.thresholds = thresholds
    }

    /// Whether any finger is down.
    public var isTouching: Bool { !down.isEmpty }

    /// Lets virtual time pass to `time`: fires a pending hold whose duration has elapsed.
    public mutating func advance(to time: Double) -> [Gesture] {
        if time.isFinite, time > now { now = time }
        if case .pending(let id, let start, let t0) = state, now - t0 >= thresholds.holdDuration {
            state = .holding(id: id, last: start)
            return [.holdBegan(start)]
        }
        return []
    }

    /// Processes one touch (after advancing time to its timestamp) and returns the gestures it completes.
    public mutating func process(_ touch: TouchEvent) -> [Gesture] {
        var out = advance(to: touch.time)
        let time = now
        let finite = touch.location.x.isFinite && touch.location.y.isFinite
        switch touch.phase {
        case .began:
            guard finite else { return out }
            if down[touch.id] != nil {
                // A lost end: cancel the finger, then start it again.
                out += process(TouchEvent(time: time, id: touch.id, phase: .cancelled, location: touch.location))
            }
            let p = touch.location
            down[touch.id] = p
            switch state {
            case .idle:
                state = .pending(id: touch.id, start: p, time: time)
            case .pending(let id, _, _), .holding(let id, _), .panning(let id, _):
                out += cancelOneFinger()
                if let q = down[id] {
                    state = .pinching(a: id, b: touch.id, startA: q, startB: p)
                } else {
                    state = .draining
                }
            case .pinching, .draining:
                break
            }
        case .moved:
            guard finite, let previous = down[touch.id] else { return out }
            let p = touch.location
            down[touch.id] = p
            switch state {
            case .pending(let id, let start, _) where id == touch.id:
                if p.distance(to: start) > thresholds.slop {
                    state = .panning(id: id, last: p)
                    out.append(.pan(from: start, to: p))
                }
            case .holding(let id, _) where id == touch.id:
                state = .holding(id: id, last: p)
                out.append(.holdMoved(p))
            case .panning(let id, let last) where id == touch.id:
                state = .panning(id: id, last: p)
                out.append(.pan(from: last, to: p))
            case .pinching(let a, let b, let startA, let startB) where touch.id == a || touch.id == b:
                guard p != previous, let pa = down[a], let pb = down[b] else { break }
                if startA == startB {
                    // No distance to measure from yet: the pinch starts where the fingers part.
                    state = .pinching(a: a, b: b, startA: pa, startB: pb)
                } else if let step = PinchStep(startA: startA, startB: startB, a: pa, b: pb) {
                    out.append(.pinch(step))
                }
            default:
                break
            }
        case .ended, .cancelled:
            guard let lastKnown = down.removeValue(forKey: touch.id) else { return out }
            let p = finite ? touch.location : lastKnown
            let cancelled = touch.phase == .cancelled
            switch state {
            case .pending(let id, let start, let t0) where id == touch.id:
                if !cancelled, time - t0 <= thresholds.tapDuration, p.distance(to: start) <= thresholds.slop {
                    out.append(.tap(start))
                }
                state = down.isEmpty ? .idle : .draining
            case .holding(let id, _) where id == touch.id:
                out.append(cancelled ? .holdCancelled : .holdEnded(p))
                state = down.isEmpty ? .idle : .draining
            case .panning(let id, let last) where id == touch.id:
                if !cancelled, last != p { out.append(.pan(from: last, to: p)) }
                out.append(.panEnded)
                state = down.isEmpty ? .idle : .draining
            case .pinching(let a, let b, let startA, let startB) where touch.id == a || touch.id == b:
                let other = touch.id == a ? b : a
                if !cancelled, p != lastKnown, startA != startB, let q = down[other],
                    let step = touch.id == a
                        ? PinchStep(startA: startA, startB: startB, a: p, b: q)
                        : PinchStep(startA: startA, startB: startB, a: q, b: p)
                {
                    out.append(.pinch(step))
                }
                out.append(.pinchEnded)
                state = handOver(from: other)
            case .pinching:
                break
            case .draining:
                if down.isEmpty { state = .idle }
            default:
                if down.isEmpty { state = .idle }
            }
        }
        return out
    }

    /// What the fingers still down do after a pinch finger lifted: `kept` (the pinch's other
    /// finger) pans alone, or pinches with the lowest-id other finger; both start where they are.
    private func handOver(from kept: Int) -> State {
        guard let p = down[kept] else { return down.isEmpty ? .idle : .draining }
        guard let other = down.keys.filter({ $0 != kept }).min(), let q = down[other] else {
            return .panning(id: kept, last: p)
        }
        return .pinching(a: kept, b: other, startA: p, startB: q)
    }

    private mutating func cancelOneFinger() -> [Gesture] {
        switch state {
        case .holding: return [.holdCancelled]
        case .panning: return [.panEnded]
        default: return []
        }
    }
}
