import Foundation
import MapSketchGeometry
import MapSketchTestSupport

/// Douglas–Peucker the plain way, for comparing ``GeometryEngine/generalize(_:maxDeviation:)``
/// against: every vertex of a split measured, in index order, `d > best` (the first of the
/// farthest wins), with the squared distance to the segment written out as the library's doc
/// comment states it. Returns the kept indices in order.
func referenceGeneralize(_ points: [Point], maxDeviation: Double) -> [Int] {
    let n = points.count
    guard n > 2 else { return Array(0..<n) }
    let tolerance = maxDeviation > 0 ? maxDeviation : 0
    let limit = tolerance * tolerance
    var keep = [Bool](repeating: false, count: n)
    keep[0] = true
    keep[n - 1] = true
    var splits = [(0, n - 1)]
    while let (i, j) = splits.popLast() {
        guard j > i + 1 else { continue }
        var best = limit, farthest = -1
        for k in (i + 1)..<j {
            let d = referenceDistance2(points[k], points[i], points[j])
            if d > best {
                best = d
                farthest = k
            }
        }
        guard farthest >= 0 else { continue }
        keep[farthest] = true
        splits.append((farthest, j))
        splits.append((i, farthest))
    }
    return (0..<n).filter { keep[$0] }
}

/// The squared distance from `q` to the segment `a`–`b`, as the library's doc comment states it.
func referenceDistance2(_ q: Point, _ a: Point, _ b: Point) -> Double {
    let vx = b.x - a.x, vy = b.y - a.y
    let l2 = vx * vx + vy * vy
    var t = l2 > 0 ? ((q.x - a.x) * vx + (q.y - a.y) * vy) / l2 : 0
    t = min(1, max(0, t))
    let cx = t == 0 ? a.x : (t == 1 ? b.x : a.x + t * vx)
    let cy = t == 0 ? a.y : (t == 1 ? b.y : a.y + t * vy)
    let ex = q.x - cx, ey = q.y - cy
    return ex * ex + ey * ey
}

/// Whether two point lists are the same bit for bit (NaN included).
func sameBits(_ a: [Point], _ b: [Point]) -> Bool {
    a.count == b.count
        && zip(a, b).allSatisfy {
            $0.x.bitPattern == $1.x.bitPattern && $0.y.bitPattern == $1.y.bitPattern
                && $0.z?.bitPattern == $1.z?.bitPattern && $0.m?.bitPattern == $1.m?.bitPattern
        }
}

/// The kinds of stroke the randomized comparison draws, each at a size and scale of its own.
enum StrokeShape: CaseIterable, Sendable, CustomStringConvertible {
    /// Steps of up to ±1 in x and y (the freehand benchmark's kind), near the origin.
    case randomWalk
    /// The same far from the origin (Web Mercator metres) and with steps from 10⁻³ to 10².
    case offsetWalk
    /// Unit steps on the integer grid: many vertices exactly as far as others.
    case gridWalk
    /// Every vertex on one straight line, exactly (integer multiples) or only up to rounding.
    case straightLine
    /// Alternating sides of a straight line by one height: every vertex tied with the others.
    case zigZag
    /// Laps round a circle, first vertex on the last.
    case closedLoop
    /// A walk whose every vertex repeats up to three times.
    case duplicates
    /// Runs of equally spaced vertices on one line each, turning between runs.
    case collinearRuns
    /// A flat run with spikes, some of the same height.
    case spikes
    /// Coordinates too large (beyond 2²⁵⁰), too small (below 2⁻²⁰⁰) or of a chord too short to
    /// bound: the plain scan.
    case extremeScales

    var description: String {
        switch self {
        case .randomWalk: "random walk"
        case .offsetWalk: "offset walk"
        case .gridWalk: "grid walk"
        case .straightLine: "straight line"
        case .zigZag: "zig-zag"
        case .closedLoop: "closed loop"
        case .duplicates: "duplicates"
        case .collinearRuns: "collinear runs"
        case .spikes: "spikes"
        case .extremeScales: "extreme scales"
        }
    }

