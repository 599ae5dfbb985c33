import MapSketch
import MapSketchReplay

/// The recorder as the replay's probe: each operation the model or the engine reports is measured
/// as its kind (``BenchOperation``); an operation of no kind runs unmeasured.
extension BenchRecorder: ReplayProbe {
    func begin(_ operation: ProbedOperation) -> ProbeMark { begin(.model(operation)) }

    func end(_ operation: ProbedOperation, _ mark: ProbeMark) { end(.model(operation), mark) }

    func wrap(_ operation: ProbedOperation, _ body: () -> Void) { wrap(.model(operation), body) }

    func begin(_ operation: ReplayOperation) -> ProbeMark {
        guard let kind = BenchOperation(operation) else { return ProbeMark(ticks: 0, allocations: 0, bytes: 0, timed: false) }
        let m = begin(kind)
        return ProbeMark(ticks: m.ticks, allocations: m.allocations.count, bytes: m.allocations.bytes, timed: m.timed)
    }

    func end(_ operation: ReplayOperation, _ mark: ProbeMark) {
        guard let kind = BenchOperation(operation) else { return }
        end(kind, Mark(ticks: mark.ticks, allocations: AllocationSnapshot(count: mark.allocations, bytes: mark.bytes), timed: mark.timed))
    }

    func wrap(_ operation: ReplayOperation, _ body: () -> Void) {
        guard let kind = BenchOperation(operation) else { return body() }
        BenchRegion.operation(kind, body)
    }
}
