import MapSketchGeometry

/// One graphic hit by a map hit test.
public struct HitTestResult: Hashable, Sendable {
    /// The name of the graphic's layer.
    public var layerName: String
    /// The graphic.
    public var graphicID: GraphicID

    /// Creates a result.
    public init(layerName: String, graphicID: GraphicID) {
        self.layerName = layerName
        self.graphicID = graphicID
    }
}

extension MapView {
    /// The graphics under a screen point within `tolerance` points, topmost first: layers top to
    /// bottom, then the last added first. Hidden layers, layers not loaded or not displayed, and
    /// layers with ``GraphicsLayer/isHitTestEnabled`` off are skipped.
    ///
    /// Symbol-aware: a marker hits within half its size (squares: their box; pictures and text:
    /// their box), a line within half its width, a polygon inside (even-odd) or within half its
    /// outline width of a ring, each plus the tolerance. With ``wrapAround`` on, every world copy
    /// on screen is tested.
    ///
    /// At most `maxResults` results, the topmost ones: 0 returns none.
    /// - Precondition: `maxResults` ≥ 0 (as for ``GraphicsLayer/hitTest(mapPoint:tolerance:resolution:maxResults:)``).
    /// - Complexity: O(L · (log n + k)) for L graphics layers, n graphics per layer and k
    ///   candidates near the point.
    public func hitTest(at screen: ScreenPoint, tolerance: Double = 10, maxResults: Int = .max) -> [HitTestResult] {
        guard hitTestLimit(maxResults) > 0 else { return [] }
        let q = toMap(screen)
        let resolution = viewport.resolution
        // The world copies on screen (one unless wrap-around shows several), without allocating.
        let copies = worldCopies
        var out: [HitTestResult] = []
        for layer in layers.reversed() {
            guard layer.isDrawn, let name = layer.name else { continue }
            var ids: [GraphicID]
            if copies.count == 1 {
                ids = layer.graphicHits(
                    at: Point(x: q.x - copies.shift(0), y: q.y), tolerance: tolerance, resolution: resolution)
            } else {
                ids = []
                for k in 0..<copies.count {
                    let shift = copies.shift(k)
                    ids += layer.graphicHits(
                        at: Point(x: q.x - shift, y: q.y), tolerance: tolerance, resolution: resolution)
                }
                ids = Array(Set(ids)).sorted(by: >)
            }
            if ids.isEmpty { continue }
            out.reserveCapacity(out.count + ids.count)
            for id in ids {
                out.append(HitTestResult(layerName: name, graphicID: id))
                if out.count >= maxResults { return out }
            }
        }
        return out
    }
}

/// The hit tests' `maxResults`, checked: a count of results, 0 or more (0 returns none).
func hitTestLimit(_ maxResults: Int) -> Int {
    precondition(maxResults >= 0, "hitTest: maxResults must be 0 or more, found \(maxResults)")
    return maxResults
}
