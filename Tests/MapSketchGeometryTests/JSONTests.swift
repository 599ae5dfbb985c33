import MapSketchGeometry
import MapSketchTestSupport
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    @Test func parsesScalarsAndStructures() throws {
        let v = try JSONParser.parse(#" { "a": [1, -2.5, true, false, null, "s"], "b": {} , "c": [] } "#)
        let o = try #require(v.objectValue)
        #expect(o.keys == ["a", "b", "c"])
        #expect(o["a"] == .array([.integer(1), .number(-2.5), .bool(true), .bool(false), .null, .string("s")]))
        #expect(o["b"] == .object(JSONObject()))
        #expect(o["c"] == .array([]))
    }

    @Test func keepsKeyOrder() throws {
        let v = try JSONParser.parse(#"{"z":1,"a":2,"m":3}"#)
        #expect(v.objectValue?.keys == ["z", "a", "m"])
        #expect(JSONWriter.string(v) == #"{"z":1,"a":2,"m":3}"#)
    }

    @Test func largeObjectsUseTheIndexAndStayOrdered() throws {
        var text = "{"
        for k in 0..<200 { text += (k > 0 ? "," : "") + "\"k\(199 - k)\":\(k)" }
        text += "}"
        let o = try #require(try JSONParser.parse(text).objectValue)
        #expect(o.count == 200)
        #expect(o.keys.first == "k199")
        #expect(o["k0"] == .integer(199))
        #expect(o["k150"] == .integer(49))
        #expect(o["nope"] == nil)
        var m = o
        m["k0"] = nil
        #expect(m.count == 199 && m["k0"] == nil && m["k1"] == .integer(198))
    }

    @Test func bigIntegersRoundTrip() throws {
        let text =
            "[9007199254740993,-9223372036854775808,9223372036854775807,9223372036854775808,12345678901234567890123]"
        let v = try JSONParser.parse(text)
        #expect(v[0] == .integer(9_007_199_254_740_993))
        #expect(v[1] == .integer(.min))
        #expect(v[2] == .integer(.max))
        #expect(v[3] == .number(9_223_372_036_854_775_808.0))
        #expect(v[4] == .number(1.2345678901234568e22))
        #expect(
            JSONWriter.string(.array([v[0]!, v[1]!, v[2]!]))
                == "[9007199254740993,-9223372036854775808,9223372036854775807]")
    }

    @Test func numbersAreCorrectlyRounded() throws {
        let cases: [(String, Double)] = [
            ("0.1", 0.1), ("-0.0", -0.0), ("1e-7", 1e-7), ("2.2250738585072014e-308", 2.2250738585072014e-308),
            ("5e-324", .leastNonzeroMagnitude), ("1.7976931348623157e308", 1.7976931348623157e308),
            ("123.456e2", 12345.6),
            ("-8.10303877174e+06", -8_103_038.77174), ("0.30000000000000004", 0.30000000000000004),
            ("9007199254740993.0", 9_007_199_254_740_992), ("1E2", 100), ("4.35", 4.35),
            ("-122.6764", -122.6764), ("45.5165", 45.5165),
        ]
        for (text, expected) in cases {
            let d = try #require(try JSONParser.parse(text).doubleValue)
            #expect(d.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    @Test func unicodeEscapes() throws {
        let v = try JSONParser.parse(#""a\u00e9\u4E2D\uD83D\uDE00\n\t\"\\\/\b\f\r z""#)
        #expect(v == .string("aé中😀\n\t\"\\/\u{08}\u{0C}\r z"))
        let raw = try JSONParser.parse("\"héllo 中 😀\"")
        #expect(raw == .string("héllo 中 😀"))
    }

    @Test func toleratesByteOrderMark() throws {
        let v = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))
        #expect(v == .array([.integer(1)]))
        // Columns count from after the BOM.
        #expect(throws: JSONError("expected ',' or ']' after array element, found 'x'", line: 1, column: 3)) {
            try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1x]".utf8))
        }
    }

    @Test func deepNestingUpToTheLimit() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try JSONParser.parse(ok)
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(throws: JSONError("nesting deeper than 512 levels", line: 1, column: 513)) {
            try JSONParser.parse(tooDeep)
        }
        // A very deep document fails cleanly instead of overflowing the stack.
        let huge = String(repeating: "{\"a\":", count: 100_000)
        #expect(throws: JSONError.self) { try JSONParser.parse(huge) }
        let custom = JSONParser.Options(maxDepth: 3)
        #expect(throws: JSONError("nesting deeper than 3 levels", line: 1, column: 4)) {
            try JSONParser.parse("[[[[]]]]", options: custom)
        }
    }

    /// Every syntax error, with its line:column and message.
    @Test(arguments: [
        ("", 1, 1, "expected a JSON value, found end of input"),
        ("   \n  ", 2, 3, "expected a JSON value, found end of input"),
        ("{\"a\" 1}", 1, 6, "expected ':' after object key, found '1'"),
        ("{\"a\":1 \"b\":2}", 1, 8, "expected ',' or '}' after object member, found '\"'"),
        ("{\"a\":1", 1, 7, "expected ',' or '}' after object member, found end of input"),
        ("{1:2}", 1, 2, "expected a string key or '}'"),
        ("{\"a\":1,}", 1, 8, "trailing comma before '}' is not allowed"),
        ("{\"a\":1,,}", 1, 8, "expected a string key after ','"),
        ("[1,]", 1, 4, "trailing comma before ']' is not allowed"),
        ("[1 2]", 1, 4, "expected ',' or ']' after array element, found '2'"),
        (
            "[1,\n 2,\n  x]", 3, 3,
            "expected a JSON value (object, array, string, number, true, false or null), found 'x'"
        ),
        ("[", 1, 2, "expected a JSON value, found end of input"),
        ("[1", 1, 3, "expected ',' or ']' after array element, found end of input"),
        ("NaN", 1, 1, "NaN and Infinity are not valid JSON numbers"),
        ("[Infinity]", 1, 2, "NaN and Infinity are not valid JSON numbers"),
        ("[-Infinity]", 1, 2, "NaN and Infinity are not valid JSON numbers"),
        ("01", 1, 1, "leading zeros are not allowed in numbers"),
        ("-", 1, 2, "expected a digit after '-'"),
        ("-a", 1, 2, "expected a digit after '-'"),
        ("1.", 1, 3, "expected a digit after '.'"),
        ("1.e5", 1, 3, "expected a digit after '.'"),
        ("1e", 1, 3, "expected a digit in the exponent"),
        ("1e+", 1, 4, "expected a digit in the exponent"),
        ("1e400", 1, 1, "number 1e400 is out of range for a 64-bit float"),
        ("tru", 1, 1, "invalid literal, expected 'true'"),
        ("nul", 1, 1, "invalid literal, expected 'null'"),
        ("falsey", 1, 6, "expected end of input after the JSON value, found 'y'"),
        ("{} {}", 1, 4, "expected end of input after the JSON value, found '{'"),
        ("'a'", 1, 1, "expected a JSON value (object, array, string, number, true, false or null), found '''"),
        ("\"abc", 1, 1, "unterminated string"),
        ("\"a\\", 1, 1, "unterminated string"),
        ("\"a\nb\"", 1, 3, "unescaped control character U+000A in string"),
        ("\"\\x\"", 1, 2, "invalid escape '\\x' in string"),
        // Found by the esrijson/geojson fuzz targets: the byte after the backslash reached the message raw.
        ("\"\\\u{01}\"", 1, 2, "invalid escape: '\\' followed by byte 0x1 in string"),
        ("\"\\\u{1B}\"", 1, 2, "invalid escape: '\\' followed by byte 0x1B in string"),
        ("\"\\u12G4\"", 1, 6, "expected 4 hex digits after '\\u'"),
        ("\"\\uD800\"", 1, 2, "unpaired surrogate \\uD800 in string"),
        ("\"\\uD800\\u0041\"", 1, 2, "unpaired surrogate \\uD800 in string"),
        ("\"\\uDC00\"", 1, 2, "unpaired surrogate \\uDC00 in string"),
        ("[1]\u{0}", 1, 4, "expected end of input after the JSON value, found byte 0x00"),
    ])
    func syntaxErrors(text: String, line: Int, column: Int, message: String) {
        #expect(throws: JSONError(message, line: line, column: column)) { try JSONParser.parse(text) }
    }

    @Test func duplicateKeys() throws {
        // Last value wins, first position kept (as JSON.parse); or rejected on request.
        let v = try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#)
        #expect(v.objectValue?.keys == ["a", "b"] && v["a"] == 3)
        #expect(throws: JSONError("duplicate key \"a\" in object", line: 2, column: 1)) {
            try JSONParser.parse("{\"a\":1,\n\"a\":2}", options: .init(rejectDuplicateKeys: true))
        }
    }

    @Test func invalidUTF8IsRejected() {
        let bytes: [UInt8] = Array("[\"ab".utf8) + [0xC3, 0x28] + Array("\"]".utf8)
        #expect(throws: JSONError("invalid UTF-8 byte 0xC3 in string", line: 1, column: 5)) {
            try JSONParser.parse(bytes)
        }
        let overlong: [UInt8] = [0x22, 0xC0, 0xAF, 0x22]
        #expect(throws: JSONError.self) { try JSONParser.parse(overlong) }
        let afterEscape: [UInt8] = Array("\"\\n".utf8) + [0xFF] + [0x22]
        #expect(throws: JSONError("invalid UTF-8 byte 0xFF in string", line: 1, column: 4)) {
            try JSONParser.parse(afterEscape)
        }
    }

    @Test func columnsCountBytes() {
        // "é" is two bytes, so 'x' is at byte column 7 (character column 6).
        #expect(throws: JSONError("expected ',' or ']' after array element, found 'x'", line: 1, column: 7)) {
            try JSONParser.parse("[\"é\" x]")
        }
        #expect(throws: JSONError("expected ',' or ']' after array element, found 'x'", line: 2, column: 3)) {
            try JSONParser.parse("[1,\r\n2 x]")
        }
    }

    @Test func trailingCommasWhenAllowed() throws {
        let lenient = JSONParser.Options(allowTrailingCommas: true)
        let v = try JSONParser.parse(#"{"a":[1,2,],"b":{"c":1,},}"#, options: lenient)
        #expect(v == ["a": [1, 2], "b": ["c": 1]])
        #expect(
            throws: JSONError(
                "expected a JSON value (object, array, string, number, true, false or null), found ','", line: 1,
                column: 2)
        ) {
            try JSONParser.parse("[,]", options: lenient)
        }
    }

    @Test func jsonLines() throws {
        let text = "{\"a\":1}\n\n  [2]  \r\n\"s\"\n"
        let lines = try JSONParser.parseLines(text)
        #expect(lines.map(\.line) == [1, 3, 4])
        #expect(lines.map(\.value) == [["a": 1], [2], "s"])
        #expect(throws: JSONError("expected ',' or '}' after object member, found ']'", line: 3, column: 7)) {
            try JSONParser.parseLines("{\"a\":1}\n[2]\n{\"b\":2]\n")
        }
        #expect(try JSONParser.parseLines("").isEmpty)
        // Windows line ends, a byte-order mark, and a last line without a line end.
        let crlf = try JSONParser.parseLines("\u{FEFF}{\"a\":1}\r\n[2]\r\n\r\n\"s\"")
        #expect(crlf.map(\.line) == [1, 2, 4])
        #expect(throws: JSONError("expected ',' or '}' after object member, found ']'", line: 2, column: 7)) {
            try JSONParser.parseLines("{\"a\":1}\r\n{\"b\":2]\r\n")
        }
    }

    /// A decoding error thrown while reading a line gets its line in the file and its column
    /// in the line, from the path it names (what the trace reader and the geometry tool need).
    @Test func jsonLinesLocateDecodingErrors() throws {
        var seen: [Int] = []
        #expect(throws: JSONError("expected a number, found a string", path: [.key("a")], line: 3, column: 12)) {
            try JSONParser.forEachLine("{\"a\":1}\r\n\r\n{\"b\":0,\"a\":\"x\"}\r\n") { line, value in
                seen.append(line)
                _ = try value.decodeObject().decode("a") { try $0.decodeNumber() }
            }
        }
        #expect(seen == [1, 3])
    }

    @Test func duplicateKeysAreQuotedShort() {
        let key = String(repeating: "k", count: 1000)
        let text = "{\"\(key)\":1,\"\(key)\":2}"
        #expect(throws: JSONError("duplicate key \"\(String(repeating: "k", count: 40))…\" in object", line: 1, column: 1007)) {
            try JSONParser.parse(text, options: JSONParser.Options(rejectDuplicateKeys: true))
        }
    }

    @Test func locatesPaths() throws {
        let text = """
            {
              "features": [
                {"geometry": {"rings": [[[0, 0], [1, "x"]]]}}
              ]
            }
            """
        let loc = try #require(
            JSONParser.location(
                of: [.key("features"), .index(0), .key("geometry"), .key("rings"), .index(0), .index(1), .index(1)],
                in: text))
        #expect(loc.line == 3 && loc.column == 42)
        #expect(JSONParser.location(of: [], in: text)?.line == 1)
        // A path the document lacks: its deepest existing container, here the root.
        #expect(JSONParser.location(of: [.key("nope")], in: text).map { [$0.line, $0.column] } == [1, 1])
    }
}

