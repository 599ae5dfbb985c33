import MapSketchGeometry

/// Errors of the layer stack.
public enum MapViewError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A layer of this name is already in the map.
    case duplicateLayerName(String)
    /// An insertion index outside `0...count`.
    case layerIndexOutOfRange(index: Int, count: Int)
    /// No layer of this name is in the map.
    case noSuchLayer(String)
    /// The layer already belongs to a map (under this name).
    case layerAlreadyInAMap(String)

    public var description: String {
        switch self {
        case .duplicateLayerName(let n): "a layer named \"\(n)\" is already in the map (names must be unique)"
        case .layerIndexOutOfRange(let i, let n): "layer index \(i) out of range 0...\(n)"
        case .noSuchLayer(let n): "no layer named \"\(n)\""
        case .layerAlreadyInAMap(let n): "the layer is already in a map (as \"\(n)\")"
        }
    }
}

/// Hears about layers loading, as `AGSMapViewLayerDelegate` does.
@MainActor
public protocol MapLayerDelegate: AnyObject {
    /// `layer` finished loading.
    func mapView(_ mapView: MapView, didLoad layer: Layer)
    /// `layer` failed to load with `error`.
    func mapView(_ mapView: MapView, failedToLoad layer: Layer, error: LayerError)
}

extension MapLayerDelegate {
    /// Does nothing.
    public func mapView(_ mapView: MapView, didLoad layer: Layer) {}
    /// Does nothing.
    public func mapView(_ mapView: MapView, failedToLoad layer: Layer, error: LayerError) {}
}

extension MapView {
    // MARK: Layer stack

    /// The layer names, bottom to top.
    package var layerNames: [String] { layers.compactMap(\.name) }

    /// The layer with this name.
    /// - Complexity: O(n) for n layers.
    public func layer(named name: String) -> Layer? {
        // A plain loop: a closure formed here would carry a main-actor executor check per call.
        for layer in layers where layer.name == name { return layer }
        return nil
    }

    /// Adds a layer on top.
    /// - Throws: ``MapViewError/duplicateLayerName(_:)`` when the name is taken.
    public func addLayer(_ layer: Layer, named name: String) throws {
        try insertLayer(layer, named: name, at: layers.count)
    }

    /// Inserts a layer at `index` (0 = bottom).
    public func insertLayer(_ layer: Layer, named name: String, at index: Int) throws {
        guard layer.mapView == nil else { throw MapViewError.layerAlreadyInAMap(layer.name ?? "") }
        guard !layers.contains(where: { $0.name == name }) else { throw MapViewError.duplicateLayerName(name) }
        guard index >= 0, index <= layers.count else {
            throw MapViewError.layerIndexOutOfRange(index: index, count: layers.count)
        }
        layer.name = name
        layer.mapView = self
        layers.insert(layer, at: index)
        invalidateSnapLinks()
        if spatialReference == nil, layers.count == 1, let sr = layer.spatialReference {
            spatialReference = sr
        }
        emit(.layerAdded(name: name))
        layer.didMove(to: self)
    }

    /// Removes the layer with this name and returns it.
    @discardableResult
    public func removeLayer(named name: String) throws -> Layer {
        guard let i = layers.firstIndex(where: { $0.name == name }) else { throw MapViewError.noSuchLayer(name) }
        let layer = layers.remove(at: i)
        invalidateSnapLinks()
        if let c = callout, c.layerName == name { dismissCallout() }
        layer.mapView = nil
        layer.name = nil
        layer.didLeave(self)
        emit(.layerRemoved(name: name))
        return layer
    }

    // MARK: Layer loading

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
    package func report(_ error: LayerError, for layer: Layer) {
        layer.view.error = error
        if let name = layer.name { emit(.layerError(name: name, error: error)) }
    }
}
