public import MapSketchGeometry

/// One value of a unique value renderer: `value` is the field values joined by the renderer's
/// delimiter (one value for a one-field renderer).
public struct UniqueValue: Hashable, Sendable {
    /// The field values, joined by the renderer's delimiter.
    public var value: String
    /// The legend label.
    public var label: String
    /// A longer description for the legend.
    public var description: String
    /// The symbol of graphics with this value.
    public var symbol: Symbol

    /// Creates a unique value.
    public init(value: String, label: String = "", description: String = "", symbol: Symbol) {
        self.value = value
        self.label = label
        self.description = description
        self.symbol = symbol
    }
}

/// Why a renderer definition was rejected.
public enum RendererError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A unique value renderer needs one to three fields.
    case fieldCount(Int)
    /// A unique value has the wrong number of delimited parts.
    case valuePartCount(value: String, expected: Int, found: Int)
    /// The field delimiter is empty.
    case emptyDelimiter

    public var description: String {
        switch self {
        case .fieldCount(let n): "a unique value renderer needs 1 to 3 fields, got \(n)"
        case .valuePartCount(let v, let e, let f): "unique value \"\(v)\": expected \(e) parts joined by the delimiter, found \(f)"
        case .emptyDelimiter: "the unique value field delimiter is empty"
        }
    }
}

/// Symbolizes graphics whose attributes match a value: one to three fields, their values joined
/// by ``fieldDelimiter``; unmatched graphics get ``defaultSymbol`` (or none).
///
/// A definition's text matches a string attribute exactly, a numeric attribute (integer, double,
/// date as epoch milliseconds) of the same number (`"5"` matches `.integer(5)` and `.double(5)`),
/// and `"true"`/`"false"` a bool. The first definition of a duplicate value wins.
///
/// Lookups intern each field's value to a small integer (one FNV-1a hash per field, in an
/// open-addressing table) and combine them in a flat table: no string is built, nothing allocated.
public struct UniqueValueRenderer: Hashable, Sendable {
    /// The attribute fields (1…3).
    public let fields: [String]
    /// Joins the field values of a multi-field definition (default `","`).
    public let fieldDelimiter: String
    /// The definitions, in the order given.
    public let uniqueValues: [UniqueValue]
    /// The symbol for unmatched graphics.
    public let defaultSymbol: Symbol?

    /// Per field: value → its index among that field's distinct values (stored apart, not in an
    /// array, so a lookup borrows them instead of copying).
    @usableFromInline let t0: _InternTable
    @usableFromInline let t1: _InternTable
    @usableFromInline let t2: _InternTable
    /// Combined index (i0 + n0·(i1 + n1·i2)) → unique value index, or -1.
    @usableFromInline let table: [Int32]
    /// The same as `table` when the dense table would exceed 2²⁰ entries.
    @usableFromInline let sparse: [Int: Int32]
    @usableFromInline let sizes: [Int]

    /// Creates a unique value renderer.
    /// - Throws: ``RendererError`` when there are not 1…3 fields, the delimiter is empty, or a
    ///   value does not have one part per field.
    /// - Complexity: O(v + d₀·d₁·d₂) for v values with dᵢ distinct values in field i.
    public init(fields: [String], fieldDelimiter: String = ",", uniqueValues: [UniqueValue], defaultSymbol: Symbol? = nil) throws {
        guard (1...3).contains(fields.count) else { throw RendererError.fieldCount(fields.count) }
        guard !fieldDelimiter.isEmpty else { throw RendererError.emptyDelimiter }
        self.fields = fields
        self.fieldDelimiter = fieldDelimiter
        self.uniqueValues = uniqueValues
        self.defaultSymbol = defaultSymbol
        var interned = [_InternTable](repeating: _InternTable(), count: fields.count)
        var partsPerValue: [[Int32]] = []
        var next = [Int32](repeating: 0, count: fields.count)
        for uv in uniqueValues {
            let parts = fields.count == 1 ? [uv.value] : uv.value.components(separatedBy: fieldDelimiter)
            guard parts.count == fields.count else {
                throw RendererError.valuePartCount(value: uv.value, expected: fields.count, found: parts.count)
            }
            var ids: [Int32] = []
            for (f, text) in parts.enumerated() {
                let id: Int32
                let known = interned[f].lookup(text)
                if known >= 0 {
                    id = known
                } else {
                    id = next[f]
                    next[f] += 1
                }
                interned[f].insert(text, id: id)
                if let d = Double(text), d.isFinite { interned[f].insert(number: d, id: id) }
                if text == "true" { interned[f].insert(bool: true, id: id) }
                if text == "false" { interned[f].insert(bool: false, id: id) }
                ids.append(id)
            }
            partsPerValue.append(ids)
        }
        // Distinct ids per field are 0..<(max id + 1).
        let sizes = next.map { Int($0) }
        let (product, overflow) = sizes.reduce((1, false)) { acc, n in
            let (p, o) = acc.0.multipliedReportingOverflow(by: max(1, n))
            return (p, acc.1 || o)
        }
        let dense = !overflow && product <= 1 << 20
        var table = [Int32](repeating: -1, count: dense ? max(1, product) : 0)
        var sparse: [Int: Int32] = [:]
        for (v, ids) in partsPerValue.enumerated() {
            var combined = 0
            var mul = 1
            for (f, id) in ids.enumerated() {
                combined += Int(id) * mul
                mul *= sizes[f]
            }
            if dense {
                if table[combined] < 0 { table[combined] = Int32(v) }
            } else if sparse[combined] == nil {
                sparse[combined] = Int32(v)
            }
        }
        self.t0 = interned[0]
        self.t1 = interned.count > 1 ? interned[1] : _InternTable()
        self.t2 = interned.count > 2 ? interned[2] : _InternTable()
        self.table = table
        self.sparse = sparse
        self.sizes = sizes
    }

