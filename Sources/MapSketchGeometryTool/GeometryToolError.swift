public import MapSketchGeometry

/// Input the geometry tool cannot use: where (file, 1-based line and column) and what was
/// expected, e.g. `<stdin>:1:12: y: expected a number, found a string`.
public typealias GeometryToolError = InputError
