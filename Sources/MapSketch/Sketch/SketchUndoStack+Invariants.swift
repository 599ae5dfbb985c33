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
            checkInvariants(recordLimit: Self.fullCheckLimit)
        }
    #else
        /// Whether this build checks the invariants after every mutation.
        static let checksInvariants = false

        @inline(__always)
        func _checkInvariants() {}
    #endif

    /// Checks, in any build, everything ``_checkInvariants()`` checks, for every record however
    /// long the history, and each geometry the payloads keep; traps on a violation. What a soak
    /// calls between its operations.
    ///
    /// - Complexity: O(r + v) for r records and v vertices in the payloads.
    package func _checkInvariantsNow() {
        checkInvariants(recordLimit: .max)
        for payload in payloads.values {
            switch payload {
            case .move: break
            case .part(let vertices): vertices._checkInvariantsNow()
            case .stores(let before, let after):
                before._checkInvariantsNow()
                after._checkInvariantsNow()
            }
        }
    }

    /// The structural checks; record by record only when there are at most `recordLimit`.
    private func checkInvariants(recordLimit: Int) {
        precondition(
            0 <= floor && floor <= cursor && cursor <= records.count,
            "cursors out of order: \(floor) \(cursor) \(records.count)")
        precondition(levelsOfUndo >= 0, "negative levels of undo")
        if levelsOfUndo > 0 {
            precondition(cursor - floor <= levelsOfUndo, "more undo steps than the levels bound")
        }
        guard records.count <= recordLimit else { return }
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
}

extension SketchLayer {
    /// Checks, in any build, the sketch's storage (shape rules, every coordinate, every part's
    /// chunk tree), its history (every record, every geometry the history keeps) and that the
    /// selection names a vertex, segment or part the sketch has; traps on a violation.
    ///
    /// - Complexity: O(v + r) for v vertices in the sketch and its history and r records.
    package func _checkInvariantsNow() {
        let store = editor.store
        store._checkInvariantsNow()
        editor.history._checkInvariantsNow()
        let parts = store.parts
        switch editor.selection {
        case .none, .geometry: break
        case .part(let p): precondition(parts.indices.contains(p), "selected part \(p) of \(parts.count)")
        case .vertex(let p, let i):
            precondition(parts.indices.contains(p) && i >= 0 && i < parts[p].count, "selected vertex \(p), \(i) is not in the sketch")
        case .midVertex(let p, let s):
            precondition(parts.indices.contains(p) && s >= 0 && s < parts[p].count, "selected segment \(p), \(s) is not in the sketch")
        }
    }
}
