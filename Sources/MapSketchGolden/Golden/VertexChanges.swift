import Foundation
import MapSketch
package import MapSketchGeometry
package import MapSketchReplay

/// One vertex that differs between a golden's geometry and the actual one.
package struct VertexChange: Hashable, Sendable {
    /// How the vertex changed.
    package enum Kind: String, Hashable, Sendable {
        /// In both, at another position (or another z / m) beyond the tolerance.
        case moved
        /// Only in the actual geometry.
        case added
        /// Only in the expected geometry.
        case removed
    }

    /// How it changed.
    package var kind: Kind
    /// The part it belongs to.
    package var part: Int
    /// Its position in the expected geometry (nil when added).
    package var expected: Point?
    /// Its position in the actual geometry (nil when removed).
    package var actual: Point?
    /// Its index in its part of the expected geometry (nil when added).
    package var expectedIndex: Int?
    /// Its index in its part of the actual geometry (nil when removed).
    package var actualIndex: Int?

    /// The planar distance between the two positions (0 when added or removed).
    package var displacement: Double {
        guard let e = expected, let a = actual else { return 0 }
        return ((a.x - e.x) * (a.x - e.x) + (a.y - e.y) * (a.y - e.y)).squareRoot()
    }
}

/// The vertices that differ between two geometries, part by part, with bounded memory: counts of
/// every kind and the first ``limit`` changes in document order.
package struct VertexChanges: Sendable {
    /// How many changes are kept with their positions.
    package static let limit = 500

    /// The first ``limit`` changes, part by part, in vertex order.
    package private(set) var kept: [VertexChange] = []
    /// Moved vertices.
    package private(set) var moved = 0
    /// Added vertices.
    package private(set) var added = 0
    /// Removed vertices.
    package private(set) var removed = 0
    /// The coordinates (x, y, z, m) of moved vertices that differ beyond the tolerance.
    package private(set) var differingNumbers = 0

    /// Every change counted.
    package var total: Int { moved + added + removed }
    /// The tolerance vertices were compared with.
    private let tolerance: GoldenTolerance

    /// The changes from `expected` to `actual`. Within each part the common prefix and suffix
    /// (equal within `tolerance`) are skipped; what lies between is aligned by a longest common
    /// subsequence when it is small (at most 600 × 600 vertices; unmatched vertices between two
    /// matches pair up as moved), and otherwise pairwise up to the shorter side with the rest
    /// added or removed.
    /// - Complexity: O(n) in the vertices, plus O(k · l) for a small unequal middle of k and l vertices.
    package init(expected: Geometry?, actual: Geometry?, tolerance: GoldenTolerance) {
        self.tolerance = tolerance
        let e = expected?.parts ?? []
        let a = actual?.parts ?? []
        for part in 0..<max(e.count, a.count) {
            diff(part: part, part < e.count ? e[part] : [], part < a.count ? a[part] : [], tolerance)
        }
    }

    private mutating func note(_ c: VertexChange) {
        switch c.kind {
        case .moved:
            moved += 1
            if let e = c.expected, let a = c.actual { differingNumbers += Self.differingNumbers(e, a, tolerance) }
        case .added: added += 1
        case .removed: removed += 1
        }
        if kept.count < Self.limit { kept.append(c) }
    }

    /// How many of the coordinates both points have differ beyond `t`.
    static func differingNumbers(_ p: Point, _ q: Point, _ t: GoldenTolerance) -> Int {
        var n = (t.matches(p.x, q.x) ? 0 : 1) + (t.matches(p.y, q.y) ? 0 : 1)
        if let a = p.z, let b = q.z, !t.matches(a, b) { n += 1 }
        if let a = p.m, let b = q.m, !t.matches(a, b) { n += 1 }
        return n
    }

    static func same(_ p: Point, _ q: Point, _ t: GoldenTolerance) -> Bool {
        t.matches(p.x, q.x) && t.matches(p.y, q.y) && optionalSame(p.z, q.z, t) && optionalSame(p.m, q.m, t)
    }

    private static func optionalSame(_ a: Double?, _ b: Double?, _ t: GoldenTolerance) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let x?, let y?): t.matches(x, y)
        default: false
        }
    }

    private mutating func diff(part: Int, _ e: [Point], _ a: [Point], _ t: GoldenTolerance) {
        var lo = 0
        while lo < e.count, lo < a.count, Self.same(e[lo], a[lo], t) { lo += 1 }
        var he = e.count
        var ha = a.count
        while he > lo, ha > lo, Self.same(e[he - 1], a[ha - 1], t) {
            he -= 1
            ha -= 1
        }
        let me = he - lo
        let ma = ha - lo
        if me > 0, ma > 0, me <= 600, ma <= 600 {
            lcs(part: part, Array(e[lo..<he]), Array(a[lo..<ha]), offset: lo, t)
        } else {
            let n = min(me, ma)
            for i in lo..<(lo + n) where !Self.same(e[i], a[i], t) {
                note(VertexChange(kind: .moved, part: part, expected: e[i], actual: a[i], expectedIndex: i, actualIndex: i))
            }
            for i in (lo + n)..<he {
                note(VertexChange(kind: .removed, part: part, expected: e[i], actual: nil, expectedIndex: i))
            }
            for i in (lo + n)..<ha { note(VertexChange(kind: .added, part: part, expected: nil, actual: a[i], actualIndex: i)) }
        }
    }

    /// Aligns two short runs by a longest common subsequence; unmatched vertices between two
    /// matches pair up as moved, the rest are removed or added.
    /// `offset` is the index in the part of the first vertex of both runs.
    private mutating func lcs(part: Int, _ e: [Point], _ a: [Point], offset: Int, _ t: GoldenTolerance) {
        let n = e.count
        let m = a.count
        var table = [Int](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i * (m + 1) + j] =
                    Self.same(e[i], a[j], t)
                    ? table[(i + 1) * (m + 1) + j + 1] + 1
                    : max(table[(i + 1) * (m + 1) + j], table[i * (m + 1) + j + 1])
            }
        }
        var i = 0
        var j = 0
        // The unmatched indices since the last match.
        var gapE: [Int] = []
        var gapA: [Int] = []
        func flush() {
            let k = min(gapE.count, gapA.count)
            for x in 0..<k {
                note(
                    VertexChange(
                        kind: .moved, part: part, expected: e[gapE[x]], actual: a[gapA[x]], expectedIndex: offset + gapE[x],
                        actualIndex: offset + gapA[x]))
            }
            for x in gapE[k...] {
                note(VertexChange(kind: .removed, part: part, expected: e[x], actual: nil, expectedIndex: offset + x))
            }
            for x in gapA[k...] {
                note(VertexChange(kind: .added, part: part, expected: nil, actual: a[x], actualIndex: offset + x))
            }
            gapE.removeAll()
            gapA.removeAll()
        }
        while i < n || j < m {
            if i < n, j < m, Self.same(e[i], a[j], t) {
                flush()
                i += 1
                j += 1
            } else if j >= m || (i < n && table[(i + 1) * (m + 1) + j] >= table[i * (m + 1) + j + 1]) {
                gapE.append(i)
                i += 1
            } else {
                gapA.append(j)
                j += 1
            }
        }
        flush()
    }
}

