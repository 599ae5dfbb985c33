package import MapSketchGeometry

/// An sRGB color with alpha in 0…1.
public struct Color: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Red, 0…255.
    public var red: UInt8
    /// Green, 0…255.
    public var green: UInt8
    /// Blue, 0…255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) … 1 (opaque).
    public var alpha: Double

    /// A color from its components (opaque unless `alpha` says otherwise).
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA`; nil for anything else.
    public init?(hex: String) {
        var s = Substring(hex)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.count == 6 || s.count == 8, let v = UInt32(s, radix: 16) else { return nil }
        if s.count == 6 {
            self.init(red: UInt8(v >> 16 & 0xFF), green: UInt8(v >> 8 & 0xFF), blue: UInt8(v & 0xFF))
        } else {
            self.init(
                red: UInt8(v >> 24 & 0xFF), green: UInt8(v >> 16 & 0xFF), blue: UInt8(v >> 8 & 0xFF),
                alpha: Double(v & 0xFF) / 255)
        }
    }

    /// `#rrggbb` (alpha not included).
    public var hex: String {
        func h(_ v: UInt8) -> String {
            let d = Array("0123456789abcdef")
            return String([d[Int(v >> 4)], d[Int(v & 15)]])
        }
        return "#" + h(red) + h(green) + h(blue)
    }

    /// This color with another alpha.
    public func withAlpha(_ a: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: a) }

    public var description: String { alpha == 1 ? hex : "\(hex)@\(alpha)" }

    /// Black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// White.
    public static let white = Color(red: 255, green: 255, blue: 255)
    /// Pure red, `#ff0000`.
    public static let red = Color(red: 255, green: 0, blue: 0)
    /// Web green, `#008000`.
    public static let green = Color(red: 0, green: 128, blue: 0)
    /// Pure blue, `#0000ff`.
    public static let blue = Color(red: 0, green: 0, blue: 255)
    /// Yellow, `#ffff00`.
    package static let yellow = Color(red: 255, green: 255, blue: 0)
    /// Middle gray, `#808080`.
    public static let gray = Color(red: 128, green: 128, blue: 128)
    /// Dark gray, `#404040`.
    package static let darkGray = Color(red: 64, green: 64, blue: 64)
    /// Purple, `#800080`.
    package static let purple = Color(red: 128, green: 0, blue: 128)
    /// Fully transparent black.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
}

/// The shapes of a simple marker.
public enum SimpleMarkerStyle: String, Hashable, Sendable, Codable, CaseIterable {
    /// A disc, `size` across.
    case circle
    /// A square, `size` on a side.
    case square
    /// A square standing on a corner, `size` across.
    case diamond
    /// A plus sign of two strokes `size` long.
    case cross
    /// A diagonal cross of two strokes.
    case x
    /// A triangle pointing up, fitting a `size` × `size` box.
    case triangle
}

/// The dash patterns of a simple line.
public enum SimpleLineStyle: String, Hashable, Sendable, Codable, CaseIterable {
    /// A continuous line.
    case solid
    /// Dashes.
    case dash
    /// Dots.
    case dot
    /// Alternating dashes and dots.
    case dashDot
    /// No line: nothing is drawn.
    case null
}

/// The patterns of a simple fill.
public enum SimpleFillStyle: String, Hashable, Sendable, Codable, CaseIterable {
    /// A solid fill in the color.
    case solid
    /// Horizontal hatching.
    case horizontal
    /// Vertical hatching.
    case vertical
    /// Horizontal and vertical hatching.
    case cross
    /// Hatching rising to the right.
    case forwardDiagonal
    /// Hatching falling to the right.
    case backwardDiagonal
    /// Both diagonal hatchings.
    case diagonalCross
    /// No fill (the outline, if any, is still drawn).
    case null
}

/// A line: style, color and width in points.
public struct SimpleLineSymbol: Hashable, Sendable, Codable {
    /// The dash pattern.
    public var style: SimpleLineStyle
    /// The line's color.
    public var color: Color
    /// The width in points.
    public var width: Double

    /// A line symbol (a solid black line 1 pt wide by default).
    public init(style: SimpleLineStyle = .solid, color: Color = .black, width: Double = 1) {
        self.style = style
        self.color = color
        self.width = width
    }
}

/// A marker of a simple shape: size in points (the marker's diameter or side), optional outline.
public struct SimpleMarkerSymbol: Hashable, Sendable, Codable {
    /// The shape.
    public var style: SimpleMarkerStyle
    /// The fill color (the stroke color of `cross` and `x`).
    public var color: Color
    /// The diameter or side in points.
    public var size: Double
    /// The outline, if any.
    public var outline: SimpleLineSymbol?
    /// The rotation in degrees, counter-clockwise.
    public var angle: Double
    /// The shift to the right, in points.
    public var xOffset: Double
    /// The shift upwards, in points.
    public var yOffset: Double

