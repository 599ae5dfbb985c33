/// Turns raw touches into gestures, driven by event times only (no clocks, no sleeping).
///
/// One finger: down→up within ``GestureThresholds/tapDuration`` and ``GestureThresholds/slop``
/// is a tap; staying within the slop for ``GestureThresholds/holdDuration`` fires a hold, after
/// which moves are hold moves until the finger lifts; moving past the slop before the hold
/// fires is a pan. A second finger cancels any one-finger gesture and starts a pinch that lasts
/// until either finger lifts; the remaining finger is then ignored until it lifts.
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
///   of its two fingers lifts;
/// - a cancelled touch never completes a tap, and a cancelled pan does not move the map further.
public struct GestureRecognizer: Sendable {
    /// The thresholds in force (changing them affects later touches).
    public var thresholds: GestureThresholds

    private enum State: Sendable {
        case idle
        case pending(id: Int, start: ScreenPoint, time: Double)
        case holding(id: Int, last: ScreenPoint)
        case panning(id: Int, last: ScreenPoint)
        case pinching(a: Int, b: Int, pa: ScreenPoint, pb: ScreenPoint)
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
                    state = .pinching(a: id, b: touch.id, pa: q, pb: p)
                } else {
                    state = .draining
                }
            case .pinching, .draining:
                break
            }
        case .moved:
            guard finite, down[touch.id] != nil else { return out }
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
            case .pinching(let a, let b, let pa, let pb):
                let na = touch.id == a ? p : pa
                let nb = touch.id == b ? p : pb
                let before = pa.distance(to: pb)
                let after = na.distance(to: nb)
                state = .pinching(a: a, b: b, pa: na, pb: nb)
                if before > 0, after > 0, before != after {
                    let center = ScreenPoint(x: (na.x + nb.x) / 2, y: (na.y + nb.y) / 2)
                    out.append(.pinch(center: center, scale: after / before))
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
            case .pinching(let a, let b, _, _) where touch.id == a || touch.id == b:
                state = down.isEmpty ? .idle : .draining
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

    private mutating func cancelOneFinger() -> [Gesture] {
        switch state {
        case .holding: return [.holdCancelled]
        case .panning: return [.panEnded]
        default: return []
        }
    }
}
