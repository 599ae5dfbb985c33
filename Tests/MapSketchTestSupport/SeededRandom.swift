@_spi(MapSketchInternal) public import MapSketchGeometry

/// A seeded, platform-independent random generator for property tests and fixtures: the
/// library's ``SplitMix64`` with the helpers tests use.
///
/// The same seed gives the same sequence on every machine, unlike `SystemRandomNumberGenerator`.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var base: SplitMix64

    public init(seed: UInt64) { base = SplitMix64(seed: seed) }

    public mutating func next() -> UInt64 { base.next() }

    /// A double uniformly in `range`.
    public mutating func double(in range: ClosedRange<Double>) -> Double { base.nextDouble(in: range) }

    /// An integer uniformly in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// A box anywhere in ±1000 whose width and height are each 0 a quarter of the time (points
    /// and lines occur) and otherwise up to 40: the items and queries of the spatial index tests.
    public mutating func indexBox() -> Envelope {
        let x = double(in: -1000...1000), y = double(in: -1000...1000)
        let w = int(in: 0...3) == 0 ? 0 : double(in: 0...40)
        let h = int(in: 0...3) == 0 ? 0 : double(in: 0...40)
        return Envelope(xmin: x, ymin: y, xmax: x + w, ymax: y + h)
    }

    /// A point uniformly in `envelope`.
    public mutating func point(in envelope: Envelope) -> Point {
        Point(x: double(in: envelope.xmin...envelope.xmax), y: double(in: envelope.ymin...envelope.ymax))
    }
}
