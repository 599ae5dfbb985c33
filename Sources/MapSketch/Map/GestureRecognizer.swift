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
/// Time passes only through events and ``advance(to:)``. The recognizer has one timer, the hold:
/// it is due at ``nextDeadline`` (the touch-down's time plus the hold duration, while the finger
/// has stayed within the slop). A host calls ``advance(to:)`` with that time when no touch came
/// first, so the hold fires at its own time; a touch later than the deadline fires it before the
/// touch is processed (late, if the host did not advance). A deadline equal to a touch's time
/// fires before that touch. The tap has no timer: a release is a tap when it comes within the tap
/// duration of the touch-down, judged at the release's own time, and nothing happens when the
/// tap duration passes.
///
/// Robustness rules (bad input never traps and never corrupts the state):
/// - time never runs backwards: a touch whose time is earlier than the latest time seen, or not
///   finite, is *late*: it counts at the latest time seen, and the touch it belongs to never
///   completes a tap (its duration is not known); an earlier or non-finite ``advance(to:)`` does
///   nothing;
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
package struct GestureRecognizer: Sendable {
    /// The thresholds in force (changing them affects later touches).
    public var thresholds: GestureThresholds

    private enum State: Sendable {
        case idle
        /// Finger `id` went down at `start` at `time`; `timed`: every sample so far was on time
        /// (a late one means the touch can no longer tap).
        case pending(id: Int, start: ScreenPoint, time: Double, timed: Bool)
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
    package init(thresholds: GestureThresholds = .default) {
        self.thresholds = thresholds
    }

    /// Whether any finger is down.
    package var isTouching: Bool { !down.isEmpty }

    /// The recognizer's clock: the latest time it has seen (a touch's, or one it was advanced
    /// to), or nil before the first.
    package var time: Double? { now.isFinite ? now : nil }

    /// When the next timer is due: the hold of the finger that is down and has stayed within the
    /// slop (its touch-down's time plus ``GestureThresholds/holdDuration``); nil when no timer is
    /// pending (or the thresholds make the time not finite). After ``advance(to:)`` to a time, the
    /// deadline is nil or later than that time.
    package var nextDeadline: Double? {
        guard case .pending(_, _, let t0, _) = state else { return nil }
        let due = t0 + thresholds.holdDuration
        return due.isFinite ? due : nil
    }

    /// Lets virtual time pass to `time`: fires the timers due by then (a pending hold whose
    /// ``nextDeadline`` is at or before `time`). To fire a timer at its own time, advance to its
    /// ``nextDeadline`` first. An earlier or non-finite `time` changes nothing.
    package mutating func advance(to time: Double) -> [Gesture] {
        if time.isFinite, time > now { now = time }
        if let due = nextDeadline, due <= now, case .pending(let id, let start, _, _) = state {
            state = .holding(id: id, last: start)
            return [.holdBegan(start)]
        }
        return []
    }

    /// Processes one touch (after advancing time to its timestamp) and returns the gestures it completes.
    package mutating func process(_ touch: TouchEvent) -> [Gesture] {
        let late = !(touch.time.isFinite && touch.time >= now)
        var out = advance(to: touch.time)
        let time = now
        if late, case .pending(let id, let start, let t0, _) = state, id == touch.id {
            state = .pending(id: id, start: start, time: t0, timed: false)
        }
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
                state = .pending(id: touch.id, start: p, time: time, timed: !late)
            case .pending(let id, _, _, _), .holding(let id, _), .panning(let id, _):
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
            case .pending(let id, let start, _, _) where id == touch.id:
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
            case .pending(let id, let start, let t0, let timed) where id == touch.id:
                if !cancelled, timed, !late, time - t0 <= thresholds.tapDuration, p.distance(to: start) <= thresholds.slop {
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
