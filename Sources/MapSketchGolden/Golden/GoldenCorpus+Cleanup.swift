package import Foundation
import MapSketchReplay

extension GoldenCorpus {
    /// Removes the temporary files that runs killed mid-write (`check --update`, a mismatch's
    /// actual output) left in the folders of `cases`, the folders `check` writes to: see
    /// `AtomicFile.removeStaleTemporaryFiles(in:olderThan:now:)` for which files count as stale.
    /// - Returns: the files removed, by folder then name.
    /// - Complexity: O(f) for f entries in those folders.
    package static func removeStaleTemporaryFiles(besides cases: [GoldenCase]) -> [URL] {
        let folders = Set(cases.map { $0.trace.deletingLastPathComponent().standardizedFileURL.path }).sorted()
        return folders.flatMap { folder in
            let url = URL(fileURLWithPath: folder)
            return AtomicFile.removeStaleTemporaryFiles(in: url).map { url.appendingPathComponent($0) }
        }
    }
}
