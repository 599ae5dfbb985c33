import MapSketch
import MapSketchGeometry

/// Logs the gestures a map recognises, coalescing the many small steps of a pan or a pinch
/// into one entry each (with the total delta or scale) so golden files stay readable.
///
/// It runs its own ``GestureRecognizer`` with the map's thresholds over the same touches the map
/// sees, which is deterministic and needs nothing of the map but its public API.
struct _GestureLog {
    private var recognizer: GestureRecognizer
    private var pan: (t: Double, dx: Double, dy: Double, steps: Int)?
    private var pinch: (t: Double, scale: Double, steps: Int, center: ScreenPoint)?
    private var holdMoves: (t: Double, count: Int)?
    /// Counts by gesture name.
    private(set) var counts: [String: Int] = [:]

    init(thresholds: GestureThresholds) {
        recognizer = GestureRecognizer(thresholds: thresholds)
    }

    /// Advances time; appends what fired (a hold) to `log`.
    mutating func advance(to t: Double, log: inout [JSONValue]) {
        record(recognizer.advance(to: t), t: t, log: &log)
    }

    /// Feeds a touch; appends the gestures it completes to `log`.
    mutating func process(_ touch: TouchEvent, log: inout [JSONValue]) {
        record(recognizer.process(touch), t: touch.time, log: &log)
        if !recognizer.isTouching { flush(log: &log) }
    }

    /// Writes any pending coalesced pan, pinch or hold moves.
    mutating func flush(log: inout [JSONValue]) {
        if let p = pan {
            log.append(["t": .number(p.t), "event": "pan", "dx": .number(p.dx), "dy": .number(p.dy), "steps": .integer(Int64(p.steps))])
            pan = nil
        }
        if let p = pinch {
            log.append([
                "t": .number(p.t), "event": "pinch", "scale": .number(p.scale), "steps": .integer(Int64(p.steps)),
                "x": .number(p.center.x), "y": .number(p.center.y),
            ])
            pinch = nil
        }
        if let h = holdMoves {
            log.append(["t": .number(h.t), "event": "holdMove", "count": .integer(Int64(h.count))])
            holdMoves = nil
        }
    }

    private mutating func record(_ gestures: [Gesture], t: Double, log: inout [JSONValue]) {
        for g in gestures {
            switch g {
            case .tap(let s):
                flush(log: &log)
                count("tap")
                log.append(["t": .number(t), "event": "tap", "x": .number(s.x), "y": .number(s.y)])
            case .holdBegan(let s):
                flush(log: &log)
                count("hold")
                log.append(["t": .number(t), "event": "hold", "x": .number(s.x), "y": .number(s.y)])
            case .holdMoved:
                count("holdMove")
                holdMoves = (holdMoves?.t ?? t, (holdMoves?.count ?? 0) + 1)
            case .holdEnded(let s):
                flush(log: &log)
                count("holdEnd")
                log.append(["t": .number(t), "event": "holdEnd", "x": .number(s.x), "y": .number(s.y)])
            case .holdCancelled:
                flush(log: &log)
                count("holdCancel")
                log.append(["t": .number(t), "event": "holdCancel"])
            case .pan(let from, let to):
                if pan == nil { count("pan") }
                let p = pan ?? (t, 0, 0, 0)
                pan = (p.t, p.dx + to.x - from.x, p.dy + to.y - from.y, p.steps + 1)
            case .panEnded:
                flush(log: &log)
            case .pinch(let center, let scale):
                if pinch == nil {
                    flush(log: &log)
                    count("pinch")
                }
                let p = pinch ?? (t, 1, 0, center)
                pinch = (p.t, p.scale * scale, p.steps + 1, center)
            }
        }
    }

    private mutating func count(_ name: String) { counts[name, default: 0] += 1 }
}
