import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MapSketchGeometry
import MapSketchTestSupport
import Testing

/// One `<case>` of a JTS XML test file with its `isValid` / `isSimple` expectations.
struct JTSCase {
    var desc: String
    var a: String
    var ops: [(name: String, expected: Bool)]
}

/// Reads JTS TestRunner XML (locationtech/jts `modules/tests/src/test/resources/testxml`).
final class JTSXMLReader: NSObject, XMLParserDelegate {
    private(set) var cases: [JTSCase] = []
    private var text = ""
    private var current: JTSCase?
    private var opName: String?

    static func read(_ relativePath: String) throws -> [JTSCase] {
        let data = try Fixtures.data(relativePath)
        let parser = XMLParser(data: data)
        let reader = JTSXMLReader()
        parser.delegate = reader
        guard parser.parse() else {
            throw GeometryError.unsupported("XML parse error in \(relativePath): \(String(describing: parser.parserError))")
        }
        return reader.cases
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        text = ""
        if name == "case" { current = JTSCase(desc: "", a: "", ops: []) }
        if name == "op" { opName = attributes["name"] }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch name {
        case "desc": current?.desc = t
        case "a": current?.a = t
        case "op":
            if let op = opName { current?.ops.append((op, t.lowercased() == "true")) }
            opName = nil
        case "case":
            if let c = current { cases.append(c) }
            current = nil
        default: break
        }
        text = ""
    }
}

@Suite struct JTSConformanceTests {
    static let root = "Tests/MapSketchGeometryTests/Fixtures/jts/"

    /// Runs one predicate over a file; returns (passed, total, failure descriptions).
    func run(_ file: String, op: String, _ predicate: (WKTGeometry) -> Bool) throws -> (Int, Int, [String]) {
        let cases = try JTSXMLReader.read(Self.root + file)
        var passed = 0, total = 0
        var failures: [String] = []
        for c in cases {
            for o in c.ops where o.name == op {
                total += 1
                do {
                    let tree = try WKT.decodeTree(c.a)
                    let got = predicate(tree)
                    if got == o.expected { passed += 1 } else {
                        failures.append("\(file) '\(c.desc)': expected \(o.expected), got \(got)")
                    }
                } catch {
                    failures.append("\(file) '\(c.desc)': WKT error \(error)")
                }
            }
        }
        return (passed, total, failures)
    }

    @Test(arguments: ["general/TestValid.xml", "general/TestValid2.xml", "general/TestValid2-big.xml",
                      "misc/TestInvalidA.xml", "misc/TestValid.xml"])
    func isValid(file: String) throws {
        let (passed, total, failures) = try run(file, op: "isValid") { GeometryEngine.isValid($0) }
        print("JTS \(file) isValid: \(passed)/\(total)")
        for f in failures { print("  FAIL \(f)") }
        #expect(total > 0)
        #expect(failures.isEmpty, "\(failures.count) failures")
    }

    @Test func isSimple() throws {
        let (passed, total, failures) = try run("general/TestSimple.xml", op: "isSimple") { GeometryEngine.isSimple($0) }
        print("JTS general/TestSimple.xml isSimple: \(passed)/\(total)")
        for f in failures { print("  FAIL \(f)") }
        #expect(total == 44)
        #expect(failures.isEmpty, "\(failures.count) failures")
    }

    /// JTS IsValidTest.java literals: checkValid / checkInvalid with the expected error kind.
    @Test func isValidJavaLiterals() throws {
        let json = try JSONSerialization.jsonObject(with: Fixtures.data(Self.root + "java_test_literals_extracted.json"))
        let cases = ((json as? [String: Any])?["cases"] as? [[String: Any]]) ?? []
        let kinds: [String: ValidationIssue.Rule] = [
            "TopologyValidationError.SELF_INTERSECTION": .selfIntersection,
            "TopologyValidationError.RING_SELF_INTERSECTION": .ringSelfIntersection,
            "TopologyValidationError.HOLE_OUTSIDE_SHELL": .holeOutsideShell,
            "TopologyValidationError.NESTED_HOLES": .nestedHoles,
            "TopologyValidationError.NESTED_SHELLS": .nestedShells,
            "TopologyValidationError.DISCONNECTED_INTERIOR": .disconnectedInterior,
        ]
        var passed = 0, total = 0
        for c in cases where (c["file"] as? String) == "IsValidTest.java" {
            let call = c["call"] as? String ?? ""
            let args = c["args"] as? [Any] ?? []
            guard let wkt = args.last as? String else { continue }
            total += 1
            let issues = GeometryEngine.validate(try WKT.decodeTree(wkt))
            if call == "checkValid" {
                #expect(issues.isEmpty, "\(c["test"] ?? ""): \(issues)")
                if issues.isEmpty { passed += 1 }
            } else {
                var ok = !issues.isEmpty
                if let kind = (args.first as? [String: Any])?["expr"] as? String, let rule = kinds[kind] {
                    ok = ok && issues.first?.rule == rule
                }
                #expect(ok, "\(c["test"] ?? ""): \(issues)")
                if ok { passed += 1 }
            }
        }
        print("JTS IsValidTest.java literals: \(passed)/\(total)")
        #expect(total == 26)
    }
}
