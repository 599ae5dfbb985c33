// Seeded synthetic GPS tracks: a smooth path with Gaussian noise, drop-outs and antimeridian
// crossings.
import MapSketchGeometry
package import MapSketchReaders


/// Makes seeded, deterministic GPS tracks: the same seed and settings give identical fixes on
/// every machine (SplitMix64, Box–Muller, IEEE-only trigonometry).
///
/// The true path starts at `start`, moves `speed` m/s for `interval` s per fix along a heading
/// that wanders by N(0, `turnRate`) degrees per fix, stepping on a sphere of
/// `GPSFilter.earthRadius` (north/east increments divided by the radius and cos(latitude));
/// longitudes are wrapped into [−180, 180), so a track heading east from 179.9° crosses the
/// antimeridian. Each reported fix is the true position plus independent N(0, `noise`) meters
/// north and east (`horizontalAccuracy` = `noise`), elevation plus N(0, `noise`). A drop-out
/// starts at each fix with probability `dropoutProbability` and skips a uniform number of fixes
/// in `dropoutLength`: time and the true path go on, no fixes are reported (a gap).
///
/// ```swift
/// var g = GPSTrackGenerator(latitude: 46.05, longitude: 14.5)
/// g.noise = 3
/// let fixes = g.generate(count: 1000, seed: 1)
/// let crossing = GPSTrackGenerator.antimeridianCrossing().generate(count: 200, seed: 2)
/// ```
package struct GPSTrackGenerator: Hashable, Sendable, Codable {
    /// Start latitude in degrees.
    package var latitude: Double
    /// Start longitude in degrees.
    package var longitude: Double
    /// Start elevation in meters (nil: fixes have no elevation).
    package var elevation: Double?
    /// Time of the first fix, seconds since 1970 (default 2024-01-01T00:00:00Z).
    package var startTime: Double
    /// Seconds between fixes (default 1).
    package var interval: Double
    /// Speed along the path in m/s (default 5).
    package var speed: Double
    /// Initial heading in degrees clockwise from north (default 90, east).
    package var heading: Double
    /// Standard deviation of the heading change per fix, degrees (default 5).
    package var turnRate: Double
    /// Standard deviation of the position noise per axis, meters (default 3).
    package var noise: Double
    /// Probability that a drop-out starts at a fix (default 0).
    package var dropoutProbability: Double
    /// How many fixes a drop-out skips (default 5…20).
    package var dropoutLength: ClosedRange<Int>

    /// A generator starting at `latitude`, `longitude` with the defaults above.
    package init(latitude: Double, longitude: Double, elevation: Double? = 300) {
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        startTime = 1_704_067_200
        interval = 1
        speed = 5
        heading = 90
        turnRate = 5
        noise = 3
        dropoutProbability = 0
        dropoutLength = 5...20
    }

    /// An eastbound track starting 0.01° west of the antimeridian at 65° N (about 470 m away):
    /// at 20 m/s it crosses within the first 30 fixes.
    package static func antimeridianCrossing() -> GPSTrackGenerator {
        var g = GPSTrackGenerator(latitude: 65, longitude: 179.99, elevation: nil)
        g.speed = 20
        g.turnRate = 0
        return g
    }

    /// `count` fixes (fewer are reported when drop-outs skip some; `count` counts the path's
    /// steps, reported or not). All fixes are segment 0.
    /// - Complexity: O(count).
    package func generate(count: Int, seed: UInt64) -> [GPSFix] {
        var rng = SplitMix64(seed: seed)
        var fixes: [GPSFix] = []
        fixes.reserveCapacity(max(0, count))
        var lat = latitude, lon = longitude, head = heading
        var skip = 0
        let degree = Double.pi / 180
        let metersPerDegree = GPSFilter.earthRadius * degree
        for i in 0..<max(0, count) {
            // Draw every random number every step, so settings don't shift later draws.
            let dHeading = rng.nextGaussian() * turnRate
            let nNorth = rng.nextGaussian() * noise
            let nEast = rng.nextGaussian() * noise
            let nUp = rng.nextGaussian() * noise
            let dropout = rng.nextUnit() < dropoutProbability
            let dropLength = rng.nextInt(in: dropoutLength)
            if skip == 0, dropout { skip = dropLength }
            if skip > 0 {
                skip -= 1
            } else {
                let cosLat = max(1e-9, DeterministicMath.cos(lat * degree))
                var reportedLon = lon + nEast / (metersPerDegree * cosLat)
                reportedLon = Self.wrap(reportedLon)
                fixes.append(
                    GPSFix(
                        time: startTime + Double(i) * interval, latitude: max(-90, min(90, lat + nNorth / metersPerDegree)),
                        longitude: reportedLon, elevation: elevation.map { $0 + nUp }, horizontalAccuracy: noise,
                        speed: speed, course: Self.wrapCourse(head), quality: .simulated, mode: elevation == nil ? .twoD : .threeD,
                        segment: 0, line: 0))
            }
            // Advance the true path.
            head += dHeading
            let (s, c) = DeterministicMath.sinCos(head * degree)
            let step = speed * interval
            lat += step * c / metersPerDegree
            if lat > 90 {  // over the pole: come down the other side
                lat = 180 - lat
                lon += 180
                head += 180
            } else if lat < -90 {
                lat = -180 - lat
                lon += 180
                head += 180
            }
            let cosLat = max(1e-9, DeterministicMath.cos(lat * degree))
            lon = Self.wrap(lon + step * s / (metersPerDegree * cosLat))
        }
        return fixes
    }

    /// Longitude wrapped into [−180, 180).
    static func wrap(_ lon: Double) -> Double {
        var l = lon.truncatingRemainder(dividingBy: 360)
        if l >= 180 { l -= 360 } else if l < -180 { l += 360 }
        return l
    }

    static func wrapCourse(_ c: Double) -> Double {
        var v = c.truncatingRemainder(dividingBy: 360)
        if v < 0 { v += 360 }
        return v
    }
}
