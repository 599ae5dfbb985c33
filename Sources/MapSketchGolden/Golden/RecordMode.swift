import Foundation
package import MapSketchReplay

/// When a golden check writes golden files, after the record modes of snapshot-testing tools
/// (swift-snapshot-testing, insta, Jest). The raw values are the names on the command line and in
/// the environment.
///
/// No mode ever records an error: a trace that cannot be read or set up is an input error unless
/// its header declares that error (``TraceExpectation/error``).
public enum RecordMode: String, CaseIterable, Hashable, Sendable {
    /// Compare, never write a golden: what `check` and `swift test` do unless asked to record. A
    /// missing golden fails; the output is left as a pending `NAME.actual.json` to review and
    /// accept (`mapsketch accept`).
    case never
    /// Record the goldens that do not exist yet and compare the others.
    case missing
    /// Record the goldens that are missing or differ (numbers beyond the tolerance, other
    /// structure); leave the ones that match alone.
    case failed
    /// Rewrite only the goldens that drifted: those the output matches within the tolerance but
    /// not byte for byte (`GoldenStatus.drifted`). Missing and differing goldens fail as
    /// with ``never``.
    case drifted
    /// Record every golden whose bytes differ: `mapsketch check --update`,
    /// `MAPSKETCH_RECORD=all swift test`.
    case all

    /// Whether a missing golden is recorded in this mode.
    package var recordsMissing: Bool { self == .missing || self == .failed || self == .all }
    /// Whether a golden that differs is re-recorded in this mode.
    package var recordsFailures: Bool { self == .failed || self == .all }
    /// Whether a golden that drifted (matches within the tolerance, not byte for byte) is
    /// rewritten in this mode.
    package var recordsDrift: Bool { self == .drifted || self == .all }

    /// Whether `environment` is a CI run: `CI` is set to anything but empty, `0` or `false`, as
    /// CI services (GitHub Actions, GitLab, Buildkite, CircleCI, Travis) set it.
    package static func isCI(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let ci = environment["CI"]?.lowercased() else { return false }
        return !["", "0", "false"].contains(ci)
    }

    /// The mode a run uses: `requested` (the command line's `--record`/`--update`), else the
    /// environment's `MAPSKETCH_RECORD` (a mode name, or `1` for ``all``), else ``never`` — and
    /// always ``never`` on CI (``isCI(_:)``), where nothing is ever recorded. `note` says when a
    /// request was overruled.
    /// - Throws: ``OutputError`` naming `MAPSKETCH_RECORD` when it holds something else.
    package static func resolve(
        requested: RecordMode? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(OutputError) -> (mode: RecordMode, note: String?) {
        var mode = requested ?? .never
        if requested == nil, let value = environment["MAPSKETCH_RECORD"], !value.isEmpty {
            if value == "1" {
                mode = .all
            } else if let m = RecordMode(rawValue: value) {
                mode = m
            } else {
                throw OutputError(
                    path: "MAPSKETCH_RECORD",
                    message: "expected never, missing, failed, drifted, all or 1, found \"\(value)\"")
            }
        }
        if mode != .never, isCI(environment) {
            return (.never, "CI is set: recording (\(mode.rawValue)) is off, goldens are only compared")
        }
        return (mode, nil)
    }

    /// The mode `environment` asks for, as ``resolve(requested:environment:)`` without a request;
    /// ``never`` when `MAPSKETCH_RECORD` holds something unknown. What the corpus tests use.
    package static func requested(by environment: [String: String] = ProcessInfo.processInfo.environment) -> RecordMode {
        (try? resolve(environment: environment))?.mode ?? .never
    }
}
