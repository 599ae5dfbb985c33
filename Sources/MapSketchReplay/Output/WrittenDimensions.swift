package import MapSketchGeometry

/// The one rule for the heights (z) and measures (m) of a sketch that `replay` and `gps` write as
/// Esri JSON, GeoJSON or WKT: a value is written only when **every vertex has one** — a track
/// is 3-D only when every kept fix has an elevation — else the geometry is written without it,
/// in all three formats alike, and the caller says how many vertices lacked it. (Left to
/// themselves the formats disagree: WKT drops z unless every vertex has one, GeoJSON writes each
/// position with or without its own, Esri JSON writes `null` heights.) A geometry without a
/// vertex keeps its flags.
///
/// ```swift
/// let d = WrittenDimensions(store)     // 14 vertices, 7 with z
/// d.hasZ                               // false
/// d.missingZ                           // 7
/// GeometryFormat.wkt.encode(SpatialGeometry(d.applied(to: store.geometry)))   // LINESTRING (…)
/// ```
package struct WrittenDimensions: Hashable, Sendable {
    /// The vertices counted.
    package private(set) var vertices = 0
    /// Vertices with a z.
    package private(set) var withZ = 0
    /// Vertices with an m.
    package private(set) var withM = 0
    private var flagZ = false, flagM = false

    /// Counts the vertices of a sketch's store.
    /// - Complexity: O(n) in the vertices.
    package init(_ store: VertexStore) {
        (flagZ, flagM) = (store.hasZ, store.hasM)
        for part in store.parts {
            for p in part { count(p) }
        }
    }

    /// Counts the vertices of a geometry.
    /// - Complexity: O(n) in the vertices.
    package init(_ geometry: Geometry) {
        switch geometry {
        case .multipoint(let g): (flagZ, flagM) = (g.hasZ, g.hasM)
        case .polyline(let g): (flagZ, flagM) = (g.hasZ, g.hasM)
        case .polygon(let g): (flagZ, flagM) = (g.hasZ, g.hasM)
        case .point, .envelope: break
        }
        for part in geometry.parts {
            for p in part { count(p) }
        }
    }

    private mutating func count(_ p: Point) {
        vertices += 1
        if p.z != nil { withZ += 1 }
        if p.m != nil { withM += 1 }
    }

    /// Whether z is written: every vertex has one (without a vertex, the geometry's flag).
    package var hasZ: Bool { vertices > 0 ? withZ == vertices : flagZ }
    /// Whether m is written: every vertex has one (without a vertex, the geometry's flag).
    package var hasM: Bool { vertices > 0 ? withM == vertices : flagM }
    /// Vertices without a z among vertices with one (then no z is written); 0 otherwise.
    package var missingZ: Int { withZ > 0 && withZ < vertices ? vertices - withZ : 0 }
    /// Vertices without an m among vertices with one (then no m is written); 0 otherwise.
    package var missingM: Int { withM > 0 && withM < vertices ? vertices - withM : 0 }

    /// `g` (the geometry counted) as it is written: z and m removed from every vertex, and the
    /// flags cleared, where not every vertex has them; unchanged otherwise.
    /// - Complexity: O(n) in the vertices when something is removed, else O(1).
    package func applied(to g: Geometry) -> Geometry {
        let dropZ = !hasZ && (withZ > 0 || flagZ), dropM = !hasM && (withM > 0 || flagM)
        guard dropZ || dropM else { return g }
        var out = g.mapPoints { p in
            var q = p
            if dropZ { q.z = nil }
            if dropM { q.m = nil }
            return q
        }
        switch out {
        case .multipoint(var m):
            if dropZ { m.hasZ = false }
            if dropM { m.hasM = false }
            out = .multipoint(m)
        case .polyline(var l):
            if dropZ { l.hasZ = false }
            if dropM { l.hasM = false }
            out = .polyline(l)
        case .polygon(var r):
            if dropZ { r.hasZ = false }
            if dropM { r.hasM = false }
            out = .polygon(r)
        case .point, .envelope: break
        }
        return out
    }
}