/// The units of a map's coordinates, for labels and scale bars.
package enum MapUnits: Hashable, Sendable {
    /// Meters (Web Mercator).
    case meters
    /// Degrees of longitude and latitude (WGS 84).
    case degrees
    /// Units the spatial reference does not say (a custom one, or none).
    case mapUnits

    /// The units of `sr`.
    package init(_ sr: SpatialReference?) {
        if sr?.isWebMercator == true {
            self = .meters
        } else if sr?.isWGS84 == true {
            self = .degrees
        } else {
            self = .mapUnits
        }
    }

    /// A distance in these units as a person reads it, to about three significant digits:
    /// `1.7 cm`, `540 m`, `0.00012° ≈ 13 m`, `2.5 map units`.
    package func format(_ d: Double) -> String {
        switch self {
        case .meters: return Self.metric(d)
        case .degrees:
            // One degree of latitude is about 111.32 km; enough to say how far a change is.
            return Self.significant(d) + "° ≈ " + Self.metric(d * 111_320)
        case .mapUnits: return Self.significant(d) + " map units"
        }
    }

    /// A length in meters in the unit that gives a value of at least 1 (nm … km).
    static func metric(_ m: Double) -> String {
        let a = abs(m)
        if a == 0 { return "0 m" }
        for (unit, factor) in [("km", 1000.0), ("m", 1), ("cm", 0.01), ("mm", 0.001), ("µm", 1e-6)] where a >= factor {
            return significant(m / factor) + " " + unit
        }
        return significant(m / 1e-9) + " nm"
    }

    /// `v` with about three significant digits, in plain decimal notation (at most 12 decimals).
    static func significant(_ v: Double) -> String {
        guard v.isFinite, v != 0 else { return "0" }
        let magnitude = Int(log10(abs(v)).rounded(.down))
        let decimals = max(0, min(12, 2 - magnitude))
        return fixed(v, decimals: decimals)
    }

    /// `v` rounded to `decimals` decimals, trailing zeros dropped.
    static func fixed(_ v: Double, decimals: Int) -> String {
        if decimals <= 6 || abs(v) >= 1e6 { return SVGNumber.format(v, decimals: min(decimals, 6)) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let n = Int64((abs(v) * scale).rounded())
        if n == 0 { return "0" }
        var digits = String(n)
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
        var whole = String(digits.dropLast(decimals))
        var frac = String(digits.suffix(decimals))
        while frac.hasSuffix("0") { frac.removeLast() }
        if whole.isEmpty { whole = "0" }
        return (v < 0 ? "-" : "") + whole + (frac.isEmpty ? "" : "." + frac)
    }
}
