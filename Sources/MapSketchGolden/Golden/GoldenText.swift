package import Foundation
import MapSketchReaders
import MapSketchReplay

extension GoldenText {
    /// What reading a golden file found.
    package enum Contents: Hashable, Sendable {
        case text(String)
        case missing
        /// It exists but cannot be used: why (not UTF-8 at line:column, a folder, the system's reason).
        case unreadable(String)
    }

    /// Reads a golden file, telling a missing file from one that is not UTF-8 or cannot be read.
    /// - Complexity: O(n) in the file's size.
    package static func read(_ url: URL) -> Contents {
        let source: FileByteSource
        do {
            source = try FileByteSource(path: url.path, file: url.lastPathComponent)
        } catch let e as ReaderError {
            if case .unreadable(let reason) = e.kind { return reason == "not found" ? .missing : .unreadable(reason) }
            return .unreadable(e.message)
        } catch {
            return .unreadable("\(error)")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: POSIX.chunkBytes)
        do {
            while true {
                let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
                if n == 0 { break }
                bytes += chunk[0..<n]
            }
        } catch let e as ReaderError {
            return .unreadable(e.message)
        } catch {
            return .unreadable("\(error)")
        }
        if let text = String(validating: bytes, as: UTF8.self) { return .text(text) }
        let valid = bytes.withUnsafeBufferPointer { ByteScan.validUTF8Prefix($0) }
        let line = 1 + bytes[..<valid].filter { $0 == ASCII.lf }.count
        let column = valid - (bytes[..<valid].lastIndex(of: ASCII.lf).map { $0 + 1 } ?? 0) + 1
        return .unreadable("not UTF-8 text (line \(line), column \(column): byte 0x\(String(bytes[valid], radix: 16)))")
    }
}

/// Line-based comparison of texts that must match exactly (SVG goldens), and reading golden files.
package enum GoldenText {
    /// Characters shown before the first differing character of a long line.
    static let before = 40
    /// Characters shown from the first differing character on.
    static let after = 80

    /// The first differing line as `line N, column C differs`, then both lines — or, when a line
    /// is long, a window of both around the first differing character (`…` marks what is cut), so
    /// the two shown parts are where they differ, not their common prefix. Nil when the texts are
    /// equal.
    /// - Complexity: O(n) in the length of the texts.
    package static func firstDifference(expected: String, actual: String) -> String? {
        guard expected != actual else { return nil }
        var e = expected.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        var a = actual.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
        var lineNumber = 0
        while true {
            lineNumber += 1
            let x = e.next()
            let y = a.next()
            if x == nil && y == nil { return "the texts differ" }
            if x == y { continue }
            let xs = x.map(String.init)
            let ys = y.map(String.init)
            let column = commonPrefixLength(xs ?? "", ys ?? "")
            var s = "line \(lineNumber), column \(column + 1) differs\n"
            s += "    - expected \(xs.map { window($0, at: column) } ?? "(end of file)")\n"
            s += "    + actual   \(ys.map { window($0, at: column) } ?? "(end of file)")"
            return s
        }
    }

    /// How many characters two strings share at their start.
    static func commonPrefixLength(_ a: String, _ b: String) -> Int {
        var n = 0
        for (x, y) in zip(a, b) {
            guard x == y else { break }
            n += 1
        }
        return n
    }

    /// The part of `line` from ``before`` characters before `column` to ``after`` characters
    /// after it, with `…` where the line is cut.
    static func window(_ line: String, at column: Int) -> String {
        let chars = Array(line)
        guard chars.count > before + after else { return line }
        let start = max(0, min(column - before, chars.count - before - after))
        let end = min(chars.count, start + before + after)
        return (start > 0 ? "…" : "") + String(chars[start..<end]) + (end < chars.count ? "…" : "")
    }
}