    /// A stroke of `n` vertices of this shape, and the typical size of its wiggles (tolerances
    /// are drawn around it).
    func stroke(_ n: Int, _ rng: inout SeededRandom) -> (points: [Point], scale: Double) {
        switch self {
        case .randomWalk:
            return (walk(n, step: 1, origin: Point(0, 0), &rng), 1)
        case .offsetWalk:
            let step = [1e-3, 0.5, 100][rng.int(in: 0...2)]
            let origin = Point(rng.double(in: -2e7...2e7), rng.double(in: -2e7...2e7))
            return (walk(n, step: step, origin: origin, &rng), step)
        case .gridWalk:
            var x = 0.0, y = 0.0
            return ((0..<n).map { _ in
                x += Double(rng.int(in: -1...1))
                y += Double(rng.int(in: -1...1))
                return Point(x, y)
            }, 1)
        case .straightLine:
            let exact = rng.int(in: 0...1) == 0
            let (dx, dy) = exact ? (Double(rng.int(in: 1...3)), Double(rng.int(in: -3...3))) : (0.1, 1.0 / 3)
            return ((0..<n).map { Point(Double($0) * dx, Double($0) * dy) }, 1e-9)
        case .zigZag:
            let h = Double(rng.int(in: 1...4))
            return ((0..<n).map { Point(Double($0), $0 % 2 == 0 ? h : -h) }, h)
        case .closedLoop:
            let laps = Double(rng.int(in: 1...3)), r = rng.double(in: 1...100)
            let ring = (0..<max(n - 1, 0)).map { k -> Point in
                let a = 2 * Double.pi * laps * Double(k) / Double(max(n - 1, 1))
                return Point(r * cos(a) + rng.double(in: -0.01...0.01) * r, r * sin(a))
            }
            return (n == 0 ? [] : ring + [ring.first ?? Point(r, 0)], r / 10)
        case .duplicates:
            var out: [Point] = []
            for p in walk(n, step: 1, origin: Point(0, 0), &rng) where out.count < n {
                out.append(contentsOf: repeatElement(p, count: min(rng.int(in: 1...3), n - out.count)))
            }
            return (out, 1)
        case .collinearRuns:
            var out: [Point] = [], p = Point(0, 0)
            while out.count < n {
                let dx = Double(rng.int(in: -2...2)), dy = Double(rng.int(in: -2...2))
                for _ in 0..<min(rng.int(in: 1...40), n - out.count) {
                    p = Point(p.x + dx, p.y + dy)
                    out.append(p)
                }
            }
            return (out, 2)
        case .spikes:
            return ((0..<n).map { k in
                let spike = rng.int(in: 0...40) == 0
                return Point(Double(k), spike ? Double(rng.int(in: 1...3)) * 5 : rng.double(in: -0.5...0.5))
            }, 5)
        case .extremeScales:
            switch rng.int(in: 0...2) {
            case 0: return (walk(n, step: 1e70, origin: Point(1e80, -1e80), &rng), 1e70)
            case 1: return (walk(n, step: 1e-70, origin: Point(0, 0), &rng), 1e-70)
            default:
                // A loop that comes back within 10⁻¹⁰ of where it started, 10³ away.
                var points = walk(max(n - 1, 0), step: 1, origin: Point(1000, 1000), &rng)
                if let first = points.first { points.append(Point(first.x + 1e-10, first.y)) }
                return (points, 1)
            }
        }
    }

    private func walk(_ n: Int, step: Double, origin: Point, _ rng: inout SeededRandom) -> [Point] {
        var p = origin
        return (0..<n).map { _ in
            p = Point(p.x + rng.double(in: -step...step), p.y + rng.double(in: -step...step))
            return p
        }
    }
}
