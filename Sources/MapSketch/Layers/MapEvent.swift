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
    public var title: String { content.title }
    /// The detail line.
    public var detail: String { content.detail }

    /// Creates a callout.
    public init(layerName: String, graphicID: GraphicID, content: CalloutContent, mapPoint: Point) {
        self.layerName = layerName
        self.graphicID = graphicID
        self.content = content
        self.mapPoint = mapPoint
    }
}

/// A graphic whose resolved symbol cannot draw its geometry type: reported, never silently
/// skipped.
public struct SymbolMismatch: Hashable, Sendable, CustomStringConvertible {
    /// The layer's name in its map, if it is in one.
    public var layerName: String?
    /// The graphic.
    public var graphicID: GraphicID
    /// The symbol's kind.
    public var symbolKind: SymbolKind
    /// The geometry's type.
    public var geometryType: GeometryType
    /// Whether the symbol came from the renderer (false: the graphic's own symbol).
    public var fromRenderer: Bool

    /// Creates a mismatch report.
    public init(layerName: String?, graphicID: GraphicID, symbolKind: SymbolKind, geometryType: GeometryType, fromRenderer: Bool) {
        self.layerName = layerName
        self.graphicID = graphicID
        self.symbolKind = symbolKind
        self.geometryType = geometryType
        self.fromRenderer = fromRenderer
    }

    public var description: String {
        "graphic \(graphicID)\(layerName.map { " in layer \"\($0)\"" } ?? ""): a \(symbolKind) symbol\(fromRenderer ? " from the renderer" : "") cannot draw a \(geometryType)"
    }
}

/// What a gesture is doing to the viewport.
public enum MapNavigation: Hashable, Sendable {
    /// Not navigating.
    case idle
    /// A one-finger pan is under way.
    case panning
    /// A pinch zoom is under way.
    case zooming
}

/// Something that happened in a map, in the order it happened: the map's event log.
public enum MapEvent: Hashable, Sendable {
    /// A gesture was recognised and dispatched.
    case gesture(Gesture)
    /// A layer joined the map.
    case layerAdded(name: String)
    /// A layer left the map.
    case layerRemoved(name: String)
    /// A layer finished loading.
    case layerLoaded(name: String)
    /// A layer failed to load.
    case layerFailedToLoad(name: String, error: LayerError)
    /// A loaded layer cannot be displayed or met an error (its view's `error`).
    case layerError(name: String, error: LayerError)
    /// A callout appeared.
    case calloutShown(Callout)
    /// A callout went away.
    case calloutDismissed(Callout)
    /// A graphic could not be drawn with its symbol.
    case symbolMismatch(SymbolMismatch)
}

extension MapView {
    /// Adds an observer of every map event; returns a token for ``removeEventObserver(_:)``.
    /// Observers are called synchronously, in the order they were added, after ``eventHandler``.
    @discardableResult
    public func addEventObserver(_ handler: @escaping @MainActor (MapEvent) -> Void) -> Int {
        nextObserverID += 1
        eventObservers.append((nextObserverID, handler))
        return nextObserverID
    }

    /// Removes an observer added with ``addEventObserver(_:)``.
    public func removeEventObserver(_ token: Int) {
        eventObservers.removeAll { $0.id == token }
    }

    /// Posts an event to the handler and the observers.
    func emit(_ event: MapEvent) {
        eventHandler?(event)
        for o in eventObservers { o.handler(event) }
    }

    /// A layer finished loading: the lowest layer with a spatial reference sets the map's (when
    /// the map has none yet); a tiled layer in another spatial reference is marked not displayed.
    func layerDidLoad(_ layer: Layer) {
        guard let name = layer.name else { return }
        // The basemap rule: the lowest layer with a spatial reference sets the map's.
        if spatialReference == nil, let sr = layer.spatialReference,
            layers.prefix(while: { $0 !== layer }).allSatisfy({ $0.spatialReference == nil })
        {
            spatialReference = sr
        }
        emit(.layerLoaded(name: name))
        layerDelegate?.mapView(self, didLoad: layer)
        layer.checkSpatialReference(in: self)
        if let reason = layer.notDisplayedReason { emit(.layerError(name: name, error: reason)) }
    }

    /// A layer failed to load.
    func layerFailedToLoad(_ layer: Layer, error: LayerError) {
        guard let name = layer.name else { return }
        emit(.layerFailedToLoad(name: name, error: error))
        layerDelegate?.mapView(self, failedToLoad: layer, error: error)
    }

    /// Records an error met by a loaded layer on its view and posts it.
    public func report(_ error: LayerError, for layer: Layer) {
        layer.view.error = error
        if let name = layer.name { emit(.layerError(name: name, error: error)) }
    }
}
