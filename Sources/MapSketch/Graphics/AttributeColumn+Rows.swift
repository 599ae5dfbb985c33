import MapSketchGeometry

/// Attribute dictionaries, one per row, gathered into columns (one per field name): how graphics
/// added one by one or as `[Graphic]` reach a layer's columns.
///
/// A field's column is found through a ``FieldLookup``: by name once per distinct key order,
/// then by position.
struct AttributeRows {
    private(set) var columns: [AttributeColumn] = []
    private var lookup = FieldLookup()
    /// The number of rows.
    private(set) var count = 0

    /// Appends a row.
    /// - Complexity: O(a) for its a attributes (amortised; a field new to the batch adds O(rows)).
    mutating func append(_ attributes: [String: AttributeValue]) {
        var p = 0
        for (name, value) in attributes {
            let c = lookup.column(name, at: p)
            if c == columns.count { columns.append(AttributeColumn(name)) }
            let missing = count - columns[c].count
            if missing > 0 { columns[c].appendAbsent(missing) }
            columns[c].append(value)
            p += 1
        }
        count += 1
    }

    /// The columns, every one with a row per appended row (rows without the field lack it).
    func finished() -> [AttributeColumn] {
        var out = columns
        for c in out.indices where out[c].count < count { out[c].appendAbsent(count - out[c].count) }
        return out
    }
}
