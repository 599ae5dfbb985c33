import MapSketch
package import MapSketchGeometry

extension ReplaySession {
    /// Installs the session's ``extensions`` in registration order, each with its context.
    func installExtensions() {
        for (index, registration) in extensions.registrations.enumerated() {
            registration.install(
                ReplayExtensionContext(
                    mapView: mapView, sketch: sketch, kindName: ReplayExtensions.kindPrefix + registration.name, index: index,
                    probe: probe, keeper: extensionKeeper))
        }
    }
}

extension ReplaySession {
    /// The log's entries so far, each a JSON object with `t` and `event` (the step viewer's
    /// per-step log).
    package var logEntries: [JSONValue] { log.entries }
}
