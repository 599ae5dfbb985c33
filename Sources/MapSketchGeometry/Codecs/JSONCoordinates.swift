// Coordinates as both JSON codecs read them: finite numbers, with `null` / `"NaN"` as the
// marker of an absent value.

extension JSONValue {
    /// A finite coordinate.
    /// - Throws: ``JSONError`` for anything but a number; `"NaN"` and `"Infinity"` are named.
    func decodeCoordinate() throws -> Double {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let d): return d
        case .string(let s) where s == "NaN" || s == "Infinity" || s == "-Infinity":
            throw JSONError("coordinate is \(s): only an empty point ({\"x\": null} or \"x\": \"NaN\") may use NaN")
        default: throw JSONError("expected a number, found \(kindDescription)")
        }
    }

    /// A finite coordinate, or nil for `null` / `"NaN"` (an absent z or m).
    /// - Throws: as ``decodeCoordinate()``.
    func decodeOptionalCoordinate() throws -> Double? {
        if isEmptyMarker { return nil }
        return try decodeCoordinate()
    }

    /// Whether the value marks an absent coordinate: `null` or `"NaN"` (Esri JSON's empty point).
    var isEmptyMarker: Bool {
        if case .null = self { return true }
        if case .string("NaN") = self { return true }
        return false
    }
}
