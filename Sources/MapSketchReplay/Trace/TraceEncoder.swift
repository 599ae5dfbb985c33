package import MapSketch
package import MapSketchGeometry

/// Writes traces as JSON Lines, deterministically (same trace → byte-identical text).
///
/// Members equal to their defaults are left out so hand-reading a trace shows what matters.
public enum TraceEncoder {
    /// The whole trace: the header line, then one line per event, then the `end` line if the
    /// trace has one, each ending in a newline.
    /// - Complexity: O(n) in the number of events.
    public static func encode(_ trace: Trace) -> String {
        var out = ""
        var header = trace.header
        header.version = max(header.version, trace.minimumVersion)
        JSONWriter.write(encodeHeader(header), into: &out)
        out += "\n"
        for e in trace.events {
            JSONWriter.write(encodeEvent(e), into: &out)
            out += "\n"
        }
        if let end = trace.end {
            JSONWriter.write(["t": .number(end), "type": "end"], into: &out)
            out += "\n"
        }
        return out
    }

    /// The header as a JSON object.
    package static func encodeHeader(_ h: TraceHeader) -> JSONValue {
        var o: JSONObject = ["t": 0, "type": "header", "format": .string(Trace.formatName), "version": .integer(Int64(max(h.version, h.minimumVersion)))]
        if let n = h.name { o["name"] = .string(n) }
        if let d = h.description { o["description"] = .string(d) }
        if let e = encodeExpectation(h.expect) { o["expect"] = e }
        o["screen"] = ["width": .number(h.screen.width), "height": .number(h.screen.height)]
        o["viewport"] = encodeViewport(h.viewport)
        o["spatialReference"] = encodeSpatialReference(h.spatialReference)
        if let s = h.sketch {
            var so: JSONObject = ["geometryType": .string(s.geometryType.rawValue)]
            if let g = s.geometry { so["geometry"] = TraceGeometryJSON.encode(g) }
            o["sketch"] = .object(so)
        }
        if h.thresholds != .default || h.vertexHitTolerance != SketchSymbology.defaultVertexHitTolerance {
            o["thresholds"] = [
                "tapDuration": .number(h.thresholds.tapDuration), "slop": .number(h.thresholds.slop),
                "holdDuration": .number(h.thresholds.holdDuration),
                "vertexHitTolerance": .number(h.vertexHitTolerance),
            ]
        }
        var opt = JSONObject()
        if h.options.showMagnifierOnTapAndHold { opt["showMagnifierOnTapAndHold"] = true }
        if h.options.wrapAround { opt["wrapAround"] = true }
        if let n = h.options.levelsOfUndo { opt["levelsOfUndo"] = .integer(Int64(n)) }
        if h.options.showVertexNumbers { opt["showVertexNumbers"] = true }
        if h.options.realtime { opt["realtime"] = true }
        if let n = h.options.svgStep { opt["svgStep"] = .integer(Int64(n)) }
        if h.options.allowRotationByPinching { opt["allowRotationByPinching"] = true }
        if !h.options.validation.isEmpty {
            let v = h.options.validation
            var r = JSONObject()
            if v.noSelfIntersection { r["noSelfIntersection"] = true }
            if let a = v.minimumArea { r["minimumArea"] = .number(a) }
            if let l = v.minimumLength { r["minimumLength"] = .number(l) }
            if let n = v.maximumVertices { r["maximumVertices"] = .integer(Int64(n)) }
            opt["validation"] = .object(r)
        }
        if let s = h.options.snapping { opt["snapping"] = encodeSnapping(s) }
        if !opt.isEmpty { o["options"] = .object(opt) }
        if !h.layers.isEmpty { o["layers"] = .array(h.layers.map(encodeLayer)) }
        var g = JSONObject()
        if let d = h.gpsFilter.minimumDistance, d != 0 { g["minDistance"] = .number(d) }
        if let a = h.gpsFilter.maximumAccuracy { g["maxAccuracy"] = .number(a) }
        if let a = h.gpsFilter.maximumHDOP { g["maxHDOP"] = .number(a) }
        if !h.gpsFilter.dropDuplicates { g["dropDuplicates"] = false }
        if !h.gpsFilter.dropOutOfOrder { g["dropOutOfOrder"] = false }
        if h.gpsSpatialReference != .wgs84 { g["spatialReference"] = encodeSpatialReference(h.gpsSpatialReference) }
        if !g.isEmpty { o["gps"] = .object(g) }
        return .object(o)
    }

