extension SketchUndoStack {
    /// Up to this many records ``_checkInvariants()`` checks every record and the payload table;
    /// above it, only the cursors, so a test build stays fast on long histories.
    static let fullCheckLimit = 512

    #if MAPSKETCH_INTERNAL_CHECKS
        /// Whether this build checks the invariants after every mutation.
        static let checksInvariants = true

        /// Checks the history's structure after a mutation (test and debug builds:
        /// `MAPSKETCH_INTERNAL_CHECKS`); compiles to nothing otherwise.
        ///
        /// `0 ≤ floor ≤ cursor ≤ records.count`; with a levels bound, at most `levelsOfUndo` steps can
        /// be undone. Up to ``fullCheckLimit`` records: the payload table holds exactly the payloads
        /// of the heavy records from `floor` up (those below fell off and dropped theirs), each id
        /// issued before `nextPayloadID`, and a move's payload belongs to a move record.
        @inline(never)
        func _checkInvariants() {
            precondition(
                0 <= floor && floor <= cursor && cursor <= records.count,
                "cursors out of order: \(floor) \(cursor) \(records.count)")
            precondition(levelsOfUndo >= 0, "negative levels of undo")
            if levelsOfUndo > 0 {
                precondition(cursor - floor <= levelsOfUndo, "more undo steps than the levels bound")
            }
            guard records.count <= Self.fullCheckLimit else { return }
            var heavy = 0
            for r in records[floor...] where r.isHeavy {
                heavy += 1
                precondition(r.payloadID < nextPayloadID, "payload id \(r.payloadID) was never issued")
                guard let payload = payloads[r.payloadID] else {
                    preconditionFailure("record \(r.kind) lost its payload")
                }
                switch payload {
                case .move: precondition(r.kind == .moveVertex, "a move payload on a \(r.kind) record")
                case .part: precondition(r.kind == .removePart, "a part payload on a \(r.kind) record")
                case .stores:
                    precondition(
                        [.replaceGeometry, .transform, .freehand, .shape, .appendVertices].contains(r.kind),
                        "a geometry payload on a \(r.kind) record")
                }
            }
            precondition(payloads.count == heavy, "the payload table holds \(payloads.count - heavy) orphans")
        }
    #else
        /// Whether this build checks the invariants after every mutation.
        static let checksInvariants = false

        @inline(__always)
        func _checkInvariants() {}
    #endif
}
