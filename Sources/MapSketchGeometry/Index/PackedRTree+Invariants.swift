// The tree's invariants, checked after every bulk load in builds with MAPSKETCH_INTERNAL_CHECKS
// (debug builds, which `swift test` makes); release builds compile the check away.

extension PackedRTree {
    #if MAPSKETCH_INTERNAL_CHECKS
    /// Checks the tree's invariants (see ``_checkInvariantsNow()``); traps on a violation.
    @inline(never)
    func _checkInvariants() {
        _checkInvariantsNow()
    }
    #else
    /// Compiled away: this build does not check invariants.
    @inline(__always)
    func _checkInvariants() {}
    #endif

    /// Checks, in any build, that the arrays have the layout's sizes, that padding ids are −1 and
    /// unused lanes hold the empty box, that every entry's box lies inside its parent's (a box
    /// with a NaN bound matches no query and is exempt), and the directory's lists (see
    /// ``RTreeDirectory``); traps on a violation.
    ///
    /// - Complexity: O(n) for n items.
    package func _checkInvariantsNow() {
        guard count > 0 else {
            precondition(blocks.isEmpty && ids.isEmpty && levelBlocks.isEmpty, "an empty tree holds no arrays")
            return
        }
        let leafSlots = (count + 15) / 16 * 16
        precondition(ids.count == leafSlots, "\(ids.count) leaf ids, expected \(leafSlots)")
        for j in 0..<leafSlots {
            precondition(j < count ? ids[j] >= 0 : ids[j] == -1, "leaf id \(j) is \(ids[j])")
        }
        precondition(levelBlocks.first == 0, "the leaves start at block 0")
        var entries = count
        for level in 0..<(levelBlocks.count - 1) {
            let parents = (entries + 15) / 16
            precondition(levelBlocks[level + 1] == levelBlocks[level] + parents, "level \(level + 1) starts at the wrong block")
            for c in 0..<(parents * 16) {
                let child = rawBox(level: level, entry: c)
                if c >= entries {
                    precondition(child.0 == .infinity && child.1 == .infinity, "unused lane \(c) of level \(level) is not empty")
                    precondition(child.2 == -.infinity && child.3 == -.infinity, "unused lane \(c) of level \(level) is not empty")
                    continue
                }
                let parent = rawBox(level: level + 1, entry: c / 16)
                precondition(
                    Self.inside(child.0, child.1, child.2, child.3, parent),
                    "entry \(c) of level \(level) sticks out of its parent")
            }
            entries = parents
        }
        precondition(entries == 1, "the top level holds \(entries) entries, expected the root alone")
        precondition(blocks.count == 64 * (levelBlocks[levelBlocks.count - 1] + 1), "the blocks array has the wrong size")
        directory._checkInvariants(self)
    }

    /// Whether box (x0, y0, x1, y1) lies inside `parent`, a NaN bound on either side excepted.
    private static func inside(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, _ parent: (Float, Float, Float, Float)) -> Bool {
        func le(_ a: Float, _ b: Float) -> Bool { a <= b || a.isNaN || b.isNaN }
        return le(parent.0, x0) && le(parent.1, y0) && le(x1, parent.2) && le(y1, parent.3)
    }
}
