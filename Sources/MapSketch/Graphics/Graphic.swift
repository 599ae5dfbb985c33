public import MapSketchGeometry

/// A graphic's identity in its layer: assigned on add, stable for the graphic's life, never
/// reused by that layer. Later-added graphics have larger ids and draw on top.
public struct GraphicID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The id's value.
    public let rawValue: Int

    /// Wraps a raw id.
    @inlinable public init(rawValue: Int) { self.rawValue = rawValue }

    @inlinable public static func < (a: GraphicID, b: GraphicID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// Ids step by one, so the ids of a batch (``GraphicsLayer/add(columns:)``) are a `Range<GraphicID>`.
extension GraphicID: Strideable {
    /// The number of ids from this one to `other`.
    @inlinable public func distance(to other: GraphicID) -> Int { other.rawValue - rawValue }
    /// The id `n` after this one.
    @inlinable public func advanced(by n: Int) -> GraphicID { GraphicID(rawValue: rawValue + n) }
}

/// A graphic: a geometry, an optional symbol, typed attributes and an optional info template.
///
/// A value type, so a million of them sit in one contiguous array. The geometry is in the
/// spatial reference of the layer it is added to.
public struct Graphic: Hashable, Sendable {
    /// Where the graphic is.
    public var geometry: Geometry
    /// Its own symbol, which wins over the layer's renderer.
    public var symbol: Symbol?
    /// Attribute name → value.
    public var attributes: [String: AttributeValue]
    /// What a tap on the graphic shows in a callout (nil: no callout).
    public var infoTemplate: InfoTemplate?

    /// Creates a graphic.
    public init(
        geometry: Geometry, symbol: Symbol? = nil, attributes: [String: AttributeValue] = [:],
        infoTemplate: InfoTemplate? = nil
    ) {
        self.geometry = geometry
        self.symbol = symbol
        self.attributes = attributes
        self.infoTemplate = infoTemplate
    }

    /// Creates a graphic from anything convertible to a geometry.
    public init(
        _ geometry: some GeometryConvertible, symbol: Symbol? = nil, attributes: [String: AttributeValue] = [:],
        infoTemplate: InfoTemplate? = nil
    ) {
        self.init(geometry: geometry.geometry, symbol: symbol, attributes: attributes, infoTemplate: infoTemplate)
    }
}

/// What a callout shows: the content an info template produced for a graphic.
public struct CalloutContent: Hashable, Sendable {
    /// The title line.
    public var title: String
    /// The detail line.
    public var detail: String
    /// Custom content (the headless form of a custom view), if the template made one.
    public var custom: String?

    /// Creates callout content.
    package init(title: String = "", detail: String = "", custom: String? = nil) {
        self.title = title
        self.detail = detail
        self.custom = custom
    }
}

/// A callout template: title and detail text with `${FIELD}` tokens replaced by the graphic's
/// attribute values, as `AGSCalloutTemplate`.
///
/// A token naming an attribute the graphic lacks, or a null one, becomes the empty string. `$$`
/// is not special; an unclosed `${` is kept literally.
public struct CalloutTemplate: Hashable, Sendable {
    /// The title, e.g. `"${CITY_NAME}"`.
    public var title: String
    /// The detail, e.g. `"Population: ${POPULATION}"`.
    public var detail: String

    /// Creates a template.
    public init(title: String, detail: String = "") {
        self.title = title
        self.detail = detail
    }

    /// The content for a graphic's attributes.
    public func content(for attributes: [String: AttributeValue]) -> CalloutContent {
        CalloutContent(
            title: Self.substitute(title, attributes), detail: Self.substitute(detail, attributes))
    }

    /// Replaces every `${NAME}` in `text` with the display string of attribute NAME.
    /// - Complexity: O(length of text + length of the substituted values).
    package static func substitute(_ text: String, _ attributes: [String: AttributeValue]) -> String {
        var out = ""
        for piece in pieces(text) {
            switch piece {
            case .text(let t): out += t
            case .field(let name): out += attributes[name]?.displayString ?? ""
            }
        }
        return out
    }

    /// A piece of a template's text: literal text, or a `${NAME}` token.
    enum Piece: Hashable, Sendable {
        case text(String)
        case field(String)
    }

    /// `text` split into literal text and `${NAME}` tokens (an unclosed `${` stays literal): the
    /// one parse behind ``substitute(_:_:)`` and a graphics layer's callouts from its columns.
    static func pieces(_ text: String) -> [Piece] {
        var out: [Piece] = []
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            if start.lowerBound > rest.startIndex { out.append(.text(String(rest[rest.startIndex..<start.lowerBound]))) }
            let after = rest[start.upperBound...]
            guard let close = after.firstIndex(of: "}") else {
                out.append(.text(String(rest[start.lowerBound...])))
                return out
            }
            out.append(.field(String(after[after.startIndex..<close])))
            rest = after[after.index(after: close)...]
        }
        if !rest.isEmpty { out.append(.text(String(rest))) }
        return out
    }
}

/// A custom info template: a closure computing the callout content, as an
/// `AGSInfoTemplateDelegate` that implements `customViewForGraphic`.
///
/// The closure runs on the main actor, where the map and its layers live and where a tap shows
/// the callout: it may read the map (its viewport, ``MapView/toScreen(_:)``), the app's
/// main-actor state and values that are not `Sendable`, with no `MainActor.assumeIsolated`.
///
/// ```swift
/// let template = CustomInfoTemplate(id: "where") { graphic, screen, mapPoint in
///     CalloutContent(title: "\(graphic.attributes["NAME"] ?? .null)", detail: "at \(map.toScreen(mapPoint))")
/// }
/// ```
///
/// Equality and hashing use `id` only (closures cannot be compared): give different templates
/// different ids.
public struct CustomInfoTemplate: Hashable, Sendable {
    /// Identifies the template.
    public let id: String
    /// Computes the content from the graphic, the tapped screen point and its map point, on the
    /// main actor.
    public let content: @MainActor (Graphic, ScreenPoint, Point) -> CalloutContent

    /// Creates a custom template whose content `content` computes on the main actor.
    public init(id: String, content: @escaping @MainActor (Graphic, ScreenPoint, Point) -> CalloutContent) {
        self.id = id
        self.content = content
    }

    public static func == (a: CustomInfoTemplate, b: CustomInfoTemplate) -> Bool { a.id == b.id }
    public func hash(into h: inout Hasher) { h.combine(id) }
}

/// What a tap on a graphic shows.
public enum InfoTemplate: Hashable, Sendable {
    /// Title and detail with `${FIELD}` tokens.
    case callout(CalloutTemplate)
    /// Content from a closure.
    case custom(CustomInfoTemplate)

    /// The content for `graphic` tapped at `screen` / `mapPoint` (on the main actor, where a
    /// custom template's closure runs).
    @MainActor
    public func content(for graphic: Graphic, screen: ScreenPoint, mapPoint: Point) -> CalloutContent {
        switch self {
        case .callout(let t): t.content(for: graphic.attributes)
        case .custom(let t): t.content(graphic, screen, mapPoint)
        }
    }
}
