import MapSketchReplay
/// Zeller and Hildebrandt's delta debugging (ddmin): the smallest subsequence of a list that a
/// test still accepts, found by trying chunks and their complements at growing granularity.
///
/// The result is 1-minimal: removing any single element makes the test fail. Deterministic: the
/// same list and test give the same tests in the same order and the same result. Each distinct
/// subsequence is tested at most once.
struct DeltaDebugging {
    /// How many tests ran (cache hits are not counted).
    private(set) var tests = 0
    private var cache: [[Int]: Bool] = [:]

    /// The indices, sorted, of a 1-minimal subsequence of `0..<count` that `test` accepts (it gets
    /// the subsequence as sorted indices); the whole range is assumed to pass. `reduced` gets the
    /// size after each reduction.
    /// - Complexity: O(n²) tests in the worst case, O(k log n) for k elements that matter.
    mutating func minimize(count: Int, reduced: (Int) -> Void = { _ in }, test: ([Int]) -> Bool) -> [Int] {
        var current = Array(0..<count)
        if count > 0, passes([], test) {
            reduced(0)
            return []
        }
        var n = 2
        while current.count >= 2 {
            let chunks = Self.split(current, into: min(n, current.count))
            var next: [Int]?
            for chunk in chunks where chunk.count < current.count && passes(chunk, test) {
                next = chunk
                n = 2
                break
            }
            if next == nil, chunks.count > 2 {
                for chunk in chunks {
                    let removed = Set(chunk)
                    let complement = current.filter { !removed.contains($0) }
                    if passes(complement, test) {
                        next = complement
                        n = max(n - 1, 2)
                        break
                    }
                }
            }
            if let next {
                current = next
                reduced(current.count)
            } else {
                if n >= current.count { break }
                n = min(current.count, 2 * n)
            }
        }
        return current
    }

    private mutating func passes(_ subset: [Int], _ test: ([Int]) -> Bool) -> Bool {
        if let known = cache[subset] { return known }
        tests += 1
        let r = test(subset)
        cache[subset] = r
        return r
    }

    /// `list` cut into `n` runs of nearly equal length, in order.
    static func split(_ list: [Int], into n: Int) -> [[Int]] {
        var out: [[Int]] = []
        var start = 0
        for i in 0..<n {
            let end = start + (list.count - start) / (n - i)
            out.append(Array(list[start..<end]))
            start = end
        }
        return out.filter { !$0.isEmpty }
    }
}
