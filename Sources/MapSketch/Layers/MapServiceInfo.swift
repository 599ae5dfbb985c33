public import MapSketchGeometry
import Foundation

/// One level of detail of a tiling scheme.
public struct LevelOfDetail: Hashable, Sendable {
    /// The level number (0 = most zoomed out).
    public var level: Int
    /// Map units per pixel.
    public var resolution: Double
    /// The map scale denominator.
    public var scale: Double

    /// Creates a level of detail.
    package init(level: Int, resolution: Double, scale: Double) {
        self.level = level
        self.resolution = resolution
        self.scale = scale
    }
}

/// A tiling scheme: tile size in pixels, the origin (top-left corner of tile row 0, column 0)
/// and the levels of detail, as the `tileInfo` of an ArcGIS REST map service.
public struct TileInfo: Hashable, Sendable {
    /// Tile height in pixels.
    public var rows: Int
    /// Tile width in pixels.
    public var cols: Int
    /// Dots per inch of the tiles.
    public var dpi: Double
    /// The top-left corner of the tile grid, in the scheme's spatial reference.
    public var origin: Point
    /// The scheme's spatial reference.
    public var spatialReference: SpatialReference?
    /// The levels, sorted by decreasing resolution.
    public var lods: [LevelOfDetail]

    /// Creates a tiling scheme.
    package init(rows: Int, cols: Int, dpi: Double = 96, origin: Point, spatialReference: SpatialReference?, lods: [LevelOfDetail]) {
        self.rows = rows
        self.cols = cols
        self.dpi = dpi
        self.origin = origin
        self.spatialReference = spatialReference
        self.lods = lods.sorted { $0.resolution > $1.resolution }
    }
}

/// A tile of a tiled layer: level, row (down from the origin) and column (right of it).
public struct TileKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The level of detail.
    public var level: Int
    /// The row, counted down from the origin.
    public var row: Int
    /// The column, counted right from the origin.
    public var column: Int

    /// Creates a tile key.
    package init(level: Int, row: Int, column: Int) {
        self.level = level
        self.row = row
        self.column = column
    }

    public static func < (a: TileKey, b: TileKey) -> Bool { (a.level, a.row, a.column) < (b.level, b.row, b.column) }
    public var description: String { "\(level)/\(row)/\(column)" }
}

/// The description of an ArcGIS REST map service (`MapServer?f=json`): the fields a layer needs.
public struct MapServiceInfo: Hashable, Sendable {
    /// The service's spatial reference.
    public var spatialReference: SpatialReference?
    /// The extent shown first.
    package var initialExtent: Envelope?
    /// The extent of all the data.
    public var fullExtent: Envelope?
    /// The tiling scheme (tiled services only).
    public var tileInfo: TileInfo?
    /// Whether the service is cached as one fused set of tiles.
    public var singleFusedMapCache: Bool
    /// The map's name.
    public var mapName: String?

    /// Creates a description.
    package init(
        spatialReference: SpatialReference?, initialExtent: Envelope? = nil, fullExtent: Envelope? = nil,
        tileInfo: TileInfo? = nil, singleFusedMapCache: Bool = false, mapName: String? = nil
    ) {
        self.spatialReference = spatialReference
        self.initialExtent = initialExtent
        self.fullExtent = fullExtent
        self.tileInfo = tileInfo
        self.singleFusedMapCache = singleFusedMapCache
        self.mapName = mapName
    }

    /// Parses a `MapServer?f=json` document.
    ///
    /// An ArcGIS REST error document (`{"error": {"code": 498, "message": …}}`) becomes
    /// ``LayerError/unauthorized(_:)`` for codes 401, 403, 498 and 499, else
    /// ``LayerError/httpStatus(_:)``.
    /// - Throws: ``LayerError/invalidResponse(_:)`` with line:column or the field path and what
    ///   was expected, e.g. `tileInfo.lods[2].resolution: expected a number, found a string`.
    public static func parse(_ bytes: [UInt8]) throws(LayerError) -> MapServiceInfo {
        let text = String(decoding: bytes, as: UTF8.self)
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch let e as JSONError {
            throw .invalidResponse(JSONParser.locate(e, in: text).description)
        } catch {
            throw .invalidResponse("\(error)")
        }
        if let err = root["error"]?.objectValue {
            let code = err["code"]?.int64Value.map { Int($0) } ?? 0
            let message = err["message"]?.stringValue ?? "service error"
            if [401, 403, 498, 499].contains(code) { throw .unauthorized("\(code) \(message)") }
            throw .httpStatus(code)
        }
        do {
            let o = try root.decodeObject()
            let sr = try o.decodeIfPresent("spatialReference", Self.spatialReference)
            let tile = try o.decodeIfPresent("tileInfo") { v -> TileInfo in
                let t = try v.decodeObject()
                let origin = try t.decode("origin") { v -> Point in
                    let p = try v.decodeObject()
                    return Point(try p.decode("x") { try $0.decodeNumber() }, try p.decode("y") { try $0.decodeNumber() })
                }
                let lods = try t.decode("lods") {
                    try $0.decodeElements { v -> LevelOfDetail in
                        let l = try v.decodeObject()
                        let res = try l.decode("resolution") { try $0.decodeNumber() }
                        guard res > 0 else { throw JSONError("resolution must be positive, found \(res)", path: [.key("resolution")]) }
                        return LevelOfDetail(
                            level: try l.decode("level") { try $0.decodeInt() }, resolution: res,
                            scale: try l.decodeIfPresent("scale") { try $0.decodeNumber() } ?? 0)
                    }
                }
                let rows = try t.decode("rows") { try $0.decodeInt() }
                let cols = try t.decode("cols") { try $0.decodeInt() }
                guard rows > 0, cols > 0 else { throw JSONError("tile rows and cols must be positive, found \(rows)×\(cols)") }
                return TileInfo(
                    rows: rows, cols: cols, dpi: try t.decodeIfPresent("dpi") { try $0.decodeNumber() } ?? 96, origin: origin,
                    spatialReference: try t.decodeIfPresent("spatialReference", Self.spatialReference), lods: lods)
            }
            return MapServiceInfo(
                spatialReference: sr ?? tile?.spatialReference,
                initialExtent: try o.decodeIfPresent("initialExtent", Self.envelope),
                fullExtent: try o.decodeIfPresent("fullExtent", Self.envelope), tileInfo: tile,
                singleFusedMapCache: try o.decodeIfPresent("singleFusedMapCache") { try $0.decodeBool() } ?? false,
                mapName: try o.decodeIfPresent("mapName") { try $0.decodeString() })
        } catch let e as JSONError {
            throw .invalidResponse(e.description)
        } catch {
            throw .invalidResponse("\(error)")
        }
    }