@Suite("JSON writer")
struct JSONWriterTests {
    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (1.0, "1"), (-120.0, "-120"), (0.1, "0.1"), (2.5, "2.5"), (1e-6, "0.000001"),
        (1e-7, "1e-7"), (1.5e-7, "1.5e-7"), (123456.789, "123456.789"), (1e20, "100000000000000000000"),
        (1e21, "1e+21"), (1.5e300, "1.5e+300"), (.leastNonzeroMagnitude, "5e-324"),
        (0.30000000000000004, "0.30000000000000004"),
        (-8103038.77174, "-8103038.77174"), (9007199254740992.0, "9007199254740992"), (1e15, "1000000000000000"),
        (123e-20, "1.23e-18"), (.nan, "null"), (.infinity, "null"),
    ])
    func numberFormatting(value: Double, expected: String) {
        #expect(JSONWriter.format(value) == expected)
    }

    @Test func formattedNumbersRoundTrip() throws {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<2000 {
            let d = Double(bitPattern: rng.next())
            guard d.isFinite else { continue }
            let text = JSONWriter.format(d)
            let back = try #require(try JSONParser.parse(text).doubleValue)
            #expect(back == d || (d == 0 && back == 0), "\(d) → \(text)")
        }
    }

    @Test func escaping() {
        #expect(JSONWriter.string("a\"b\\c\n\t\u{01}é😀/") == #""a\"b\\c\n\t\u0001é😀/""#)
    }

    @Test func compactAndPretty() {
        let v: JSONValue = ["type": "Point", "coordinates": [1, 2.5], "props": ["a": [], "b": [:], "c": [["x": 1]]]]
        #expect(
            JSONWriter.string(v) == #"{"type":"Point","coordinates":[1,2.5],"props":{"a":[],"b":{},"c":[{"x":1}]}}"#)
        let pretty = """
            {
              "type": "Point",
              "coordinates": [1, 2.5],
              "props": {
                "a": [],
                "b": {},
                "c": [
                  {
                    "x": 1
                  }
                ]
              }
            }
            """
        #expect(JSONWriter.string(v, style: .pretty) == pretty)
    }

    @Test func parsePrintRoundTrip() throws {
        let texts = [
            #"{"a":[1,-2.5,true,false,null,"s\n"],"b":{"c":{"d":[]}},"e":1e-7,"f":-9223372036854775808}"#,
            #"[[[-122.6764,45.5165],[-122.6764,45.5165]]]"#, #""\u0000""#, "[]", "{}", "0",
        ]
        for t in texts {
            let v = try JSONParser.parse(t)
            #expect(JSONWriter.string(v) == t)
            #expect(try JSONParser.parse(JSONWriter.string(v, style: .pretty)) == v)
        }
    }
}

