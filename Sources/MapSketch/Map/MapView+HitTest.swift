import MapSketchGeometry

/// One graphic hit by a map hit test: the layer and the graphic's id, and through them the
/// graphic itself and the symbol it is drawn with, as `AGSMapView`'s hit test hands back graphics.
///
/// ```swift
/// if let hit = map.hitTest(at: ScreenPoint(x: 120, y: 80)).first, let graphic = hit.graphic {
///     print(hit, graphic.attributes["NAME"] ?? .null)   // "Cities" #12 "Minneapolis"
///     let symbol = hit.resolvedSymbol                    // what it is drawn with
/// }
/// ```
///
/// The result keeps the layer, not a copy of the graphic: a hit test builds no graphic (a layer
/// stores its graphics column by column), and ``graphic`` and ``resolvedSymbol`` read the layer
/// when asked, so they show the graphic as it is then (nil once it was removed). Two results are
/// equal when they name the same graphic of the same layer.
public struct HitTestResult: Hashable, Sendable, CustomStringConvertible {
    /// The name of the graphic's layer.
    public let layerName: String
    /// The graphic's id in its layer.
    public let graphicID: GraphicID
    /// The layer holding the graphic (a ``GraphicsLayer``).
    public let layer: Layer

    /// A result for graphic `graphicID` of `layer`, which the map knows as `layerName`.
    package init(layer: Layer, layerName: String, graphicID: GraphicID) {
        self.layer = layer
        self.layerName = layerName
        self.graphicID = graphicID
    }

    /// The graphic now: its geometry, symbol, attributes and info template, built from the
    /// layer; nil when it is no longer in the layer.
    /// - Complexity: the graphic's vertices and the layer's attribute fields.
    @MainActor public var graphic: Graphic? { layer.hitGraphic(graphicID) }

    /// The symbol the graphic is drawn with now: its own, else its layer renderer's; nil when it
    /// has neither or is no longer in the layer.
    @MainActor public var resolvedSymbol: Symbol? { layer.hitSymbol(graphicID) }

    public static func == (a: HitTestResult, b: HitTestResult) -> Bool {
        a.graphicID == b.graphicID && a.layer === b.layer && a.layerName == b.layerName
    }

    public func hash(into h: inout Hasher) {
        h.combine(layerName)
        h.combine(graphicID)
    }

    /// The layer's name and the graphic's id, e.g. `"Cities" #12`.
    public var description: String { "\(layerName.debugDescription) \(graphicID)" }
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
                out.append(HitTestResult(layer: layer, layerName: name, graphicID: id))
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