    /// Creates a one-field renderer.
    public init(field: String, uniqueValues: [UniqueValue], defaultSymbol: Symbol? = nil) {
        // One field and a non-empty delimiter cannot fail.
        self = (try? UniqueValueRenderer(fields: [field], fieldDelimiter: ",", uniqueValues: uniqueValues, defaultSymbol: defaultSymbol))
            ?? UniqueValueRenderer(empty: field, defaultSymbol: defaultSymbol)
    }

    private init(empty field: String, defaultSymbol: Symbol?) {
        fields = [field]
        fieldDelimiter = ","
        uniqueValues = []
        self.defaultSymbol = defaultSymbol
        t0 = _InternTable()
        t1 = _InternTable()
        t2 = _InternTable()
        table = [-1]
        sparse = [:]
        sizes = [0]
    }

    /// The index of the unique value matching these field values (one per field), or -1.
    /// - Complexity: O(1): one hash per field; no allocation.
    @inlinable
    public func valueIndex(_ v0: AttributeValue, _ v1: AttributeValue = .null, _ v2: AttributeValue = .null) -> Int {
        let i0 = t0.lookup(v0)
        guard i0 >= 0 else { return -1 }
        guard sizes.count > 1 else { return _valueIndex(i0, 0, 0) }
        let i1 = t1.lookup(v1)
        guard i1 >= 0 else { return -1 }
        guard sizes.count > 2 else { return _valueIndex(i0, i1, 0) }
        let i2 = t2.lookup(v2)
        guard i2 >= 0 else { return -1 }
        return _valueIndex(i0, i1, i2)
    }

    /// The index of the unique value whose fields have the interned ids `i0`, `i1`, `i2` (each
    /// ≥ 0; those past the field count are ignored), or -1.
    @inlinable @inline(__always)
    func _valueIndex(_ i0: Int32, _ i1: Int32, _ i2: Int32) -> Int {
        var combined = Int(i0)
        if sizes.count > 1 {
            combined &+= Int(i1) &* sizes[0]
            if sizes.count > 2 { combined &+= Int(i2) &* sizes[0] &* sizes[1] }
        }
        return table.isEmpty ? Int(sparse[combined] ?? -1) : Int(table[combined])
    }

    /// The index of the unique value matching a graphic's attributes, or -1.
    @inlinable
    public func valueIndex(for attributes: [String: AttributeValue]) -> Int {
        let v0 = attributes[fields[0]] ?? .null
        let v1 = fields.count > 1 ? attributes[fields[1]] ?? .null : .null
        let v2 = fields.count > 2 ? attributes[fields[2]] ?? .null : .null
        return valueIndex(v0, v1, v2)
    }

    /// The symbol for a graphic's attributes: its unique value's, else the default symbol.
    public func symbol(for attributes: [String: AttributeValue]) -> Symbol? {
        let i = valueIndex(for: attributes)
        return i >= 0 ? uniqueValues[i].symbol : defaultSymbol
    }
}
