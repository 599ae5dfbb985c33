/// A renderer bound to attribute columns: it decides a row's symbol by reading the columns
/// directly, never building a graphic or its attribute dictionary.
///
/// Binding finds each field's column once and precomputes what a lookup needs: a class breaks
/// renderer reads the numeric column (integers, doubles, dates as epoch milliseconds) and
/// searches its breaks; a unique value renderer maps each string column's interned ids to its own
/// value ids through a table made from the column's distinct strings, so a row costs one or two
/// array reads per field (numbers, bools and boxed values are looked up by value). The answers
/// are those of ``Renderer/symbolIndex(for:)`` on the row's attribute dictionary.
///
/// A binding stays valid while rows are appended or changed, as long as no field's column
/// changes kind or is created (strings interned after binding are looked up by value); a
/// ``GraphicsLayer`` rebinds when that happens.
///
/// ```swift
/// let columns = [AttributeColumn("STATE", strings: ["MN", "WI", "PR"])]
/// let bound = BoundRenderer(.uniqueValue(states), columns: columns)
/// bound.symbolIndex(row: 2, in: columns)   // the default symbol's index, or -1
/// ```
public struct BoundRenderer: Sendable {
    /// The renderer.
    public let renderer: Renderer
    /// The symbol index of a row the renderer does not match (its default symbol's, or -1).
    @usableFromInline let unmatched: Int
    /// Class breaks: the renderer (nil for other kinds).
    @usableFromInline let breaks: ClassBreaksRenderer?
    /// Unique value: the renderer (nil for other kinds).
    @usableFromInline let values: UniqueValueRenderer?
    /// Class breaks: the numeric field; unique value: one per field.
    @usableFromInline let fields: [_BoundField]
    /// One-field unique value on a string column: column string id → symbol index.
    @usableFromInline let symbolByStringID: [Int32]
    /// How many columns there were when bound (a new one may be a field that had none).
    let columnCount: Int

    /// Binds `renderer` to `columns` (a graphics layer's, or a ``GraphicColumns``'s attributes).
    /// - Complexity: O(c + d) for c columns and d distinct strings in the renderer's fields.
    public init(_ renderer: Renderer, columns: [AttributeColumn]) {
        self.renderer = renderer
        columnCount = columns.count
        func column(_ name: String) -> Int { columns.firstIndex { $0.name == name } ?? -1 }
        switch renderer {
        case .simple:
            unmatched = 0
            breaks = nil
            values = nil
            fields = []
            symbolByStringID = []
        case .classBreaks(let r):
            unmatched = r.defaultSymbol == nil ? -1 : r.breaks.count
            breaks = r
            values = nil
            let c = column(r.field)
            fields = [_BoundField(column: c, kind: c >= 0 ? columns[c].kind : .empty, table: _InternTable(), ids: [])]
            symbolByStringID = []
        case .uniqueValue(let r):
            unmatched = r.defaultSymbol == nil ? -1 : r.uniqueValues.count
            breaks = nil
            values = r
            let tables = [r.t0, r.t1, r.t2]
            fields = r.fields.enumerated().map { f, name in
                let c = column(name)
                let kind = c >= 0 ? columns[c].kind : .empty
                let ids = kind == .string ? columns[c].strings.map { tables[f].lookup($0) } : []
                return _BoundField(column: c, kind: kind, table: tables[f], ids: ids)
            }
            if fields.count == 1, fields[0].kind == .string {
                let u = unmatched
                symbolByStringID = fields[0].ids.map { id in
                    let i = id >= 0 ? r._valueIndex(id, 0, 0) : -1
                    return Int32(i >= 0 ? i : u)
                }
            } else {
                symbolByStringID = []
            }
        }
    }

    /// Whether the binding still describes `columns`: no column was added, every field's column
    /// is of the same kind, and (strings) its distinct strings have not more than doubled.
    /// - Complexity: O(f) for the renderer's f fields.
    public func isCurrent(for columns: [AttributeColumn]) -> Bool {
        guard columns.count == columnCount else { return false }
        for f in fields where f.column >= 0 {
            guard columns[f.column].kind == f.kind else { return false }
            if f.kind == .string, columns[f.column].strings.count > 2 * f.ids.count + 64 { return false }
        }
        return true
    }

