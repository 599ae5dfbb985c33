// The replay's virtual clock: the map's timers (a hold, see `MapView.nextDeadline`) fire at their
// own times, in order with the trace's events, and after the last event up to the trace's end.

extension ReplaySession {
    /// Moves the clock to `time`: fires every timer of the map due by then, in time order, each
    /// with the log at the timer's own time (so a hold and the magnifier it shows are logged at
    /// the touch-down plus the hold duration), then sets the log's time to `time`. A timer due
    /// exactly at `time` fires before an event at that time.
    func advanceClock(to time: Double) {
        mapView.fireTimers(through: time) { log.now = $0 }
        // With no timer due, the map need not be told: a touch carries its own time.
        log.now = time
    }

    /// Runs the clock on to the trace's end (``Trace/endTime``: its `end` line, else its last
    /// event), firing the timers due by then: a finger still down when the trace ends holds if
    /// the end is at least the hold duration after it went down. Called by ``run(upTo:)`` (to
    /// the end), ``runPaced(speed:)`` and ``step()`` once every event is applied; before that it
    /// does nothing, and calling it again changes nothing.
    public func finish() {
        guard isFinished else { return }
        advanceClock(to: max(trace.endTime, log.now))
        log.flush()
    }

    /// The next thing on the clock while replaying in real time: the next timer's due time
    /// (`isTimer`) when it comes no later than the next event, else the next event's time, else
    /// a timer due by the trace's end; nil when nothing is left.
    func nextOnClock() -> (time: Double, isTimer: Bool)? {
        let next = isFinished ? trace.endTime : trace.events[position].t
        // A timer due with the next event fires as that event is applied, first.
        if let due = mapView.nextDeadline, due < next || (isFinished && due <= next) { return (due, true) }
        return isFinished ? nil : (next, false)
    }
}
