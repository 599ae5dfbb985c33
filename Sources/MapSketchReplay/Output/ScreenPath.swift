package import MapSketch
package import MapSketchGeometry

/// Lines drawn on screen, as the pictures of the replay library draw them (the golden diff
/// picture, the track style).
package enum ScreenPath {
    /// The screen points of a part without the vertices within half a point of the last kept
    /// one (the last vertex is always kept): a line's picture is bounded by its pixels.
    /// - Complexity: O(n).
    package static func thinned(_ part: [Point], _ toScreen: (Point) -> ScreenPoint) -> [ScreenPoint] {
        var out: [ScreenPoint] = []
        out.reserveCapacity(min(part.count, 4096))
        for (i, p) in part.enumerated() {
            let s = toScreen(p)
            if let last = out.last, i != part.count - 1, abs(s.x - last.x) < 0.5, abs(s.y - last.y) < 0.5 { continue }
            out.append(s)
        }
        return out
    }
}
