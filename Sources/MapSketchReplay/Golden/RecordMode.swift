public import Foundation

/// When a golden check writes golden files, after the record modes of snapshot-testing tools
/// (swift-snapshot-testing, insta, Jest). The raw values are the names on the command line and in
/// the environment.
public enum RecordMode: String, CaseIterable, Hashable, Sendable {
    /// Compare, never write a golden: what `check` and `swift test` do unless asked to record.
    case never
    /// Record the goldens that do not exist yet and compare the others. Not available yet: a
    /// ``GoldenRunner`` in this mode fails every case, naming the mode.
    case missing
    /// Record the goldens that are missing or differ. Not available yet, as ``missing``.
    case failed
    /// Record every golden: `mapsketch check --update`, `MAPSKETCH_RECORD=1 swift test`.
    case all

    /// The mode `environment` asks for: ``all`` when `MAPSKETCH_RECORD` is `1`, else ``never``.
    public static func requested(by environment: [String: String] = ProcessInfo.processInfo.environment) -> RecordMode {
        environment["MAPSKETCH_RECORD"] == "1" ? .all : .never
    }
}
