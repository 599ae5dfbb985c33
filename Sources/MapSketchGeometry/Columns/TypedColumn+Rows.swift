// Whole-column work on a `TypedColumn`: appending a batch, dropping the rows after a mark,
// keeping the rows a filter marks, making room, and the same rows with another value type.

extension TypedColumn {
    /// Appends every row of `other` (a column of the same field).
    /// - Complexity: O(m) for m rows of `other`, plus a hash per distinct string of `other`.
    package mutating func append(contentsOf other: TypedColumn) {
        let base = count
        if kind == .empty, other.kind != .empty { become(other.kind, rows: base) }
        if other.kind == .empty {
            for _ in 0..<other.count { appendPlaceholder() }
        } else if base == 0 {
            // A bulk load into an empty column adopts the batch's storage as it is (shared
            // until one of them changes).
            integers = other.integers
            doubles = other.doubles
            bools = other.bools
            stringIDs = other.stringIDs
            strings = other.strings
            boxed = other.boxed
            stringIndex = _InternTable()
            indexedStrings = 0
            kind = other.kind
        } else if kind == other.kind {
            switch kind {
            case .integer: integers.append(contentsOf: other.integers)
            case .double, .date: doubles.append(contentsOf: other.doubles)
            case .bool: bools.append(contentsOf: other.bools)
            case .string: appendMapped(other)
            case .boxed: boxed.append(contentsOf: other.boxed)
            case .empty: break
            }
        } else {
            // Another type: row by row, as appended one at a time.
            for r in 0..<other.count { append(other[r]) }
            return
        }
        count += other.count
        noValue.append(other.noValue, at: base)
        absent.append(other.absent, at: base)
    }

    /// Drops every row from `row` on, and every distinct string from `strings` on (what a
    /// failed bulk add appended after them; the column keeps its kind).
    /// - Complexity: O(rows dropped).
    package mutating func truncate(rows row: Int, strings keep: Int) {
        let k = count - row
        precondition(k >= 0, "truncating a column to more rows than it has")
        switch kind {
        case .empty: break
        case .integer: integers.removeLast(k)
        case .double, .date: doubles.removeLast(k)
        case .bool: bools.removeLast(k)
        case .string: stringIDs.removeLast(k)
        case .boxed: boxed.removeLast(k)
        }
        count = row
        noValue.removeAll(from: row)
        absent.removeAll(from: row)
        if kind == .string, strings.count > keep {
            strings.removeLast(strings.count - keep)
            // Rebuilt from `strings` on the next intern.
            stringIndex = _InternTable()
            indexedStrings = 0
        }
    }

    /// Keeps only the rows where `keep` is true, in order.
    /// - Complexity: O(n).
    package mutating func filter(_ keep: [Bool]) {
        var out = TypedColumn(name)
        out.kind = kind
        out.strings = strings
        out.stringIndex = stringIndex
        out.indexedStrings = indexedStrings
        for r in 0..<count where keep[r] {
            let w = out.count
            out.count += 1
            switch kind {
            case .empty: break
            case .integer: out.integers.append(integers[r])
            case .double, .date: out.doubles.append(doubles[r])
            case .bool: out.bools.append(bools[r])
            case .string: out.stringIDs.append(stringIDs[r])
            case .boxed: out.boxed.append(boxed[r])
            }
            if noValue.contains(r) { out.noValue.insert(w) }
            if absent.contains(r) { out.absent.insert(w) }
        }
        self = out
    }

    /// Makes room for `n` more rows in the storage of the column's kind (for an empty column:
    /// in the storage its first value picks). Grows at least to double, so many small batches
    /// cost O(1) amortised each.
    /// - Complexity: O(rows) when it moves the storage.
    package mutating func reserveCapacity(forAppending n: Int) {
        let need = count + n
        func grow<T>(_ a: inout [T]) {
            if a.capacity < need { a.reserveCapacity(Swift.max(need, 2 * a.capacity)) }
        }
        switch kind {
        case .empty: reservedRows = Swift.max(reservedRows, need)
        case .integer: grow(&integers)
        case .double, .date: grow(&doubles)
        case .bool: grow(&bools)
        case .string: grow(&stringIDs)
        case .boxed: grow(&boxed)
        }
    }
    /// The same rows with values of another type: typed storage shared as it is (dates through
    /// `dates`), boxed values through `boxed`.
    /// - Complexity: O(1), plus O(n) for a date or boxed column of n rows.
    package func map<Other: ColumnValue>(dates: (Double) -> Double, boxed box: (Value) -> Other) -> TypedColumn<Other> {
        var out = TypedColumn<Other>(name)
        out.kind = kind
        out.count = count
        out.integers = integers
        out.doubles = kind == .date ? doubles.map(dates) : doubles
        out.bools = bools
        out.stringIDs = stringIDs
        out.strings = strings
        out.boxed = boxed.map(box)
        out.noValue = noValue
        out.absent = absent
        return out
    }
}
