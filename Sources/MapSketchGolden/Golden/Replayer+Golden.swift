package import Foundation
import MapSketchGeometry
package import MapSketchReplay

extension Replayer {
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
