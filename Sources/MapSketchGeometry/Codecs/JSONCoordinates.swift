// Coordinates as both JSON codecs read them: finite numbers, with `null` / `"NaN"` as the
// marker of an absent value.

/// A finite coordinate.
func _coordinate(_ v: JSONValue) throws -> Double {
    switch v {
    case .integer(let i): return Double(i)
    case .number(let d): return d
    case .string(let s) where s == "NaN" || s == "Infinity" || s == "-Infinity":
        throw JSONError("coordinate is \(s): only an empty point ({\"x\": null} or \"x\": \"NaN\") may use NaN")
    default: throw JSONError("expected a number, found \(v.kindDescription)")
    }
}

/// A finite coordinate, or nil for `null` / `"NaN"` (an absent z or m).
func _optionalCoordinate(_ v: JSONValue) throws -> Double? {
    if _isEmptyMarker(v) { return nil }
    return try _coordinate(v)
}

func _isEmptyMarker(_ v: JSONValue) -> Bool {
    if case .null = v { return true }
    if case .string("NaN") = v { return true }
    return false
}
