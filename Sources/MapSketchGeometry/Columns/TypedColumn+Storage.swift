// The storage rules behind `TypedColumn`'s appends and sets: which values a column of a kind
// takes, turning an empty column typed, an integer column into doubles, or a typed one boxed;
// where a value goes; placeholders; and interning strings.

extension TypedColumn {
    /// What storing a non-null value does to a column.
    enum Admission {
        /// The column's storage takes it as it is.
        case fits
        /// An empty column takes the value's kind.
        case becomes
        /// An integer column turns into a double column (``ColumnValue/integersWiden``).
        case widens
        /// The column turns boxed.
        case boxes
    }

    /// What storing a value stored as `cell` (not null) does to the column: a value of the
    /// column's kind, or any value in a boxed column, fits; an empty column takes its kind; where
    /// the value type widens integers, an integer into a double or date column fits (within
    /// ±2⁵³), a double into a date column fits, and a double into an integer column (every
    /// integer within ±2⁵³) widens it; any other value boxes the column.
    func admission(of cell: ColumnCell) -> Admission {
        let k = cell.kind
        if kind == k || kind == .boxed { return .fits }
        if kind == .empty { return .becomes }
        if Value.integersWiden {
            switch (kind, cell) {
            case (.double, .integer(let i)), (.date, .integer(let i)):
                if i.magnitude <= 1 << 53 { return .fits }
            case (.date, .double): return .fits
            case (.integer, .double):
                if integers.allSatisfy({ $0.magnitude <= 1 << 53 }) { return .widens }
            default: break
            }
        }
        return .boxes
    }

    /// Makes the column's storage take a value stored as `cell` (not null); see
    /// ``admission(of:)``.
    /// - Complexity: O(1), or O(n) once when the column changes kind.
    @usableFromInline
    mutating func admit(_ cell: ColumnCell) {
        switch admission(of: cell) {
        case .fits: break
        case .becomes: become(cell.kind, rows: count)
        case .widens:
            doubles = integers.map { Double($0) }
            integers = []
            kind = .double
        case .boxes: box()
        }
    }

    /// Writes a non-null value stored as `cell` into row `row` of the storage (appending it when
    /// `row` is `count`); the column has admitted the cell (see ``admit(_:)``): an integer in a
    /// double or date column goes in as a double.
    mutating func store(_ cell: ColumnCell, _ value: Value, at row: Int) {
        func put<T>(_ a: inout [T], _ v: T) {
            if row == a.count { a.append(v) } else { a[row] = v }
        }
        switch (kind, cell) {
        case (.integer, .integer(let i)): put(&integers, i)
        case (.double, .double(let d)), (.date, .date(let d)), (.date, .double(let d)): put(&doubles, d)
        case (.double, .integer(let i)), (.date, .integer(let i)): put(&doubles, Double(i))
        case (.bool, .bool(let b)): put(&bools, b)
        case (.string, .string(let s)):
            let id = intern(s)
            put(&stringIDs, id)
        default: put(&boxed, value)
        }
    }

    /// Turns an `.empty` column into `kind`, every existing row a placeholder.
    mutating func become(_ kind: ColumnKind, rows: Int) {
        self.kind = kind
        switch kind {
        case .integer: integers = [Int64](repeating: 0, count: rows)
        case .double, .date: doubles = [Double](repeating: 0, count: rows)
        case .bool: bools = [Bool](repeating: false, count: rows)
        case .string: stringIDs = [UInt32](repeating: 0, count: rows)
        case .boxed: boxed = [Value](repeating: .null, count: rows)
        case .empty: break
        }
        if reservedRows > rows { reserveCapacity(forAppending: reservedRows - rows) }
        reservedRows = 0
    }

    /// Turns a typed column into a boxed one (rows without a value hold `Value.null`).
    /// - Complexity: O(n).
    mutating func box() {
        var values: [Value] = []
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

    /// Appends the placeholder of a row without a value to the column's storage.
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
    mutating func appendMapped(_ other: TypedColumn) {
        let map = other.strings.map { intern($0) }
        stringIDs.reserveCapacity(stringIDs.count + other.count)
        for id in other.stringIDs { stringIDs.append(map.isEmpty ? 0 : map[Int(id)]) }
    }

    /// The id of `s`, adding it when new.
    @inlinable
    mutating func intern(_ s: String) -> UInt32 {
        if indexedStrings == strings.count {
            let known = stringIndex.lookup(s)
            if known >= 0 { return UInt32(known) }
        }
        return internSlow(s)
    }

    /// ``intern(_:)`` of a string not found, or with `strings` not all indexed yet.
    @usableFromInline
    mutating func internSlow(_ s: String) -> UInt32 {
        while indexedStrings < strings.count {
            // Built on first need: a bulk load adopts a dictionary without hashing it.
            stringIndex.insert(strings[indexedStrings], id: Int32(indexedStrings))
            indexedStrings += 1
        }
        let known = stringIndex.lookup(s)
        if known >= 0 { return UInt32(known) }
        if strings.isEmpty, Value.firstStringRoom > 0 {
            // Room for a few dozen distinct strings from the start (not grown string by string).
            strings.reserveCapacity(Value.firstStringRoom)
            stringIndex.reserveCapacity(Value.firstStringRoom, forStringsLike: s)
        }
        let id = UInt32(strings.count)
        strings.append(s)
        stringIndex.insert(s, id: Int32(id))
        indexedStrings += 1
        return id
    }
}
