import MapSketchGeometry

// What the map's events and touches print: short English for logs and debugging
// (`tap at (120.0, 80.0)`, `layer "Cities" added`), not Swift's type dump.

extension Gesture: CustomStringConvertible {
    /// The gesture in words: `tap at (x, y)`, `hold at (x, y)`, `pan (x, y) → (x, y)`,
    /// `pinch about (x, y), scale 1.5`, `pinch ended`, …
    public var description: String {
        switch self {
        case .tap(let p): "tap at \(p)"
        case .holdBegan(let p): "hold at \(p)"
        case .holdMoved(let p): "hold moved to \(p)"
        case .holdEnded(let p): "hold ended at \(p)"
        case .holdCancelled: "hold cancelled"
        case .pan(let from, let to): "pan \(from) → \(to)"
        case .panEnded: "pan ended"
        case .pinch(let step): "pinch \(step)"
        case .pinchEnded: "pinch ended"
        }
    }
}

extension PinchStep: CustomStringConvertible {
    /// `about (x, y) from (x0, y0), scale 1.5`, with `, rotation 10.0°` when the fingers turned.
    public var description: String {
        var s = "about \(focalPoint)"
        if focalPoint != startFocalPoint { s += " from \(startFocalPoint)" }
        s += ", scale \(scale)"
        if rotation != 0 { s += ", rotation \(rotation)°" }
        return s
    }
}

extension TouchEvent: CustomStringConvertible {
    /// `finger 0 began at (x, y) at 0.1 s`.
    public var description: String { "finger \(id) \(phase) at \(location) at \(time) s" }
}

extension Callout: CustomStringConvertible {
    /// The graphic and what it shows: `"Cities" #3: "Minneapolis" "Pop. 382578"` (the detail
    /// when there is one).
    public var description: String {
        var s = "\(layerName.debugDescription) \(graphicID): \(title.debugDescription)"
        if !detail.isEmpty { s += " \(detail.debugDescription)" }
        return s
    }
}

extension MapEvent: CustomStringConvertible {
    /// The event in words: the gesture (`tap at (x, y)`), `layer "Cities" added`,
    /// `callout shown: "Cities" #3: "Minneapolis"`, …
    public var description: String {
        switch self {
        case .gesture(let g): g.description
        case .layerAdded(let name): "layer \(name.debugDescription) added"
        case .layerRemoved(let name): "layer \(name.debugDescription) removed"
        case .layerLoaded(let name): "layer \(name.debugDescription) loaded"
        case .layerFailedToLoad(let name, let error): "layer \(name.debugDescription) failed to load: \(error)"
        case .layerError(let name, let error): "layer \(name.debugDescription): \(error)"
        case .calloutShown(let c): "callout shown: \(c)"
        case .calloutDismissed(let c): "callout dismissed: \(c)"
        case .symbolMismatch(let m): "symbol mismatch: \(m)"
        }
    }
}

extension SnapTarget: CustomStringConvertible {
    /// What and where: `vertex 2 of part 0 of the sketch at (10.0 20.0)`,
    /// `edge 0 of part 0 of "Parcels" #4 at (…)`, `perpendicular guide from segment 1 of part 0
    /// of the sketch at (…)`.
    public var description: String {
        let what: String
        switch kind {
        case .vertex: what = "vertex \(index)"
        case .edge: what = "edge \(index)"
        case .guide(let g): what = "\(g.rawValue) guide from segment \(index)"
        }
        let source: String
        switch self.source {
        case .sketch: source = "the sketch"
        case .layer(let name, let graphic): source = "\(name.debugDescription) \(graphic)"
        }
        return "\(what) of part \(part) of \(source) at \(point)"
    }
}
