package import Foundation
package import MapSketchGeometry

/// Reads input files and says why one cannot be read — not found, a folder, permission denied —
/// in the words every command prints.
package enum InputFile {
    /// Why `path` cannot be read as a file (`"not found"`, `"is a folder, expected a file"`,
    /// `"permission denied"`), or nil when it is a readable file.
    package static func problem(at path: String) -> String? {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return "not found" }
        if isDir.boolValue { return "is a folder, expected a file" }
        guard FileManager.default.isReadableFile(atPath: path) else { return "permission denied" }
        return nil
    }

    /// The bytes of `url`.
    /// - Throws: `InputError` at `displayName`:1:1 saying why the file cannot be read.
    package static func contents(of url: URL, displayName: String) throws(InputError) -> Data {
        if let why = problem(at: url.path) {
            throw InputError(file: displayName, line: 1, column: 1, message: "cannot read the file: \(why)")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw InputError(file: displayName, line: 1, column: 1, message: "cannot read the file")
        }
        return data
    }

    /// `url`'s path as a person should see it: relative to the current directory when inside it.
    package static func displayPath(_ url: URL) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let p = url.standardizedFileURL.path
        return p.hasPrefix(cwd + "/") ? String(p.dropFirst(cwd.count + 1)) : p
    }
}
