/// Edges bucketed into horizontal bands of equal height, so that the edges whose y-range holds a
/// given y are found by reading one band: every edge is listed in each band its y-range meets.
///
/// The point-in-ring tests that count ray crossings (``Kernel/PreparedRing``, the face parity of
/// `simplify`) scan only the band of the query's y.
///
/// - Complexity: adding an edge O(bands it spans); ``edges(at:)`` O(1).
struct EdgeBands {
    /// The least y covered; a y below it reads the first band.
    let ymin: Double
    /// The greatest y covered; a y above it reads the last band.
    let ymax: Double
    /// The height of one band (1 when the range is empty).
    let bandHeight: Double
    /// The edge ids of each band, in the order they were added.
    private(set) var bands: [[Int32]]

    /// Bands over `ymin ... ymax`; `count` is clamped to at least 1.
    init(ymin: Double, ymax: Double, count: Int) {
        let count = max(1, count)
        self.ymin = ymin
        self.ymax = ymax
        bandHeight = ymax > ymin ? (ymax - ymin) / Double(count) : 1
        bands = Array(repeating: [], count: count)
    }

    /// The band holding `y`, clamped to the bands; NaN reads the first. Non-decreasing in `y`, so
    /// an edge listed from the band of its least y to that of its greatest is in the band of every
    /// y between.
    @inline(__always)
    func band(_ y: Double) -> Int {
        let k = ((y - ymin) / bandHeight).rounded(.down)
        // Clamped before the conversion, so that no position can trap.
        guard k > 0 else { return 0 }
        let last = bands.count - 1
        return k < Double(last) ? Int(k) : last
    }

    /// Lists edge `id`, whose end points have y coordinates `y0` and `y1`, in every band its
    /// y-range meets.
    mutating func add(_ id: Int32, y0: Double, y1: Double) {
        for k in band(Swift.min(y0, y1))...band(Swift.max(y0, y1)) { bands[k].append(id) }
    }

    /// The edges listed in the band of `y`: every added edge whose y-range holds `y`, and some
    /// others.
    @inline(__always)
    func edges(at y: Double) -> [Int32] { bands[band(y)] }
}
