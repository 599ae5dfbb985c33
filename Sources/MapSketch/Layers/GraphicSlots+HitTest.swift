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
        guard n > 0, let hit = candidates.base else { return [] }
        // Resized to n (usually it already is: most taps hit one graphic), then overwritten.
        if hitResult.count > n {
            hitResult.removeLast(hitResult.count - n)
        } else if hitResult.count < n {
            hitResult.append(contentsOf: repeatElement(GraphicID(rawValue: 0), count: n - hitResult.count))
        }
        hitResult.withUnsafeMutableBufferPointer { r in
            for i in 0..<n { r[i] = GraphicID(rawValue: id(Int(hit[i]))) }
        }
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
        // A point without a symbol (the common case of a large layer) is tested here: a squared
        // distance, bit for bit ``SymbolShape/hits(_:_:_:tol:res:)`` of the bare shape.
        let bare = tol * res
        let bare2 = bare * bare
        for i in 0..<n {
            let s = Int(out[i])
            let shape = shapes[s]
            let hit: Bool
            if shape.symbol == -1 && shape.kind == .point {
                let dx = q.x - shape.x, dy = q.y - shape.y
                hit = dx * dx + dy * dy <= bare2
            } else {
                hit = self.hits(shape, s, q, tol: tol, res: res)
            }
            if hit {
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
            return generalHits(s, q, tol: tol, res: res)
        }
    }

    /// The general test of slot `s` (composite symbols, general geometries), out of line: it
    /// reads the symbol tables, whose exclusivity checks would otherwise be paid by every query.
    @inline(never)
    private func generalHits(_ s: Int, _ q: Point, tol: Double, res: Double) -> Bool {
        SymbolHitTest.hits(q, geometry: geometry(s), symbol: resolved(s), tol: tol, res: res)
    }
}
