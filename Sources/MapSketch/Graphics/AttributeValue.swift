public import Foundation
import MapSketchGeometry

/// A typed attribute value of a graphic: string, integer, double, bool, date or null.
public enum AttributeValue: Hashable, Sendable {
    /// Text.
    case string(String)
    /// A whole number.
    case integer(Int)
    /// A floating-point number.
    case double(Double)
    /// True or false.
    case bool(Bool)
    /// A point in time.
    case date(Date)
    /// No value.
    case null

    /// The numeric value for integers, doubles and dates (milliseconds since 1970, as Esri JSON
    /// stores dates); nil otherwise.
    @inlinable
    public var numericValue: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .double(let d): d
        case .date(let d): d.timeIntervalSince1970 * 1000
        default: nil
        }
    }

    /// The value as callout text: strings as is, numbers in Swift's shortest round-trip form,
    /// `true`/`false`, dates as ISO 8601 UTC (`2011-09-14T00:00:00Z`), null as the empty string.
    /// Independent of the locale.
    public var displayString: String {
        switch self {
        case .string(let s): s
        case .integer(let i): String(i)
        case .double(let d): d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
        case .bool(let b): b ? "true" : "false"
        case .date(let d): iso8601(d)
        case .null: ""
        }
    }
}

extension AttributeValue: CustomStringConvertible {
    /// The value as Swift would write it: `5`, `2.5`, `"text"` (quoted, with escapes), `true`,
    /// a date in ISO 8601 UTC (`2011-09-14T00:00:00Z`), `null`. A dictionary of attributes prints
    /// as `["NAME": "Minneapolis", "POP": 382578]`. (``displayString`` is the callout text.)
    public var description: String {
        switch self {
        case .string(let s): s.debugDescription
        case .integer(let i): String(i)
        case .double(let d): "\(d)"
        case .bool(let b): b ? "true" : "false"
        case .date(let d): iso8601(d)
        case .null: "null"
        }
    }
}

extension AttributeValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
}

/// ISO 8601 in UTC with whole seconds, computed without calendars or locales (days-from-civil
/// inverse by Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms").
func iso8601(_ date: Date) -> String {
    let t = date.timeIntervalSince1970
    guard t.isFinite, abs(t) < 1e14 else { return "\(t)" }
    let secs = Int64(t.rounded(.down))
    var days = secs / 86400
    var rem = secs % 86400
    if rem < 0 {
        rem += 86400
        days -= 1
    }
    let (y, m, d) = CivilDate.date(days: Int(days))
    func p2<T: BinaryInteger>(_ v: T) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let year = y < 0 ? "-" + String(-y) : String(y)
    return "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)-\(p2(m))-\(p2(d))T\(p2(rem / 3600)):\(p2(rem % 3600 / 60)):\(p2(rem % 60))Z"
}