    /// The position in ``Renderer/symbols`` of the symbol for row `row` of `columns` (the columns
    /// it was bound to, since appended to or changed), or -1 for none.
    /// - Complexity: O(1): a few array reads per field, a hash for a numeric or boxed
    ///   unique-value field; no allocation.
    @inlinable
    public func symbolIndex(row: Int, in columns: [AttributeColumn]) -> Int {
        if let breaks { return classBreakIndex(breaks, row, columns) }
        if let values { return uniqueValueIndex(values, row, columns) }
        return 0
    }

    @inlinable @inline(__always)
    func classBreakIndex(_ r: ClassBreaksRenderer, _ row: Int, _ columns: [AttributeColumn]) -> Int {
        let f = fields[0]
        guard f.column >= 0 else { return unmatched }
        let v: Double
        switch f.kind {
        case .double:
            if columns[f.column].noValue.contains(row) { return unmatched }
            v = columns[f.column].doubles[row]
        case .integer:
            if columns[f.column].noValue.contains(row) { return unmatched }
            v = Double(columns[f.column].integers[row])
        case .date, .boxed:
            guard let n = columns[f.column][row]?.numericValue else { return unmatched }
            v = n
        case .string, .bool, .empty:
            return unmatched
        }
        let i = r.breakIndex(for: v)
        return i >= 0 ? i : unmatched
    }

    @inlinable @inline(__always)
    func uniqueValueIndex(_ r: UniqueValueRenderer, _ row: Int, _ columns: [AttributeColumn]) -> Int {
        if !symbolByStringID.isEmpty {
            let c = fields[0].column
            if columns[c].noValue.contains(row) { return unmatched }
            let id = Int(columns[c].stringIDs[row])
            return id < symbolByStringID.count ? Int(symbolByStringID[id]) : slowStringIndex(row, columns)
        }
        let i0 = fields[0].id(row, columns)
        guard i0 >= 0 else { return unmatched }
        var i1: Int32 = 0
        var i2: Int32 = 0
        if fields.count > 1 {
            i1 = fields[1].id(row, columns)
            guard i1 >= 0 else { return unmatched }
            if fields.count > 2 {
                i2 = fields[2].id(row, columns)
                guard i2 >= 0 else { return unmatched }
            }
        }
        let i = r._valueIndex(i0, i1, i2)
        return i >= 0 ? i : unmatched
    }

    /// A one-field string row whose string was interned after binding.
    @usableFromInline @inline(never)
    func slowStringIndex(_ row: Int, _ columns: [AttributeColumn]) -> Int {
        guard let values else { return unmatched }
        let id = fields[0].id(row, columns)
        let i = id >= 0 ? values._valueIndex(id, 0, 0) : -1
        return i >= 0 ? i : unmatched
    }
}

/// One field of a bound renderer: where its column is, how it stores values, and (unique value)
/// the renderer's intern table for it and, for a string column, each column string id's value id.
@usableFromInline
struct _BoundField: Sendable {
    /// The column's position, or -1 when no column has the field (every row lacks it).
    @usableFromInline let column: Int
    @usableFromInline let kind: AttributeColumn.Kind
    @usableFromInline let table: _InternTable
    /// Column string id → the renderer's id for that field value (-1: no unique value uses it).
    @usableFromInline let ids: [Int32]

    @usableFromInline
    init(column: Int, kind: AttributeColumn.Kind, table: _InternTable, ids: [Int32]) {
        self.column = column
        self.kind = kind
        self.table = table
        self.ids = ids
    }

    /// The renderer's id of row `row`'s value of this field, or -1 (no value, or none matches).
    @inlinable @inline(__always)
    func id(_ row: Int, _ columns: [AttributeColumn]) -> Int32 {
        guard column >= 0, !columns[column].noValue.contains(row) else { return -1 }
        switch kind {
        case .string:
            let s = Int(columns[column].stringIDs[row])
            return s < ids.count ? ids[s] : table.lookup(columns[column].strings[s])
        case .integer: return table.lookup(number: Double(columns[column].integers[row]))
        case .double: return table.lookup(number: columns[column].doubles[row])
        case .bool: return table.boolIDs[columns[column].bools[row] ? 1 : 0]
        case .date, .boxed: return columns[column][row].map { table.lookup($0) } ?? -1
        case .empty: return -1
        }
    }
}
