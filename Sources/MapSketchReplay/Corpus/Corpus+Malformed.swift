import Foundation
import MapSketch
import MapSketchGeometry

extension Corpus {
    // MARK: malformed/

    static func malformed() -> [Entry] {
        let h = #"{"t":0,"type":"header","format":"mapsketch-trace","version":1,"name":"bad","sketch":{"geometryType":"polyline"}}"#
        let cases: [(String, [String])] = [
            ("malformed/syntax-trailing-comma", [h, #"{"t":0.1,"type":"touch","phase":"began","x":1,"y":2,}"#]),
            ("malformed/syntax-unterminated-string", [h, #"{"t":0.1,"type":"touch","phase":"began,"x":1,"y":2}"#]),
            ("malformed/empty-file", [""]),
            ("malformed/missing-header", [#"{"t":0.1,"type":"touch","phase":"began","x":1,"y":2}"#]),
            ("malformed/unsupported-version", [#"{"t":0,"type":"header","version":7}"#]),
            ("malformed/unknown-event-type", [h, #"{"t":0.1,"type":"swipe","x":1,"y":2}"#]),
            ("malformed/bad-touch-phase", [h, #"{"t":0.1,"type":"touch","phase":"down","x":1,"y":2}"#]),
            ("malformed/missing-coordinate", [h, #"{"t":0.1,"type":"touch","phase":"began","x":1}"#]),
            ("malformed/time-goes-backwards", [h, #"{"t":0.5,"type":"undo"}"#, #"{"t":0.2,"type":"redo"}"#]),
            ("malformed/negative-time", [h, #"{"t":-1,"type":"undo"}"#]),
            ("malformed/unknown-member", [h, #"{"t":0.1,"type":"undo","count":3}"#]),
            ("malformed/string-for-number", [h, #"{"t":0.1,"type":"touch","phase":"began","x":"12","y":2}"#]),
            ("malformed/sketch-geometry-type-mismatch", [#"{"t":0,"type":"header","version":1,"sketch":{"geometryType":"polygon","geometry":{"paths":[[[0,0],[1,1]]]}}}"#]),
            ("malformed/bad-color", [#"{"t":0,"type":"header","version":1,"layers":[{"name":"a","renderer":{"type":"simple","symbol":{"type":"marker","color":"red"}}}]}"#]),
            ("malformed/latitude-out-of-range", [h, #"{"t":1,"type":"gps","lat":95,"lon":10}"#]),
            ("malformed/zero-resolution", [#"{"t":0,"type":"header","version":1,"viewport":{"center":{"x":0,"y":0},"resolution":0}}"#]),
            ("malformed/duplicate-layer-name", [#"{"t":0,"type":"header","version":1,"layers":[{"name":"pois"},{"name":"pois"}]}"#]),
            ("malformed/geometry-bad-coordinates", [h, #"{"t":1,"type":"setGeometry","geometry":{"paths":[[[0,0],[1,"a"]]]}}"#]),
        ]
        return cases.map { Entry(path: $0.0, text: $0.1.joined(separator: "\n") + "\n") }
    }
}
