public import MapSketchGeometry

/// A renderer bound to attribute columns: it decides a row's symbol by reading the columns
/// directly, never building a graphic or its attribute dictionary.
///
/// Binding finds each field's column once and precomputes what a lookup needs: a class breaks
/// renderer reads the numeric column (integers, doubles, dates as epoch milliseconds) and
/// searches its breaks; a unique value renderer maps each string column's interned ids to its own
/// value ids through a table made from the column's distinct strings (for one field, straight to
/// the symbol), so a row costs one or two array reads per field (numbers, bools and boxed values
/// are looked up by value). The answers are those of ``Renderer/symbolIndex(for:)`` on the row's
/// attribute dictionary.
///
/// A binding stays valid while rows are appended or changed, as long as no column is added and no
/// field's column changes kind (strings interned after binding are looked up by value);
/// ``isCurrent(for:)`` says so, and a ``GraphicsLayer`` rebinds when it is not.
///
/// ```swift
/// let columns = [AttributeColumn("STATE", strings: ["MN", "WI", "PR"])]
/// let bound = BoundRenderer(.uniqueValue(states), columns: columns)
/// bound.symbolIndex(row: 2, in: columns)   // the default symbol's index, or -1
/// ```
@_spi(MapSketchInternal) public struct BoundRenderer: Sendable {
    /// The renderer.
    public let renderer: Renderer
    @usableFromInline let mode: _Mode
    /// The symbol index of a row the renderer does not match (its default symbol's, or -1).
    @usableFromInline let unmatched: Int
    /// Class breaks: the renderer (an empty one for other kinds; stored apart so that a lookup
    /// borrows it).
    @usableFromInline let breaks: ClassBreaksRenderer
    /// Unique value: the renderer (an empty one for other kinds).
    @usableFromInline let values: UniqueValueRenderer
    /// Per field (class breaks: the one field): its column (-1: none has the field), the column's
    /// kind, and for a string column each column string id's value id (-1: no unique value uses
    /// it). Stored apart, not in arrays of structs, so a lookup reads them without copying.
    @usableFromInline let fieldCount: Int
    @usableFromInline let c0: Int
    @usableFromInline let c1: Int
    @usableFromInline let c2: Int
    @usableFromInline let k0: AttributeColumn.Kind
    @usableFromInline let k1: AttributeColumn.Kind
    @usableFromInline let k2: AttributeColumn.Kind
    @usableFromInline let ids0: [Int32]
    @usableFromInline let ids1: [Int32]
    @usableFromInline let ids2: [Int32]
    /// One-field unique value on a string column: column string id → symbol index.
    @usableFromInline let symbolByStringID: [Int32]
    /// How many columns there were when bound (a new one may be a field that had none).
    let columnCount: Int

    @usableFromInline
    enum _Mode: UInt8, Sendable {
        case simple, classBreaks, uniqueValue, uniqueValueStrings
    }

    /// Binds `renderer` to `columns` (a graphics layer's, or a ``GraphicColumns``'s attributes).
    /// - Complexity: O(c + d) for c columns and d distinct strings in the renderer's fields.
    public init(_ renderer: Renderer, columns: [AttributeColumn]) {
        self.renderer = renderer
        columnCount = columns.count
        var fields: [String] = []
        var mode = _Mode.simple
        switch renderer {
        case .simple:
            unmatched = 0
            breaks = ClassBreaksRenderer(field: "", breaks: [])
            values = UniqueValueRenderer(field: "", uniqueValues: [])
        case .classBreaks(let r):
            mode = .classBreaks
            unmatched = r.defaultSymbol == nil ? -1 : r.breaks.count
            breaks = r
            values = UniqueValueRenderer(field: "", uniqueValues: [])
            fields = [r.field]
        case .uniqueValue(let r):
            mode = .uniqueValue
            unmatched = r.defaultSymbol == nil ? -1 : r.uniqueValues.count
            breaks = ClassBreaksRenderer(field: "", breaks: [])
            values = r
            fields = r.fields
        }
        fieldCount = fields.count
        let tables = [values.t0, values.t1, values.t2]
        var c = [-1, -1, -1]
        var k = [AttributeColumn.Kind](repeating: .empty, count: 3)
        var ids: [[Int32]] = [[], [], []]
        for (f, name) in fields.enumerated() {
            guard let i = columns.firstIndex(where: { $0.name == name }) else { continue }
            c[f] = i
            k[f] = columns[i].kind
            if mode == .uniqueValue, k[f] == .string {
                ids[f] = columns[i].storage.strings.map { tables[f].lookup($0) }
            }
        }
        (c0, c1, c2, k0, k1, k2, ids0, ids1, ids2) = (c[0], c[1], c[2], k[0], k[1], k[2], ids[0], ids[1], ids[2])
        if mode == .uniqueValue, fieldCount == 1, k0 == .string {
            mode = .uniqueValueStrings
            let (v, u) = (values, unmatched)
            symbolByStringID = ids0.map { id in
                let i = id >= 0 ? v._valueIndex(id, 0, 0) : -1
                return Int32(i >= 0 ? i : u)
            }
        } else {
            symbolByStringID = []
        }
        self.mode = mode
    }

