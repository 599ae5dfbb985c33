public import MapSketchGeometry

/// A callout on screen: which graphic it belongs to and what it shows.
public struct Callout: Hashable, Sendable {
    /// The name of the layer holding the graphic.
    public var layerName: String
    /// The graphic's id in that layer.
    public var graphicID: GraphicID
    /// The title, detail and custom content the graphic's info template produced.
    public var content: CalloutContent
    /// Where the callout points: the tapped map point.
    public var mapPoint: Point

    /// The title line.
    package var title: String { content.title }
    /// The detail line.
    package var detail: String { content.detail }

    /// Creates a callout.
    package init(layerName: String, graphicID: GraphicID, content: CalloutContent, mapPoint: Point) {
        self.layerName = layerName
        self.graphicID = graphicID
        self.content = content
        self.mapPoint = mapPoint
    }
}

extension MapView {
    /// Shows the callout of the topmost graphic under `screen` that has an info template, in a
    /// layer with callouts on; otherwise dismisses the callout on screen. Called for every tap
    /// the touch delegate allows callouts for.
    /// - Returns: the callout shown, if any.
    @discardableResult
    public func showCallout(forTapAt screen: ScreenPoint) -> Callout? {
        let mapPoint = toMap(screen)
        for hit in measure(.mapHitTest, { hitTest(at: screen, tolerance: calloutHitTolerance) }) {
            guard
                let content = layer(named: hit.layerName)?.calloutContent(
                    for: hit.graphicID, screen: screen, mapPoint: mapPoint)
            else { continue }
            let c = Callout(layerName: hit.layerName, graphicID: hit.graphicID, content: content, mapPoint: mapPoint)
            showCallout(c)
            return c
        }
        dismissCallout()
        return nil
    }

    /// Shows `callout`, replacing (and dismissing) the one on screen.
    public func showCallout(_ c: Callout) {
        if callout != nil { dismissCallout() }
        callout = c
        emit(.calloutShown(c))
    }

    /// Hides the callout on screen, if any.
    public func dismissCallout() {
        guard let c = callout else { return }
        callout = nil
        emit(.calloutDismissed(c))
    }
}
