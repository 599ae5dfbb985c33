public import MapSketch
import MapSketchGeometry

/// Seeded point graphics with attributes, as columns: what a user loads in bulk (a GeoJSON
/// FeatureCollection of addresses, sensors, trees). Each point has an integer `OBJECTID` (its
/// row) and a short string `STATE` (one of the 50 US state codes: a category, interned); options
/// add a double `DENSITY` and a unique `NAME` per point. Coordinates as ``SyntheticMap`` spreads
/// them: constant density, about one point per 100 × 100 map units.
public enum PointFeatures {
    /// The 50 US state codes.
    public static let states = [
        "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
        "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND",
        "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
    ]

    /// `count` points with `OBJECTID` and `STATE`, plus `DENSITY` (a double) and `NAME` (a unique
    /// string, e.g. `"Feature 123456"`) when asked.
    /// - Complexity: O(count).
    public static func columns(count: Int, density: Bool = false, names: Bool = false, seed: UInt64 = 11)
        -> GraphicColumns
    {
        var rng = SplitMix64(seed: seed ^ UInt64(count))
        let side = (Double(count).squareRoot() * SyntheticMap.cellSize).rounded(.up)
        var x = [Double](), y = [Double](), ids = [Int](), densities = [Double](), stateIDs = [UInt32](),
            labels = [String]()
        x.reserveCapacity(count)
        y.reserveCapacity(count)
        ids.reserveCapacity(count)
        stateIDs.reserveCapacity(count)
        for i in 0..<count {
            x.append(rng.double(0, side))
            y.append(rng.double(0, side))
            ids.append(i)
            stateIDs.append(UInt32(rng.int(below: states.count)))
            if density { densities.append(rng.double(-50, 1_700)) }
            if names { labels.append("Feature \(i)") }
        }
        var attributes = [
            AttributeColumn("OBJECTID", integers: ids),
            AttributeColumn("STATE", stringIDs: stateIDs, dictionary: states),
        ]
        if density { attributes.append(AttributeColumn("DENSITY", doubles: densities)) }
        if names { attributes.append(AttributeColumn("NAME", strings: labels)) }
        return GraphicColumns(geometry: GeometryColumn(x: x, y: y), attributes: attributes)
    }
}
