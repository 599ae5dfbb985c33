package import MapSketchGeometry

/// Validates a JSON value against a JSON Schema (draft 2020-12), for the keywords this package's
/// schemas use: `type`, `const`, `enum`, `required`, `properties`, `additionalProperties`
/// (boolean), `items`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minLength`,
/// `oneOf`, and `$ref` to `#/$defs/…`.
/// Unknown keywords are an error, so a schema cannot silently use one this validator ignores.
public struct JSONSchemaValidator {
    let root: JSONValue

    /// A validator for `schema`.
    package init(schema: JSONValue) { root = schema }

    /// The violations of `value`, each as `path: what`; empty when it is valid.
    package func violations(of value: JSONValue) -> [String] {
        var out: [String] = []
        check(value, root, "$", &out)
        return out
    }

    private static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$defs"]

    private func check(_ v: JSONValue, _ s: JSONValue, _ path: String, _ out: inout [String]) {
        guard let schema = s.objectValue else {
            out.append("\(path): the schema is not an object")
            return
        }
        for key in schema.keys {
            let known: Set<String> = [
                "type", "const", "enum", "required", "properties", "additionalProperties", "items", "minimum", "maximum", "exclusiveMinimum",
                "exclusiveMaximum", "minLength", "oneOf", "$ref",
            ]
            if !known.contains(key) && !Self.annotations.contains(key) { out.append("\(path): the validator does not know keyword \(key)") }
        }
        if let ref = schema["$ref"]?.stringValue {
            let parts = ref.split(separator: "/").dropFirst()  // "#"
            var target: JSONValue? = root
            for p in parts { target = target?[String(p)] }
            guard let t = target else {
                out.append("\(path): unresolved $ref \(ref)")
                return
            }
            check(v, t, path, &out)
        }
        if let type = schema["type"]?.stringValue, !matches(v, type) { out.append("\(path): expected \(type), found \(v)") }
        if let c = schema["const"], c != v { out.append("\(path): expected \(c), found \(v)") }
        if let e = schema["enum"]?.arrayValue, !e.contains(v) { out.append("\(path): \(v) is not one of the allowed values") }
        if let min = schema["minimum"]?.doubleValue, let d = v.doubleValue, d < min { out.append("\(path): \(d) < minimum \(min)") }
        if let max = schema["maximum"]?.doubleValue, let d = v.doubleValue, d > max { out.append("\(path): \(d) > maximum \(max)") }
        if let min = schema["exclusiveMinimum"]?.doubleValue, let d = v.doubleValue, d <= min { out.append("\(path): \(d) ≤ exclusive minimum \(min)") }
        if let max = schema["exclusiveMaximum"]?.doubleValue, let d = v.doubleValue, d >= max { out.append("\(path): \(d) ≥ exclusive maximum \(max)") }
        if let min = schema["minLength"]?.doubleValue, let t = v.stringValue, Double(t.count) < min { out.append("\(path): shorter than \(min)") }
        if let one = schema["oneOf"]?.arrayValue {
            let passing = one.filter { alt in
                var o: [String] = []
                check(v, alt, path, &o)
                return o.isEmpty
            }
            if passing.count != 1 { out.append("\(path): matches \(passing.count) of oneOf, expected exactly 1") }
        }
        if let o = v.objectValue {
            for r in schema["required"]?.arrayValue ?? [] {
                if let k = r.stringValue, !o.contains(k) { out.append("\(path): missing required member \(k)") }
            }
            let props = schema["properties"]?.objectValue
            for (k, mv) in zip(o.keys, o.values) {
                if let ps = props?[k] {
                    check(mv, ps, "\(path).\(k)", &out)
                } else if schema["additionalProperties"]?.boolValue == false {
                    out.append("\(path): member \(k) is not allowed")
                }
            }
        }
        if let a = v.arrayValue, let items = schema["items"] {
            for (i, e) in a.enumerated() { check(e, items, "\(path)[\(i)]", &out) }
        }
    }

    private func matches(_ v: JSONValue, _ type: String) -> Bool {
        switch (type, v) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null): true
        case ("integer", .integer): true
        case ("integer", .number(let d)): d.rounded() == d
        case ("number", .integer), ("number", .number): true
        default: false
        }
    }
}
