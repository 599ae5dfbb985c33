// The index's invariants, checked after every mutation in builds with MAPSKETCH_INTERNAL_CHECKS
// (debug builds, which `swift test` makes); release builds compile the check away.

extension SpatialIndex {
    #if MAPSKETCH_INTERNAL_CHECKS
    /// Checks the index after a mutation; traps on a violation. Up to 512 entries (trees, runs
    /// and buffer together) every entry is checked (``_checkInvariantsNow()``); above that the
    /// bookkeeping and the buffer, O(runs + ``bufferCapacity``), so a debug build stays fast on
    /// big layers (a new or rebuilt tree checks itself as it is built).
    @inline(never)
    func _checkInvariants() {
        if entryCount <= 512 {
            _checkInvariantsNow()
        } else {
            checkBookkeeping()
            checkBuffer()
        }
    }
    #else
    /// Compiled away: this build does not check invariants.
    @inline(__always)
    func _checkInvariants() {}
    #endif

    /// Entries in the main tree, the runs and the buffer, tombstones included.
    var entryCount: Int { runs.reduce(tree.count + dynamicIDs.count) { $0 + $1.count } }

    /// The invariants that cost O(runs): array sizes, tombstone counts within the rebuild
    /// thresholds, the buffer below its capacity, a home tag for every run.
    func checkBookkeeping() {
        precondition(dynamicIDs.count < Self.bufferCapacity, "the buffer is over capacity")
        precondition(dynamicBoxes.count == 4 * dynamicIDs.count, "the buffer holds \(dynamicBoxes.count) floats for \(dynamicIDs.count) ids")
        precondition(staleInRun.count == runs.count, "one tombstone count per run")
        precondition(runs.count <= Int(UInt8.max - Self._firstRun), "more runs than home tags")
        precondition(staleInTree >= 0 && staleInTree * 4 <= tree.count, "main tree: \(staleInTree) tombstones in \(tree.count) entries")
        for (r, run) in runs.enumerated() {
            precondition(staleInRun[r] >= 0 && staleInRun[r] * 2 <= run.count, "run \(r): \(staleInRun[r]) tombstones in \(run.count) entries")
        }
        precondition(count >= 0 && count <= home.count, "\(count) live items, \(home.count) ids known")
    }

    /// Every buffered id is homed in the buffer.
    func checkBuffer() {
        for id in dynamicIDs {
            precondition(Int(id) < home.count && home[Int(id)] == Self._inBuffer, "buffered id \(id) is not homed in the buffer")
        }
    }

    /// Checks, in any build, everything ``_checkInvariants()`` checks plus every entry: each
    /// tree's own invariants, every live id has exactly one live entry, where its home says, the
    /// tombstone counts and the live count agree; traps on a violation.
    ///
    /// - Complexity: O(n) for n entries.
    package func _checkInvariantsNow() {
        checkBookkeeping()
        tree._checkInvariantsNow()
        var seen = [Int](repeating: 0, count: home.count)
        var stale = 0
        tree.forEachItemRaw { id, _ in if home[id] == Self._inTree { seen[id] += 1 } else { stale += 1 } }
        precondition(stale == staleInTree, "main tree: \(stale) tombstones, counted \(staleInTree)")
        for (r, run) in runs.enumerated() {
            run._checkInvariantsNow()
            var s = 0
            run.forEachItemRaw { id, _ in if home[id] == Self._firstRun + UInt8(r) { seen[id] += 1 } else { s += 1 } }
            precondition(s == staleInRun[r], "run \(r): \(s) tombstones, counted \(staleInRun[r])")
        }
        checkBuffer()
        for id in dynamicIDs { seen[Int(id)] += 1 }
        var live = 0
        for (id, h) in home.enumerated() where h != Self._absent {
            precondition(seen[id] == 1, "id \(id) has \(seen[id]) live entries")
            live += 1
        }
        precondition(live == count, "\(live) live ids, counted \(count)")
    }
}
