// Seeded synthetic layer files: points, lines or polygons with attributes, written a feature at a
// time as a GeoJSON FeatureCollection or GeoJSON Lines.
import MapSketchGeometry
import MapSketchReaders

/// Makes seeded, deterministic layer files for a trace's layer `source`: the same seed, count,
/// shape and format give byte-identical bytes on every machine (SplitMix64, IEEE-only
/// arithmetic, coordinates rounded to 7 decimals of a degree, GeoJSON written by the project's
/// encoder).
///
/// Features lie in a box of `width` × `height` degrees around `longitude`, `latitude` (WGS 84,
/// RFC 7946). A point is uniform in the box; a polyline a walk of 2 to 6 vertices with steps of
/// up to `size` degrees; a polygon a star-shaped ring of 4 to 8 vertices around a uniform centre,
/// at radii of 0.4 to 1 × `size` (written counter-clockwise, as RFC 7946 asks). Each feature's properties
/// are `id` (1, 2, …), `kind` (one of ``kinds``) and `rank` (1 to 5).
///
/// The bytes go to `write` a chunk at a time: nothing holds the whole file.
///
/// ```swift
/// let g = LayerGenerator(shape: .polygon)
/// try g.generate(count: 1_000, seed: 7, format: .lines) { chunk in try file.write(chunk) }
/// ```
package struct LayerGenerator: Hashable, Sendable {
    /// The geometry of every feature.
    package enum Shape: String, Hashable, Sendable, CaseIterable {
        case point, polyline, polygon
    }

    /// The values of the `kind` property.
    package static let kinds = ["residential", "commercial", "park", "water", "road"]

    /// The shape of the features.
    package var shape: Shape
    /// The box's centre longitude in degrees (default 14.5).
    package var longitude = 14.5
    /// The box's centre latitude in degrees (default 46.05).
    package var latitude = 46.05
    /// The box's width in degrees of longitude (default 0.2).
    package var width = 0.2
    /// The box's height in degrees of latitude (default 0.1).
    package var height = 0.1
    /// The largest step of a polyline and radius of a polygon, in degrees (default 0.0005).
    package var size = 0.0005

    /// A generator of `shape` features with the defaults above.
    package init(shape: Shape) { self.shape = shape }

    /// Writes `count` features made from `seed` in `format`, handing `write` the bytes a chunk of
    /// about ``POSIX/chunkBytes`` at a time.
    /// - Throws: what `write` throws.
    /// - Complexity: O(count); memory O(1).
    package func generate(
        count: Int, seed: UInt64, format: TraceLayerSource.Format, _ write: ([UInt8]) throws -> Void
    ) throws {
        precondition(count >= 0, "a layer has no negative number of features")
        var rng = SplitMix64(seed: seed)
        var out: [UInt8] = []
        out.reserveCapacity(POSIX.chunkBytes + 1024)
        let collection = format == .featureCollection
        if collection { out.append(contentsOf: Array(#"{"type":"FeatureCollection","features":["#.utf8) + [ASCII.lf]) }
        for i in 0..<count {
            if collection, i > 0 { out.append(contentsOf: [UInt8(ascii: ","), ASCII.lf]) }
            let feature: JSONValue = [
                "type": "Feature",
                "geometry": GeoJSON.jsonValue(wgs84: geometry(&rng)),
                "properties": [
                    "id": .integer(Int64(i + 1)),
                    "kind": .string(Self.kinds[rng.nextInt(in: 0...(Self.kinds.count - 1))]),
                    "rank": .integer(Int64(rng.nextInt(in: 1...5))),
                ],
            ]
            out.append(contentsOf: JSONWriter.bytes(feature))
            if !collection { out.append(ASCII.lf) }
            if out.count >= POSIX.chunkBytes {
                try write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        if collection { out.append(contentsOf: (count > 0 ? [ASCII.lf] : []) + Array("]}".utf8) + [ASCII.lf]) }
        if !out.isEmpty { try write(out) }
    }

    /// Unit vectors of the eight compass directions, counter-clockwise from east (constants, so
    /// no trigonometry of the platform's library decides a coordinate).
    private static let directions: [(Double, Double)] = [
        (1, 0), (0.7071067811865476, 0.7071067811865476), (0, 1), (-0.7071067811865476, 0.7071067811865476),
        (-1, 0), (-0.7071067811865476, -0.7071067811865476), (0, -1), (0.7071067811865476, -0.7071067811865476),
    ]

    /// `d` rounded to 7 decimals (about a centimetre).
    private static func round7(_ d: Double) -> Double { (d * 1e7).rounded() / 1e7 }

    private func point(_ x: Double, _ y: Double) -> Point { Point(Self.round7(x), Self.round7(y)) }

    private func geometry(_ rng: inout SplitMix64) -> Geometry {
        let cx = longitude + (rng.nextUnit() - 0.5) * width
        let cy = latitude + (rng.nextUnit() - 0.5) * height
        switch shape {
        case .point:
            return .point(point(cx, cy))
        case .polyline:
            var x = cx
            var y = cy
            var path = [point(x, y)]
            for _ in 1..<rng.nextInt(in: 2...6) {
                x += rng.nextDouble(in: -size...size)
                y += rng.nextDouble(in: -size...size)
                path.append(point(x, y))
            }
            return .polyline(Polyline(paths: [path]))
        case .polygon:
            // A subset of the eight directions, clockwise (the Esri way; the encoder writes it
            // counter-clockwise): a star-shaped, so simple, ring.
            var chosen = Array((0..<8).reversed())
            for _ in 0..<(8 - rng.nextInt(in: 4...8)) { chosen.remove(at: rng.nextInt(in: 0...(chosen.count - 1))) }
            let ring = chosen.map { k -> Point in
                let r = size * rng.nextDouble(in: 0.4...1)
                return point(cx + r * Self.directions[k].0, cy + r * Self.directions[k].1)
            }
            return .polygon(Polygon(rings: [ring]))
        }
    }
}
