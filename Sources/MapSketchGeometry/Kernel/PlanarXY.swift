/// A vertex with planar coordinates: lets the segment and ring kernels run on `[Point]` and on
/// packed `SIMD2<Double>` coordinates with the same code (and so the same answers).
protocol PlanarXY {
    var x: Double { get }
    var y: Double { get }
}

extension Point: PlanarXY {}
extension SIMD2: PlanarXY where Scalar == Double {}
