import MapSketchReplay
public import MapSketchGeometry
import Foundation

/// The geometry type of the graphics in a ``SyntheticMap``.
public enum GraphicKind: String, CaseIterable, Sendable {
    /// Single points (markers).
    case point
    /// Short polylines of 2–4 vertices, segments up to ``SyntheticMap/featureSize`` long.
    case polyline
    /// Small star-shaped polygons of 4–8 vertices, clockwise (Esri exterior orientation), open.
    case polygon
}

/// A seeded, deterministic set of graphics in a square, stored flat (one coordinate buffer).
///
/// The density is constant: the square's side grows with √count so that a graphic has about one
/// neighbour per 100 × 100 map units whatever the count. A hit test then returns about the same
/// number of graphics at every size, and its time shows the index's complexity, not the output
/// size. Both MapSketch and GEOS are fed from the same flat buffers, so they see identical data.
///
/// - Complexity: O(count) to generate; 16 bytes per vertex plus 4 bytes per graphic.
public struct SyntheticMap: Sendable {
    /// Map units per side of the cell that holds one graphic on average.
    public static let cellSize = 100.0
    /// The largest extent of a polyline segment or polygon radius, in map units.
    public static let featureSize = 30.0

    /// The geometry type of every graphic.
    public let kind: GraphicKind
    /// The seed the data was made from.
    public let seed: UInt64
    /// The square all graphics lie in.
    public let extent: Envelope
    /// Vertex coordinates, x then y, for every graphic in order.
    public let coordinates: [Double]
    /// `offsets[i] ..< offsets[i + 1]` are the vertex indices of graphic `i`; `count + 1` entries.
    public let offsets: [Int32]

    /// The number of graphics.
    public var count: Int { offsets.count - 1 }
    /// The number of vertices over all graphics.
    public var vertexCount: Int { coordinates.count / 2 }

    /// Generates `count` graphics of `kind`, the same ones for the same seed on every machine.
    public init(kind: GraphicKind, count: Int, seed: UInt64 = 0x4D61_7053_6B65_7463) {
        precondition(count >= 1 && count < Int(Int32.max) / 8, "count out of range")
        self.kind = kind
        self.seed = seed
        let side = (Double(count).squareRoot() * SyntheticMap.cellSize).rounded(.up)
        extent = Envelope(xmin: 0, ymin: 0, xmax: side, ymax: side)
        var rng = SplitMix64(seed: seed ^ UInt64(count) &* 0x9E37_79B9)
        var coords: [Double] = []
        var offs: [Int32] = [0]
        let perGraphic = kind == .point ? 1 : (kind == .polyline ? 3 : 6)
        coords.reserveCapacity(count * perGraphic * 2)
        offs.reserveCapacity(count + 1)
        let r = SyntheticMap.featureSize
        for _ in 0..<count {
            let cx = rng.double(0, side)
            let cy = rng.double(0, side)
            switch kind {
            case .point:
                coords.append(cx)
                coords.append(cy)
            case .polyline:
                let n = 2 + rng.int(below: 3)
                var x = cx
                var y = cy
                for _ in 0..<n {
                    coords.append(x)
                    coords.append(y)
                    x = min(max(x + rng.double(-r, r), 0), side)
                    y = min(max(y + rng.double(-r, r), 0), side)
                }
            case .polygon:
                // Star-shaped about (cx, cy): angles decreasing make the ring clockwise (y up).
                let n = 4 + rng.int(below: 5)
                for k in 0..<n {
                    let angle = -2 * Double.pi * (Double(k) + rng.double(0.1, 0.9)) / Double(n)
                    let radius = rng.double(0.4 * r, r)
                    coords.append(min(max(cx + radius * cos(angle), 0), side))
                    coords.append(min(max(cy + radius * sin(angle), 0), side))
                }
            }
            offs.append(Int32(coords.count / 2))
        }
        coordinates = coords
        offsets = offs
    }

    /// The vertices of graphic `i`.
    public func vertices(of i: Int) -> [Point] {
        (Int(offsets[i])..<Int(offsets[i + 1])).map { Point(x: coordinates[2 * $0], y: coordinates[2 * $0 + 1]) }
    }

    /// Graphic `i` as a MapSketch geometry.
    public func geometry(_ i: Int) -> Geometry {
        switch kind {
        case .point: .point(Point(x: coordinates[2 * Int(offsets[i])], y: coordinates[2 * Int(offsets[i]) + 1]))
        case .polyline: .polyline(Polyline(paths: [vertices(of: i)]))
        case .polygon: .polygon(Polygon(rings: [vertices(of: i)]))
        }
    }

    /// `count` seeded hit-test query points: half on or beside a vertex of a random graphic (so a
    /// query usually hits), half uniform in the extent (so most of those miss), interleaved.
    public func queryPoints(_ count: Int, seed: UInt64 = 7) -> [Point] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { q in
            if q % 2 == 0 {
                let g = rng.int(below: self.count)
                let v = Int(offsets[g])
                return Point(x: coordinates[2 * v] + rng.double(-2, 2), y: coordinates[2 * v + 1] + rng.double(-2, 2))
            }
            return Point(x: rng.double(extent.xmin, extent.xmax), y: rng.double(extent.ymin, extent.ymax))
        }
    }
}
