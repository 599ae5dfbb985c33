/// Decides how each graphic of a layer is drawn from its attributes.
///
/// A renderer's symbols form a table: ``symbols``; ``symbolIndex(for:)`` returns a position in
/// it (or -1), which is what a graphics layer precomputes per graphic so drawing and hit-testing
/// never look attributes up.
public enum Renderer: Hashable, Sendable {
    /// The same symbol for every graphic.
    case simple(Symbol)
    /// A symbol per numeric range.
    case classBreaks(ClassBreaksRenderer)
    /// A symbol per attribute value (or combination of up to three).
    case uniqueValue(UniqueValueRenderer)

    /// The symbol table: class breaks or unique values in order, then the default symbol if any.
    public var symbols: [Symbol] {
        switch self {
        case .simple(let s): [s]
        case .classBreaks(let r): r.breaks.map(\.symbol) + (r.defaultSymbol.map { [$0] } ?? [])
        case .uniqueValue(let r): r.uniqueValues.map(\.symbol) + (r.defaultSymbol.map { [$0] } ?? [])
        }
    }

    /// The position in ``symbols`` of the symbol for these attributes, or -1 for none.
    /// - Complexity: O(log b) for class breaks, O(fields) hashes for unique values; no allocation.
    @inlinable
    public func symbolIndex(for attributes: [String: AttributeValue]) -> Int {
        switch self {
        case .simple:
            return 0
        case .classBreaks(let r):
            if let v = attributes[r.field]?.numericValue {
                let i = r.breakIndex(for: v)
                if i >= 0 { return i }
            }
            return r.defaultSymbol == nil ? -1 : r.breaks.count
        case .uniqueValue(let r):
            let i = r.valueIndex(for: attributes)
            if i >= 0 { return i }
            return r.defaultSymbol == nil ? -1 : r.uniqueValues.count
        }
    }

    /// The symbol for these attributes, or nil when the renderer has none for them.
    public func symbol(for attributes: [String: AttributeValue]) -> Symbol? {
        switch self {
        case .simple(let s): s
        case .classBreaks(let r): r.symbol(forValue: attributes[r.field]?.numericValue ?? .nan)
        case .uniqueValue(let r): r.symbol(for: attributes)
        }
    }
}