    static func encodeViewport(_ v: Viewport) -> JSONValue {
        var o: JSONObject = ["center": ["x": .number(v.center.x), "y": .number(v.center.y)], "resolution": .number(v.resolution)]
        if v.rotation != 0 { o["rotation"] = .number(v.rotation) }
        return .object(o)
    }

    /// A spatial reference as `{"wkid":…, "latestWkid":…}` or `{"wkt":…}`.
    package static func encodeSpatialReference(_ sr: SpatialReference) -> JSONValue {
        var o = JSONObject()
        if let w = sr.wkid { o["wkid"] = .integer(Int64(w)) }
        if let w = sr.latestWkid { o["latestWkid"] = .integer(Int64(w)) }
        if let w = sr.wkt { o["wkt"] = .string(w) }
        return .object(o)
    }

    static func encodeLayer(_ l: TraceGraphicsLayer) -> JSONValue {
        var o: JSONObject = ["name": .string(l.name)]
        if let s = l.source { o["source"] = .string(s.path) }
        if let r = l.renderer { o["renderer"] = encodeRenderer(r) }
        if !l.calloutsEnabled { o["callouts"] = false }
        if !l.hitTestable { o["hitTest"] = false }
        if !l.graphics.isEmpty { o["graphics"] = .array(l.graphics.map(encodeGraphic)) }
        return .object(o)
    }

    static func encodeGraphic(_ g: TraceGraphic) -> JSONValue {
        var o: JSONObject = ["geometry": TraceGeometryJSON.encode(g.geometry)]
        if let sr = g.spatialReference { o["spatialReference"] = encodeSpatialReference(sr) }
        if let s = g.symbol { o["symbol"] = encodeSymbol(s) }
        if !g.attributes.isEmpty {
            var a = JSONObject()
            for (k, v) in g.attributes {
                switch v {
                case .string(let s): a[k] = .string(s)
                case .integer(let i): a[k] = .integer(Int64(i))
                case .double(let d): a[k] = .number(d)
                case .bool(let b): a[k] = .bool(b)
                case .date(let ms): a[k] = ["date": .number(ms)]
                case .null: a[k] = .null
                }
            }
            o["attributes"] = .object(a)
        }
        if g.calloutTitle != nil || g.calloutDetail != nil {
            var c = JSONObject()
            if let t = g.calloutTitle { c["title"] = .string(t) }
            if let d = g.calloutDetail { c["detail"] = .string(d) }
            o["callout"] = .object(c)
        }
        return .object(o)
    }

    static func color(_ c: Color) -> JSONValue {
        if c.alpha == 1 { return .string(c.hex) }
        let a = UInt8(max(0, min(255, (c.alpha * 255).rounded())))
        let d = Array("0123456789abcdef")
        return .string(c.hex + String([d[Int(a >> 4)], d[Int(a & 15)]]))
    }

    static func encodeLine(_ s: SimpleLineSymbol) -> JSONValue {
        ["type": "line", "style": .string(s.style.rawValue), "color": color(s.color), "width": .number(s.width)]
    }

    /// A symbol in the trace's symbol notation.
    package static func encodeSymbol(_ s: Symbol) -> JSONValue {
        switch s {
        case .simpleMarker(let m):
            var o: JSONObject = ["type": "marker", "style": .string(m.style.rawValue), "color": color(m.color), "size": .number(m.size)]
            if let l = m.outline { o["outline"] = encodeLine(l) }
            return .object(o)
        case .pictureMarker(let p):
            return ["type": "picture", "image": .string(p.image), "width": .number(p.width), "height": .number(p.height)]
        case .simpleLine(let l): return encodeLine(l)
        case .simpleFill(let f):
            var o: JSONObject = ["type": "fill", "style": .string(f.style.rawValue), "color": color(f.color)]
            o["outline"] = f.outline.map(encodeLine) ?? .null
            return .object(o)
        case .text(let t):
            return ["type": "text", "text": .string(t.text), "color": color(t.color), "fontSize": .number(t.fontSize)]
        case .composite(let parts):
            return ["type": "composite", "symbols": .array(parts.map(encodeSymbol))]
        }
    }

    static func encodeRenderer(_ r: TraceRenderer) -> JSONValue {
        switch r {
        case .simple(let s): return ["type": "simple", "symbol": encodeSymbol(s)]
        case .classBreaks(let field, let minValue, let breaks, let d):
            var o: JSONObject = ["type": "classBreaks", "field": .string(field)]
            if minValue.isFinite { o["minValue"] = .number(minValue) }
            o["breaks"] = .array(breaks.map { ["maxValue": .number($0.maxValue), "symbol": encodeSymbol($0.symbol)] })
            if let d { o["defaultSymbol"] = encodeSymbol(d) }
            return .object(o)
        case .uniqueValue(let fields, let delimiter, let values, let d):
            var o: JSONObject = ["type": "uniqueValue", "fields": .array(fields.map { .string($0) })]
            if delimiter != "," { o["delimiter"] = .string(delimiter) }
            o["values"] = .array(values.map { ["value": .string($0.value), "symbol": encodeSymbol($0.symbol)] })
            if let d { o["defaultSymbol"] = encodeSymbol(d) }
            return .object(o)
        }
    }

