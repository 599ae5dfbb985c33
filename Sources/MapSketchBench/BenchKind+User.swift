package import MapSketchReplay

extension BenchKind {
    /// The kinds of a team's own code (``ReplayExtensions``): `user.<name>` for each
    /// registration, in registration order, reported after every built-in kind (by name).
    package static func userKinds(of extensions: ReplayExtensions) -> [BenchKind] {
        zip(extensions.names, extensions.kindNames).map { name, kindName in
            BenchKind(kindName, builtIn.count, "the team's own code registered as \(name)")
        }
    }

    /// Whether this is a user kind (`user.<name>`).
    package var isUserKind: Bool { name.hasPrefix(ReplayExtensions.kindPrefix) }
}
