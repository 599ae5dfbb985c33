extension PackedRTree {
    /// Checks the tree's invariants (every child inside its parent, unused lanes empty); traps on
    /// a violation. For tests and debug builds.
    public func _checkInvariants() {
        guard count > 0 else { return }
        var entries = count
        for level in 0..<(levelBlocks.count - 1) {
            let parents = (entries + 15) / 16
            for c in 0..<(parents * 16) {
                let child = rawBox(level: level, entry: c)
                if c >= entries {
                    precondition(child.0 == .infinity && child.1 == .infinity, "unused lane \(c) of level \(level) is not empty")
                    precondition(child.2 == -.infinity && child.3 == -.infinity, "unused lane \(c) of level \(level) is not empty")
                    continue
                }
                let parent = rawBox(level: level + 1, entry: c / 16)
                precondition(child.0 >= parent.0 && child.1 >= parent.1, "entry \(c) of level \(level) sticks out of its parent")
                precondition(child.2 <= parent.2 && child.3 <= parent.3, "entry \(c) of level \(level) sticks out of its parent")
            }
            entries = parents
        }
        precondition(entries == 1, "the top level holds \(entries) entries, expected the root alone")
    }
}
