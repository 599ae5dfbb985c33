import MapSketchGeometry

// The hit test over the slots: the spatial index's candidates, then each candidate's exact test
// from its shape record.

extension GraphicSlots {
    /// The ids of the graphics hit at map point `q`, topmost (highest id) first, at most `maxResults`.
    ///
    /// Allocates only for the result, and not even that when the caller let go of the previous
    /// one: the result array is kept and refilled in place while nobody else holds it.
    func hitIDs(_ q: Point, tolerance: Double, resolution: Double, maxResults: Int) -> [GraphicID] {
        let n = min(hitSlots(q, tolerance: tolerance, resolution: resolution), max(maxResults, 0))
        guard n > 0 else { return [] }
        hitResult.removeAll(keepingCapacity: true)
        hitResult.reserveCapacity(n)
        for i in 0..<n { hitResult.append(GraphicID(rawValue: id(Int(candidates[i])))) }
        return hitResult
    }

    /// The topmost graphic hit at `q`.
    func topmostSlot(_ q: Point, tolerance: Double, resolution: Double) -> Int? {
        hitSlots(q, tolerance: tolerance, resolution: resolution) > 0 ? Int(candidates[0]) : nil
    }

    /// Finds the slots hit at `q` and leaves them in `candidates[0 ..< k]`, highest (topmost)
    /// first; returns k.
    ///
    /// The index writes its candidates into `candidates` (it calls no closure, so it is searched
    /// in place rather than copied), then each gets the exact test and the hits are kept in place.
    /// - Complexity: O(log n + k) for k candidates near the point.
    func hitSlots(_ q: Point, tolerance tol: Double, resolution res: Double) -> Int {
        guard res > 0, res.isFinite, q.isFinite, tol >= 0 else { return 0 }
        let margin = (tol + maxReach) * res
        let query = Envelope(xmin: q.x - margin, ymin: q.y - margin, xmax: q.x + margin, ymax: q.y + margin)
        if candidates.capacity < 64 { candidates.reserveCapacity(64) }
        guard var out = candidates.base else { return 0 }
        var n = index.collect(query, into: out, capacity: candidates.capacity)
        if n > candidates.capacity {
            candidates.reserveCapacity(n)
            guard let grown = candidates.base else { return 0 }
            out = grown
            n = min(index.collect(query, into: out, capacity: n), n)
        }
        var hits = 0
        for i in 0..<n {
            let s = Int(out[i])
            if self.hits(shapes[s], s, q, tol: tol, res: res) {
                out[hits] = out[i]
                hits += 1
            }
        }
        // Ids ascend with slots, so the topmost (last added) graphic has the highest slot.
        if hits > 16 {
            var sorted = UnsafeMutableBufferPointer(start: out, count: hits)
            sorted.sort(by: >)
        } else if hits > 1 {
            for i in 1..<hits {
                let v = out[i]
                var j = i
                while j > 0 && out[j - 1] < v {
                    out[j] = out[j - 1]
                    j -= 1
                }
                out[j] = v
            }
        }
        candidates.setCount(hits)
        return hits
    }

    /// The exact test of slot `s`: from its shape record and its symbol's precomputed shape, else
    /// (composite symbols, general geometries) the general test on the geometry.
    @inline(__always)
    private func hits(_ shape: SlotShape, _ s: Int, _ q: Point, tol: Double, res: Double) -> Bool {
        let k = shape.symbol
        let symbolShape = k >= 0 ? rendererShapes[Int(k)] : (k == -1 ? SymbolShape.bare : ownShapes[Int(-2 - k)])
        switch shape.kind {
        case .point where symbolShape.kind != .general:
            return symbolShape.hits(q.x, q.y, shape.point, tol: tol, res: res)
        case .path where !symbolShape.pathReach.isNaN:
            return GeometryEngine.isWithin((symbolShape.pathReach + tol) * res, of: q, path: run(shape))
        case .ring where !symbolShape.ringReach.isNaN:
            return GeometryEngine.isWithin((symbolShape.ringReach + tol) * res, of: q, ring: run(shape))
        case .dead, .emptyPoint:
            return false
        default:
            return SymbolHitTest.hits(q, geometry: geometry(s), symbol: resolved(s), tol: tol, res: res)
        }
    }
}
