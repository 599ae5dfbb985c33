import MapSketch

/// The ids of a trace layer's graphics by their index in the trace (the order they were added,
/// less those removed): a run of consecutive ids first (a layer file's features, added in
/// batches), then the others one by one — so a layer of a million features read from a file
/// costs two integers here, not a million.
struct GraphicIDList {
    /// The raw ids of the first graphics, consecutive.
    private var run: Range<Int> = 0..<0
    /// The ids after the run.
    private var rest: [GraphicID] = []

    /// The number of graphics.
    var count: Int { run.count + rest.count }

    /// The valid indices.
    var indices: Range<Int> { 0..<count }

    /// The id of graphic `i`.
    subscript(i: Int) -> GraphicID {
        i < run.count ? GraphicID(rawValue: run.lowerBound + i) : rest[i - run.count]
    }

    /// Appends the consecutive ids `ids`.
    /// - Complexity: O(1) while every id so far is consecutive, else O(k) for k ids.
    mutating func append(_ ids: Range<GraphicID>) {
        let raw = ids.lowerBound.rawValue..<ids.upperBound.rawValue
        if rest.isEmpty, run.isEmpty || raw.lowerBound == run.upperBound {
            run = (run.isEmpty ? raw.lowerBound : run.lowerBound)..<raw.upperBound
        } else {
            rest.append(contentsOf: raw.map { GraphicID(rawValue: $0) })
        }
    }

    /// Appends `id`.
    mutating func append(_ id: GraphicID) { append(id..<GraphicID(rawValue: id.rawValue + 1)) }

    /// Removes graphic `i`'s id.
    /// - Complexity: O(1) for the last; O(n) otherwise.
    mutating func remove(at i: Int) {
        if i >= run.count {
            rest.remove(at: i - run.count)
        } else if i == run.count - 1, rest.isEmpty {
            run = run.lowerBound..<(run.upperBound - 1)
        } else {
            rest = run.map { GraphicID(rawValue: $0) } + rest
            run = 0..<0
            rest.remove(at: i)
        }
    }

    /// Removes every id.
    mutating func removeAll() {
        run = 0..<0
        rest = []
    }

    /// The index of the graphic with `id`, if it is in the list.
    /// - Complexity: O(1) in the run, O(n) after it.
    func firstIndex(of id: GraphicID) -> Int? {
        if run.contains(id.rawValue) { return id.rawValue - run.lowerBound }
        return rest.firstIndex(of: id).map { $0 + run.count }
    }
}
