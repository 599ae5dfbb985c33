import MapSketchGeometry

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
}