    /// A marker symbol (a black circle 8 pt across by default).
    public init(
        style: SimpleMarkerStyle = .circle, color: Color = .black, size: Double = 8,
        outline: SimpleLineSymbol? = nil, angle: Double = 0, xOffset: Double = 0, yOffset: Double = 0
    ) {
        self.style = style
        self.color = color
        self.size = size
        self.outline = outline
        self.angle = angle
        self.xOffset = xOffset
        self.yOffset = yOffset
    }
}

/// A marker drawn from an image, referenced by name or URL; size in points.
public struct PictureMarkerSymbol: Hashable, Sendable, Codable {
    /// The image's name or URL.
    public var image: String
    /// The width in points.
    public var width: Double
    /// The height in points.
    public var height: Double
    /// The shift to the right, in points.
    public var xOffset: Double
    /// The shift upwards, in points.
    public var yOffset: Double

    /// A picture marker (16 × 16 pt by default).
    public init(image: String, width: Double = 16, height: Double = 16, xOffset: Double = 0, yOffset: Double = 0) {
        self.image = image
        self.width = width
        self.height = height
        self.xOffset = xOffset
        self.yOffset = yOffset
    }
}

/// A polygon fill: style, color and optional outline.
public struct SimpleFillSymbol: Hashable, Sendable, Codable {
    /// The fill pattern.
    public var style: SimpleFillStyle
    /// The fill color.
    public var color: Color
    /// The outline, if any.
    public var outline: SimpleLineSymbol?

    /// A fill symbol (solid gray with a black 1 pt outline by default).
    public init(style: SimpleFillStyle = .solid, color: Color = .gray, outline: SimpleLineSymbol? = SimpleLineSymbol()) {
        self.style = style
        self.color = color
        self.outline = outline
    }
}

/// A text label.
public struct TextSymbol: Hashable, Sendable, Codable {
    /// The label.
    public var text: String
    /// The text color.
    public var color: Color
    /// The font size in points.
    public var fontSize: Double
    /// The font family, e.g. `sans-serif`.
    public var fontFamily: String
    /// The rotation in degrees, counter-clockwise.
    public var angle: Double
    /// The shift to the right, in points.
    public var xOffset: Double
    /// The shift upwards, in points.
    public var yOffset: Double

    /// A text symbol (black, 12 pt, sans-serif by default).
    public init(
        text: String, color: Color = .black, fontSize: Double = 12, fontFamily: String = "sans-serif",
        angle: Double = 0, xOffset: Double = 0, yOffset: Double = 0
    ) {
        self.text = text
        self.color = color
        self.fontSize = fontSize
        self.fontFamily = fontFamily
        self.angle = angle
        self.xOffset = xOffset
        self.yOffset = yOffset
    }
}

/// A symbol: how a geometry is drawn.
public indirect enum Symbol: Hashable, Sendable, Codable {
    /// A marker of a simple shape, for points and multipoints.
    case simpleMarker(SimpleMarkerSymbol)
    /// A marker drawn from an image, for points and multipoints.
    case pictureMarker(PictureMarkerSymbol)
    /// A line, for polylines.
    case simpleLine(SimpleLineSymbol)
    /// A fill, for polygons and envelopes.
    case simpleFill(SimpleFillSymbol)
    /// A text label at the geometry's label point, for any geometry.
    case text(TextSymbol)
    /// Several symbols drawn in order.
    case composite([Symbol])

    /// The symbol's kind: which case it is, without its payload.
    public var kind: SymbolKind {
        switch self {
        case .simpleMarker: .simpleMarker
        case .pictureMarker: .pictureMarker
        case .simpleLine: .simpleLine
        case .simpleFill: .simpleFill
        case .text: .text
        case .composite: .composite
        }
    }

    /// Whether this symbol can draw a geometry of `type`: markers draw points and multipoints;
    /// lines, polylines; fills, polygons and envelopes; text, every type; a composite, the types
    /// every one of its parts draws (every type when it has none).
    ///
    /// The one statement of the rule: adding graphics, drawing, hit testing and mismatch reports
    /// all ask it.
    /// - Complexity: O(1), or O(p) for a composite of p parts (recursively).
    package func fits(_ type: GeometryType) -> Bool {
        switch self {
        case .simpleMarker, .pictureMarker: type == .point || type == .multipoint
        case .simpleLine: type == .polyline
        case .simpleFill: type == .polygon || type == .envelope
        case .text: true
        case .composite(let parts): parts.allSatisfy { $0.fits(type) }
        }
    }

    /// The geometry types this symbol can draw: those ``fits(_:)`` accepts.
    package var fittingTypes: Set<GeometryType> { Set(GeometryType.allCases.filter(fits)) }
}

/// The kinds of ``Symbol``; the raw values are the names written in reports and logs.
public enum SymbolKind: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// ``Symbol/simpleMarker(_:)``.
    case simpleMarker
    /// ``Symbol/pictureMarker(_:)``.
    case pictureMarker
    /// ``Symbol/simpleLine(_:)``.
    case simpleLine
    /// ``Symbol/simpleFill(_:)``.
    case simpleFill
    /// ``Symbol/text(_:)``.
    case text
    /// ``Symbol/composite(_:)``.
    case composite

    /// The raw value, e.g. `simpleMarker`.
    public var description: String { rawValue }
}
