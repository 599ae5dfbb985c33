public import Foundation
public import MapSketchGeometry

/// Replays trace files: read, set up, run on the virtual clock, report.
@MainActor
public enum Replayer {
    /// Reads a trace file, streaming it a line at a time.
    /// - Throws: ``TraceError`` (file:line:column: what was expected), including for a file that
    ///   cannot be read (saying why: not found, a folder, permission, the system's reason) or a
    ///   line that is not UTF-8.
    public static func load(_ url: URL, displayName: String? = nil) throws(TraceError) -> Trace {
        let file = displayName ?? url.lastPathComponent
        let source: FileByteSource
        do {
            source = try FileByteSource(path: url.path, file: file)
        } catch let e as ReaderError {
            throw TraceError(e, file: file)
        } catch {
            throw TraceError(file: file, line: 1, column: 1, message: "cannot read the file: \(error)")
        }
        return try TraceDecoder.decode(source: source, file: file)
    }

    /// Replays a trace to its end (or to `step` events) and returns the session.
    /// - Throws: ``TraceError`` for a trace that cannot be read or set up.
    public static func replay(_ trace: Trace, name: String, file: String, upTo step: Int? = nil) throws(TraceError) -> ReplaySession {
        let session: ReplaySession
        do {
            session = try ReplaySession(trace: trace, name: name)
        } catch {
            throw TraceError(file: file, line: error.line, column: 1, message: error.message)
        }
        session.run(upTo: step)
        return session
    }

    /// What a golden case produces: the output document and the SVG (at the header's
    /// `svgStep` or the end). A trace that cannot be read produces `{"error": "…"}`, which is
    /// the golden output of the malformed corpus.
    ///
    /// The document names the trace by its file name without `.trace.jsonl`, so the output does
    /// not depend on which folder `check` was pointed at.
    public static func rendering(for c: GoldenCase) -> GoldenRendering {
        let file = c.trace.lastPathComponent
        let name = String(file.dropLast(GoldenCorpus.traceSuffix.count))
        do {
            let trace = try load(c.trace)
            let session = try replay(trace, name: name, file: file, upTo: trace.header.options.svgStep)
            let svg = session.svg()
            session.run()
            return GoldenRendering(json: session.output().json, svg: svg)
        } catch {
            let doc: JSONValue = ["trace": .string(name), "error": .string(error.description)]
            return GoldenRendering(json: JSONWriter.string(doc, style: .pretty) + "\n", svg: nil)
        }
    }
}