@Suite("JSON decoding helpers")
struct JSONDecodingTests {
    @Test func errorsNameTheFieldPath() throws {
        let text = """
            {"features": [
              {"geometry": {"rings": [[[0, 0], [1, 1], [2, "two"]]]}}
            ]}
            """
        let v = try JSONParser.parse(text)
        func decode() throws -> [[[[Double]]]] {
            try v.decodeObject().decode("features") { f in
                try f.decodeElements { feature in
                    try feature.decodeObject().decode("geometry") { g in
                        try g.decodeObject().decode("rings") { r in
                            try r.decodeElements { ring in
                                try ring.decodeElements { pt in try pt.decodeElements { try $0.decodeNumber() } }
                            }
                        }
                    }
                }
            }
        }
        do {
            _ = try decode()
            Issue.record("expected an error")
        } catch let e as JSONError {
            #expect(e.pathString == "features[0].geometry.rings[0][2][1]")
            #expect(e.message == "expected a number, found a string")
            let located = JSONParser.locate(e, in: text)
            #expect(located.line == 2 && located.column == 48)
            #expect(
                located.description == "2:48: features[0].geometry.rings[0][2][1]: expected a number, found a string")
        }
    }

    @Test func typedAccessors() throws {
        let value: JSONValue = ["n": 1.5, "i": 3, "s": "x", "b": true, "z": nil]
        let o = try value.decodeObject()
        #expect(try o.decode("n") { try $0.decodeNumber() } == 1.5)
        #expect(try o.decode("i") { try $0.decodeInt() } == 3)
        #expect(try o.decode("s") { try $0.decodeString() } == "x")
        #expect(try o.decode("b") { try $0.decodeBool() } == true)
        #expect(try o.decodeIfPresent("z") { try $0.decodeNumber() } == nil)
        #expect(try o.decodeIfPresent("absent") { try $0.decodeNumber() } == nil)
        #expect(throws: JSONError("missing required field \"q\"")) { try o.require("q") }
        #expect(throws: JSONError("expected an integer, found 1.5", path: [.key("n")])) {
            try o.decode("n") { try $0.decodeInt() }
        }
        #expect(throws: JSONError("expected a boolean, found a string", path: [.key("s")])) {
            try o.decode("s") { try $0.decodeBool() }
        }
        #expect(JSONError.render([.key("a b"), .index(2), .key("c")]) == #"["a b"][2].c"#)
    }
}
