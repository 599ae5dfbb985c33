// The storage work behind `AttributeColumn`'s appends: a column's kind, turning an empty column
// typed or a typed one boxed, placeholders, and interning strings.

extension AttributeColumn {
    /// The kind of column that stores `v` (`.empty` for null).
    @usableFromInline
    static func kind(of v: AttributeValue) -> Kind {
        switch v {
        case .integer: .integer
        case .double: .double
        case .bool: .bool
        case .date: .date
        case .string: .string
        case .null: .empty
        }
    }

    /// Turns an `.empty` column into `kind`, every existing row a placeholder.
    mutating func become(_ kind: Kind, rows: Int) {
        self.kind = kind
        switch kind {
        case .integer: integers = [Int64](repeating: 0, count: rows)
        case .double, .date: doubles = [Double](repeating: 0, count: rows)
        case .bool: bools = [Bool](repeating: false, count: rows)
        case .string: stringIDs = [UInt32](repeating: 0, count: rows)
        case .boxed: boxed = [AttributeValue](repeating: .null, count: rows)
        case .empty: break
        }
        if reservedRows > rows { reserveCapacity(forAppending: reservedRows - rows) }
        reservedRows = 0
    }

    /// Turns a typed column into a boxed one (rows without a value hold `.null`).
    /// - Complexity: O(n).
    mutating func box() {
        var values: [AttributeValue] = []
        values.reserveCapacity(count + 1)
        for r in 0..<count { values.append(self[r] ?? .null) }
        integers = []
        doubles = []
        bools = []
        stringIDs = []
        strings = []
        stringIndex = _InternTable()
        indexedStrings = 0
        boxed = values
        kind = .boxed
    }

    mutating func appendPlaceholder() {
        switch kind {
        case .empty: break
        case .integer: integers.append(0)
        case .double, .date: doubles.append(0)
        case .bool: bools.append(false)
        case .string: stringIDs.append(0)
        case .boxed: boxed.append(.null)
        }
    }

    /// Appends `other`'s string rows, re-interning its distinct strings into this column's.
    mutating func appendMapped(_ other: AttributeColumn) {
        let map = other.strings.map { intern($0) }
        stringIDs.reserveCapacity(stringIDs.count + other.count)
        for id in other.stringIDs { stringIDs.append(map.isEmpty ? 0 : map[Int(id)]) }
    }

    /// The id of `s`, adding it when new.
    mutating func intern(_ s: String) -> UInt32 {
        while indexedStrings < strings.count {
            // Built on first need: a bulk load adopts a dictionary without hashing it.
            stringIndex.insert(strings[indexedStrings], id: Int32(indexedStrings))
            indexedStrings += 1
        }
        let known = stringIndex.lookup(s)
        if known >= 0 { return UInt32(known) }
        let id = UInt32(strings.count)
        strings.append(s)
        stringIndex.insert(s, id: Int32(id))
        indexedStrings += 1
        return id
    }
}
