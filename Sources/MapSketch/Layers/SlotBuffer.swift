import MapSketchGeometry

/// A growable array of plain values in memory it owns: what `GraphicSlots` keeps its per-slot
/// records, ids and symbol shapes in.
///
/// Non-copyable, so it has no reference count: a hit test reads a record through a class
/// property with a bounds check and a load, where an `Array` there costs a retain and a release
/// per access the optimiser cannot prove away. Elements are plain (`BitwiseCopyable`), so growing
/// moves bytes and dropping frees nothing but the block.
struct SlotBuffer<Element: BitwiseCopyable>: ~Copyable {
    private(set) var base: UnsafeMutablePointer<Element>?
    private(set) var count = 0
    private(set) var capacity = 0

    init() {}

    deinit { base?.deallocate() }

    var isEmpty: Bool { count == 0 }
    var indices: Range<Int> { 0..<count }

    subscript(i: Int) -> Element {
        unsafeAddress {
            guard let base, i >= 0, i < count else {
                preconditionFailure("slot buffer index \(i) out of range 0..<\(count)")
            }
            return UnsafePointer(base + i)
        }
        unsafeMutableAddress {
            guard let base, i >= 0, i < count else {
                preconditionFailure("slot buffer index \(i) out of range 0..<\(count)")
            }
            return base + i
        }
    }

    /// The elements, for loops that read or write many (valid until the next append).
    var buffer: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: base, count: count) }

    mutating func reserveCapacity(_ n: Int) {
        guard n > capacity else { return }
        let fresh = UnsafeMutablePointer<Element>.allocate(capacity: n)
        // The slot records are read at random by a hit test: huge pages for a large buffer.
        HugePages.advise(fresh, bytes: n * MemoryLayout<Element>.stride)
        if let base {
            fresh.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = fresh
        capacity = n
    }

    /// Makes room for `n` more elements: exactly, into an empty buffer (a bulk load; at least 16,
    /// so a few single adds allocate once); at least doubling otherwise, so many small batches
    /// cost O(1) amortised each.
    mutating func reserveCapacity(forAppending n: Int) {
        if count + n > capacity { reserveCapacity(Swift.max(count + n, capacity * 2, capacity == 0 && n < 16 ? 16 : 0)) }
    }

    mutating func append(_ e: Element) {
        if count == capacity { reserveCapacity(Swift.max(16, capacity * 2)) }
        guard let base else { preconditionFailure("slot buffer storage missing after allocation") }
        (base + count).initialize(to: e)
        count += 1
    }

    /// Appends `n` elements made by `make(i)` for i in 0..<n.
    mutating func append(count n: Int, _ make: (Int) -> Element) {
        guard n > 0 else { return }
        if count + n > capacity { reserveCapacity(Swift.max(count + n, capacity * 2)) }
        guard let base else { preconditionFailure("slot buffer storage missing after allocation") }
        for i in 0..<n { (base + count + i).initialize(to: make(i)) }
        count += n
    }

    /// Sets the count within the capacity, for a caller that wrote the elements through `base`.
    mutating func setCount(_ n: Int) {
        precondition(n >= 0 && n <= capacity, "slot buffer count past its capacity")
        count = n
    }

    mutating func removeLast(_ n: Int) {
        precondition(n >= 0 && n <= count, "removing more elements than the slot buffer holds")
        count -= n
    }

    /// Drops every element and frees the storage.
    mutating func removeAll() {
        base?.deallocate()
        base = nil
        count = 0
        capacity = 0
    }

    func map<T>(_ transform: (Element) -> T) -> [T] {
        var out: [T] = []
        out.reserveCapacity(count)
        for i in 0..<count { out.append(transform(self[i])) }
        return out
    }

    /// Bytes held.
    var memoryFootprint: Int { capacity * MemoryLayout<Element>.stride }
}
