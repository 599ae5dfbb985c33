import ArgumentParser
import Foundation
import MapSketchReplay

struct CorpusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "corpus",
        abstract: "Regenerate the corpus traces under DIR from code and from DIR/real (goldens are not touched).",
        discussion: """
            For developing MapSketch itself: the corpus generator is this repository's code, so the command is \
            not listed in the help. Review the diff, then check and accept the goldens (`mapsketch check DIR`, \
            `mapsketch accept`).
            """,
        shouldDisplay: false)

    @Argument(help: "The corpus folder.")
    var dir: String = "Traces"

    mutating func run() async throws {
        let root = URL(fileURLWithPath: dir).standardizedFileURL
        let entries = Corpus.all(root: root) { CLI.printError("corpus: \($0)") }
        var written = 0
        for e in entries {
            let url = root.appendingPathComponent(e.path + ".trace.jsonl")
            if (try? String(contentsOf: url, encoding: .utf8)) == e.text { continue }
            try CLI.write(e.text, to: url.path)
            written += 1
        }
        var byFolder: [String: Int] = [:]
        for e in entries { byFolder[String(e.path.split(separator: "/").first ?? ""), default: 0] += 1 }
        print("\(entries.count) traces (\(written) written): " + byFolder.keys.sorted().map { "\($0) \(byFolder[$0] ?? 0)" }.joined(separator: ", "))
    }
}
