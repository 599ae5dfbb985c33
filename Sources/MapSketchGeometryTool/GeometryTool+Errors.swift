// The geometry tool's errors, located in its input: decoding errors of a piece, GeoJSON's
// spatial-reference refusals, and validation issues as text.

import MapSketchGeometry

extension GeometryTool {
    /// The tool's error for a decoding error of a piece whose first byte is at `line`:`column`
    /// of the input: JSON errors come located by the JSON layer (`JSONParser`), WKT errors by
    /// the WKT reader, both relative to the piece.
    static func locate(_ error: any Error, file: String, line: Int, column: Int) -> GeometryToolError {
        func at(_ l: Int?, _ c: Int?) -> (Int, Int) {
            let l = l ?? 1, c = c ?? 1
            return (line + l - 1, l == 1 ? column + c - 1 : c)
        }
        switch error {
        case let e as JSONError:
            let (l, c) = at(e.line, e.column)
            return GeometryToolError(file: file, line: l, column: c, message: e.pathAndMessage)
        case let e as WKTError:
            let (l, c) = at(e.line, e.column)
            return GeometryToolError(file: file, line: l, column: c, message: "expected \(e.expected), found \(e.found)")
        default:
            return GeometryToolError(file: file, line: line, column: column, message: "\(error)")
        }
    }

    /// The input's spatial reference: its own (Esri JSON's `spatialReference`; GeoJSON's WGS 84,
    /// or a legacy `crs`), else `--sr`. An `--sr` that contradicts the input's own is an error —
    /// for GeoJSON, whose coordinates are WGS 84 longitude/latitude by definition (RFC 7946),
    /// any `--sr` but 4326 — never silently ignored.
    func spatialReference(of g: SpatialGeometry, format: GeometryFormat, file: String, line: Int, column: Int) throws(GeometryToolError) -> SpatialReference? {
        guard let assumed = assumedSpatialReference else { return g.spatialReference }
        guard let own = g.spatialReference else { return assumed }
        guard own == assumed else {
            let message =
                format == .geoJSON
                ? "--sr \(assumed) does not apply to GeoJSON input: GeoJSON coordinates are \(own.isWGS84 ? "WGS 84 longitude/latitude (RFC 7946)" : "in the \(own) its crs member names"); remove --sr, or give the input as Esri JSON or WKT"
                : "--sr \(assumed) contradicts the input's own spatial reference \(own); remove --sr (it is for input that states none)"
            throw GeometryToolError(file: file, line: line, column: column, message: message)
        }
        return own
    }

    /// `g` in `format`; GeoJSON is written in WGS 84 longitude/latitude (RFC 7946), projected
    /// from `g`'s spatial reference — which it must have (the input's, or `--sr`).
    func encode(_ g: SpatialGeometry, as format: GeometryFormat, file: String, line: Int, column: Int) throws(GeometryToolError) -> String {
        do {
            return try format.encode(g)
        } catch {
            throw Self.geoJSONError(error, file: file, line: line, column: column)
        }
    }

    /// The tool's error for a geometry GeoJSON output cannot hold: input stating no spatial
    /// reference is told to give `--sr` (its numbers are not taken for degrees because they fit).
    static func geoJSONError(_ error: GeoJSONOutputError, file: String, line: Int, column: Int) -> GeometryToolError {
        let message: String
        switch error {
        case .noSpatialReference:
            message = "GeoJSON output is WGS 84 longitude/latitude (RFC 7946), and the input states no spatial reference: "
                + "give --sr 4326 if its coordinates are longitudes and latitudes, or the WKID they are in (--sr 3857 for Web Mercator meters) to project them"
        case .cannotProject:
            message = error.description
        }
        return GeometryToolError(file: file, line: line, column: column, message: message)
    }

