/// The geometry engine: operations on ``Geometry`` values, as static functions, each written in
/// its own file as an extension (`Simplify.swift`, `Validate.swift`, …).
///
/// Every decision of the form "left of, right of or on" goes through one exact orientation
/// predicate (Shewchuk's adaptive `orient2d`), so results do not depend on rounding; there are no
/// epsilons. Polygons follow the Esri convention (y up: exteriors clockwise, holes
/// counter-clockwise) and store their rings open.
///
/// ```swift
/// let bowTie = try WKT.decode("POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))")
/// GeometryEngine.isValid(bowTie)                      // false: the edges cross
/// let fixed = GeometryEngine.simplify(bowTie)         // two triangles meeting at (5, 5)
/// GeometryEngine.area(fixed)                          // 50
/// ```
///
/// ## Topics
///
/// ### Measures
/// - ``area(_:)``
/// - ``length(_:)``
/// - ``geodesicLength(_:spatialReference:)``
/// - ``geodesicDistance(_:_:)``
///
/// ### Proximity and hit testing
/// - ``distance(from:to:)``
/// - ``contains(_:_:)`` (``PreparedPolygon`` for many queries against one polygon)
/// - ``intersects(_:_:tolerance:)``
/// - ``isWithin(_:of:_:)``
/// - ``isWithin(_:of:path:)``
/// - ``isWithin(_:of:ring:)``
/// - ``nearestVertex(to:in:)``
/// - ``nearestSegment(to:in:)``
///
/// ### Validity and repair
/// - ``validate(_:mode:)``
/// - ``isValid(_:mode:)``
/// - ``validate(_:)``
/// - ``isValid(_:)``
/// - ``isSimple(_:)-(Geometry)``
/// - ``isSimple(_:)-(WKTGeometry)``
/// - ``simplify(_:tolerance:)``
/// - ``simplify(_:spatialReference:)``
///
/// ### Projection and the antimeridian
/// - ``project(_:from:to:)-(Geometry,_,_)``
/// - ``project(_:from:to:)-(Point,_,_)``
/// - ``projectGeographicToWebMercator(_:)``
/// - ``normalizeCentralMeridian(_:spatialReference:)``
/// - ``webMercatorRadius``
/// - ``webMercatorMaxLatitude``
/// - ``webMercatorHalfWidth``
public enum GeometryEngine {}
