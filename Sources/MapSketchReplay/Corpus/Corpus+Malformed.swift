import Foundation
import MapSketch
import MapSketchGeometry

extension Corpus {
    // MARK: malformed/

    /// Traces that must fail, each declaring the error it fails with (`expect.error`, appended
    /// to its first line so the columns of errors on that line stay those of the bad member).
    static func malformed() -> [Entry] {
        // The first line with `"expect":{"error":…}` added as its last member.
        func declaring(_ line: String, _ error: String) -> String {
            String(line.dropLast()) + #","expect":{"error":"# + JSONWriter.string(.string(error)) + "}}"
        }
        let h = #"{"t":0,"type":"header","format":"mapsketch-trace","version":1,"name":"bad","sketch":{"geometryType":"polyline"}}"#
        let cases: [(String, [String], String)] = [
            ("malformed/syntax-trailing-comma", [h, #"{"t":0.1,"type":"touch","phase":"began","x":1,"y":2,}"#], "2:53: trailing comma before '}' is not allowed"),
            ("malformed/syntax-unterminated-string", [h, #"{"t":0.1,"type":"touch","phase":"began,"x":1,"y":2}"#], "2:41: expected ',' or '}' after object member"),
            ("malformed/missing-header", [#"{"t":0.1,"type":"touch","phase":"began","x":1,"y":2}"#], "1:17: type: expected the first line to be the header"),
            ("malformed/unsupported-version", [#"{"t":0,"type":"header","version":7}"#], "1:34: version: expected format version 1, 2, 3, 4 or 5, found 7"),
            ("malformed/unknown-event-type", [h, #"{"t":0.1,"type":"swipe","x":1,"y":2}"#], "2:17: type: expected one of"),
            ("malformed/bad-touch-phase", [h, #"{"t":0.1,"type":"touch","phase":"down","x":1,"y":2}"#], "2:33: phase: expected one of"),
            ("malformed/missing-coordinate", [h, #"{"t":0.1,"type":"touch","phase":"began","x":1}"#], #"2:1: missing member "y": expected a number"#),
            ("malformed/time-goes-backwards", [h, #"{"t":0.5,"type":"undo"}"#, #"{"t":0.2,"type":"redo"}"#], "3:6: t: expected a time ≥ 0.5 (the previous line's), found 0.2"),
            ("malformed/touch-ends-before-it-began", [h, #"{"t":1,"type":"touch","phase":"began","x":200,"y":200}"#, #"{"t":0.9,"type":"touch","phase":"ended","x":200,"y":200}"#], "3:6: t: expected a time ≥ 1 (the previous line's), found 0.9"),
            ("malformed/end-needs-version-5", [h, #"{"t":1,"type":"end"}"#], #"2:15: type: expected a line of format version 1; "end" needs "version":5 in the header"#),
            ("malformed/line-after-end", [#"{"t":0,"type":"header","version":5,"sketch":{"geometryType":"polyline"}}"#, #"{"t":1,"type":"end"}"#, #"{"t":2,"type":"undo"}"#], #"3:1: expected the "end" line (line 2) to be the trace's last, found another line after it"#),
            ("malformed/negative-time", [h, #"{"t":-1,"type":"undo"}"#], "2:6: t: expected a time ≥ 0 seconds, found -1"),
            ("malformed/unknown-member", [h, #"{"t":0.1,"type":"undo","count":3}"#], #"2:32: count: unknown member "count""#),
            ("malformed/string-for-number", [h, #"{"t":0.1,"type":"touch","phase":"began","x":"12","y":2}"#], "2:45: x: expected a number, found a string"),
            ("malformed/sketch-geometry-type-mismatch", [#"{"t":0,"type":"header","version":1,"sketch":{"geometryType":"polygon","geometry":{"paths":[[[0,0],[1,1]]]}}}"#], "1:82: sketch.geometry: expected a polygon geometry"),
            ("malformed/bad-color", [#"{"t":0,"type":"header","version":1,"layers":[{"name":"a","renderer":{"type":"simple","symbol":{"type":"marker","color":"red"}}}]}"#], "1:120: layers[0].renderer.symbol.color: expected a color"),
            ("malformed/latitude-out-of-range", [h, #"{"t":1,"type":"gps","lat":95,"lon":10}"#], "2:27: lat: expected a latitude in -90...90, found 95"),
            ("malformed/zero-resolution", [#"{"t":0,"type":"header","version":1,"viewport":{"center":{"x":0,"y":0},"resolution":0}}"#], "1:84: viewport.resolution: expected a positive resolution"),
            ("malformed/set-viewport-negative-resolution", [h, #"{"t":1,"type":"setViewport","viewport":{"resolution":-2}}"#], "viewport.resolution: expected a positive resolution (map units per point), found -2"),
            ("malformed/negative-levels-of-undo", [#"{"t":0,"type":"header","version":1,"sketch":{"geometryType":"polyline"},"options":{"levelsOfUndo":-1}}"#], "options.levelsOfUndo: expected 0 (unbounded) or more levels, found -1"),
            ("malformed/duplicate-layer-name", [#"{"t":0,"type":"header","version":1,"layers":[{"name":"pois"},{"name":"pois"}]}"#], #"the header cannot be set up: a layer named "pois" is already in the map"#),
            ("malformed/tool-call-needs-version-3", [h, #"{"t":0.1,"type":"setTool","tool":"freehand"}"#], #"2:17: type: expected a call of format version 1; "setTool" needs "version":3 in the header"#),
            ("malformed/validation-option-needs-version-3", [#"{"t":0,"type":"header","version":2,"sketch":{"geometryType":"polygon"},"options":{"validation":{"minimumArea":10}}}"#], #"options.validation: expected no "validation" in a version 2 trace: the option needs "version":3"#),
            ("malformed/unknown-tool", [#"{"t":0,"type":"header","version":3,"sketch":{"geometryType":"polyline"}}"#, #"{"t":0.1,"type":"setTool","tool":"lasso"}"#], #"2:34: tool: expected one of "vertex", "freehand", "shape", "reticle", found "lasso""#),
            ("malformed/snapping-option-needs-version-4", [#"{"t":0,"type":"header","version":3,"sketch":{"geometryType":"polyline"},"options":{"snapping":{"tolerance":10}}}"#], #"options.snapping: expected no "snapping" in a version 3 trace: the option needs "version":4"#),
            ("malformed/snapping-negative-tolerance", [#"{"t":0,"type":"header","version":4,"sketch":{"geometryType":"polyline"},"options":{"snapping":{"tolerance":-2}}}"#], "options.snapping.tolerance: expected a tolerance ≥ 0 points, found -2"),
            ("malformed/snapping-guide-angle-out-of-range", [#"{"t":0,"type":"header","version":4,"sketch":{"geometryType":"polyline"}}"#, #"{"t":0.1,"type":"setSnapping","guides":{"perpendicular":true,"angleTolerance":120}}"#], "guides.angleTolerance: expected an angle tolerance of 0 to 90 degrees, found 120"),
            ("malformed/snapping-layer-without-name", [#"{"t":0,"type":"header","version":4,"sketch":{"geometryType":"polyline"},"options":{"snapping":{"layers":[{"vertices":false}]}}}"#], #"options.snapping.layers[0]: missing member "name": expected a string"#),
            ("malformed/snapping-unknown-member", [#"{"t":0,"type":"header","version":4,"sketch":{"geometryType":"polyline"}}"#, #"{"t":0.1,"type":"setSnapping","tolerence":12}"#], #"2:43: tolerence: unknown member "tolerence""#),
            ("malformed/geometry-bad-coordinates", [h, #"{"t":1,"type":"setGeometry","geometry":{"paths":[[[0,0],[1,"a"]]]}}"#], "2:60: geometry.paths[0][1][1]: expected a number, found a string"),
        ]
        return cases.map { path, lines, error in
            var lines = lines
            lines[0] = declaring(lines[0], error)
            return Entry(path: path, text: lines.joined(separator: "\n") + "\n")
        }
    }
}
