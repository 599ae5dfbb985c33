import MapSketch

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
