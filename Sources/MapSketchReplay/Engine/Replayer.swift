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
        var trace = try TraceDecoder.decode(source: source, file: file)
        trace.files = TraceFiles(trace: url, displayName: file)
        return trace
    }

    /// The text of a trace file.
    /// - Throws: ``TraceError`` when the file cannot be read, or at the first line that is not
    ///   UTF-8 (or that fails to decode before it).
    package static func text(of url: URL, displayName file: String) throws(TraceError) -> String {
        let data = try InputFile.contents(of: url, displayName: file)
        guard let text = String(validating: data, as: UTF8.self) else {
            // The streaming decoder locates the first byte that is not UTF-8.
            _ = try TraceDecoder.decode(source: MemoryByteSource([UInt8](data)), file: file)
            throw TraceError(file: file, line: 1, column: 1, message: "expected UTF-8 text")
        }
        return text
    }

    /// Replays a trace to its end (or to `step` events) and returns the session;
    /// `extensions` (the team's own code) are installed in the session.
    /// - Throws: ``TraceError`` for a trace that cannot be read or set up.
    public static func replay(
        _ trace: Trace, name: String, file: String, upTo step: Int? = nil, extensions: ReplayExtensions = .none
    ) throws(TraceError) -> ReplaySession {
        let session: ReplaySession
        do {
            session = try ReplaySession(trace: trace, name: name, extensions: extensions)
        } catch {
            throw TraceError(file: file, line: error.line, column: error.column, message: error.message)
        }
        session.run(upTo: step)
        return session
    }

    /// What a golden case produces: the output document and the SVG (at the header's
    /// `svgStep` or the end), the trace's tolerance and refused calls.
    ///
    /// A trace that cannot be read or set up is a `GoldenProblem.inputError` (located at
    /// the case's ``GoldenCase/displayPath``) — unless its first line declares that error
    /// (`expect.error`), in which case the document is `{"trace": …, "error": "…"}`, the golden
    /// output of the malformed corpus. A trace that declares an error and does not fail with it
    /// is a `GoldenProblem.unmetExpectation`.
    ///
    /// The document names the trace by its file name without `.trace.jsonl`, so the output does
    /// not depend on which folder `check` was pointed at.
    ///
    /// `extensions` (the team's own code) are installed in the replay.
    package static func rendering(for c: GoldenCase, extensions: ReplayExtensions = .none, layerRoot: URL? = nil) -> GoldenRendering {
        let file = c.trace.lastPathComponent
        let name = String(file.dropLast(GoldenCorpus.traceSuffix.count))
        let text: String
        do {
            text = try Self.text(of: c.trace, displayName: c.displayPath)
        } catch {
            return GoldenRendering(problem: .inputError(error))
        }
        let digest = PendingOrigin.digest(of: text.utf8)
        do {
            var trace = try TraceDecoder.decode(text, file: file)
            trace.files = TraceFiles(trace: c.trace, displayName: c.displayPath, layerRoot: layerRoot)
            let expected = trace.header.expect.error
            let session = try replay(
                trace, name: name, file: file, upTo: expected != nil ? 0 : trace.header.options.svgStep, extensions: extensions)
            if let expected {
                return GoldenRendering(
                    problem: .unmetExpectation(
                        "\(c.displayPath): expected the trace to fail with an error containing \"\(expected)\" (expect.error), but it reads and sets up"))
            }
            let svg = session.svg()
            session.run()
            var rendering = GoldenRendering(
                json: session.output().json, svg: svg, tolerance: trace.header.expect.tolerance ?? .standard,
                refusals: session.refusals, spatialReference: session.mapView.spatialReference)
            rendering.traceDigest = digest
            return rendering
        } catch {
            guard let declared = TraceExpectation.declared(inTraceText: Substring(text)), let expected = declared.error else {
                var located = error
                located.file = c.displayPath
                return GoldenRendering(problem: .inputError(located))
            }
            guard declared.matches(error) else {
                return GoldenRendering(
                    problem: .unmetExpectation(
                        "\(c.displayPath): expected an error containing \"\(expected)\" (expect.error), found \(error.description)"))
            }
            let doc: JSONValue = ["trace": .string(name), "error": .string(error.description)]
            var rendering = GoldenRendering(
                json: JSONWriter.string(doc, style: .pretty) + "\n", tolerance: declared.tolerance ?? .standard)
            rendering.traceDigest = digest
            return rendering
        }
    }
}