    func apply(_ input: SpatialGeometry, format: GeometryFormat, file: String, line: Int, column: Int) throws(GeometryToolError) -> (String, Bool) {
        let out = outputFormat ?? format
        let g = SpatialGeometry(input.geometry, spatialReference: try spatialReference(of: input, format: format, file: file, line: line, column: column))
        func need(_ what: String) -> GeometryToolError { Self.missingSpatialReference(what, file: file, line: line, column: column) }
        switch operation {
        case .convert:
            return (try encode(g, as: out, file: file, line: line, column: column), true)
        case .simplify:
            let simple = GeometryEngine.simplify(g.geometry, spatialReference: g.spatialReference)
            return (try encode(SpatialGeometry(simple, spatialReference: g.spatialReference), as: out, file: file, line: line, column: column), true)
        case .normalize:
            guard let sr = g.spatialReference else { throw need("in the input or --sr") }
            let n: Geometry
            do {
                n = try GeometryEngine.normalizeCentralMeridian(g.geometry, spatialReference: sr)
            } catch {
                throw GeometryToolError(file: file, line: line, column: column, message: "\(error)")
            }
            return (try encode(SpatialGeometry(n, spatialReference: sr), as: out, file: file, line: line, column: column), true)
        case .project:
            guard let from = g.spatialReference else { throw need("in the input or --sr") }
            guard let to = targetSpatialReference else { throw need("--to") }
            if out == .geoJSON, !to.isWGS84 { throw Self.geoJSONCannotHold(to, file: file, line: line, column: column) }
            let p: Geometry
            do {
                p = try GeometryEngine.project(g.geometry, from: from, to: to)
            } catch {
                throw GeometryToolError(file: file, line: line, column: column, message: "\(error)")
            }
            return (try encode(SpatialGeometry(p, spatialReference: to), as: out, file: file, line: line, column: column), true)
        case .validate:
            let issues = GeometryEngine.validate(g.geometry)
            return (Self.validationText(issues), issues.isEmpty)
        }
    }

    /// The error for an operation that needs a spatial reference (`what`: where it would come from).
    static func missingSpatialReference(_ what: String, file: String, line: Int, column: Int) -> GeometryToolError {
        GeometryToolError(file: file, line: line, column: column, message: "expected a spatial reference (\(what)), found none")
    }

    /// The error for `project` to `to` with GeoJSON output, which holds WGS 84 only.
    static func geoJSONCannotHold(_ to: SpatialReference, file: String, line: Int, column: Int) -> GeometryToolError {
        GeometryToolError(
            file: file, line: line, column: column,
            message: "GeoJSON output is WGS 84 longitude/latitude (RFC 7946) and cannot hold coordinates in --to \(to); write --format esrijson or wkt")
    }

    /// The output of `validate`: `{"valid":…}` with each issue's rule, part, vertex, the two
    /// segments that meet (`segments`: part and segment of each, for a self-intersection),
    /// where (`at`: x, y) and message.
    static func validationText(_ issues: [ValidationIssue]) -> String {
        var o = JSONObject()
        o["valid"] = .bool(issues.isEmpty)
        if !issues.isEmpty {
            o["issues"] = .array(
                issues.map { issue in
                    var i = JSONObject()
                    i["rule"] = .string(issue.rule.rawValue)
                    if let part = issue.part { i["part"] = .integer(Int64(part)) }
                    if let vertex = issue.vertex { i["vertex"] = .integer(Int64(vertex)) }
                    if let m = issue.meeting {
                        i["segments"] = [
                            ["part": .integer(Int64(m.part)), "segment": .integer(Int64(m.segment))],
                            ["part": .integer(Int64(m.otherPart)), "segment": .integer(Int64(m.otherSegment))],
                        ]
                    }
                    if let at = issue.location { i["at"] = [.number(at.x), .number(at.y)] }
                    i["message"] = .string(issue.description)
                    return .object(i)
                })
        }
        var text = ""
        JSONWriter.write(.object(o), into: &text)
        return text
    }
}
