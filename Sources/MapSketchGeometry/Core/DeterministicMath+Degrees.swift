extension DeterministicMath {
    /// The sine and cosine of an angle in degrees, bit-identical on every platform, and exact at
    /// every multiple of 90° (sin 90° is 1 and cos 90° is 0, not 6.1e-17).
    ///
    /// The angle is first reduced to the nearest multiple of 90° plus a remainder of at most 45°
    /// (exactly, in degrees, where the reduction loses nothing), so a quarter turn never goes
    /// through π/2 in radians, which is not a double. A zero comes out as +0, never −0.
    /// - Complexity: O(1).
    package static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        guard degrees.isFinite else { return (.nan, .nan) }
        let turn = degrees.truncatingRemainder(dividingBy: 360)  // exact
        let quadrants = (turn / 90).rounded()
        let rest = turn - quadrants * 90  // exact: both terms are within a factor of 2, or rest is 0
        let (s, c): (Double, Double) = rest == 0 ? (0, 1) : kernel(rest * (Double.pi / 180))
        switch (Int(quadrants) % 4 + 4) % 4 {
        case 0: return (s, c)
        case 1: return (c, 0 - s)
        case 2: return (0 - s, 0 - c)
        default: return (0 - c, s)
        }
    }
}
