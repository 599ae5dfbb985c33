package import MapSketchGeometry
package import MapSketchReplay

extension GoldenOverlay.Input {
    /// An input from two geometries (either may be absent) in one spatial reference.
    package init(
        name: String, expected: Geometry?, actual: Geometry?, tolerance: GoldenTolerance, differingNumbers: Int = 0,
        spatialReference: SpatialReference?
    ) {
        self.name = name
        self.expected = expected
        self.actual = actual
        self.tolerance = tolerance
        self.differingNumbers = differingNumbers
        units = MapUnits(spatialReference)
    }
}
