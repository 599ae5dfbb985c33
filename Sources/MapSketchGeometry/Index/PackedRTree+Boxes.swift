// Boxes as the tree stores them: `Float` bounds rounded outward, so a box never shrinks and no
// item is ever missed by a search.

extension PackedRTree {
    /// Appends `e` to flat boxes, rounded outward to `Float` so the box still contains `e`.
    @inlinable
    package static func appendBox(_ e: Envelope, to boxes: inout [Float]) {
        let b = _outward(e)
        boxes.append(b.x)
        boxes.append(b.y)
        boxes.append(b.z)
        boxes.append(b.w)
    }

    /// Stores `e` as item `i` of flat boxes (see ``appendBox(_:to:)``).
    @inlinable
    package static func storeBox(_ e: Envelope, into boxes: UnsafeMutableBufferPointer<Float>, at i: Int) {
        precondition(i >= 0 && 4 * i + 3 < boxes.count, "box index out of range")
        UnsafeMutableRawPointer(boxes.baseAddress.unsafelyUnwrapped).storeBytes(of: _outward(e), toByteOffset: 16 &* i, as: SIMD4<Float>.self)
    }
}

/// The largest `Float` not above `v`.
@inlinable
func _down(_ v: Double) -> Float {
    let f = Float(v)
    return Double(f) > v ? f.nextDown : f
}

/// The smallest `Float` not below `v`.
@inlinable
func _up(_ v: Double) -> Float {
    let f = Float(v)
    return Double(f) < v ? f.nextUp : f
}
/// The box of `e` rounded outward to `Float` (minX, minY down; maxX, maxY up), without branches:
/// the same box as ``_down(_:)`` and ``_up(_:)``. The max corner is negated so that all four
/// lanes round down: a lane whose nearest `Float` lies above the `Double` steps one ulp toward
/// −∞ (bit pattern − 1 for a positive value, + 1 for a negative one; this also takes +∞ to the
/// greatest finite value, and −0 to the least negative subnormal).
@inlinable
func _outward(_ e: Envelope) -> SIMD4<Float> {
    let v = SIMD4<Double>(e.xmin, e.ymin, -e.xmax, -e.ymax)
    let f = SIMD4<Float>(v)
    let above = unsafeBitCast(SIMD4<Double>(f) .> v, to: SIMD4<Int64>.self)
    let bits = unsafeBitCast(f, to: SIMD4<Int32>.self)
    let step = SIMD4<Int32>(repeating: -1) &- ((bits &>> 31) &<< 1)
    let down = bits &+ (step & SIMD4<Int32>(truncatingIfNeeded: above))
    return unsafeBitCast(down, to: SIMD4<Float>.self) * SIMD4(1, 1, -1, -1)
}