    /// One event line as a JSON object.
    package static func encodeEvent(_ e: TraceEntry) -> JSONValue {
        var o: JSONObject = ["t": .number(e.t), "type": .string(e.event.typeName)]
        func put(_ p: Point) {
            o["x"] = .number(p.x)
            o["y"] = .number(p.y)
            if let z = p.z { o["z"] = .number(z) }
            if let m = p.m { o["m"] = .number(m) }
        }
        func int(_ k: String, _ v: Int) { o[k] = .integer(Int64(v)) }
        switch e.event {
        case .touch(let phase, let id, let location):
            o["phase"] = .string(phase.rawValue)
            int("id", id)
            o["x"] = .number(location.x)
            o["y"] = .number(location.y)
        case .gps(let f):
            o["lat"] = .number(f.latitude)
            o["lon"] = .number(f.longitude)
            if let v = f.elevation { o["ele"] = .number(v) }
            if let v = f.time { o["time"] = .number(v) }
            if let v = f.hdop { o["hdop"] = .number(v) }
            if let v = f.horizontalAccuracy { o["accuracy"] = .number(v) }
            if let v = f.speed { o["speed"] = .number(v) }
            if f.segment != 0 { int("segment", f.segment) }
        case .call(let c):
            switch c {
            case .undo, .redo, .addPart, .removeSelectedVertex, .removeSelectedPart, .selectLastVertex, .clearSelection, .clear,
                .selectGeometry, .reticleSelect, .reticlePickUp, .reticlePlace, .reticleCancel:
                break
            case .selectPart(let part): int("part", part)
            case .setSnapping(let s): encodeSnapMembers(s, into: &o)
            case .moveSelection(let dx, let dy):
                o["dx"] = .number(dx)
                o["dy"] = .number(dy)
            case .rotateSelection(let degrees, let anchor):
                o["degrees"] = .number(degrees)
                if let a = anchor { o["anchor"] = ["x": .number(a.x), "y": .number(a.y)] }
            case .scaleSelection(let sx, let sy, let anchor):
                o["sx"] = .number(sx)
                if sy != sx { o["sy"] = .number(sy) }
                if let a = anchor { o["anchor"] = ["x": .number(a.x), "y": .number(a.y)] }
            case .setTransformAnchor(let anchor):
                if let a = anchor { o["anchor"] = ["x": .number(a.x), "y": .number(a.y)] }
            case .setTool(let tool):
                o["tool"] = .string(tool.name)
                switch tool {
                case .freehand(let tolerance): o["tolerance"] = .number(tolerance)
                case .shape(let shape):
                    o["shape"] = .string(shape.name)
                    if case .ellipse(let n) = shape { int("vertexCount", n) }
                case .vertex, .reticle: break
                }
            case .insertVertex(let part, let index, let p), .moveVertex(let part, let index, let p):
                int("part", part)
                int("index", index)
                put(p)
            case .removeVertex(let part, let index), .selectVertex(let part, let index):
                int("part", part)
                int("index", index)
            case .removePart(let part): int("part", part)
            case .applyGeometry(let g), .setGeometry(let g): o["geometry"] = TraceGeometryJSON.encode(g)
            case .addGraphic(let layer, let g):
                o["layer"] = .string(layer)
                o["graphic"] = encodeGraphic(g)
            case .removeGraphic(let layer, let index):
                o["layer"] = .string(layer)
                int("index", index)
            case .removeAllGraphics(let layer): o["layer"] = .string(layer)
            case .addGraphicsLayer(let l): o["layer"] = encodeLayer(l)
            case .removeLayer(let name): o["name"] = .string(name)
            case .setViewport(let v): o["viewport"] = encodeViewport(v)
            case .pan(let dx, let dy):
                o["dx"] = .number(dx)
                o["dy"] = .number(dy)
            case .zoom(let factor, let ax, let ay):
                o["factor"] = .number(factor)
                if let ax, let ay { o["anchor"] = ["x": .number(ax), "y": .number(ay)] }
            }
        }
        return .object(o)
    }
}