    /// Whether the binding still describes `columns`: no column was added, every field's column
    /// is of the same kind, and (strings) its distinct strings have not more than doubled.
    /// - Complexity: O(f) for the renderer's f fields.
    public func isCurrent(for columns: [AttributeColumn]) -> Bool {
        func current(_ c: Int, _ k: AttributeColumn.Kind, _ ids: [Int32]) -> Bool {
            guard c >= 0 else { return true }
            guard columns[c].kind == k else { return false }
            return k != .string || mode == .classBreaks || columns[c].storage.strings.count <= 2 * ids.count + 64
        }
        return columns.count == columnCount && (fieldCount < 1 || current(c0, k0, ids0))
            && (fieldCount < 2 || current(c1, k1, ids1)) && (fieldCount < 3 || current(c2, k2, ids2))
    }

    /// The position in ``Renderer/symbols`` of the symbol for row `row` of `columns` (the columns
    /// it was bound to, since appended to or changed), or -1 for none.
    /// - Complexity: O(1): a few array reads per field, a hash for a numeric or boxed
    ///   unique-value field; no allocation.
    @inlinable @inline(__always)
    public func symbolIndex(row: Int, in columns: [AttributeColumn]) -> Int {
        switch mode {
        case .simple:
            return 0
        case .classBreaks:
            return classBreakIndex(row, columns)
        case .uniqueValueStrings:
            if columns[c0].storage.noValue.contains(row) { return unmatched }
            let id = Int(columns[c0].storage.stringIDs[row])
            return id < symbolByStringID.count ? Int(symbolByStringID[id]) : slowStringIndex(row, columns)
        case .uniqueValue:
            return uniqueValueIndex(row, columns)
        }
    }

    @inlinable @inline(__always)
    func classBreakIndex(_ row: Int, _ columns: [AttributeColumn]) -> Int {
        guard c0 >= 0 else { return unmatched }
        let v: Double
        switch k0 {
        case .double:
            if columns[c0].storage.noValue.contains(row) { return unmatched }
            v = columns[c0].storage.doubles[row]
        case .integer:
            if columns[c0].storage.noValue.contains(row) { return unmatched }
            v = Double(columns[c0].storage.integers[row])
        case .date, .boxed:
            guard let n = columns[c0][row]?.numericValue else { return unmatched }
            v = n
        case .string, .bool, .empty:
            return unmatched
        }
        let i = breaks.breakIndex(for: v)
        return i >= 0 ? i : unmatched
    }

    @inlinable @inline(__always)
    func uniqueValueIndex(_ row: Int, _ columns: [AttributeColumn]) -> Int {
        let i0 = Self.fieldID(c0, k0, ids0, values.t0, row, columns)
        guard i0 >= 0 else { return unmatched }
        var i1: Int32 = 0
        var i2: Int32 = 0
        if fieldCount > 1 {
            i1 = Self.fieldID(c1, k1, ids1, values.t1, row, columns)
            guard i1 >= 0 else { return unmatched }
            if fieldCount > 2 {
                i2 = Self.fieldID(c2, k2, ids2, values.t2, row, columns)
                guard i2 >= 0 else { return unmatched }
            }
        }
        let i = values._valueIndex(i0, i1, i2)
        return i >= 0 ? i : unmatched
    }

    /// The renderer's id of row `row`'s value of a field (column `c` of kind `k`), or -1 (no
    /// value, or no unique value uses it).
    @inlinable @inline(__always)
    static func fieldID(
        _ c: Int, _ k: AttributeColumn.Kind, _ ids: [Int32], _ table: _InternTable, _ row: Int,
        _ columns: [AttributeColumn]
    ) -> Int32 {
        guard c >= 0, !columns[c].storage.noValue.contains(row) else { return -1 }
        switch k {
        case .string:
            let s = Int(columns[c].storage.stringIDs[row])
            return s < ids.count ? ids[s] : table.lookup(columns[c].storage.strings[s])
        case .integer: return table.lookup(number: Double(columns[c].storage.integers[row]))
        case .double: return table.lookup(number: columns[c].storage.doubles[row])
        case .bool: return table.boolIDs[columns[c].storage.bools[row] ? 1 : 0]
        case .date, .boxed: return columns[c][row].map { table.lookup($0) } ?? -1
        case .empty: return -1
        }
    }

    /// A one-field string row whose string was interned after binding.
    @usableFromInline @inline(never)
    func slowStringIndex(_ row: Int, _ columns: [AttributeColumn]) -> Int {
        let id = Self.fieldID(c0, .string, [], values.t0, row, columns)
        let i = id >= 0 ? values._valueIndex(id, 0, 0) : -1
        return i >= 0 ? i : unmatched
    }

    /// Calls `body(row, symbolIndex(row:in:))` for every row in `rows`, with the common cases
    /// (one string field, a numeric class-breaks field) as tight loops over the column.
    /// - Complexity: O(k) for k rows.
    @inline(__always)
    func forEachSymbolIndex(_ rows: Range<Int>, in columns: [AttributeColumn], _ body: (Int, Int) -> Void) {
        switch mode {
        case .simple:
            for row in rows { body(row, 0) }
        case .uniqueValueStrings where columns[c0].storage.noValue.isEmpty:
            columns[c0].storage.stringIDs.withUnsafeBufferPointer { ids in
                symbolByStringID.withUnsafeBufferPointer { table in
                    for row in rows {
                        let id = Int(ids[row])
                        body(row, id < table.count ? Int(table[id]) : slowStringIndex(row, columns))
                    }
                }
            }
        case .classBreaks where k0 == .double && columns[c0].storage.noValue.isEmpty:
            columns[c0].storage.doubles.withUnsafeBufferPointer { values in
                for row in rows {
                    let i = breaks.breakIndex(for: values[row])
                    body(row, i >= 0 ? i : unmatched)
                }
            }
        default:
            for row in rows { body(row, symbolIndex(row: row, in: columns)) }
        }
    }
}
