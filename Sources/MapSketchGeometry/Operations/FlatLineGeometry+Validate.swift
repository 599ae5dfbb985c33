// Validation of a big multipoint or polyline straight from its JSON text.

extension FlatLineGeometry {
    /// ``GeometryEngine/validate(_:mode:)`` of the geometry read from `text` (the text
    /// ``decode(_:format:)`` read), straight from the text: its coordinates are finite, so a
    /// multipoint is valid and a polyline has an issue for each path without two distinct
    /// vertices.
    /// - Complexity: O(n) in the coordinates' text; memory O(issues).
    package func validate(in text: UnsafeBufferPointer<UInt8>) -> [ValidationIssue] {
        guard type == .polyline else { return [] }
        var v = Validator()
        var first = (0.0, 0.0)
        var distinct = false
        let sizes = partSizes
        forEachVertex(in: text) { part, index, x, y in
            if index == 0 {
                first = (x, y)
                distinct = false
            } else if !distinct, !(x == first.0 && y == first.1) {
                distinct = true
            }
            if index == sizes[part] - 1, !distinct { v.checkLineSize([Point(first.0, first.1)], part: part) }
        }
        return v.issues
    }
}