    static func spatialReference(_ v: JSONValue) throws -> SpatialReference {
        let o = try v.decodeObject()
        let wkid = try o.decodeIfPresent("wkid") { try $0.decodeInt() }
        let latest = try o.decodeIfPresent("latestWkid") { try $0.decodeInt() }
        let wkt = try o.decodeIfPresent("wkt") { try $0.decodeString() }
        guard wkid != nil || latest != nil || wkt != nil else { throw JSONError("expected wkid, latestWkid or wkt") }
        return SpatialReference(wkid: wkid, latestWkid: latest, wkt: wkt)
    }

    static func envelope(_ v: JSONValue) throws -> Envelope {
        let o = try v.decodeObject()
        let e = Envelope(
            xmin: try o.decode("xmin") { try $0.decodeNumber() }, ymin: try o.decode("ymin") { try $0.decodeNumber() },
            xmax: try o.decode("xmax") { try $0.decodeNumber() }, ymax: try o.decode("ymax") { try $0.decodeNumber() })
        guard e.xmin <= e.xmax, e.ymin <= e.ymax else { throw JSONError("expected xmin <= xmax and ymin <= ymax") }
        return e
    }
}

extension TileInfo {
    /// The level whose resolution is closest to `resolution` (map units per point, taken as
    /// one pixel per point), on a logarithmic scale.
    package func level(closestTo resolution: Double) -> LevelOfDetail? {
        guard resolution > 0, resolution.isFinite else { return nil }
        return lods.min { abs(log($0.resolution / resolution)) < abs(log($1.resolution / resolution)) }
    }

    /// The tiles of `lod` covering `envelope`, row by row, clipped to rows and columns ≥ 0 and,
    /// when given, to the tiles of `limit` (the service's full extent). Empty when nothing is
    /// covered, or when more than 65,536 tiles would be (a viewport far too large for `lod`).
    /// - Complexity: O(t) for t tiles.
    package func tiles(covering envelope: Envelope, lod: LevelOfDetail, limit: Envelope? = nil) -> [TileKey] {
        var e = envelope
        if let limit {
            guard e.intersects(limit) else { return [] }
            e = Envelope(xmin: max(e.xmin, limit.xmin), ymin: max(e.ymin, limit.ymin), xmax: min(e.xmax, limit.xmax), ymax: min(e.ymax, limit.ymax))
        }
        let tw = Double(cols) * lod.resolution
        let th = Double(rows) * lod.resolution
        let fc0 = ((e.xmin - origin.x) / tw).rounded(.down), fc1 = ((e.xmax - origin.x) / tw).rounded(.down)
        let fr0 = ((origin.y - e.ymax) / th).rounded(.down), fr1 = ((origin.y - e.ymin) / th).rounded(.down)
        // Beyond 2^16 tiles a viewport is not a sensible request (and Int(_:) must not trap).
        guard [fc0, fc1, fr0, fr1].allSatisfy({ $0.isFinite && abs($0) < 1e9 }), fc1 >= max(0, fc0), fr1 >= max(0, fr0),
            (fc1 - max(0, fc0) + 1) * (fr1 - max(0, fr0) + 1) <= 65536
        else { return [] }
        let c0 = max(0, Int(fc0)), c1 = Int(fc1), r0 = max(0, Int(fr0)), r1 = Int(fr1)
        var out: [TileKey] = []
        for r in r0...r1 { for c in c0...c1 { out.append(TileKey(level: lod.level, row: r, column: c)) } }
        return out
    }

    /// The map envelope of a tile.
    package func envelope(of tile: TileKey) -> Envelope? {
        guard let lod = lods.first(where: { $0.level == tile.level }) else { return nil }
        let tw = Double(cols) * lod.resolution
        let th = Double(rows) * lod.resolution
        let xmin = origin.x + Double(tile.column) * tw
        let ymax = origin.y - Double(tile.row) * th
        return Envelope(xmin: xmin, ymin: ymax - th, xmax: xmin + tw, ymax: ymax)
    }
}
